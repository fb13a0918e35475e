"""The plugin's tests. The plugin's package is imported first, as QGIS imports it before anything
uses pindrop: where the native library does not load, it makes wasmtime importable
(pindrop_drag/runtime.py) for the test modules that import pindrop themselves."""
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[3]
for _path in (_ROOT / "examples" / "qgis", _ROOT / "bindings" / "python"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
import pindrop_drag  # noqa: E402,F401
