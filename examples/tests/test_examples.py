"""The examples as a user runs them: the C replayer (built by `make test-examples` through
pkg-config after `make install`) on its recorded touch script, and the demo on the bundled trees.

Expected positions come from the textbook Web Mercator formulas and the haversine distance, not
from pindrop.
"""
import math
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / ".build" / "examples" / "replay"
EARTH = 6378137.0


def mercator_to_lonlat(x, y, camera):
    """Screen point -> (lon, lat) for a north-up Web Mercator camera (256-point tiles)."""
    lon0, lat0, zoom, width, height = camera
    world = 256 * 2 ** zoom
    cx = (lon0 + 180) / 360 * world
    cy = (1 - math.log(math.tan(math.pi / 4 + math.radians(lat0) / 2)) / math.pi) / 2 * world
    wx, wy = cx + x - width / 2, cy + y - height / 2
    return wx / world * 360 - 180, math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * wy / world))))


def haversine(a, b):
    (lon1, lat1), (lon2, lat2) = map(math.radians, a), map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(math.sqrt(h))


EVENT = re.compile(r"^\s*(?P<t>[\d.]+) ms  (?P<type>[A-Z_]+)\s+id=(?P<id>-?\d+)(?P<rest>.*)$")
TOUCH = re.compile(r"^\s*(?P<t>[\d.]+) ms  > (?P<phase>\w+)\s+pointer \d+ at \(.*\): (?P<owner>.*)$")


def parse(out):
    events, touches = [], []
    for line in out.splitlines():
        if m := EVENT.match(line):
            fields = dict(re.findall(r"(\w+)=(\S+)", m["rest"]))
            events.append((float(m["t"]), m["type"], int(m["id"]), fields, m["rest"]))
        elif m := TOUCH.match(line):
            touches.append((float(m["t"]), m["phase"], m["owner"]))
    return events, touches


@pytest.fixture(scope="module")
def replay():
    if not REPLAY.exists():
        pytest.skip("examples/c/replay is not built (make test-examples builds it through pkg-config)")
    script = ROOT / "examples" / "c" / "drag.touch"
    result = subprocess.run([str(REPLAY), str(ROOT / "examples" / "data" / "lawndale_trees.csv"), str(script)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    camera = next(tuple(map(float, line.split()[1:])) for line in script.read_text().splitlines()
                  if line.startswith("camera "))
    return result.stdout, camera


def test_replay_loads_every_tree(replay):
    out, _ = replay
    assert "loaded 7937 trees from" in out


def test_replay_tap_selects_and_swipe_pans(replay):
    out, _ = replay
    events, touches = parse(out)
    assert any(kind == "SELECTED" and i == 5603 and t < 1000 for t, kind, i, _, _ in events)
    swipe = [owner for t, phase, owner in touches if 1000 < t < 2000 and phase == "move"]
    assert swipe and all(owner == "the map's" for owner in swipe)
    assert not any(kind in ("LIFTED", "MOVED") for t, kind, *_ in events if 1000 <= t < 2000)


def test_replay_hold_lifts_and_drop_lands_above_the_finger(replay):
    out, camera = replay
    events, _ = parse(out)
    lifted = [t for t, kind, i, _, _ in events if kind == "LIFTED" and i == 5603]
    assert lifted[0] == 2250.0  # down at 2000 + the 250 ms lift delay, resolved by a tick
    moved = [e for e in events if e[1] == "MOVED"]
    assert len(moved) == 1 and moved[0][0] == 2700.0 and moved[0][3]["cause"] == "DRAG"
    dragged = [e for e in events if e[1] == "DRAGGED" and e[0] < 2700]
    # No hop on release: the saved coordinate is the last DRAGGED one, bit for bit (%.17g).
    assert re.search(r"lon=(\S+) lat=(\S+)", moved[0][4]).groups() == (dragged[-1][3]["lon"], dragged[-1][3]["lat"])
    # The finger let go at (235, 302); the tree was grabbed at its centre and rides 40 points above.
    expected = mercator_to_lonlat(235, 302 - 40, camera)
    got = (float(moved[0][3]["lon"]), float(moved[0][3]["lat"]))
    assert abs(got[0] - expected[0]) < 1e-9 and abs(got[1] - expected[1]) < 1e-9
    start = (camera[0], camera[1])
    assert haversine(start, got) == pytest.approx(math.hypot(40, 160) * 2 * math.pi * EARTH
                                                   * math.cos(math.radians(start[1])) / (256 * 2 ** 19), rel=1e-3)


def test_replay_escape_cancels_and_restores(replay):
    out, _ = replay
    events, _ = parse(out)
    moved = next(e for e in events if e[1] == "MOVED")
    landed = (moved[3]["lon"], moved[3]["lat"])
    cancelled = [e for e in events if e[1] == "DRAG_CANCELLED"]
    assert len(cancelled) == 1 and cancelled[0][0] == 3450.0
    assert (cancelled[0][3]["lon"], cancelled[0][3]["lat"]) == landed
    assert any(kind == "LIFTED" and t == 3250.0 for t, kind, *_ in events)  # lifted again at once
    final = re.search(r"tree 5603 is now at lon=(\S+) lat=(\S+)", out).groups()
    assert final == landed


# -- the demo --------------------------------------------------------------------------------------

def png_size(path):
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py"), "--out", str(out)],
                            capture_output=True, text=True, timeout=300, cwd=out)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, out


def test_demo_drags_a_tree(demo):
    text, _ = demo
    assert re.search(r"LIFTED\s+id=5603", text)
    assert re.search(r"MOVED\s+id=5603 .* cause=DRAG", text)
    metres = float(re.search(r"tree 5603 moved ([\d.]+) m, to", text).group(1))
    assert 30 < metres < 100


def test_demo_taps_to_move_but_not_on_double_tap(demo):
    text, _ = demo
    assert re.search(r"MOVED\s+id=5603 .* cause=TAP", text)
    assert len(re.findall(r"cause=TAP", text)) == 1


def test_demo_spreads_the_305_stack_on_its_ring(demo):
    text, _ = demo
    assert "3. Spreading: 305 trees share" in text
    rings = re.findall(r"is drawn ([\d.]+) m from the spot \(3n/2 = ([\d.]+) m\), true coordinate unchanged: (\w+)", text)
    assert len(rings) == 2
    for drawn, formula, unchanged in rings:
        assert float(drawn) == pytest.approx(float(formula), abs=0.05) and unchanged == "True"
    left = re.search(r"now drawn ([\d.]+) m from the spot \(3\(n-1\)/2 = ([\d.]+) m\)", text)
    assert float(left.group(1)) == pytest.approx(float(left.group(2)), abs=0.05)


def test_demo_writes_the_pictures(demo):
    _, out = demo
    for name, (w, h) in {"drag_path.png": (460, 995), "stack_before.png": (800, 800),
                         "stack_after.png": (800, 800)}.items():
        path = out / name
        assert path.exists(), f"the demo did not write {name}"
        width, height = png_size(path)
        assert abs(width - w) <= 2 and abs(height - h) <= 2, (name, width, height)
        assert path.stat().st_size > 20_000, f"{name} looks empty"


def test_readme_pictures_are_committed():
    for name in ("drag_path.png", "stack_before.png", "stack_after.png"):
        png_size(ROOT / "docs" / "img" / name)
        assert f"docs/img/{name}" in (ROOT / "README.md").read_text()


COUNTY = ROOT.parent / "shared" / "data" / "la_trees.csv"


@pytest.mark.skipif(not COUNTY.exists(), reason="the LA county inventory is not at ../shared/data")
def test_demo_clusters_the_county(demo):
    text, out = demo
    counts = {int(z): (int(c), int(t), int(p)) for z, c, t, p in re.findall(
        r"zoom (\d+): (\d+) clusters holding (\d+) trees, (\d+) single trees in view", text)}
    assert set(counts) == {10, 15}
    assert counts[10][0] < 60 and counts[10][1] > 500_000   # the county in a few dozen clusters
    assert counts[15][0] > counts[10][0]                    # finer at street level
    width, height = png_size(out / "clusters_la.png")
    assert (abs(width - 1200) <= 2 and abs(height - 460) <= 2), (width, height)
    png_size(ROOT / "docs" / "img" / "clusters_la.png")
    assert "docs/img/clusters_la.png" in (ROOT / "README.md").read_text()
