"""The py3-none-any wheel of `make wheel-any` as a user on Windows, macOS or aarch64 gets it: pure
Python and pindrop.wasm, depending on numpy and wasmtime. Installed into a fresh virtualenv (pip
takes numpy and wasmtime from PyPI) and run where the native library cannot load ($PINDROP_LIBRARY
names a file that is no library): the README's Python example runs on the wasm backend and prints
what it prints on the native one."""
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("DIST", ROOT / "dist"))
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))
from test_readme import block  # noqa: E402  (the README's tested Python example)


@pytest.fixture(scope="module")
def wheel():
    wheels = sorted(DIST.glob("pindrop-*-py3-none-any.whl"))
    assert len(wheels) == 1, f"expected one py3-none-any wheel in {DIST} (make wheel-any), found {wheels}"
    return wheels[0]


def _env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PINDROP_LIBRARY", "PINDROP_BACKEND", "PINDROP_WASM", "PYTHONPATH", "PYTHONHOME",
                        "VIRTUAL_ENV", "LD_LIBRARY_PATH")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    where = tmp_path_factory.mktemp("any") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, env=_env())
    result = subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                            env=_env(), capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return where


@pytest.fixture(scope="module")
def unloadable(tmp_path_factory):
    """A libpindrop.so that cannot be loaded (an empty file): ctypes refuses it as it refuses a
    library for another system."""
    path = tmp_path_factory.mktemp("native") / "libpindrop.so"
    path.write_bytes(b"")
    return path


def test_the_wheel_is_pure_and_carries_the_module(wheel):
    assert re.fullmatch(r"pindrop-[\d.]+-py3-none-any\.whl", wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        info = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        meta = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        tags = zf.read(info).decode()
        module = zf.read("pindrop/pindrop.wasm")
    assert "Root-Is-Purelib: true" in tags and "Tag: py3-none-any" in tags
    assert module[:4] == b"\0asm" and module == (ROOT / "dist" / "pindrop.wasm").read_bytes()
    assert not [n for n in names if n.endswith((".so", ".dll", ".dylib", ".pyd")) or ".libs/" in n], names
    assert re.search(r"^Requires-Dist: wasmtime\b", meta, re.M) and re.search(r"^Requires-Dist: numpy\b", meta, re.M)
    assert "pindrop/_wasm.py" in names and "pindrop/_backend.py" in names


def test_the_readme_example_runs_on_the_module(venv, unloadable, tmp_path):
    code = "import pindrop, pindrop._ffi\n" + block("python") + \
        "\nprint('backend', pindrop.backend, pindrop._ffi.library_path)\n"
    run = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300, env=_env(PINDROP_LIBRARY=str(unloadable)))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    backend = re.search(r"^backend (\S+) (\S+)$", out, re.M)
    assert backend and backend.group(1) == "wasm", out
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert Path(backend.group(2)) == site / "pindrop" / "pindrop.wasm"
    # What the same example prints through the native library, in this process's own package.
    native = subprocess.run([sys.executable, "-c", block("python")], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, env=_env(PYTHONPATH=str(ROOT / "bindings" / "python"), PINDROP_BACKEND="native",
                                                  PINDROP_LIBRARY=str(ROOT / ".build" / "release" / "libpindrop.so")))
    assert native.returncode == 0, native.stderr
    assert out.split("backend ")[0] == native.stdout
    for kind in ("LIFTED", "DRAGGED", "DROPPED", "MOVED"):
        assert re.search(rf"{kind}\s+id=5603", out), out


def test_a_forced_native_backend_says_why_it_cannot_load(venv, unloadable, tmp_path):
    run = subprocess.run([str(venv / "bin" / "python"), "-c", "import pindrop"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120, env=_env(PINDROP_LIBRARY=str(unloadable), PINDROP_BACKEND="native"))
    assert run.returncode != 0
    assert "PINDROP_BACKEND=native, but libpindrop.so cannot be loaded" in run.stderr, run.stderr
    assert str(unloadable) in run.stderr, run.stderr
