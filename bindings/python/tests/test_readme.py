"""The examples of README.md work as written: each block marked `<!-- test: c -->` or
`<!-- test: python -->` is extracted, built or run, and its output checked."""
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[3]
LIBDIR = ROOT / ".build" / "release"


def block(language):
    text = (ROOT / "README.md").read_text()
    m = re.search(rf"<!-- test: {language} -->\n```{language}\n(.*?)\n```", text, re.S)
    assert m, f"README.md has no tested {language} example"
    return m.group(1)


def test_examples_are_short():
    assert len(block("c").splitlines()) <= 16
    assert len(block("python").splitlines()) <= 16


def test_c_example(tmp_path):
    source = tmp_path / "hello.c"
    source.write_text(block("c") + "\n")
    exe = tmp_path / "hello"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{ROOT / 'include'}",
                    str(source), "-o", str(exe), f"-L{LIBDIR}", "-lpindrop", f"-Wl,-rpath,{LIBDIR}", "-lm"],
                   check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=30).stdout
    lines = re.findall(r"event (\d+): tree (\d+) at (\S+), (\S+)", out)
    types = [int(t) for t, *_ in lines]
    # LIFTED (2), DRAGGED (3), DROPPED (4), MOVED (6) — in that order, all for tree 5603.
    for kind in (2, 3, 4, 6):
        assert kind in types, out
    assert types.index(2) < types.index(3) < types.index(4)
    assert types.index(3) < types.index(6)
    assert {tree for _, tree, _, _ in lines} == {"5603"}
    # MOVED lands 40 points above the finger at (255, 382): screen (255, 342), by the Web Mercator formula.
    lon, lat = (float(v) for v in next((x, y) for t, _, x, y in lines if t == "6"))
    world = 256 * 2 ** 19
    cx = (-118.3535474 + 180) / 360 * world
    cy = (1 - math.log(math.tan(math.pi / 4 + math.radians(33.8870931) / 2)) / math.pi) / 2 * world
    ex = (cx + 255 - 195) / world * 360 - 180
    ey = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (cy + 342 - 422) / world))))
    assert abs(lon - ex) < 2e-7 and abs(lat - ey) < 2e-7  # printed with 7 decimals


def test_python_example(tmp_path):
    out = subprocess.run([sys.executable, "-c", block("python")], cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    for kind in ("LIFTED", "DRAGGED", "DROPPED", "MOVED"):
        assert re.search(rf"{kind}\s+id=5603", out), out
    landed = re.search(r"landed at \((\S+), (\S+)\) 40 points above the finger: \((\S+), (\S+)\)", out)
    a = [float(v) for v in landed.groups()]
    assert abs(a[0] - a[2]) < 1e-9 and abs(a[1] - a[3]) < 1e-9
    ring = [[float(v) for v in re.findall(r"-?\d+\.\d+", line)] for line in out.splitlines() if line.strip().startswith("[")]
    ring = [r for r in ring if len(r) == 2]
    assert len(ring) == 5 and len({tuple(r) for r in ring}) == 5  # five distinct drawn positions


def test_readme_links_and_pictures_exist():
    text = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not re.match(r"https?://", t)]
    assert "include/pindrop.h" in local and "docs/img/stack_after.png" in local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_the_package_readme_example(tmp_path):
    text = (ROOT / "bindings" / "python" / "README.md").read_text()
    code = re.search(r"```python\n(.*?)\n```", text, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, capture_output=True,
                         text=True, timeout=60).stdout
    moved = re.search(r"MOVED\s+id=1\s+\((\S+), (\S+)\) -> \((\S+), (\S+)\)\s+cause=DRAG", out)
    assert moved, out
    # The mouse moved 60 points east at zoom 19 with lift_height 0: the pin moved 60 points east.
    dlon = float(moved.group(3)) - float(moved.group(1))
    assert dlon == pytest.approx(60 / (256 * 2 ** 19) * 360, abs=2e-7)
    assert moved.group(2) == moved.group(4)
