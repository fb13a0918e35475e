// Stacks that open on demand (behaviour 22, spreadOnTap) and the 0.3 clustering options
// (clusterMinPoints, clusterByCategory), with explicit times.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Map, CLUSTER_STACK, CLUSTER_ONE_SPOT, CATEGORY_MIXED, PIN_SPREAD, NotFound } from "../index.js";
import { ready, types } from "./common.js";

const LON = -118.2, LAT = 33.8;

/** Four pins on one spot (a stack) and pin 9 alone 46 m east, at zoom 18 in a 1200 x 800 view. */
async function stackMap(options = {}) {
  await ready;
  const m = new Map({ spreadOnTap: true, ...options });
  m.setCamera(LON, LAT, 18, 1200, 800);
  for (let i = 1; i <= 4; i++) m.add(i, LON, LAT);
  m.add(9, LON + 0.0005, LAT);
  return m;
}

function stacks(m, t) {
  const c = m.clusters(t), out = [];
  for (let i = 0; i < c.count; i++) {
    if (c.flags[i] & CLUSTER_STACK) out.push({ key: c.key[i], x: c.x[i], y: c.y[i], lon: c.lon[i], lat: c.lat[i], size: c.size[i], flags: c.flags[i] });
  }
  return out;
}

test("a collapsed stack: a held press lifts nothing, a tap opens it (STACK_OPENED), Esc closes it", async () => {
  const m = await stackMap();
  assert.deepEqual([...m.frame(0).id], [9], "the stack's pins are not drawn one by one");
  const all = stacks(m, 0);
  assert.equal(all.length, 1);
  const [s] = all;
  assert.equal(typeof s.key, "bigint");
  assert.equal(s.key >> 59n, 31n, "a stack key has its top five bits set");
  assert.ok(s.key > 2n ** 53n, "beyond what a Number holds exactly");
  assert.deepEqual([s.size, s.lon, s.lat, s.flags & CLUSTER_STACK], [4, LON, LAT, CLUSTER_STACK]);
  assert.ok(Math.abs(s.x - 600) < 1e-6 && Math.abs(s.y - 400) < 1e-6);
  assert.deepEqual(m.clusterMembers(s.key), [1, 2, 3, 4]);
  assert.equal(m.clusterExpansionZoom(s.key), 18, "no zoom separates a stack: the view's zoom");
  assert.equal(m.hitTest(600, 400), null);
  assert.deepEqual(m.displayPosition(2), [LON, LAT]);

  // A press held well past the lift delay (250 ms) lifts nothing and says nothing.
  assert.equal(m.touch(0, "down", 600, 400, 10), true);
  m.advance(1000);
  assert.equal(m.touch(0, "up", 600, 400, 1010), true);
  assert.deepEqual(m.events(), []);
  // A tap opens it.
  m.touch(0, "down", 600, 400, 1100);
  m.touch(0, "up", 600, 400, 1140);
  const [e, ...rest] = m.events();
  assert.deepEqual(rest, []);
  assert.deepEqual([e.type, e.key, e.request, e.id, e.lon, e.lat, e.timeMs], ["STACK_OPENED", s.key, s.key, null, LON, LAT, 1140]);
  const f = m.frame(1200);
  assert.deepEqual([...f.id].sort(), [1, 2, 3, 4, 9]);
  for (let i = 0; i < f.count; i++) assert.equal(Boolean(f.flags[i] & PIN_SPREAD), f.id[i] !== 9, `pin ${f.id[i]} spread`);
  assert.deepEqual(stacks(m, 1200), []);
  const i3 = [...f.id].indexOf(3);
  assert.equal(m.hitTest(f.x[i3], f.y[i3]), 3, "an open stack's pins are touchable");
  // Esc with no gesture under way closes it.
  m.cancelGesture(1300);
  assert.deepEqual(m.events().map((e) => [e.type, e.key, e.timeMs]), [["STACK_CLOSED", s.key, 1300]]);
  assert.deepEqual([...m.frame(1300).id], [9]);
  m.dispose();
});

test("openStack and closeStack by key, as a BigInt; stale keys and spreadOnTap off are NotFound", async () => {
  const m = await stackMap();
  m.closeStack(0);
  assert.deepEqual(m.events(), [], "none open: nothing");
  const [s] = stacks(m, 0);
  m.openStack(s.key, 10);
  m.openStack(s.key, 20);   // already open: nothing
  m.closeStack(30);
  m.closeStack(40);         // none open: nothing
  assert.deepEqual(types(m.events()), ["STACK_OPENED", "STACK_CLOSED"]);
  assert.throws(() => m.openStack(Number(s.key), 41), { name: "TypeError", message: /key must be a non-negative safe integer or a BigInt/ });
  m.setPosition(4, LON - 0.001, LAT);   // pin 4 leaves the group: its key is stale
  assert.throws(() => m.openStack(s.key, 50), (e) => e instanceof NotFound && /stack/.test(e.message));
  assert.throws(() => m.clusterMembers(s.key), NotFound);
  assert.throws(() => m.clusterSummary(s.key), NotFound);
  const now = stacks(m, 50);
  assert.equal(now.length, 1);
  assert.equal(now[0].size, 3);
  assert.notEqual(now[0].key, s.key);
  assert.deepEqual(m.clusterMembers(now[0].key), [1, 2, 3]);
  assert.throws(() => m.openStack(now[0].key, 49), { name: "InvalidArgument" }, "time going back");
  assert.throws(() => m.openStack(0, 60), NotFound);
  assert.throws(() => m.openStack(-1, 60), TypeError);
  assert.throws(() => m.openStack(now[0].key, "60"), TypeError);
  assert.throws(() => m.closeStack(NaN), { name: "InvalidArgument" });
  assert.deepEqual(m.events(), []);
  m.dispose();

  const off = await stackMap({ spreadOnTap: false });
  assert.deepEqual([...off.frame(0).id].sort(), [1, 2, 3, 4, 9]);
  assert.deepEqual(stacks(off, 0), []);
  assert.throws(() => off.openStack(31n << 59n, 0), { name: "NotFound", message: /spread_on_tap is off/ });
  off.dispose();
});

test("the 0.3 options: validation, and clusterMinPoints and clusterByCategory change the clusters", async () => {
  await ready;
  assert.throws(() => new Map({ spreadOnTap: 2 }), { name: "TypeError", message: /spreadOnTap must be a boolean/ });
  assert.throws(() => new Map({ clusterByCategory: "yes" }), { name: "TypeError", message: /clusterByCategory/ });
  assert.throws(() => new Map({ clusterMinPoints: 2.5 }), { name: "TypeError", message: /clusterMinPoints must be an unsigned 32-bit integer/ });
  assert.throws(() => new Map({ clusterMinPoints: -1 }), TypeError);
  assert.throws(() => new Map({ clusterMinPoints: 1 }), { name: "InvalidArgument", message: /cluster_min_points/ });
  new Map({ clusterMinPoints: 5, clusterByCategory: 1, spreadOnTap: 0 }).dispose();

  // Three pins about 10 m apart at A and two at B, 4.6 km (146 points) away: at zoom 12 each group
  // is one cluster.
  const build = (options) => {
    const m = new Map({ clusterRadius: 60, spreadMode: "off", ...options });
    m.setCamera(LON, LAT, 12, 800, 600);
    m.addMany([1, 2, 3, 11, 12], [LON, LAT, LON + 1e-4, LAT, LON, LAT + 1e-4, LON + 0.05, LAT, LON + 0.0501, LAT]);
    return m;
  };
  const sizes = (m) => [...m.clusters(0).size].sort();
  const a = build({});
  assert.deepEqual(sizes(a), [2, 3]);
  a.dispose();
  const b = build({ clusterMinPoints: 3 });
  assert.deepEqual(sizes(b), [3], "the pair would hold fewer than 3: not formed");
  assert.deepEqual([...b.frame(0).id].sort(), [11, 12]);
  b.dispose();

  // Categories 1, 1, 2 at A: one mixed cluster, or with clusterByCategory the two pins of 1 only.
  for (const byCategory of [false, true]) {
    const m = build({ clusterByCategory: byCategory });
    m.setAttributes([1, 2, 3, 11, 12], null, [1, 1, 2, 4, 4]);
    const c = m.clusters(0);
    const found = [];
    for (let i = 0; i < c.count; i++) found.push([m.clusterMembers(c.key[i]), m.clusterSummary(c.key[i]).category]);
    found.sort((p, q) => p[0][0] - q[0][0]);
    assert.deepEqual(found, byCategory ? [[[1, 2], 1], [[11, 12], 4]] : [[[1, 2, 3], CATEGORY_MIXED], [[11, 12], 4]]);
    assert.deepEqual([...m.frame(0).id], byCategory ? [3] : []);
    m.dispose();
  }
});

test("a stack's summary sums its pins and is ONE_SPOT", async () => {
  const m = await stackMap();
  m.setAttributes([1, 2, 3, 4], [10, 20.5, NaN, 0.25], 6);
  const [s] = stacks(m, 0);
  assert.deepEqual(m.clusterSummary(s.key), { count: 4, valued: 3, category: 6, flags: CLUSTER_ONE_SPOT,
    valueSum: 30.75, valueMin: 0.25, valueMax: 20.5, valueMean: 10.25 });
  assert.deepEqual(m.clusterCategories(s.key), { category: Uint32Array.of(6), count: Uint32Array.of(4) });
  m.dispose();
});
