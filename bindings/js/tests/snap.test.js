// Snapping (behaviour 24): setSnapLayer from WKT, GeoJSON text and objects; snapTarget; the
// SNAPPED flag; the drop committing the snapped point; refusals that change nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeTo, ready } from "./common.js";
import { Map, PIN_SNAPPED } from "../index.js";

async function snapMap(options = {}) {
  await ready;
  const m = new Map({ liftDelayMs: 0, liftHeight: 0, snapTolerance: 12, ...options });
  m.setCamera(-118.3, 34.0, 18, 800, 600);
  m.add(1, ...m.toLonLat(100, 300));
  return m;
}

/** Pin 1 from where it is drawn to (x, y), still held. */
function dragTo(m, x, y, t = 0) {
  const [sx, sy] = m.toScreen(...m.position(1));
  m.touch(0, "down", sx, sy, t);
  m.touch(0, "move", sx + 50, sy, t + 16);
  m.touch(0, "move", x, y, t + 32);
  return m.events();
}

const lastDragged = (events) => events.filter((e) => e.type === "DRAGGED").at(-1);

test("a WKT vertex, then a GeoJSON street: DRAGGED, snapTarget, PIN_SNAPPED, the drop", async () => {
  const m = await snapMap();
  const v = m.toLonLat(500, 300), a = m.toLonLat(300, 400), b = m.toLonLat(700, 400);
  m.setSnapLayer(0, `POINT (${v[0]} ${v[1]})`);
  m.setSnapLayer(6, { type: "FeatureCollection", features: [
    { type: "Feature", id: 88, properties: {}, geometry: { type: "LineString", coordinates: [a, b] } }] });
  let d = lastDragged(dragTo(m, 505, 304));
  assert.deepEqual([d.lon, d.lat], v);
  assert.deepEqual(m.snapTarget(), { kind: "vertex", layer: 0, feature: 0, index: 0, lon: v[0], lat: v[1] });
  const f = m.frame(40);
  assert.ok(f.flags[[...f.id].indexOf(1)] & PIN_SNAPPED);
  m.touch(0, "move", 610, 394, 48);
  d = lastDragged(m.events());
  const [x, y] = m.toScreen(d.lon, d.lat);
  closeTo(x, 610, 1e-6); closeTo(y, 400, 1e-6);
  const t = m.snapTarget();
  assert.equal(t.kind, "segment"); assert.equal(t.layer, 6); assert.equal(t.feature, 88); assert.equal(t.index, 0);
  m.touch(0, "up", 610, 394, 64);
  const moved = m.events().filter((e) => e.type === "MOVED");
  assert.deepEqual([moved[0].lon, moved[0].lat], [d.lon, d.lat]);
  assert.deepEqual(m.position(1), [d.lon, d.lat]);
  assert.equal(m.snapTarget().kind, "none");
  m.dispose();
});

test("bad text, a feature without an integer id, a layer of 2^32-1: refused, nothing changes", async () => {
  const m = await snapMap();
  const v = m.toLonLat(500, 300);
  m.setSnapLayer(0, JSON.stringify({ type: "Feature", id: 3, geometry: { type: "Point", coordinates: v } }));
  assert.throws(() => m.setSnapLayer(0, "LINESTRING (1 2, 3"), { name: "ParseError", message: /WKT/ });
  assert.throws(() => m.setSnapLayer(0, { type: "FeatureCollection", features: [
    { type: "Feature", id: "x", geometry: { type: "Point", coordinates: [1, 2] } }] }), { name: "ParseError", message: /integer "id"/ });
  assert.throws(() => m.setSnapLayer(2 ** 32 - 1, "POINT (1 2)"), { name: "InvalidArgument", message: /4294967295/ });
  assert.throws(() => m.setSnapLayer(-1, "POINT (1 2)"), TypeError);
  assert.throws(() => m.setSnapLayer(0, 42), TypeError);
  dragTo(m, 504, 303);
  assert.equal(m.snapTarget().kind, "vertex");
  assert.equal(m.snapTarget().feature, 3);
  m.touch(0, "up", 504, 303, 48);
  m.setSnapLayer(0, null);
  dragTo(m, 560, 330, 1000);
  assert.equal(m.snapTarget().kind, "none");
  assert.throws(() => new Map({ snapTolerance: NaN }), { name: "InvalidArgument", message: /snap_tolerance/ });
  assert.throws(() => new Map({ snapTolerance: -1 }), { name: "InvalidArgument", message: /snap_tolerance/ });
  m.dispose();
});
