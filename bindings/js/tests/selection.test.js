// Behaviour 23 through the JS package: selectMany's modes, selection(), selectInRect with a
// cluster, setModifiers and the add modifier's tap, a drag of one selected pin that moves the
// selection as one undo step, and bad input that changes nothing. Explicit times.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ready, types, closeTo } from "./common.js";
import { Map } from "../index.js";

async function fourPins(options = {}) {
  await ready;
  const m = new Map({ liftDelayMs: 0, liftHeight: 0, ...options });
  m.setCamera(-118.2437, 34.0522, 19, 1200, 800);
  const at = { 1: [500, 400], 2: [600, 420], 3: [700, 380], 4: [200, 200] };
  for (const [id, [x, y]] of Object.entries(at)) {
    const [lon, lat] = m.toLonLat(x, y);
    m.add(Number(id), lon, lat);
  }
  m.events();
  return m;
}

function mercator([lon, lat]) {
  const phi = lat * Math.PI / 180;
  return [(lon + 180) / 360, 0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI)];
}

test("selectMany's modes, their events in ascending order, selection() and selected()", async () => {
  const m = await fourPins();
  m.selectMany([3, 1, 2, 3]);
  assert.deepEqual(m.selection(), [1, 2, 3]);
  assert.deepEqual(m.events().map((e) => `${e.type} ${e.id}`), ["SELECTED 1", "SELECTED 2", "SELECTED 3"]);
  assert.equal(m.selected(), 1);
  m.selectMany(new Float64Array([2, 4]), "toggle");
  assert.deepEqual(m.selection(), [1, 3, 4]);
  assert.deepEqual(m.events().map((e) => `${e.type} ${e.id}`), ["DESELECTED 2", "SELECTED 4"]);
  m.selectMany([1, 4], "remove");
  m.selectMany([2], "add");
  assert.deepEqual(m.selection(), [2, 3]);
  m.select(3);
  assert.deepEqual(m.selection(), [3]);
  m.selectMany([]);
  assert.deepEqual(m.selection(), []);
  assert.equal(m.selected(), null);
  m.dispose();
});

test("bad input changes nothing", async () => {
  const m = await fourPins();
  m.selectMany([1, 2]);
  m.events();
  assert.throws(() => m.selectMany([3, 42]), { name: "NotFound" });
  assert.throws(() => m.selectMany([3], "everything"), { name: "InvalidArgument" });
  assert.throws(() => m.selectMany([3], 9), { name: "InvalidArgument" });
  assert.throws(() => m.setModifiers(4), { name: "InvalidArgument" });
  assert.throws(() => m.setModifiers({ shift: true }), TypeError);
  assert.throws(() => m.selectInRect(NaN, 0, 10, 10, 10), { name: "InvalidArgument" });
  assert.throws(() => m.selectInRect(0, 0, 3e7, 10, 10), { name: "InvalidArgument" });
  m.tick(50);
  assert.throws(() => m.selectInRect(0, 0, 1200, 800, 40), { name: "InvalidArgument" });
  assert.deepEqual(m.selection(), [1, 2]);
  assert.deepEqual(m.events(), []);
  m.dispose();
});

test("selectInRect takes the pins drawn inside and whole clusters", async () => {
  const m = await fourPins();
  m.selectInRect(650, 450, 450, 350, 10);
  assert.deepEqual(m.selection(), [1, 2]);
  m.selectInRect(0, 0, 1200, 800, 20, "toggle");
  assert.deepEqual(m.selection(), [3, 4]);
  m.dispose();
  await ready;
  const c = new Map({ clusterRadius: 60 });
  c.setCamera(-118.2437, 34.0522, 14, 1200, 800);
  for (let k = 0; k < 5; k++) c.add(10 + k, ...c.toLonLat(600 + 3 * k, 400 + 2 * k));
  c.add(99, ...c.toLonLat(100, 100));
  const cl = c.clusters(5);
  assert.equal(cl.count, 1);
  const x = cl.x[0], y = cl.y[0];
  c.selectInRect(x - 5, y - 5, x + 5, y + 5, 10);
  assert.deepEqual(c.selection(), [10, 11, 12, 13, 14]);
  assert.equal(c.clusters(20).count, 0, "selected pins are never clustered");
  c.dispose();
});

test("the add modifier's tap adds and removes a pin", async () => {
  const m = await fourPins();
  m.select(1);
  m.setModifiers({ add: true });
  m.touch(0, "down", 600, 420, 100); m.touch(0, "up", 600, 420, 150);
  assert.deepEqual(m.selection(), [1, 2]);
  m.touch(0, "down", 500, 400, 200); m.touch(0, "up", 500, 400, 250);
  assert.deepEqual(m.selection(), [2]);
  m.setModifiers({});
  m.touch(0, "down", 500, 400, 300); m.touch(0, "up", 500, 400, 350);
  assert.deepEqual(m.selection(), [1]);
  m.setModifiers(3);
  m.dispose();
});

test("a drag of one selected pin moves the selection rigidly, as one undo step", async () => {
  const m = await fourPins();
  m.selectMany([1, 2, 3]);
  const before = [1, 2, 3, 4].map((i) => m.position(i));
  m.events();
  m.touch(0, "down", 600, 420, 100);
  m.touch(0, "move", 620, 400, 110);
  m.touch(0, "move", 645, 385, 120);
  const f = m.frame(125);
  let dragging = 0;
  for (let i = 0; i < f.count; i++) {
    if (f.flags[i] & 4) dragging++;
    if (f.id[i] === 3) { closeTo(f.x[i], 745, 1e-6); closeTo(f.y[i], 345, 1e-6); }
  }
  assert.equal(dragging, 3);
  m.touch(0, "up", 645, 385, 130);
  const moved = m.events().filter((e) => e.type === "MOVED");
  assert.deepEqual(moved.map((e) => e.id), [1, 2, 3]);
  assert.deepEqual(moved.map((e) => e.cause), ["DRAG", "DRAG", "DRAG"]);
  assert.deepEqual(m.position(4), before[3]);
  for (const i of [1, 3]) {
    const was = mercator(before[i - 1]), grabbedWas = mercator(before[1]);
    const now = mercator(m.position(i)), grabbedNow = mercator(m.position(2));
    closeTo(now[0] - grabbedNow[0], was[0] - grabbedWas[0], 1e-12);
    closeTo(now[1] - grabbedNow[1], was[1] - grabbedWas[1], 1e-12);
  }
  m.undo(200);
  assert.deepEqual(types(m.events().filter((e) => e.type === "MOVED")), ["MOVED", "MOVED", "MOVED"]);
  for (const i of [1, 2, 3]) assert.deepEqual(m.position(i), before[i - 1]);
  m.dispose();
});
