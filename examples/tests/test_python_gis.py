"""docs/python-gis.md shows examples/python_gis.py as it is, and the script does what the page
says: the page's code blocks are the script's sections, its printed figures are the script's
output on the LA files, and the GeoPackages it writes hold what the page describes."""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "python-gis.md"
SCRIPT = ROOT / "examples" / "python_gis.py"
DATA = (ROOT / ".." / "shared" / "data").resolve()


def fenced(language):
    """The page's fenced blocks of one language ("" for plain output blocks), in order."""
    blocks, current, inside = [], None, False
    for line in PAGE.read_text().splitlines():
        if line.startswith("```"):
            if inside:
                if current is not None:
                    blocks.append("\n".join(current))
                current, inside = None, False
            else:
                inside = True
                current = [] if line[3:].strip() == language else None
        elif inside and current is not None:
            current.append(line)
    return blocks


def sections():
    src = SCRIPT.read_text()
    body = src[src.index("    # -- 1."):src.index('\n\nif __name__')]
    return [textwrap.dedent(p).rstrip() for p in re.split(r"    # -- \d\. [^\n]*\n", body)[1:]]


def test_the_page_shows_the_scripts_code():
    assert fenced("python") == sections()
    for picture in re.findall(r"\]\((img/[^)]+)\)", PAGE.read_text()):
        assert (ROOT / "docs" / picture).exists(), picture


@pytest.mark.skipif(not (DATA / "la_trees.csv").exists(), reason="the LA files are not at ../shared/data")
def test_the_script_prints_what_the_page_says(tmp_path):
    pytest.importorskip("geopandas")
    pytest.importorskip("matplotlib")
    out = subprocess.run([sys.executable, str(SCRIPT), "--data", str(DATA), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    printed = [line for block in fenced("") for line in block.splitlines()]
    assert out.splitlines() == printed
    import geopandas as gpd
    drawn = gpd.read_file(tmp_path / "lawndale_spread.gpkg", layer="drawn")
    legs = gpd.read_file(tmp_path / "lawndale_spread.gpkg", layer="legs")
    assert len(drawn) == 7937 and len(legs) == int(drawn["moved"].sum()) == 6877
    assert drawn["group_size"].max() == 305 and (legs.geometry.geom_type == "LineString").all()
    for picture in ("python_gis_spread.png", "python_gis_clusters.png"):
        assert (tmp_path / picture).stat().st_size > 10_000
