"""The package as a new user gets it: `pip install ./bindings/python` into a fresh virtual
environment, then `import pindrop` from another folder with no environment variable set.

This is the slowest Python test (it creates a venv and builds a wheel: about 20 s once pip's cache
is warm), and the one that proves the first five minutes work.
"""
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _clean_env():
    """The environment of a new user's shell: none of the variables the Makefile exports."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PINDROP_LIBRARY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    where = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, env=_clean_env())
    python = where / "bin" / "python"
    # Exactly what the README tells a new user to type, run from the repository root.
    result = subprocess.run([str(python), "-m", "pip", "install", "-q", "./bindings/python"],
                            cwd=ROOT, env=_clean_env(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return where


def _run(venv, code, cwd, env=None):
    result = subprocess.run([str(venv / "bin" / "python"), "-c", textwrap.dedent(code)], cwd=cwd,
                            env=env or _clean_env(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_import_in_fresh_venv_uses_the_bundled_library(venv, tmp_path):
    out = _run(venv, """
        import pindrop, pindrop._ffi as ffi
        print(pindrop.__file__)
        print(ffi.library_path)
        print(pindrop.version())
    """, cwd=tmp_path)
    module, library, version = out.split()
    site = venv / "lib"
    assert Path(module).is_relative_to(site), f"pindrop imported from {module}, not from the venv"
    assert Path(library).is_relative_to(site) and Path(library).name == "libpindrop.so"
    from pindrop import _tables  # the checkout's, generated from include/pindrop.h (make tables)
    assert version == ".".join(str(p) for p in _tables.VERSION)


def test_bundled_library_needs_no_swift_runtime(venv):
    library = next((venv / "lib").glob("python3*/site-packages/pindrop/libpindrop.so"))
    ldd = subprocess.run(["ldd", str(library)], capture_output=True, text=True, check=True).stdout
    assert "not found" not in ldd, ldd
    assert "libswift" not in ldd and "libFoundation" not in ldd, ldd
    assert "libgeos_c" in ldd


def test_installed_package_works_from_another_folder(venv, tmp_path):
    """A real use through the installed package: batch add with NumPy, a hit test at the screen
    point of a pin (computed here with the textbook Web Mercator formula), nearby distances."""
    out = _run(venv, """
        import math
        import numpy as np
        import pindrop
        lon0, lat0, zoom = -118.3460068, 33.8835519, 18.0
        ids = np.arange(1, 6, dtype=np.int64)
        lonlat = np.array([[lon0 + 0.0001 * i, lat0] for i in range(5)])
        with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:
            m.set_camera(lon0, lat0, zoom=zoom, width=800, height=600)
            m.add_many(ids, lonlat)
            world = 256 * 2 ** zoom
            def mercator(lon, lat):
                y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
                return (lon + 180) / 360 * world, (1 - y / math.pi) / 2 * world
            cx, cy = mercator(lon0, lat0)
            px, py = mercator(lon0 + 0.0003, lat0)
            print(len(m), m.hit_test(400 + (px - cx), 300 + (py - cy)), m.hit_test(5, 5))
            print(m.nearby(lon0, lat0, 10.0))
            try:
                m.add(3, 0, 0)
            except pindrop.DuplicateId as e:
                print("duplicate:", e.message)
    """, cwd=tmp_path)
    lines = out.splitlines()
    assert lines[0] == "5 4 None"
    near = eval(lines[1])
    assert [i for i, _ in near] == [1, 2]  # 0.0001° of longitude at 33.88° is 9.24 m
    expected = math.radians(0.0001) * math.cos(math.radians(33.8835519)) * 6378137
    assert near[1][1] == pytest.approx(expected, rel=1e-6)
    assert lines[2] == "duplicate: a pin with id 3 already exists"


def test_environment_variable_overrides_the_bundled_library(venv, tmp_path):
    built = ROOT / ".build" / "release" / "libpindrop.so"
    if not built.exists():
        pytest.skip("no release build in .build/release (make build)")
    env = _clean_env()
    env["PINDROP_LIBRARY"] = str(built)
    out = _run(venv, "import pindrop._ffi as f; print(f.library_path)", cwd=tmp_path, env=env)
    assert Path(out.strip()) == built

