// The module's heap (4 GB at most): out of memory is NoMemory on the call that asked, every other
// map lives on, and a large map's memory is reused by the next one. One process: the tests run in
// order, the first on a fresh heap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { __memoryBytes, Map } from "../index.js";
import { need } from "../src/load.js";
import { ready } from "./common.js";

const MB = 2 ** 20;

/** n pins spread over Los Angeles (a fixed pseudo-random sequence): ids 0..n-1. */
function pins(n) {
  const ids = new Float64Array(n), ll = new Float64Array(2 * n);
  let s = 1;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < n; i++) { ids[i] = i; ll[2 * i] = -118.7 + 0.6 * next(); ll[2 * i + 1] = 33.7 + 0.6 * next(); }
  return [ids, ll];
}

function bigMap(ids, ll) {
  const m = new Map({ clusterRadius: 60 });
  m.setCamera(-118.4, 34, 10, 1024, 768);
  m.addMany(ids, ll);
  assert.ok(m.clusters(0).count > 0);
  m.frame(0);
  return m;
}

test("a second large map reuses the memory the first gave back (916k, dispose, 916k)", async () => {
  await ready;
  const [ids, ll] = pins(916114);
  const a = bigMap(ids, ll);
  a.dispose();
  const first = __memoryBytes();
  const b = bigMap(ids, ll);
  b.dispose();
  const second = __memoryBytes();
  assert.ok(second - first <= 4 * MB,
    `the heap grew from ${(first / MB).toFixed(1)} MB to ${(second / MB).toFixed(1)} MB for the same map made again`);
});

test("addMany of 36M pins is NoMemory, nothing added, and the other maps answer", async () => {
  await ready;
  const keep = new Map();
  keep.setCamera(-118.35, 33.9, 16, 800, 600);
  keep.add(7, -118.35, 33.9);
  const big = new Map();
  big.add(1, -118.3, 34);
  const n = 36_000_000;
  const ids = new Float64Array(n);
  for (let i = 0; i < n; i++) ids[i] = i + 10;
  const ll = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i += 2) { ll[i] = -118.4; ll[i + 1] = 34; }
  assert.throws(() => big.addMany(ids, ll), (e) => {
    assert.equal(e.name, "NoMemory", e.message);
    assert.equal(e.status, -7);
    assert.match(e.message, /out of memory|could not give/);
    return true;
  });
  assert.equal(big.count, 1, "all or nothing: the map keeps its one pin");
  assert.deepEqual(big.position(1), [-118.3, 34]);
  big.add(2, -118.31, 34);
  assert.equal(big.count, 2);
  assert.deepEqual(keep.position(7), [-118.35, 33.9]);
  assert.equal(keep.frame(0).count, 1);
  keep.dispose(); big.dispose();
});

test("making maps until NoMemory: the call that asked fails, the earlier maps answer and dispose", async () => {
  await ready;
  const l = need("test");
  // The heap filled first with blocks malloc'd and never touched, all but one hole of 24 MB at the
  // bottom, so that the maps fill the rest quickly (and their memory stays below 2 GB, where
  // JavaScript numbers it as the module does).
  const hole = l.f.malloc(24 * MB);
  assert.ok(hole > 0);
  const held = [];
  for (const size of [256 * MB, 16 * MB, MB, 64 << 10, 4 << 10, 256]) {
    for (;;) { const p = l.f.malloc(size); if (!p) break; held.push(p); }
  }
  l.f.free(hole);
  const [ids, ll] = pins(2000);
  const maps = [];
  let failure = null;
  for (let i = 0; i < 100000 && !failure; i++) {
    try {
      const m = new Map({ clusterRadius: 60 });
      maps.push(m);
      m.setCamera(-118.4, 34, 10, 1024, 768);
      m.addMany(ids, ll);
      m.clusters(i);  // builds the cluster levels
    } catch (e) { failure = e; }
  }
  assert.ok(failure, "the heap ran out");
  assert.equal(failure.name, "NoMemory", failure.stack);
  assert.ok(maps.length >= 2, `${maps.length} maps before NoMemory`);
  assert.equal(failure.status, -7);
  // Every map made before answers (the last one as far as it got: no pins when its addMany
  // failed, its pins but no clusters yet when its first clusters() did).
  const t = 1e6;
  for (const m of maps.slice(0, -1)) {
    assert.equal(m.count, 2000);
    assert.deepEqual(m.position(0), [ll[0], ll[1]]);
    assert.ok(m.clusters(t).count > 0);
  }
  assert.ok([0, 2000].includes(maps.at(-1).count));
  for (const m of maps) m.dispose();
  for (const p of held) l.f.free(p);
  // The memory given back serves a new map.
  const again = new Map();
  again.addMany(ids, ll);
  assert.equal(again.count, 2000);
  again.dispose();
});
