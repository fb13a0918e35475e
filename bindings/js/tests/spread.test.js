import { test } from "node:test";
import assert from "node:assert/strict";
import { Map, spread, PIN_SPREAD } from "../index.js";
import { ready, mouseMap } from "./common.js";

test("pins sharing a coordinate are drawn on a ring around it, their anchors at the true point", async () => {
  const m = await mouseMap({ spreadMode: "ring" });
  const n = 6;
  m.addMany(Array.from({ length: n }, (_, i) => i + 1), new Float64Array(2 * n).map((_, i) => (i % 2 ? 33.9 : -118.35)));
  const f = m.frame(0);
  assert.equal(f.count, n);
  const xs = new Set();
  for (let i = 0; i < n; i++) {
    assert.ok(f.flags[i] & PIN_SPREAD, "flagged spread");
    assert.deepEqual([f.anchorX[i], f.anchorY[i]], [400, 300]);
    const r = Math.hypot(f.x[i] - 400, f.y[i] - 300);
    assert.ok(r > 1, "away from the true point");
    xs.add(`${f.x[i].toFixed(6)},${f.y[i].toFixed(6)}`);
  }
  assert.equal(xs.size, n, "every pin at its own place");
  // Drawn positions agree with displayPosition.
  const [lon, lat] = m.displayPosition(f.id[0]);
  const [x, y] = m.toScreen(lon, lat);
  assert.ok(Math.abs(x - f.x[0]) < 1e-6 && Math.abs(y - f.y[0]) < 1e-6);
  m.dispose();
});

test("spiral spreading keeps the spacing in screen points at every zoom", async () => {
  const m = await mouseMap({ spreadMode: "spiral", spreadSpacing: 25 });
  const n = 12;
  const ll = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) { ll[2 * i] = -118.35; ll[2 * i + 1] = 33.9; }
  m.addMany(Array.from({ length: n }, (_, i) => 100 + i), ll);
  for (const zoom of [12, 16, 19]) {
    m.setCamera(-118.35, 33.9, zoom, 800, 600);
    const f = m.frame(zoom);
    const d = [];
    for (let i = 0; i < f.count; i++) d.push(Math.hypot(f.x[i] - 400, f.y[i] - 300));
    d.sort((a, b) => a - b);
    assert.ok(d[0] > 20 && d[0] < 40, `innermost pin ${d[0]} points out at zoom ${zoom}`);
  }
  m.dispose();
});

test("spread() lays out a batch as the map does, leaves lone points alone", async () => {
  await ready;
  const pts = new Float64Array([1, 2, 1, 2, 1, 2, 5, 6]);
  const out = spread(pts);
  assert.equal(out.length, 8);
  assert.deepEqual([out[6], out[7]], [5, 6]);
  const cx = (out[0] + out[2] + out[4]) / 3, cy = (out[1] + out[3] + out[5]) / 3;
  assert.ok(Math.abs(cx - 1) < 1e-6 && Math.abs(cy - 2) < 1e-6, "centred on the shared point");
  assert.ok(out[0] !== 1 || out[1] !== 2, "the first point moved off the shared coordinate");
  const sp = spread(pts, { layout: "spiral", zoom: 15, spacing: 30 });
  assert.equal(sp.length, 8);
  assert.throws(() => spread(pts, { layout: "spiral" }), TypeError);
  assert.throws(() => spread(pts, { layout: "fan" }), TypeError);
  assert.throws(() => spread(new Float64Array([1, 2, 3])), { name: "InvalidArgument" });
  assert.throws(() => spread(new Float64Array([1, 200])), { name: "InvalidArgument", message: /200/ });
});
