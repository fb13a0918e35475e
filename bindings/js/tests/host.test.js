// The web host core (src/host) where no browser is needed: the clock that never goes back (and
// the Chromium case it exists for), the GeoJSON id rules, the store, the ONE_SPOT cluster's
// drawing against the focus ring's, and a host driven through a recording adapter.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PinMap, Map as OldMap, StateError, InvalidArgument, CLUSTER_ONE_SPOT, PIN_FOCUSED } from "../index.js";
import {
  MonotonicClock, PindropHost, PinStore, featuresOf, readFeatures, CategoryTable, toFeatureCollection, usableId,
  paintClusters, paintPins, focusRing,
} from "../src/host/index.js";
import { ready } from "./common.js";

test("PinMap is the map, and Map stays as its alias", async () => {
  await ready;
  assert.equal(OldMap, PinMap);
  const m = new PinMap({ liftDelayMs: 0 });
  m.dispose();
});

test("the clock never goes back, whatever it is offered", () => {
  let source = 100;
  const clock = new MonotonicClock(() => source);
  assert.equal(clock.now(), 100);
  assert.equal(clock.now(99.5), 100);          // an offer earlier than the last: the last
  assert.equal(clock.now(101.25), 101.25);
  source = 50;                                  // a source that jumps back
  assert.equal(clock.now(), 101.25);
  assert.equal(clock.now(NaN), 101.25);         // not an offer: the source's time, raised
  assert.equal(clock.now(Infinity), 101.25);
  const seen = [];
  for (const t of [3, 1, 7, 7, 2, 9.5, -1]) seen.push(clock.now(t));
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], seen.join(" "));
});

// Chromium: an input event's timeStamp can be earlier than the performance.now() of the last
// animation frame (the event was queued before the frame ran). The package README's old advice
// (event.timeStamp for touches, performance.now() for frames) then threw "time went backwards"
// and lost the press; through the host's clock the press goes in.
function replay(host, touch, frame) {
  frame(1000.4);                                // rAF: performance.now() = 1000.4
  const owned = touch(7, "down", 400, 300, 1000.1);   // the press, timeStamp 1000.1 (queued earlier)
  frame(1016.6);
  touch(7, "move", 430, 300, 1012.0);           // again behind the frame
  touch(7, "up", 430, 300, 1020.0);
  return owned;
}

test("Chromium's event.timeStamp earlier than the last frame's time: the host's clock takes the press", async () => {
  await ready;
  // the old advice, straight to the map: the press is refused ("time went backwards")
  const raw = new PinMap({ liftDelayMs: 0, liftHeight: 0 });
  raw.setCamera(-118.35, 33.9, 16, 800, 600);
  raw.add(1, -118.35, 33.9);
  assert.throws(() => replay(raw, (...a) => raw.touch(...a), (t) => raw.frame(t)), (e) => e instanceof InvalidArgument && /backwards/.test(e.message));
  raw.dispose();
  // through the host (its touch() and its clock), the same times: the pin is pressed, dragged, dropped
  const { host, fired } = await recordingHost({ input: "mouse" });
  host.map.add(1, -118.35, 33.9); host.store.add(1, -118.35, 33.9);
  const owned = replay(host, (p, ph, x, y, t) => host.touch(p, ph, x, y, t), (t) => host.map.frame(host.now(t)));
  assert.equal(owned, true);
  host.drain();
  const kinds = fired.map(([type]) => type);
  assert.ok(kinds.includes("pindragstart") && kinds.includes("pinmoved"), kinds.join(" "));
  const moved = fired.find(([type]) => type === "pinmoved")[1];
  assert.equal(moved.id, 1);
  assert.ok(moved.distanceM > 0);
  host.destroy();
});

async function recordingHost(options = {}) {
  await ready;
  const fired = [];
  const adapter = {
    container: null, canvas: null,
    camera: () => ({ centerLon: -118.35, centerLat: 33.9, zoom: 16, width: 800, height: 600, bearingDeg: 0 }),
    panBy() {}, setView(lon, lat, zoom) { fired.push(["setView", { lon, lat, zoom }]); }, maxZoom: () => 22,
    setDragPan() {}, requestRedraw() {}, fire: (type, data) => fired.push([type, data]), isOwnControl: () => false,
  };
  const host = new PindropHost(adapter, options);
  await host.start();
  return { host, fired, adapter };
}

test("GeoJSON ids: a property, a function, the feature's id; refusals name the feature", () => {
  assert.equal(usableId(5), 5);
  assert.equal(usableId("5603"), 5603);
  assert.equal(usableId("12345678901234567890"), null);       // beyond 64 bits
  assert.equal(usableId("9007199254740993"), 9007199254740993n);
  assert.equal(usableId(1.5), null);
  assert.equal(usableId("A12"), null);
  assert.equal(usableId(undefined), null);
  const pt = (lon, lat, props, id) => ({ type: "Feature", id, properties: props, geometry: { type: "Point", coordinates: [lon, lat] } });
  const fc = { type: "FeatureCollection", features: [pt(1, 2, { tree: 10, sp: "oak", dbh: 30 }), pt(3, 4, { tree: "11", sp: "elm", dbh: null })] };
  const read = (f, o) => readFeatures(featuresOf(f), o, 0, featuresOf(f).length, new CategoryTable(), () => false, new globalThis.Map());
  const r = read(fc, { id: "tree", value: "dbh", category: "sp" });
  assert.deepEqual(r.ids, [10, 11]);
  assert.deepEqual(Array.from(r.lonlat), [1, 2, 3, 4]);
  assert.deepEqual(Array.from(r.categories), [0, 1]);
  assert.equal(r.values[0], 30); assert.ok(Number.isNaN(r.values[1]));
  assert.deepEqual(read(fc, { id: (f, i) => 100 + i }).ids, [100, 101]);
  assert.deepEqual(read([pt(0, 0, {}, 7), pt(0, 0, { id: 8 })], {}).ids, [7, 8]);
  assert.throws(() => read(fc, {}), /feature 0 \(properties \{"tree":10,"sp":"oak","dbh":30\}\) has no usable id/);
  assert.throws(() => read(fc, { id: "sp" }), /feature 0 .* has no usable id .*"oak"/);
  assert.throws(() => read([pt(0, 0, { n: 1 }, 5), pt(0, 0, { n: 2 }, 5)], {}), /feature 1 \(properties \{"n":2\}\) repeats the id 5 of feature 0/);
  assert.throws(() => read([{ type: "Feature", id: 3, properties: {}, geometry: { type: "LineString", coordinates: [[0, 0], [1, 1]] } }], {}),
    /feature 0 .* is not a Point/);
  assert.throws(() => readFeatures([pt(0, 0, {}, 4)], {}, 0, 1, new CategoryTable(), (id) => id === 4, new globalThis.Map()),
    /repeats the id 4 of a pin already on the map/);
  assert.throws(() => featuresOf({ type: "Point" }), TypeError);
  const back = toFeatureCollection([[10, fc.features[0]]], () => [5, 6]);
  assert.deepEqual(back.features[0].geometry.coordinates, [5, 6]);
  assert.equal(back.features[0].properties, fc.features[0].properties);   // the same object, intact
  assert.deepEqual(fc.features[0].geometry.coordinates, [1, 2]);          // the input untouched
});

test("the host loads GeoJSON in chunks, refuses a bad collection whole, and gives it back moved", async () => {
  const { host, fired } = await recordingHost({ input: "mouse", chunkMs: 1 });
  const features = [];
  for (let i = 0; i < 5000; i++) {
    features.push({ type: "Feature", properties: { tree: i, species: i % 3 ? "oak" : "elm", note: { i } },
      geometry: { type: "Point", coordinates: [-118.35 + (i % 100) * 1e-4, 33.9 + Math.floor(i / 100) * 1e-4] } });
  }
  const bad = [...features.slice(0, 10), { type: "Feature", properties: { name: "no id" }, geometry: features[0].geometry }];
  await assert.rejects(host.addGeoJSON(bad, { id: "tree" }), /feature 10 \(properties \{"name":"no id"\}\) has no usable id/);
  assert.equal(host.map.count, 0);
  const n = await host.addGeoJSON({ type: "FeatureCollection", features }, { id: "tree", category: "species" });
  assert.equal(n, 5000);
  assert.equal(host.map.count, 5000);
  const progress = fired.filter(([t]) => t === "progress").map(([, d]) => d);
  assert.ok(progress.filter((p) => p.phase === "add").length > 2, "loaded in one chunk");
  assert.equal(progress.at(-1).loaded, 5000);
  assert.deepEqual(host.legend().map((l) => [l.name, l.category, l.count]), [["oak", 1, 3333], ["elm", 0, 1667]]);
  assert.deepEqual(Array.from(host.map.clusterCategories(host.map.clusters(host.now()).key[0]).category).sort(), [0, 1]);
  host.map.setPosition(42, -118.3, 33.95);     // not a user move: toGeoJSON follows MOVED only
  host.map.select(42);
  host.map.nudge(10, 0, host.now());
  host.drain();
  const moved = fired.find(([t]) => t === "pinmoved")[1];
  assert.equal(moved.feature, features[42]);
  const out = host.toGeoJSON();
  assert.equal(out.features.length, 5000);
  const f42 = out.features.find((f) => f.properties.tree === 42);
  assert.deepEqual(f42.geometry.coordinates, [moved.lon, moved.lat]);
  assert.equal(f42.properties, features[42].properties);
  await assert.rejects(host.addGeoJSON(features.slice(0, 1), { id: "tree" }), /repeats the id 0 of a pin already on the map/);
  host.destroy();
});

test("the store keeps true positions through removal and rebuilds a map", async () => {
  await ready;
  const s = new PinStore();
  s.addMany([1, 2, 3], Float64Array.of(0, 0, 1, 1, 2, 2));
  s.remove(1);
  s.move(3, 5, 5);
  assert.deepEqual([s.rowOf(1), s.count], [-1, 2]);
  const m = new PinMap();
  s.fill(m);
  assert.deepEqual(m.position(3), [5, 5]);
  assert.deepEqual(m.position(2), [1, 1]);
  m.dispose();
});

// A 2D context that records what is drawn, to tell the two rings apart.
function recordingContext() {
  const calls = [];
  let dash = [];
  const ctx = new Proxy({}, {
    get(target, name) {
      if (name === "calls") return calls;
      if (name === "setLineDash") return (d) => { dash = d; calls.push(["setLineDash", d]); };
      if (name === "measureText") return (s) => ({ width: 7 * s.length });
      if (name === "fill") return () => calls.push(["fill", target.fillStyle]);
      if (name === "stroke") return () => calls.push(["stroke", target.strokeStyle, dash.slice()]);
      if (name in target) return target[name];
      return () => {};
    },
    set(target, name, v) { target[name] = v; return true; },
  });
  return ctx;
}

test("a ONE_SPOT cluster is drawn with solid light rings, unlike the focus ring's dashed dark one", () => {
  const one = (flags) => ({ count: 1, key: new BigUint64Array([1n]), x: Float64Array.of(50), y: Float64Array.of(50),
    lon: Float64Array.of(0), lat: Float64Array.of(0), size: Uint32Array.of(12), flags: Uint32Array.of(flags) });
  const spot = recordingContext();
  paintClusters(spot, one(CLUSTER_ONE_SPOT));
  const strokes = spot.calls.filter((c) => c[0] === "stroke");
  assert.ok(strokes.length >= 1, "the one-spot cluster has no ring");
  const ring = recordingContext();
  focusRing(ring, 50, 50, 20);
  const focus = ring.calls.find((c) => c[0] === "stroke");
  assert.ok(focus[2].length > 0, "the focus ring is dashed");
  for (const [, colour, dash] of strokes) {
    assert.deepEqual(dash, [], "a one-spot ring is dashed like the focus ring");
    assert.notEqual(colour, focus[1], "a one-spot ring has the focus ring's colour");
  }
  // a focused pin gets the dashed ring
  const pin = recordingContext();
  paintPins(pin, { count: 1, id: Float64Array.of(1), x: Float64Array.of(5), y: Float64Array.of(5), anchorX: Float64Array.of(5),
    anchorY: Float64Array.of(5), lift: Float64Array.of(0), flags: Uint32Array.of(PIN_FOCUSED) }, false);
  assert.ok(pin.calls.some((c) => c[0] === "stroke" && c[2].length > 0));
});

test("style hooks draw each kind of item, with the default at hand", () => {
  const seen = [];
  const clusters = { count: 1, key: new BigUint64Array([9n]), x: Float64Array.of(50), y: Float64Array.of(50),
    lon: Float64Array.of(0), lat: Float64Array.of(0), size: Uint32Array.of(12), flags: Uint32Array.of(0) };
  const ctx = recordingContext();
  paintClusters(ctx, clusters, null, { cluster: (c, item, paint) => { seen.push(item); paint(); } });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].count, 12); assert.equal(seen[0].key, 9n);
  assert.ok(ctx.calls.length > 0, "the default was not drawn");
});
