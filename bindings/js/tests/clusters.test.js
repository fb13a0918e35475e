import { test } from "node:test";
import assert from "node:assert/strict";
import { mouseMap, types } from "./common.js";

/** A 30 x 30 grid of pins about 100 m apart around (-118.35, 33.9). */
function grid(m) {
  const ids = [], ll = [];
  for (let i = 0; i < 30; i++) for (let j = 0; j < 30; j++) {
    ids.push(i * 30 + j + 1);
    ll.push(-118.35 + (i - 15) * 0.001, 33.9 + (j - 15) * 0.0009);
  }
  m.addMany(ids, new Float64Array(ll));
  return ids.length;
}

test("clusters account for every pin in view, their members and expansion zoom agree", async () => {
  const m = await mouseMap({ clusterRadius: 60, clusterMaxZoom: 17 });
  const n = grid(m);
  m.setCamera(-118.35, 33.9, 12, 1200, 1200);
  const f = m.frame(1), c = m.clusters(1);
  assert.ok(c.count > 0, "clusters at zoom 12");
  let total = f.count;
  const seen = new Set();
  for (let i = 0; i < c.count; i++) {
    assert.ok(c.size[i] >= 2);
    total += c.size[i];
    const members = m.clusterMembers(c.key[i]);
    assert.equal(members.length, c.size[i]);
    for (const id of members) { assert.ok(!seen.has(id)); seen.add(id); }
    // The cluster's point is its members' mean Web Mercator point (kept in 2^-31 fixed point: a
    // thousandth of a point at zoom 12).
    let sx = 0, sy = 0;
    for (const id of members) { const [x, y] = m.toScreen(...m.position(id)); sx += x; sy += y; }
    assert.ok(Math.abs(sx / members.length - c.x[i]) < 1e-3 && Math.abs(sy / members.length - c.y[i]) < 1e-3);
    const z = m.clusterExpansionZoom(c.key[i]);
    assert.ok(z > 12 && z <= 17, `expansion zoom ${z}`);
  }
  for (let i = 0; i < f.count; i++) assert.ok(!seen.has(f.id[i]), "a clustered pin is not also drawn alone");
  assert.equal(total, n);
  // At the max zoom no clusters.
  m.setCamera(-118.35, 33.9, 17, 1200, 1200);
  assert.equal(m.clusters(2).count, 0);
  m.dispose();
});

test("a tap on a cluster reports CLUSTER_TAPPED with its key and position; no pin id", async () => {
  const m = await mouseMap({ clusterRadius: 60 });
  grid(m);
  m.setCamera(-118.35, 33.9, 11, 800, 600);
  const c = m.clusters(0);
  assert.ok(c.count >= 1);
  const key = c.key[0], x = c.x[0], y = c.y[0];
  m.touch(0, "down", x, y, 10);
  m.touch(0, "up", x, y, 60);
  m.advance(1000);
  const ev = m.events().filter((e) => e.type === "CLUSTER_TAPPED");
  assert.equal(ev.length, 1);
  assert.equal(ev[0].key, key);
  assert.equal(ev[0].id, null);
  assert.ok(Math.abs(ev[0].lon - c.lon[0]) < 1e-12);
  m.dispose();
});

test("clusters follow moves and removals; stale keys are NotFound", async () => {
  const m = await mouseMap({ clusterRadius: 60 });
  grid(m);
  m.setCamera(-118.35, 33.9, 12, 1200, 1200);
  const before = m.clusters(0);
  const key = before.key[0];
  const members = m.clusterMembers(key);
  for (const id of members) m.remove(id);
  const after = m.clusters(1);
  let total = m.frame(1).count;
  for (let i = 0; i < after.count; i++) total += after.size[i];
  assert.equal(total, 900 - members.length);
  assert.throws(() => m.clusterMembers(2 ** 40), { name: "NotFound" });
  assert.throws(() => m.clusterExpansionZoom(12345), { name: "NotFound" });
  assert.deepEqual(types(m.events()), []);
  m.dispose();
});

test("frame() and clusters() reuse their buffers: a second call overwrites the first", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  const a = m.frame(0);
  m.setPosition(1, -118.351, 33.9);
  const b = m.frame(1);
  assert.equal(a.x.buffer, b.x.buffer, "the same storage");
  assert.equal(a.x[0], b.x[0]);
  m.dispose();
});
