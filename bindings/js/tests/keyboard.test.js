// Drag by keyboard (behaviour 20): the focus in reading order, the keyboard drag (Tab, Alt+Space,
// arrows, Space, Esc, Ctrl+Z) with explicit times, and distance().
import { test } from "node:test";
import assert from "node:assert/strict";
import { Map, distance, PIN_FOCUSED, PIN_SELECTED, PIN_DRAGGING, PIN_ANIMATING, StateError } from "../index.js";
import { ready, types } from "./common.js";

const W = 1200, H = 800, R = 22;

async function keyMap(options = {}, zoom = 18) {
  await ready;
  const m = new Map(options);
  m.setCamera(-118.2437, 34.0522, zoom, W, H);
  return m;
}
const addAt = (m, id, x, y) => m.add(id, ...m.toLonLat(x, y));

/** The frame's pins and clusters inside the viewport, sorted independently: row floor(y / R),
 *  then x, then pins before clusters, then id or key. */
function readingOrder(m, t) {
  const items = [];
  const f = m.frame(t);
  for (let i = 0; i < f.count; i++) {
    if (f.x[i] >= 0 && f.x[i] <= W && f.y[i] >= 0 && f.y[i] <= H) items.push({ kind: "pin", id: f.id[i], key: null, x: f.x[i], y: f.y[i] });
  }
  const c = m.clusters(t);
  for (let i = 0; i < c.count; i++) {
    if (c.x[i] >= 0 && c.x[i] <= W && c.y[i] >= 0 && c.y[i] <= H) items.push({ kind: "cluster", id: null, key: c.key[i], x: c.x[i], y: c.y[i] });
  }
  const rank = (a) => [Math.floor(a.y / R), a.x, a.kind === "pin" ? 0 : 1];
  return items.sort((a, b) => {
    const p = rank(a), q = rank(b);
    for (let i = 0; i < 3; i++) if (p[i] !== q[i]) return p[i] - q[i];
    return a.kind === "pin" ? a.id - b.id : (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
}

for (const clustered of [false, true]) {
  test(`Tab and Shift+Tab follow the reading order and wrap${clustered ? ", through clusters" : ""}`, async () => {
    const m = await keyMap({ clusterRadius: clustered ? 60 : 0, spreadMode: "off" }, clustered ? 14 : 18);
    let seed = 21;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let id = 1; id <= 150; id++) {
      const x = Math.round(-150 + rnd() * (W + 300)), y = Math.round(-150 + rnd() * (H + 300));
      addAt(m, id, x, y);
      if (id % 15 === 0) addAt(m, 1000 + id, x, y);   // the same point: tied on x, taken by id
    }
    assert.deepEqual(m.focusStep(1), { kind: "none", id: null, key: null, x: 0, y: 0 }, "no frame yet");
    const order = readingOrder(m, 0);   // also the frame the focus moves through
    assert.ok(order.length > 10);
    if (clustered) assert.ok(order.some((f) => f.kind === "cluster") && order.some((f) => f.kind === "pin"));
    assert.deepEqual(m.focusRank, { index: null, total: order.length });
    const forward = [];
    for (let i = 0; i <= order.length; i++) {
      forward.push(m.focusStep(1));
      assert.deepEqual(m.focusRank, { index: i % order.length, total: order.length });
    }
    assert.deepEqual(forward, [...order, order[0]]);
    const backward = order.map(() => m.focusStep(-1));
    assert.deepEqual(backward, [...order].reverse());
    assert.deepEqual(m.focus, order[0]);
    m.dispose();
  });
}

test("the frame flags the focused pin and draws it above the others; bad steps change nothing", async () => {
  const m = await keyMap();
  addAt(m, 1, 100, 100); addAt(m, 2, 600, 105); addAt(m, 3, 300, 400);
  m.frame(0);
  const f = m.focusStep(1);
  assert.deepEqual([f.kind, f.id, f.key], ["pin", 1, null]);
  assert.ok(Math.abs(f.x - 100) < 1e-6 && Math.abs(f.y - 100) < 1e-6);
  assert.equal(m.focusStep(1).id, 2);
  const v = m.frame(10);
  const focused = [...v.id].filter((_, i) => v.flags[i] & PIN_FOCUSED);
  assert.deepEqual(focused, [2]);
  assert.equal(v.id[v.count - 1], 2, "drawn last: nothing hides it");
  for (const bad of [0, 2, -2, 2 ** 31 - 1]) {
    assert.throws(() => m.focusStep(bad), { name: "InvalidArgument", message: /must be/ });
    assert.equal(m.focus.id, 2);
  }
  for (const bad of [1.5, "1", 2 ** 31, null, 1n]) assert.throws(() => m.focusStep(bad), TypeError);
  m.remove(2);
  assert.equal(m.focus.id, 3, "a removed focused pin hands the focus on at once");
  m.dispose();
  const b = await keyMap({ bigintIds: true });
  addAt(b, 5, 10, 10);
  b.frame(0);
  assert.equal(b.focusStep(1).id, 5n);
  b.dispose();
});

test("a keyboard drag: Tab, Alt+Space lifts, arrows drag, Space drops (MOVED, cause KEYBOARD), Ctrl+Z undoes it", async () => {
  const m = await keyMap({ minSpacingM: 5 });
  addAt(m, 7, 600, 400);
  addAt(m, 8, 650, 392);
  const start = m.position(7);
  m.frame(0);
  while (m.focusStep(1).id !== 7);                 // Tab until the pin
  m.select(m.focus.id);                            // Alt+Space: select the focused pin, lift it
  m.keyLift(100);
  const lifted = m.events();
  assert.deepEqual(types(lifted), ["SELECTED", "LIFTED"]);
  assert.deepEqual([lifted[1].lon, lifted[1].lat, lifted[1].timeMs], [...start, 100]);
  const f = m.frame(200), i7 = [...f.id].indexOf(7);
  // Its lift still rises at 200 (lift_duration_ms 200 from 100): ANIMATING until then.
  assert.equal(f.flags[i7], PIN_SELECTED | PIN_DRAGGING | PIN_FOCUSED | PIN_ANIMATING);
  const [x0, y0] = m.toScreen(...start);
  assert.ok(Math.abs(f.x[i7] - x0) < 1e-9 && Math.abs(f.y[i7] - y0) < 1e-9, "lift_height is not applied");
  const up = m.frame(300);
  assert.equal(up.flags[[...up.id].indexOf(7)], PIN_SELECTED | PIN_DRAGGING | PIN_FOCUSED, "lifted: no longer animating");
  // Five Shift+Right (10 points each) and one Up: DRAGGED each, nothing saved yet.
  for (let k = 0; k < 5; k++) m.nudge(10, 0, 300 + k);
  m.nudge(0, -1, 310);
  const dragged = m.events();
  assert.deepEqual(types(dragged), Array(6).fill("DRAGGED"));
  const [lon, lat] = m.toLonLat(x0 + 50, y0 - 1);
  const last = dragged[5];
  assert.ok(Math.abs(last.lon - lon) < 1e-12 && Math.abs(last.lat - lat) < 1e-12);
  assert.deepEqual(m.position(7), start);
  // A touch or a second lift meanwhile: StateError, nothing happens.
  assert.throws(() => m.touch(0, "down", x0 + 50, y0 - 1, 320), (e) => e instanceof StateError && /keyboard/.test(e.message));
  assert.throws(() => m.keyLift(320), { name: "StateError", message: /already lifted/ });
  assert.deepEqual(m.events(), []);
  // Space: DROPPED, MOVED with cause KEYBOARD at the last DRAGGED, then the follow-ups.
  m.keyDrop(400);
  const e = m.events();
  assert.deepEqual(types(e), ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST", "NEARBY"]);
  assert.deepEqual([e[1].cause, e[1].lon, e[1].lat, e[1].fromLon, e[1].fromLat, e[1].timeMs], ["KEYBOARD", last.lon, last.lat, ...start, 400]);
  assert.equal(e[4].other, 8);
  assert.deepEqual(m.position(7), [last.lon, last.lat]);
  // How far and which way, for the announcement: 50 points east and 1 north at zoom 18.
  const d = distance(e[1].fromLon, e[1].fromLat, e[1].lon, e[1].lat);
  const metresPerPoint = 2 * Math.PI * 6378137 * Math.cos(start[1] * Math.PI / 180) / (256 * 2 ** 18);
  assert.ok(Math.abs(d.metres - Math.hypot(50, 1) * metresPerPoint) < 1e-3, `${d.metres} m`);
  assert.ok(Math.abs(d.bearing - (90 - Math.atan2(1, 50) * 180 / Math.PI)) < 0.01, `bearing ${d.bearing}`);
  // Ctrl+Z: the whole drag is one step.
  m.undo(500);
  assert.deepEqual(m.events().filter((x) => x.type === "MOVED").map((x) => x.cause), ["UNDO"]);
  assert.deepEqual(m.position(7), start);
  assert.throws(() => m.undo(510), StateError);
  assert.throws(() => m.keyDrop(520), { name: "StateError", message: /no keyboard drag/ });
  m.redo(530);
  assert.deepEqual(m.position(7), [last.lon, last.lat]);
  m.dispose();
});

test("Esc puts a keyboard drag back; keyLift and keyDrop refuse what they cannot do", async () => {
  const m = await keyMap();
  addAt(m, 7, 600, 400);
  const start = m.position(7);
  assert.throws(() => m.keyLift(0), { name: "StateError", message: /nothing is selected/ });
  m.select(7);
  m.keyLift(10);
  m.nudge(25, 0, 20);
  m.cancelGesture(30);
  const e = m.events();
  assert.deepEqual(types(e), ["SELECTED", "LIFTED", "DRAGGED", "DRAG_CANCELLED"]);
  assert.deepEqual([e[3].lon, e[3].lat], start);
  assert.deepEqual(m.position(7), start);
  assert.throws(() => m.keyLift(5), { name: "InvalidArgument" }, "time going back");
  assert.throws(() => m.keyLift("40"), TypeError);
  assert.throws(() => m.keyDrop(undefined), TypeError);
  assert.throws(() => m.keyDrop(NaN), (e) => e.name === "InvalidArgument" || e.name === "StateError");
  // Lifted and never nudged: it falls back where it was, DROPPED and no MOVED.
  m.keyLift(50);
  m.keyDrop(60);
  assert.deepEqual(types(m.events()), ["LIFTED", "DROPPED"]);
  assert.deepEqual(m.position(7), start);
  m.dispose();
});

/** Haversine and the initial-bearing formula from their textbook form, on a sphere of 6378137 m. */
function oracle(lon1, lat1, lon2, lat2) {
  const r = Math.PI / 180, p1 = lat1 * r, p2 = lat2 * r, dl = (lon2 - lon1) * r;
  const a = Math.sin((p2 - p1) / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
  const metres = 2 * 6378137 * Math.asin(Math.min(1, Math.sqrt(a)));
  const y = Math.sin(dl) * Math.cos(p2), x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
  return { metres, bearing: ((Math.atan2(y, x) / r) % 360 + 360) % 360 };
}

test("distance() agrees with the haversine formula and refuses bad coordinates", async () => {
  await ready;
  const deg = 6378137 * Math.PI / 180;   // one degree of a great circle
  const east = distance(0, 0, 1, 0), north = distance(10, 10, 10, 11);
  assert.ok(Math.abs(east.metres - deg) < 1e-6 && Math.abs(east.bearing - 90) < 1e-9);
  assert.ok(Math.abs(north.metres - deg) < 1e-6 && north.bearing < 1e-9);
  assert.deepEqual(distance(5, 5, 5, 5), { metres: 0, bearing: 0 });
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 500; i++) {
    const a = [rnd() * 360 - 180, rnd() * 170 - 85, rnd() * 360 - 180, rnd() * 170 - 85];
    if (i % 2) { a[2] = a[0] + (rnd() - 0.5) * 1e-3; a[3] = Math.max(-85, Math.min(85, a[1] + (rnd() - 0.5) * 1e-3)); }
    const got = distance(...a), want = oracle(...a);
    assert.ok(Math.abs(got.metres - want.metres) <= 1e-6 * Math.max(1, want.metres), `${a}: ${got.metres} vs ${want.metres}`);
    const db = Math.abs(got.bearing - want.bearing);
    assert.ok(Math.min(db, 360 - db) < 1e-6, `${a}: bearing ${got.bearing} vs ${want.bearing}`);
    assert.ok(got.bearing >= 0 && got.bearing < 360);
  }
  assert.throws(() => distance(0, 91, 0, 0), { name: "InvalidArgument", message: /91|lat/ });
  assert.throws(() => distance(NaN, 0, 0, 0), { name: "InvalidArgument" });
  assert.throws(() => distance(0, 0, Infinity, 0), { name: "InvalidArgument" });
  assert.throws(() => distance("0", 0, 0, 0), { name: "TypeError", message: /fromLon/ });
  assert.throws(() => distance(0, 0, 0), { name: "TypeError", message: /toLat/ });
});
