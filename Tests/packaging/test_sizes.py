"""What a user downloads: the library, the wheel and the plugin zip, against their size budgets.

The release library, as built and stripped, is held to its budget and must link neither
Foundation nor ICU (no symbol of theirs, no dependency on them or on the Swift runtime's shared
libraries), and no source under Sources/ may import Foundation, which would bring them in. The
wheel and the QGIS plugin zip in dist/ are held to theirs. Each size is printed beside its budget.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("DIST", ROOT / "dist"))
LIBRARY = ROOT / ".build" / "release" / "libpindrop.so"
MB = 1_000_000  # decimal megabytes, as file managers and PyPI show them


def _report(capsys, what, size, budget):
    with capsys.disabled():
        print(f"\n  {what:<48} {size / MB:6.2f} MB   (budget {budget / MB:.0f} MB)", end="")
    assert size <= budget, f"{what} is {size / MB:.2f} MB, over its {budget / MB:.0f} MB budget"


def test_library_is_small_without_foundation(capsys, tmp_path):
    assert LIBRARY.exists(), "make build first"
    # The build's library carries its symbols (about half of it); stripped, as the wheel and the
    # plugin zip ship it, it must stay under 8 MB.
    _report(capsys, "libpindrop.so (release, -static-stdlib)", LIBRARY.stat().st_size, 15 * MB)
    stripped = tmp_path / "libpindrop.so"
    subprocess.run(["strip", "--strip-unneeded", "-o", str(stripped), str(LIBRARY)], check=True)
    _report(capsys, "libpindrop.so stripped", stripped.stat().st_size, 8 * MB)
    symbols = subprocess.run(["nm", str(LIBRARY)], capture_output=True, text=True, check=True).stdout
    assert not re.search(r"10Foundation|\bu_\w+_\d+\b|ucol_|icudt", symbols), "Foundation or ICU is linked in"
    ldd = subprocess.run(["ldd", str(LIBRARY)], capture_output=True, text=True, check=True).stdout
    assert "Foundation" not in ldd and "libswift" not in ldd and "libicu" not in ldd, ldd


def test_no_source_of_the_library_imports_foundation():
    """One `import Foundation` is enough for the linker to be asked for Foundation and its ICU data."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "Sources").rglob("*.swift")
                 if re.search(r"^\s*(@_exported\s+)?import\s+(Foundation|FoundationEssentials)\b", p.read_text(), re.M)]
    assert not offenders, f"these import Foundation (use Glibc for math): {offenders}"


@pytest.mark.parametrize("pattern, what, budget", [
    ("pindrop-*-manylinux*.whl", "wheel (library + GEOS bundled)", 5 * MB),
    ("pindrop-*-py3-none-any.whl", "py3-none-any wheel (pindrop.wasm inside)", 2 * MB),
    ("pindrop_drag-*.zip", "QGIS plugin zip (library inside)", 4 * MB),
])
def test_download_is_small(capsys, pattern, what, budget):
    found = sorted(DIST.glob(pattern))
    assert found, f"nothing matches {DIST / pattern}: make wheel qgis-plugin"
    _report(capsys, f"{what}: {found[-1].name}", found[-1].stat().st_size, budget)
