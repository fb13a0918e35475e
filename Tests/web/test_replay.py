"""Same behaviour everywhere: one recording (recording.py) replayed through the native library
(the Python package) and through the WebAssembly module (Node, replay.mjs) gives the same event
streams, frames, clusters and positions: strings and integers equal, coordinates within 1e-9
degrees, screen points within 1e-6 points."""
from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

import pindrop
from recording import ROOT, make_recording, replay

HERE = Path(__file__).resolve().parent
WASM = ROOT / "bindings" / "js" / "pindrop.wasm"


def node_log(recording: dict, tmp_path: Path) -> list:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make test-js installs it)")
    if not WASM.exists():
        pytest.fail(f"{WASM} is missing: run make wasm")
    path = tmp_path / "recording.json"
    path.write_text(json.dumps(recording))
    out = subprocess.run([node, str(HERE / "replay.mjs"), str(path)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def normalise_native(log: list) -> list:
    """The native log in the wasm log's terms: PINDROP_NO_ID as "NO_ID"."""
    out = []
    for entry in log:
        if entry[0] == "events":
            entry = ["events", [[e[0], e[1], "NO_ID" if e[2] == pindrop.NO_ID else e[2],
                                 "NO_ID" if e[3] == pindrop.NO_ID else e[3], *e[4:]] for e in entry[1]]]
        out.append(entry)
    return out


class Mismatch(AssertionError):
    pass


def compare(a, b, path: str, worst: dict) -> None:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            raise Mismatch(f"{path}: native {a!r} / wasm {b!r}")
        d = abs(float(a) - float(b))
        if not (d <= 1e-6 or (math.isinf(a) and a == b)):
            raise Mismatch(f"{path}: native {a!r} / wasm {b!r}")
        if d > worst["max"]:
            worst["max"], worst["where"] = d, f"{path}: {a!r} / {b!r}"
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise Mismatch(f"{path}: {len(a)} items natively, {len(b)} in wasm: {a[:3]!r} / {b[:3]!r}")
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{path}[{i}]", worst)
        return
    if a != b:
        raise Mismatch(f"{path}: native {a!r} / wasm {b!r}")


@pytest.mark.parametrize("mode", ["ring", "spiral", "area", "v03"])
def test_recording_replays_alike(mode, tmp_path):
    seed = {"ring": 19, "spiral": 20, "area": 21, "v03": 22}[mode]
    recording = make_recording(seed=seed, spread_mode="spiral" if mode == "spiral" else "ring", area=mode == "area",
                               v03=mode == "v03")
    native = normalise_native(replay(recording, pindrop))
    wasm = node_log(recording, tmp_path)
    kinds = {e[0] for entry in native if entry[0] == "events" for e in entry[1]}
    # The recording exercises what it says it does.
    for k in ("LIFTED", "DRAGGED", "DROPPED", "MOVED", "SELECTED", "GEOCODE_REQUEST"):
        assert k in kinds, f"the recording has no {k} event: {sorted(kinds)}"
    causes = {e[1] for entry in native if entry[0] == "events" for e in entry[1] if e[0] == "MOVED"}
    assert {"DRAG", "UNDO"} <= causes, causes
    if mode == "area":
        assert "SNAP" in causes, f"drops outside the area were snapped: {causes}"
        assert "NEARBY" in kinds, f"moves next to other trees warned: {sorted(kinds)}"
    if mode == "v03":
        assert {"STACK_OPENED", "STACK_CLOSED"} <= kinds, f"stacks opened and closed: {sorted(kinds)}"
        assert "KEYBOARD" in causes, f"keyboard drags dropped: {causes}"
        assert any(entry[0] == "focus" and any(f and f[0] == "pin" for f in entry[1]) for entry in native)
        assert any(entry[0] == "pages" and len(entry[1]) > 2 for entry in native), "members paged"
        rows = [r for entry in native if entry[0] == "clusters" for r in entry[1]]
        assert any(r[7] & pindrop.CLUSTER_STACK for r in rows) and any(r[8][2] == pindrop.CATEGORY_MIXED for r in rows)
        assert any(r[8][1] > 0 for r in rows), "summaries sum values"
    assert any(entry[0] == "clusters" and entry[1] for entry in native), "some clusters are drawn"
    assert any(entry[0] == "frame" and any(v[6] & pindrop.PIN_SPREAD for v in entry[1]) for entry in native), "stacks are spread"
    worst = {"max": 0.0, "where": ""}
    compare(native, wasm, "log", worst)
    # Coordinates (degrees) within 1e-9: the events' lon/lat, the positions, the clusters' lon/lat.
    degrees = 0.0
    for n_entry, w_entry in zip(native, wasm):
        pairs = []
        if n_entry[0] == "events":
            pairs = [(e[j], f[j]) for e, f in zip(n_entry[1], w_entry[1]) for j in (4, 5, 6, 7)]
        elif n_entry[0] == "positions":
            pairs = [(x, y) for e, f in zip(n_entry[1], w_entry[1]) if e[1] is not None for x, y in zip(e[1:], f[1:])]
        elif n_entry[0] == "clusters":
            pairs = [(e[j], f[j]) for e, f in zip(n_entry[1], w_entry[1]) for j in (3, 4)]
        for x, y in pairs:
            degrees = max(degrees, abs(x - y))
    assert degrees <= 1e-9, degrees
    print(f"{mode}: largest difference in degrees {degrees:.3g}")
    (tmp_path / "worst.txt").write_text(str(worst["max"]))
    print(f"{mode}: {sum(len(e[1]) for e in native if e[0] == 'events')} events, "
          f"largest difference {worst['max']:.3g} at {worst['where']}")
