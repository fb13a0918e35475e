"""Builds libpindrop.so from the Swift package at the repository root and bundles it in the wheel.

With PINDROP_WHEEL=wasm (`make wheel-any`) it bundles dist/pindrop.wasm instead (built by
`make wasm`) and makes a `py3-none-any` wheel that depends on wasmtime: the package then runs on
the module wherever wasmtime has a wheel (Windows, macOS, Linux x86_64 and aarch64).

`pip install ./bindings/python` runs `swift build -c release -Xswiftc -static-stdlib` in the
repository root (two folders up), then copies `.build/release/libpindrop.so` next to the package's
modules, so that `import pindrop` needs no environment variable. The library links the Swift
standard library statically: at run time it needs only GEOS (`libgeos-c1v5`) and the C/C++ runtime.
"""
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIBRARY = "libpindrop.so"
MODULE = "pindrop.wasm"
WASM = os.environ.get("PINDROP_WHEEL", "") == "wasm"


def build_library() -> Path:
    """Runs the release build of the Swift package and returns the path of the shared library."""
    if not (ROOT / "Package.swift").exists():
        raise RuntimeError(f"no Package.swift in {ROOT}: build from a pindrop source checkout "
                           "(pip install ./bindings/python)")
    swift = os.environ.get("SWIFT", "swift")
    if shutil.which(swift) is None:
        raise RuntimeError("the Swift toolchain is needed to build libpindrop.so (https://swift.org/install)")
    command = [swift, "build", "-c", "release", "-Xswiftc", "-static-stdlib"]
    print("building libpindrop.so:", " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)
    built = ROOT / ".build" / "release" / LIBRARY
    if not built.exists():
        raise RuntimeError(f"swift build finished but {built} is missing")
    return built


# The licences that travel with the package: pindrop's own, and GEOS's, whose C library the wheel
# bundles (auditwheel copies it into pindrop.libs/): Debian's copyright file for it and the LGPL 2.1.
GEOS_NOTICES = [Path("/usr/share/doc/libgeos-c1v5/copyright"), Path("/usr/share/common-licenses/LGPL-2.1")]


def write_licences(package: Path) -> None:
    shutil.copy2(ROOT / "LICENSE", package / "LICENSE")
    found = [p for p in GEOS_NOTICES if p.exists()]
    if found:
        text = "The GEOS library bundled with this package in pindrop.libs/ (when it is there) comes with:\n\n"
        text += "\n\n".join(p.read_text() for p in found)
        (package / "LICENSE.GEOS").write_text(text)


class BuildPyWithLibrary(build_py):
    """build_py that also puts a freshly built libpindrop.so, and the licences, inside the package."""

    def run(self):
        super().run()
        package = Path(self.build_lib) / "pindrop"
        package.mkdir(parents=True, exist_ok=True)
        for stale in (LIBRARY, MODULE, "LICENSE.GEOS"):  # from an earlier build of the other kind
            (package / stale).unlink(missing_ok=True)
        if WASM:
            module = ROOT / "dist" / MODULE
            if not module.exists():
                raise RuntimeError(f"{module} is missing: run make wasm first")
            shutil.copy2(module, package / MODULE)
            shutil.copy2(ROOT / "LICENSE", package / "LICENSE")  # the module holds no GEOS
            return
        built = build_library()
        shutil.copy2(built, package / LIBRARY)
        write_licences(package)


command_classes = {"build_py": BuildPyWithLibrary}

try:  # the wheel holds a native library: tag it for this platform, not as pure Python
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools < 70.1 takes it from the wheel package
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel


class PlatformWheel(_bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _python, _abi, platform = super().get_tag()
        return "py3", "none", platform  # ctypes only: any Python 3, this platform


class BinaryDistribution(Distribution):
    """The package holds a native library: it belongs in platlib (auditwheel repairs only those)."""

    def has_ext_modules(self):
        return True


if WASM:  # pure Python and the module: py3-none-any, with wasmtime to run it
    setup(cmdclass={"build_py": BuildPyWithLibrary}, install_requires=["numpy", "wasmtime"])
else:
    command_classes["bdist_wheel"] = PlatformWheel
    setup(cmdclass=command_classes, distclass=BinaryDistribution, install_requires=["numpy"])
