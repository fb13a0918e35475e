// nearby against a brute-force great-circle search over the Lawndale trees: ids, distances and
// order (nearest first, ties by lower id), with and without a limit, and through the BigInt ids.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Map } from "../index.js";
import { ready, closeTo } from "./common.js";

const csv = fileURLToPath(new URL("../../../examples/data/lawndale_trees.csv", import.meta.url));
const trees = readFileSync(csv, "utf8").trim().split("\n").slice(1).map((line) => {
  const [id, lon, lat] = line.split(",");
  return { id: Number(id), lon: Number(lon), lat: Number(lat) };
});

// Haversine on the sphere of radius 6378137 m (SPEC's conventions), written here on its own.
function metres(lon1, lat1, lon2, lat2) {
  const r = Math.PI / 180, s1 = Math.sin((lat2 - lat1) * r / 2), s2 = Math.sin((lon2 - lon1) * r / 2);
  const a = s1 * s1 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * s2 * s2;
  return 2 * 6378137 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function bruteForce(lon, lat, radius) {
  return trees.map((t) => ({ id: t.id, d: metres(lon, lat, t.lon, t.lat) }))
    .filter((h) => h.d <= radius)
    .sort((a, b) => a.d - b.d || a.id - b.id);
}

function loaded(options = {}) {
  const m = new Map(options);
  m.addMany(trees.map((t) => t.id), new Float64Array(trees.flatMap((t) => [t.lon, t.lat])));
  return m;
}

test("nearby finds what a brute-force search finds, nearest first, with the right distances", async () => {
  await ready;
  const m = loaded();
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let q = 0; q < 60; q++) {
    const t = trees[Math.floor(random() * trees.length)];
    const lon = t.lon + (random() - 0.5) * 4e-4, lat = t.lat + (random() - 0.5) * 4e-4;
    const radius = [5, 20, 80][q % 3];
    const got = m.nearby(lon, lat, radius), want = bruteForce(lon, lat, radius);
    // A pin within a nanometre of the radius may fall either side of it between two formulas.
    const sure = want.filter((h) => h.d < radius - 1e-6);
    assert.ok(got.length >= sure.length && got.length <= want.length, `query ${q}: ${got.length} hits, brute force ${want.length}`);
    for (let i = 0; i < got.length; i++) {
      assert.equal(typeof got[i].id, "number");
      const expected = want.find((h) => h.id === got[i].id);
      assert.ok(expected, `query ${q}: hit ${got[i].id} is not within ${radius} m`);
      closeTo(got[i].distanceM, expected.d, 1e-6, `query ${q}: distance to ${got[i].id}`);
      if (i > 0) assert.ok(got[i - 1].distanceM < got[i].distanceM || (got[i - 1].distanceM === got[i].distanceM && got[i - 1].id < got[i].id));
    }
    const limited = m.nearby(lon, lat, radius, 3);
    assert.deepEqual(limited, got.slice(0, 3), `query ${q}: the first three`);
  }
  m.dispose();
});

test("nearby's ids come back as BigInts on a map that asks for them", async () => {
  await ready;
  const m = loaded({ bigintIds: true });
  const t = trees[100];
  const got = m.nearby(t.lon, t.lat, 30), want = bruteForce(t.lon, t.lat, 30);
  assert.deepEqual(got.map((h) => h.id), want.map((h) => BigInt(h.id)));
  m.dispose();
});
