"""The docs install this package, not PyPI's: the project named "pindrop" on PyPI is an unrelated
one, so no page under docs/ may tell users to `pip install pindrop` (or pindrop[geo]) from it.
docs/python-gis.md installs the wheel `make wheel` builds, under the file name the README gives,
with the wheel's own `geo` extra."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
GIS_PAGE = DOCS / "python-gis.md"

#: `pip install` of a requirement named pindrop (any case, with or without extras or a version),
#: not of a path to a wheel or a folder (dist/pindrop-...whl, ./bindings/python).
FROM_PYPI = re.compile(r"pip3? install\b[^`\n#]*?(?<![\w./-])pindrop(?![\w./-])(\[[^\]]*\])?(?:[=<>!~]=?[\w.]+)?(?=[\s`\"']|$)",
                       re.I | re.M)


def pages():
    """The hand-written pages: docs/*.md and below, not the generated reference in docs/python/."""
    return [p for p in DOCS.rglob("*.md") if DOCS / "python" not in p.parents]


def wheel_name():
    """The wheel file `make wheel` writes, as the README names it."""
    names = set(re.findall(r"pindrop-[\d.]+-py3-none-manylinux_\w+\.whl", (ROOT / "README.md").read_text()))
    assert len(names) == 1, names
    return names.pop()


@pytest.mark.parametrize("line, from_pypi", [
    ("You need `pip install pindrop pandas geopandas matplotlib`", True),
    ("pip install pindrop", True),
    ("pip install pindrop[geo]", True),
    ("pip install 'pindrop[geo]>=0.3'", True),
    ("pip install pandas PinDrop==0.3.0", True),
    ('pip install "dist/pindrop-0.3.0-py3-none-manylinux_2_34_x86_64.whl[geo]" pandas', False),
    ("pip install dist/pindrop-*.whl", False),
    ("pip install ./bindings/python", False),
    ("pip install pindrop-0.3.0-py3-none-manylinux_2_34_x86_64.whl", False),
    ("pip install ./bindings/python      # from a pindrop checkout", False),
])
def test_the_check_tells_pypi_from_a_wheel(line, from_pypi):
    assert bool(FROM_PYPI.search(line)) == from_pypi


def test_no_page_installs_pindrop_from_pypi():
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in pages() for m in FROM_PYPI.finditer(p.read_text())]
    assert not found, found


def test_the_gis_page_installs_the_wheel_make_wheel_builds_with_its_geo_extra():
    text = GIS_PAGE.read_text()
    name = wheel_name()
    assert "make wheel" in text
    install = re.search(r"^pip install (\S+) (.*)$", text, re.M)
    assert install, "docs/python-gis.md has no `pip install` line of its own"
    assert install.group(1) == f'"dist/{name}[geo]"'
    assert set(install.group(2).split()) == {"pandas", "matplotlib"}
    pyproject = (ROOT / "bindings" / "python" / "pyproject.toml").read_text()
    geo = re.search(r"^geo = \[(.*)\]$", pyproject, re.M)
    assert geo and "shapely" in geo.group(1) and "geopandas" in geo.group(1)
    version = re.search(r'^version = "([^"]+)"$', pyproject, re.M).group(1)
    assert name.startswith(f"pindrop-{version}-")


def test_the_gis_page_says_the_pypi_package_is_another_one():
    text = " ".join(GIS_PAGE.read_text().split())
    assert "This pindrop is not on PyPI" in text
    assert "the package named `pindrop` there is an unrelated project" in text
