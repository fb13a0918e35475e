// Clusters that say what they hold (behaviour 19): setAttributes, clusterSummary,
// clusterCategories, clusterMembers paged, and what they refuse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Map, CATEGORY_MIXED, CLUSTER_ONE_SPOT, NotFound, InvalidArgument } from "../index.js";
import { ready } from "./common.js";

const LON = -118.2, LAT = 33.8;

/** Pins 1..5 within 15 m of each other at zoom 12 (one cluster), pins 20, 21 on one spot 4.6 km
 *  east (another), and the cluster holding `id`. */
async function summaryMap() {
  await ready;
  const m = new Map({ clusterRadius: 60, spreadMode: "off" });
  m.setCamera(LON, LAT, 12, 800, 600);
  m.addMany([1, 2, 3, 4, 5, 20, 21], [LON, LAT, LON + 1e-4, LAT, LON, LAT + 1e-4, LON + 1e-4, LAT + 1e-4,
    LON + 5e-5, LAT + 5e-5, LON + 0.05, LAT, LON + 0.05, LAT]);
  return m;
}

function keyOf(m, id, t = 0) {
  const c = m.clusters(t);
  for (let i = 0; i < c.count; i++) if (m.clusterMembers(c.key[i]).includes(id)) return c.key[i];
  throw new Error(`pin ${id} is in no cluster`);
}

test("summaries and categories against sums written out, following attribute changes and removals", async () => {
  const m = await summaryMap();
  const k = keyOf(m, 1);
  assert.equal(typeof k, "bigint");
  // No attributes yet: values NaN (none), category 0.
  assert.deepEqual(m.clusterSummary(k), { count: 5, valued: 0, category: 0, flags: 0,
    valueSum: NaN, valueMin: NaN, valueMax: NaN, valueMean: NaN });

  m.setAttributes([1, 2, 3, 4, 5], [1.5, 2.25, NaN, 4, -0.75], [7, 7, 3, 7, 3]);
  // valued: 1.5, 2.25, 4, -0.75 → 4 of them, sum 7, min -0.75, max 4, mean 1.75; categories 7 ×3, 3 ×2.
  assert.deepEqual(m.clusterSummary(k), { count: 5, valued: 4, category: CATEGORY_MIXED, flags: 0,
    valueSum: 7, valueMin: -0.75, valueMax: 4, valueMean: 1.75 });
  assert.deepEqual(m.clusterCategories(k), { category: Uint32Array.of(7, 3), count: Uint32Array.of(3, 2) });

  // Typed arrays, a scalar for all, and null leaving an attribute as it is.
  m.setAttributes(new BigInt64Array([3n, 5n]), Float64Array.of(10, 0.5), null);
  // values 1.5, 2.25, 10, 4, 0.5 → sum 18.25, min 0.5, max 10, mean 3.65; categories unchanged.
  const s = m.clusterSummary(k);
  assert.deepEqual([s.valued, s.valueSum, s.valueMin, s.valueMax, s.category], [5, 18.25, 0.5, 10, CATEGORY_MIXED]);
  assert.ok(Math.abs(s.valueMean - 3.65) < 1e-15);
  m.setAttributes([1, 2, 3, 4, 5], undefined, 9);
  assert.deepEqual(m.clusterCategories(k), { category: Uint32Array.of(9), count: Uint32Array.of(5) });
  assert.equal(m.clusterSummary(k).category, 9);
  assert.equal(m.clusterSummary(k).valueSum, 18.25, "values kept");
  m.setAttributes([2, 4], [NaN, NaN], Uint32Array.of(4, 4));
  // values 1.5, 10, 0.5 → sum 12, min 0.5, max 10; categories 9 ×3, 4 ×2.
  assert.deepEqual(m.clusterSummary(k), { count: 5, valued: 3, category: CATEGORY_MIXED, flags: 0,
    valueSum: 12, valueMin: 0.5, valueMax: 10, valueMean: 4 });
  assert.deepEqual(m.clusterCategories(k), { category: Uint32Array.of(9, 4), count: Uint32Array.of(3, 2) });

  // A member leaves: the key is stale; the new cluster sums the four left (1.5, 0.5: sum 2).
  m.remove(3);
  assert.throws(() => m.clusterSummary(k), NotFound);
  assert.throws(() => m.clusterCategories(k), NotFound);
  const k2 = keyOf(m, 1, 1);
  assert.notEqual(k2, k);
  assert.deepEqual(m.clusterSummary(k2), { count: 4, valued: 2, category: CATEGORY_MIXED, flags: 0,
    valueSum: 2, valueMin: 0.5, valueMax: 1.5, valueMean: 1 });
  // Pins on one spot: ONE_SPOT in the summary and the view.
  const k20 = keyOf(m, 20, 1);
  assert.equal(m.clusterSummary(k20).flags, CLUSTER_ONE_SPOT);
  const c = m.clusters(1);
  assert.equal(c.flags[[...c.key].indexOf(k20)] & CLUSTER_ONE_SPOT, CLUSTER_ONE_SPOT);
  // A key that is a safe integer may be passed as a Number; one beyond 2^53 must stay a BigInt.
  if (k20 <= BigInt(Number.MAX_SAFE_INTEGER)) assert.deepEqual(m.clusterSummary(Number(k20)), m.clusterSummary(k20));
  else assert.throws(() => m.clusterSummary(Number(k20)), { name: "TypeError", message: /pass a BigInt|safe integer/ });
  m.dispose();
});

test("clusterMembers pages through 900 members in ascending id order", async () => {
  await ready;
  const m = new Map({ clusterRadius: 60 });
  const ids = [], ll = [];
  for (let i = 0; i < 30; i++) for (let j = 0; j < 30; j++) {
    ids.push(900 - (i * 30 + j));   // added in descending order: the answer's order is the map's own
    ll.push(LON + (i - 15) * 0.001, LAT + (j - 15) * 0.0009);
  }
  m.addMany(ids, ll);
  m.setCamera(LON, LAT, 8, 800, 600);
  const c = m.clusters(0);
  assert.equal(c.count, 1);
  assert.equal(c.size[0], 900);
  const key = c.key[0];
  const all = Array.from({ length: 900 }, (_, i) => i + 1);
  assert.deepEqual(m.clusterMembers(key), all);
  const paged = [];
  for (let offset = 0; offset < 900; offset += 256) {
    const page = m.clusterMembers(key, offset, 256);
    assert.equal(page.length, Math.min(256, 900 - offset));
    paged.push(...page);
  }
  assert.deepEqual(paged, all);
  assert.deepEqual(m.clusterMembers(key, 300), all.slice(300));
  assert.deepEqual(m.clusterMembers(key, 899, 10), [900]);
  assert.deepEqual(m.clusterMembers(key, 900), []);
  assert.deepEqual(m.clusterMembers(key, 2 ** 40), []);
  assert.deepEqual(m.clusterMembers(key, 5, 0), []);
  assert.deepEqual(m.clusterMembers(key, 0, 3), [1, 2, 3]);
  assert.deepEqual(m.clusterMembers(key, 0, Infinity).length, 900);
  for (const [offset, limit] of [[-1, 1], [1.5, 1], ["1", 1], [0, -1], [0, 2.5], [0, null], [Infinity, 1]]) {
    assert.throws(() => m.clusterMembers(key, offset, limit), TypeError, `offset ${offset}, limit ${limit}`);
  }
  m.remove(450);
  assert.throws(() => m.clusterMembers(key, 0, 10), (e) => e instanceof NotFound && e.message.length > 0);
  assert.throws(() => m.clusterMembers(key, 900), NotFound, "a stale key is refused even past the end");
  const fresh = m.clusters(1).key[0];
  assert.deepEqual(m.clusterMembers(fresh, 448, 3), [449, 451, 452]);
  const b = new Map({ clusterRadius: 60, bigintIds: true });
  b.addMany(ids, ll);
  b.setCamera(LON, LAT, 8, 800, 600);
  assert.deepEqual(b.clusterMembers(b.clusters(0).key[0], 0, 2), [1n, 2n]);
  b.dispose();
  m.dispose();
});

test("setAttributes, clusterSummary, clusterCategories refuse bad input and change nothing", async () => {
  const m = await summaryMap();
  m.setAttributes([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 1, 1, 1, 1]);
  const k = keyOf(m, 1);
  const before = m.clusterSummary(k);
  assert.deepEqual([before.valueSum, before.category], [15, 1]);
  const typeErrors = [
    () => m.setAttributes("12", [1, 2]),
    () => m.setAttributes(5, 1),
    () => m.setAttributes([1, 2.5], [1, 2]),
    () => m.setAttributes([1, 2 ** 60], [1, 2]),
    () => m.setAttributes([1, 2], ["1", 2]),
    () => m.setAttributes([1, 2], null, [1, -1]),
    () => m.setAttributes([1, 2], null, [1, 1.5]),
    () => m.setAttributes([1, 2], null, [1, 2 ** 32]),
    () => m.setAttributes([1, 2], null, -3),
    () => m.setAttributes([1, 2], "1"),
    () => m.setAttributes([1, 2], null, "1"),
    () => m.clusterSummary("1"),
    () => m.clusterSummary(-1),
    () => m.clusterSummary(1.5),
    () => m.clusterCategories(null),
  ];
  for (const f of typeErrors) assert.throws(f, TypeError, f.toString());
  const refused = [
    [() => m.setAttributes([1, 2], [1]), InvalidArgument, /values has 1 entries for 2 ids/],
    [() => m.setAttributes([1, 2], null, Uint32Array.of(1, 2, 3)), InvalidArgument, /categories has 3/],
    [() => m.setAttributes([1, 99], [100, 100]), NotFound, /99/],
    [() => m.setAttributes([1, 2], [100, Infinity]), InvalidArgument, /inf|finite/i],
    [() => m.setAttributes([1, 2], null, [5, CATEGORY_MIXED]), InvalidArgument, /MIXED|4294967295/i],
    [() => m.clusterSummary(2n ** 64n), InvalidArgument, /64-bit/],
    [() => m.clusterSummary(12345), NotFound, /./],
    [() => m.clusterCategories(31n << 59n), NotFound, /./],
  ];
  for (const [f, E, message] of refused) {
    assert.throws(f, (e) => e instanceof E && message.test(e.message) && e.status < 0, f.toString());
  }
  assert.deepEqual(m.clusterSummary(k), before, "nothing changed");
  m.setAttributes([], [], []);
  m.setAttributes([1, 1], [7, 8]);   // a repeated id takes its last entry
  assert.equal(m.clusterSummary(k).valueSum, 15 - 1 + 8);
  m.dispose();
  assert.throws(() => m.clusterSummary(k), (e) => e.name === "StateError");
});
