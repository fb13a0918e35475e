"""README.md's JavaScript example works as written: the block marked `<!-- test: js -->` runs
under Node against bindings/js (its `import ... from "pindrop"` pointed at the package's
index.js) and gives the same drag as the C and Python examples: LIFTED, DRAGGED, DROPPED and
MOVED for tree 5603, landing 40 points above the finger."""
from __future__ import annotations

import math
import re
import shutil
import subprocess

import pytest

from recording import ROOT


def test_the_readme_javascript_example(tmp_path):
    text = (ROOT / "README.md").read_text()
    m = re.search(r"<!-- test: js -->\n```js\n(.*?)\n```", text, re.S)
    assert m, "README.md has no tested js example"
    code = m.group(1)
    assert len(code.splitlines()) <= 16
    index = (ROOT / "bindings" / "js" / "index.js").as_uri()
    script = tmp_path / "example.mjs"
    script.write_text(code.replace('from "pindrop"', f'from "{index}"') + "\n")
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make test-js installs it)")
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True, timeout=60).stdout
    lines = [line.split() for line in out.splitlines()]
    kinds = [w[0] for w in lines]
    for kind in ("LIFTED", "DRAGGED", "DROPPED", "MOVED"):
        assert kind in kinds, out
    assert kinds.index("LIFTED") < kinds.index("DRAGGED") < kinds.index("DROPPED") < kinds.index("MOVED")
    moved = lines[kinds.index("MOVED")]
    assert moved[1] == "5603"
    lon, lat = float(moved[2]), float(moved[3])
    # 40 points above the finger at (255, 382): screen (255, 342), by the Web Mercator formula.
    world = 256 * 2 ** 19
    cx = (-118.3535474 + 180) / 360 * world
    cy = (1 - math.log(math.tan(math.pi / 4 + math.radians(33.8870931) / 2)) / math.pi) / 2 * world
    ex = (cx + 255 - 195) / world * 360 - 180
    ey = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * (cy + 342 - 422) / world))))
    assert abs(lon - ex) < 1e-9 and abs(lat - ey) < 1e-9
