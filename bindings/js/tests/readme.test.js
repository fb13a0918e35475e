// README.md's JavaScript example works as written: the block marked `<!-- test: js -->` runs under
// Node against this package (its `import ... from "pindrop"` pointed at index.js) and gives the
// same drag as the C and Python examples (bindings/python/tests/test_readme.py): LIFTED, DRAGGED,
// DROPPED and MOVED for tree 5603, landing 40 points above the finger.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const readme = new URL("../../../README.md", import.meta.url);

test("the README's JavaScript example runs as written and drags tree 5603 to 40 points above the finger", { skip: !existsSync(readme) && "no README beside the package" }, () => {
  const text = readFileSync(readme, "utf8");
  const m = /<!-- test: js -->\n```js\n([\s\S]*?)\n```/.exec(text);
  assert.ok(m, "README.md has no tested js example");
  const code = m[1];
  assert.ok(code.split("\n").length <= 16, `the example has ${code.split("\n").length} lines`);
  const index = new URL("../index.js", import.meta.url).href;
  const dir = mkdtempSync(join(tmpdir(), "pindrop-readme-"));
  let out;
  try {
    const script = join(dir, "example.mjs");
    writeFileSync(script, code.replaceAll('from "pindrop"', `from ${JSON.stringify(index)}`) + "\n");
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    out = r.stdout;
  } finally { rmSync(dir, { recursive: true, force: true }); }
  const lines = out.split("\n").filter((line) => line.length > 0).map((line) => line.split(/\s+/));
  const kinds = lines.map((w) => w[0]);
  for (const kind of ["LIFTED", "DRAGGED", "DROPPED", "MOVED"]) assert.ok(kinds.includes(kind), out);
  assert.ok(kinds.indexOf("LIFTED") < kinds.indexOf("DRAGGED") && kinds.indexOf("DRAGGED") < kinds.indexOf("DROPPED")
    && kinds.indexOf("DROPPED") < kinds.indexOf("MOVED"), out);
  const moved = lines[kinds.indexOf("MOVED")];
  assert.equal(moved[1], "5603");
  const lon = Number(moved[2]), lat = Number(moved[3]);
  // 40 points above the finger at (255, 382): screen (255, 342), by the Web Mercator formula.
  const world = 256 * 2 ** 19;
  const cx = (-118.3535474 + 180) / 360 * world;
  const cy = (1 - Math.log(Math.tan(Math.PI / 4 + (33.8870931 * Math.PI / 180) / 2)) / Math.PI) / 2 * world;
  const ex = (cx + 255 - 195) / world * 360 - 180;
  const ey = Math.atan(Math.sinh(Math.PI * (1 - 2 * (cy + 342 - 422) / world))) * 180 / Math.PI;
  assert.ok(Math.abs(lon - ex) < 1e-9 && Math.abs(lat - ey) < 1e-9, `MOVED to (${lon}, ${lat}), expected (${ex}, ${ey})`);
});
