"""Which libpindrop.so the plugin runs with, and when $PINDROP_LIBRARY is honoured.

- The plugin as the zip installs it (make_zip.py, what `make qgis-plugin` runs): its own ext/pindrop
  package with the library packaged beside it, even when PINDROP_LIBRARY names another one (a
  variable left in the user's environment for another pindrop must not pair the packaged Python
  package with another build); the variable itself is left as it was.
- The plugin run from the source folder (no ext/, as the tests run it): the pindrop package on
  PYTHONPATH, which loads $PINDROP_LIBRARY: that is how the tests run the library just built.

Each case runs in a fresh /usr/bin/python3 (the library a process loads cannot be unloaded), which
imports the plugin package as QGIS's loader does and calls its classFactory (the plugin's modules
import pindrop), then reports the pindrop package, the library it loaded and the libraries mapped.
"""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
QGIS_DIR = ROOT / "examples" / "qgis"
BUILT = Path(os.environ.get("PINDROP_LIBRARY", ROOT / ".build" / "release" / "libpindrop.so"))

REPORT = """
import json, os, sys
import pindrop_drag
pindrop_drag.classFactory(None)  # imports the plugin's modules (map tool, pins, Processing provider)
import pindrop, pindrop._ffi
with open("/proc/self/maps") as maps:
    mapped = sorted({line.split()[-1] for line in maps if "libpindrop" in line})
print(json.dumps({"plugin": pindrop_drag.__file__, "package": pindrop.__file__, "backend": pindrop.backend,
                  "library": str(pindrop._ffi.library_path), "mapped": mapped,
                  "variable": os.environ.get("PINDROP_LIBRARY")}))
"""


def report(path, library_variable, pythonpath=(), **extra):
    """What a fresh Python that puts `path` first on sys.path (as QGIS puts its plugins folder)
    sees after loading the plugin; `pythonpath` is PYTHONPATH, `extra` more variables."""
    env = {k: v for k, v in os.environ.items() if k not in ("PINDROP_LIBRARY", "PYTHONPATH", "PYTHONHOME")}
    env.update(PINDROP_LIBRARY=str(library_variable), QT_QPA_PLATFORM="offscreen", **extra)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(map(str, pythonpath))
    code = f"import sys; sys.path.insert(0, {str(path)!r})\n" + REPORT
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=tempfile.gettempdir())
    if run.returncode != 0:
        raise AssertionError(f"the plugin did not load (exit {run.returncode}):\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def loads(library):
    """Whether a fresh Python can load `library` (make test-qgis-wasm names one that cannot)."""
    probe = "import ctypes, sys; ctypes.CDLL(sys.argv[1])"
    return BUILT.exists() and subprocess.run([sys.executable, "-c", probe, str(library)], capture_output=True).returncode == 0


# Which native library is chosen is a question only where one loads: in the run where the native
# library is made unloadable (make test-qgis-wasm), these are skipped, and WasmFallback runs.
@unittest.skipUnless(loads(BUILT), f"native-only: the library at {BUILT} does not load in this run "
                     "(make test-qgis-wasm), so there is no native library to choose")
class LibraryChoice(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        # Another build of the library somewhere else, as a stray PINDROP_LIBRARY would name.
        cls.other = tmp / "elsewhere" / "libpindrop.so"
        cls.other.parent.mkdir()
        shutil.copy2(BUILT, cls.other)
        sys.path.insert(0, str(QGIS_DIR))
        try:
            import make_zip
        finally:
            sys.path.remove(str(QGIS_DIR))
        cls.plugins = tmp / "plugins"
        with contextlib.redirect_stdout(io.StringIO()):
            built_zip = make_zip.main(str(BUILT), str(tmp / "dist"))
        with zipfile.ZipFile(built_zip) as zf:
            zf.extractall(cls.plugins)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_installed_zip_runs_its_own_library_whatever_pindrop_library_says(self):
        bundled = self.plugins / "pindrop_drag" / "ext" / "pindrop"
        seen = report(self.plugins, self.other)
        self.assertEqual(Path(seen["plugin"]), self.plugins / "pindrop_drag" / "__init__.py")
        self.assertEqual(Path(seen["package"]), bundled / "__init__.py")
        self.assertEqual(Path(seen["library"]), bundled / "libpindrop.so")
        self.assertEqual(seen["mapped"], [str(bundled / "libpindrop.so")])  # the other one never loaded
        self.assertEqual(seen["variable"], str(self.other))  # the user's environment is left as it was

    def test_the_installed_zip_loads_with_pindrop_library_naming_nothing(self):
        bundled = self.plugins / "pindrop_drag" / "ext" / "pindrop"
        seen = report(self.plugins, Path(self.tmp.name) / "missing" / "libpindrop.so")
        self.assertEqual(seen["mapped"], [str(bundled / "libpindrop.so")])

    def test_the_source_folder_runs_the_library_pindrop_library_names(self):
        self.assertFalse((QGIS_DIR / "pindrop_drag" / "ext").exists())
        seen = report(QGIS_DIR, self.other, pythonpath=[ROOT / "bindings" / "python"])
        self.assertEqual(Path(seen["plugin"]), QGIS_DIR / "pindrop_drag" / "__init__.py")
        self.assertEqual(Path(seen["package"]), ROOT / "bindings" / "python" / "pindrop" / "__init__.py")
        self.assertEqual(Path(seen["library"]), self.other)
        self.assertEqual(seen["mapped"], [str(self.other)])


SOURCE_LIBRARY = ROOT / ".build" / "release" / "libpindrop.so"
WASMTIME = Path(os.environ.get("PINDROP_QGIS_WASMTIME", ROOT / ".build" / "qgis-wasmtime"))


@unittest.skipUnless(SOURCE_LIBRARY.exists(), f"no library at {SOURCE_LIBRARY} to pack (swift build -c release)")
class WasmFallback(unittest.TestCase):
    """The installed zip on a system where its libpindrop.so cannot load (its library replaced by
    one that does not): the plugin runs on the pindrop.wasm it carries, with wasmtime installed
    by the plugin (consent given in advance) into its folder."""

    def test_the_installed_zip_runs_its_own_module_where_its_library_does_not_load(self):
        with tempfile.TemporaryDirectory() as tmp:
            sys.path.insert(0, str(QGIS_DIR))
            try:
                import make_zip
            finally:
                sys.path.remove(str(QGIS_DIR))
            with contextlib.redirect_stdout(io.StringIO()):
                built_zip = make_zip.main(str(SOURCE_LIBRARY), str(Path(tmp) / "dist"))
            plugins = Path(tmp) / "plugins"
            with zipfile.ZipFile(built_zip) as zf:
                zf.extractall(plugins)
            bundled = plugins / "pindrop_drag" / "ext" / "pindrop"
            (bundled / "libpindrop.so").write_bytes(b"")  # a library for another system
            seen = report(plugins, Path(tmp) / "missing" / "libpindrop.so",
                          PINDROP_QGIS_WASMTIME=str(WASMTIME), PINDROP_QGIS_INSTALL="yes")
        self.assertEqual(seen["backend"], "wasm")
        self.assertEqual(Path(seen["package"]), bundled / "__init__.py")
        self.assertEqual(Path(seen["library"]), bundled / "pindrop.wasm")
        self.assertEqual(seen["mapped"], [])


if __name__ == "__main__":
    unittest.main()
