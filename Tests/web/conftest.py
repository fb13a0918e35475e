"""Tests/web: the same behaviour through both builds. One recording (recording.py) is replayed
through the native library (the Python package) and through pindrop.wasm (the JS package in Node,
replay.mjs), and the two logs must agree (test_replay.py). The JS package's own tests are in
bindings/js/tests, the web page's in examples/web/tests."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# The Python package from the repository unless one is on the path already (make sets PYTHONPATH).
sys.path.append(str(HERE.parent.parent / "bindings" / "python"))
