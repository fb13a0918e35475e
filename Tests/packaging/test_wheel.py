"""The wheel of `make wheel` as a user without Swift or GEOS gets it: installed into a fresh
virtualenv, then a drag and a spread run in a process that cannot see the system's GEOS.

The system's libgeos files are hidden in a private mount namespace (`unshare -m`, then /dev/null
bind-mounted over each of them): in there, loading libgeos_c.so.1 fails, and so does the library
of the source build, which links the system's GEOS. The wheel's library must still load, and
/proc/self/maps must show the GEOS it bundles in pindrop.libs/ as the only GEOS in the process.
"""
import json
import math
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("DIST", ROOT / "dist"))
SYSTEM_LIBS = Path("/usr/lib/x86_64-linux-gnu")
EARTH = 6378137.0


def _clean_env():
    env = {k: v for k, v in os.environ.items()
           if k not in ("PINDROP_LIBRARY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LD_LIBRARY_PATH")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def wheel():
    wheels = sorted(DIST.glob("pindrop-*-manylinux*.whl"))  # the py3-none-any one: test_wheel_any.py
    assert len(wheels) == 1, f"expected one manylinux wheel in {DIST} (make wheel), found {wheels}"
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    where = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, env=_clean_env())
    result = subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                            env=_clean_env(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return where


def _site(venv):
    return next((venv / "lib").glob("python3*/site-packages"))


def hidden_geos(command):
    """Runs `command` (a shell string) in a mount namespace where every system libgeos file is
    replaced by an empty one."""
    files = sorted(p for p in SYSTEM_LIBS.glob("libgeos*.so*") if not p.is_symlink())
    assert files, f"no system GEOS in {SYSTEM_LIBS} to hide"
    mounts = "; ".join(f"mount --bind /dev/null {p}" for p in files)
    script = f"set -e; mount --make-rprivate /; {mounts}; {command}"
    return subprocess.run(["unshare", "-m", "sh", "-c", script], env=_clean_env(), capture_output=True, text=True)


def test_wheel_is_tagged_for_the_platform_and_bundles_geos(wheel):
    assert re.fullmatch(r"pindrop-[\d.]+-py3-none-manylinux_2_\d+_x86_64\.whl", wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        tags = zf.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert "Root-Is-Purelib: false" in tags
    bundled = [n for n in names if n.startswith("pindrop.libs/")]
    assert any(re.match(r"pindrop\.libs/libgeos_c-[0-9a-f]+\.so", n) for n in bundled), bundled
    assert any(re.match(r"pindrop\.libs/libgeos-[0-9a-f]+\.so", n) for n in bundled), bundled
    assert "pindrop/libpindrop.so" in names


def test_wheel_carries_the_licences_of_pindrop_and_of_the_geos_it_bundles(wheel):
    with zipfile.ZipFile(wheel) as zf:
        ours = zf.read("pindrop/LICENSE").decode()
        geos = zf.read("pindrop/LICENSE.GEOS").decode()
    assert ours == (ROOT / "LICENSE").read_text() and "MIT License" in ours
    assert "Upstream-Name: GEOS" in geos and "GNU LESSER GENERAL PUBLIC LICENSE" in geos and "Version 2.1" in geos


def test_bundled_library_resolves_geos_inside_the_package(venv):
    library = _site(venv) / "pindrop" / "libpindrop.so"
    needed = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"RPATH|RUNPATH", needed) and "$ORIGIN/../pindrop.libs" in needed, needed
    ldd = hidden_geos(f"ldd {library}")
    assert ldd.returncode == 0, ldd.stderr
    geos = [Path(os.path.realpath(line.split("=>")[1].split("(")[0].strip()))
            for line in ldd.stdout.splitlines() if "libgeos" in line]
    assert len(geos) == 2 and all(p.parent == _site(venv) / "pindrop.libs" for p in geos), ldd.stdout
    assert "not found" not in ldd.stdout and "libswift" not in ldd.stdout, ldd.stdout


def test_system_geos_is_really_hidden_in_the_test_namespace():
    probe = "import ctypes, sys\ntry:\n    ctypes.CDLL(sys.argv[1])\nexcept OSError as e:\n    print('refused:', e)"
    seen = hidden_geos(f"{sys.executable} -c \"{probe}\" libgeos_c.so.1")
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.startswith("refused:"), seen.stdout
    built = ROOT / ".build" / "release" / "libpindrop.so"  # links the system's GEOS
    seen = hidden_geos(f"{sys.executable} -c \"{probe}\" {built}")
    assert seen.stdout.startswith("refused:"), seen.stdout


DRAG_AND_SPREAD = textwrap.dedent("""
    import json, sys
    import pindrop, pindrop._ffi
    out = {"module": pindrop.__file__, "library": str(pindrop._ffi.library_path)}
    with pindrop.Map() as trees:                        # touch-screen defaults
        trees.set_camera(-118.3535474, 33.8870931, zoom=19, width=390, height=844)
        trees.add(5603, -118.3535474, 33.8870931)       # at the screen centre
        trees.touch(0, "down", 195, 422, time_ms=0)
        trees.tick(250)                                 # LIFTED
        trees.touch(0, "move", 255, 382, time_ms=500)   # DRAGGED
        trees.touch(0, "up", 255, 382, time_ms=520)     # DROPPED, MOVED
        out["events"] = [e.type.name for e in trees.events()]
        out["landed"] = list(trees.position(5603))
        out["aimed"] = list(trees.to_lonlat(255, 342))  # 40 points above the finger
    out["spread"] = pindrop.spread([(-118.346, 33.8835)] * 5).tolist()
    with open("/proc/self/maps") as maps:
        out["mapped"] = sorted({l.split()[-1] for l in maps if "libgeos" in l or "libpindrop" in l})
    json.dump(out, sys.stdout)
""")


def test_drag_and_spread_run_with_the_system_geos_hidden(venv, tmp_path):
    script = tmp_path / "use.py"
    script.write_text(DRAG_AND_SPREAD)
    run = hidden_geos(f"cd {tmp_path} && {venv / 'bin' / 'python'} {script}")
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    site = _site(venv)
    assert Path(out["module"]).is_relative_to(site) and Path(out["library"]).is_relative_to(site)
    mapped = out["mapped"]
    assert [m for m in mapped if "libpindrop" in m] == [str(site / "pindrop" / "libpindrop.so")]
    geos = [m for m in mapped if "libgeos" in m]
    assert len(geos) == 2 and all(m.startswith(str(site / "pindrop.libs") + "/") for m in geos), mapped
    # The drag: lifted, dragged, dropped, saved, and it landed where it was aimed (no hop).
    assert out["events"][:2] == ["LIFTED", "DRAGGED"] and "MOVED" in out["events"], out["events"]
    assert out["landed"] == out["aimed"]
    # The spread: 5 trees on a ring of 7.5 m (haversine, written here), pin i at bearing 72°·i.
    lon0, lat0 = -118.346, 33.8835
    for i, (lon, lat) in enumerate(out["spread"]):
        dlat, dlon = math.radians(lat - lat0), math.radians(lon - lon0)
        h = math.sin(dlat / 2) ** 2 + math.cos(math.radians(lat0)) * math.cos(math.radians(lat)) * math.sin(dlon / 2) ** 2
        assert 2 * EARTH * math.asin(math.sqrt(h)) == pytest.approx(7.5, abs=1e-6)
        bearing = math.degrees(math.atan2(dlon * math.cos(math.radians(lat0)), dlat)) % 360
        assert bearing == pytest.approx(72.0 * i, abs=1e-3) or bearing == pytest.approx(360.0, abs=1e-3)
