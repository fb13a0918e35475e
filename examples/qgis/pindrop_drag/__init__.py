"""pindrop drag: a QGIS plugin to drag the points of a point layer with pindrop's behaviour."""
import os
import sys
from pathlib import Path

# Which pindrop the plugin runs with. The pindrop package itself loads $PINDROP_LIBRARY when that
# is set, else the libpindrop.so inside the package, else a checkout's .build/release (or debug).
#
# - Installed from the zip (make qgis-plugin): ext/ holds the pindrop package and the library it
#   was packaged with. ext/ goes first on sys.path and pindrop is imported here with
#   PINDROP_LIBRARY hidden for the length of the import (then put back as it was), so the plugin
#   runs with the packaged library whatever the variable says: the package's ctypes declarations
#   are those of that library, and a PINDROP_LIBRARY left in the user's environment for another
#   pindrop would pair them with another build. (Had something imported a pindrop from elsewhere
#   before the plugin loads, Python would reuse that one.)
# - Run from the source folder (a checkout linked into the profile, or the tests): there is no
#   ext/, `import pindrop` finds the package on sys.path (PYTHONPATH=bindings/python), and
#   PINDROP_LIBRARY is honoured: that is how the tests run the plugin with the library just built.
#
# Where the native library does not load (Windows, macOS, aarch64), the package runs pindrop.wasm
# through wasmtime, which runtime.py makes importable (installed with the user's consent into the
# QGIS profile); until then the plugin is a message that offers to install it.
from . import runtime

_BUNDLED = Path(__file__).resolve().parent / "ext"
if (_BUNDLED / "pindrop").is_dir():
    if str(_BUNDLED) not in sys.path:
        sys.path.insert(0, str(_BUNDLED))
    _variable = os.environ.pop("PINDROP_LIBRARY", None)
    try:
        _ERROR = runtime.load_pindrop()  # ext/pindrop/libpindrop.so, else ext/pindrop/pindrop.wasm
    finally:
        if _variable is not None:
            os.environ["PINDROP_LIBRARY"] = _variable
else:
    _ERROR = runtime.load_pindrop()


def classFactory(iface):  # noqa: N802 (QGIS's name)
    error = runtime.load_pindrop() if _ERROR is not None else None
    if error is not None:
        return runtime.MissingRuntime(iface, error)
    from .plugin import PindropDragPlugin
    return PindropDragPlugin(iface)
