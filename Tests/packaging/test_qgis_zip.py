"""The QGIS plugin zip (make qgis-plugin) installed as a user installs it: the QGIS desktop
(Debian's `qgis`, under Xvfb) with a fresh profile runs qgis_install_from_zip.py, which calls the
Plugin Manager's "Install from ZIP" code, then uses the map tool and the Processing algorithm.
No pindrop package, no PINDROP_LIBRARY: everything comes from the zip."""
import json
import math
import os
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("DIST", ROOT / "dist"))


@pytest.fixture(scope="module")
def plugin_zip():
    zips = sorted(DIST.glob("pindrop_drag-*.zip"))
    assert zips, f"no plugin zip in {DIST}: make qgis-plugin"
    return zips[-1]


def test_zip_has_one_plugin_folder_with_metadata_icon_and_library(plugin_zip):
    with zipfile.ZipFile(plugin_zip) as zf:
        names = zf.namelist()
        metadata = zf.read("pindrop_drag/metadata.txt").decode()
    assert {n.split("/")[0] for n in names} == {"pindrop_drag"}
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    fields = dict(line.split("=", 1) for line in metadata.splitlines() if "=" in line)
    for key in ("name", "qgisMinimumVersion", "description", "about", "version", "author", "email", "repository"):
        assert fields.get(key), f"metadata.txt lacks {key} (the Plugin Manager requires it)"
    assert fields["icon"] in [n.split("/", 1)[1] for n in names]
    assert fields["hasProcessingProvider"] == "yes"
    assert "pindrop_drag/ext/pindrop/libpindrop.so" in names
    with zipfile.ZipFile(plugin_zip) as zf:
        assert zf.read("pindrop_drag/LICENSE").decode() == (ROOT / "LICENSE").read_text()
    assert plugin_zip.name == f"pindrop_drag-{fields['version']}.zip"


def test_qgis_installs_the_zip_and_runs_the_plugin(plugin_zip, tmp_path):
    profiles = tmp_path / "profiles"
    result = tmp_path / "result.json"
    # A user's session: no pindrop variables, and the system's PATH (QGIS's embedded Python takes
    # its prefix from the python3 it finds there; a pyenv or venv python3 would lend it its paths).
    env = {k: v for k, v in os.environ.items()
           if k not in ("PINDROP_LIBRARY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith("PYENV")}
    env.update(PATH="/usr/sbin:/usr/bin:/sbin:/bin", HOME=str(tmp_path),
               PINDROP_TEST_ZIP=str(plugin_zip), PINDROP_TEST_RESULT=str(result))
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "qgis", "--profiles-path", str(profiles),
               "--nologo", "--noversioncheck", "--code", str(ROOT / "Tests" / "packaging" / "qgis_install_from_zip.py")]
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    assert result.exists(), f"QGIS wrote no result (exit {run.returncode}):\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    seen = json.loads(result.read_text())
    assert "error" not in seen, seen.get("error")
    plugins = Path(seen["home_plugin_path"])
    assert plugins.is_relative_to(profiles)
    assert "pindrop_drag" not in seen["active_before"]
    assert "pindrop_drag" in seen["active_after"]
    assert seen["manager_entry"]["installed"] == "True" and seen["manager_entry"]["error"] in ("", "None")
    bundled = plugins / "pindrop_drag" / "ext" / "pindrop"
    assert Path(seen["pindrop_module"]) == bundled / "__init__.py"
    assert Path(seen["library"]) == bundled / "libpindrop.so"
    assert seen["mapped_pindrop"] == [str(bundled / "libpindrop.so")]
    assert seen["map_tool_is_pindrop"] and seen["map_tool_pins"] == 3
    assert seen["algorithm"] == "Spread points that share a spot (pindrop)"
    rows = {name: (x, y, tx, ty) for name, x, y, tx, ty in seen["spread"]}
    assert rows["c"][:2] == rows["c"][2:] == (-118.3530, 33.8873)  # alone: not moved
    for name, bearing in (("a", 0.0), ("b", math.pi)):  # a ring of 2: 3 m north and south
        x, y, tx, ty = rows[name]
        assert (tx, ty) == (-118.3535474, 33.8870931)
        assert x == pytest.approx(tx, abs=1e-12)
        assert (y - ty) * math.pi / 180 * 6378137 == pytest.approx(3.0 * math.cos(bearing), abs=1e-6)
