import { test } from "node:test";
import assert from "node:assert/strict";
import { Map } from "../index.js";
import { ready, mouseMap, types, closeTo } from "./common.js";

test("a mouse drag moves the pin to exactly where it was released", async () => {
  const m = await mouseMap();
  m.add(7, -118.35, 33.9);
  const [x, y] = m.toScreen(-118.35, 33.9);
  assert.deepEqual([x, y], [400, 300]);
  assert.equal(m.touch(0, "down", x, y, 1000), true, "a press on a pin is pindrop's");
  assert.equal(m.touch(0, "move", x + 30, y + 10, 1016), true);
  assert.equal(m.touch(0, "move", x + 120, y - 40, 1032), true);
  assert.equal(m.touch(0, "up", x + 120, y - 40, 1048), true);
  const events = m.events();
  assert.deepEqual(types(events).filter((t) => t !== "DRAGGED"),
    ["LIFTED", "DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]);
  const moved = events.find((e) => e.type === "MOVED");
  const [lon, lat] = m.toLonLat(x + 120, y - 40);
  assert.equal(moved.id, 7);
  assert.equal(moved.cause, "DRAG");
  closeTo(moved.lon, lon, 1e-12, "lon"); closeTo(moved.lat, lat, 1e-12, "lat");
  assert.deepEqual([moved.fromLon, moved.fromLat], [-118.35, 33.9]);
  assert.equal(moved.other, null, "no other pin: null, not PINDROP_NO_ID");
  assert.equal(moved.dx, null);
  assert.deepEqual(m.position(7), [moved.lon, moved.lat]);
  assert.equal(m.nextDeadline() > 1048, true);
  m.dispose();
});

test("a press on empty map is the host's: touch returns false", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  assert.equal(m.touch(0, "down", 10, 10, 0), false);
  assert.equal(m.touch(0, "move", 200, 200, 16), false);
  assert.equal(m.touch(0, "up", 200, 200, 32), false);
  assert.deepEqual(m.events(), []);
  m.dispose();
});

test("a finger lifts the pin after the hold delay, ticks drive it, the pin lands above the finger", async () => {
  await ready;
  const m = new Map();  // touch defaults: 250 ms hold, 40 points lift
  m.setCamera(-118.35, 33.9, 16, 800, 600);
  m.add(1, -118.35, 33.9);
  assert.equal(m.touch(3, "down", 400, 300, 0), true);
  assert.equal(m.nextDeadline(), 250);
  m.tick(100);
  assert.deepEqual(m.events(), []);
  m.tick(250);
  const lifted = m.events();
  assert.deepEqual(types(lifted), ["LIFTED"]);
  assert.equal(lifted[0].id, 1);
  m.touch(3, "move", 500, 350, 300);
  m.touch(3, "move", 500, 350, 500);  // the lift (200 ms) is complete
  m.touch(3, "up", 500, 350, 520);
  const moved = m.events().find((e) => e.type === "MOVED");
  const [lon, lat] = m.toLonLat(500, 350 - 40);
  closeTo(moved.lon, lon, 1e-9, "lon"); closeTo(moved.lat, lat, 1e-9, "lat");
  // While the drop animates, frames show the pin lifted below 1, then at rest.
  const f = m.frame(530);
  assert.equal(f.count, 1);
  assert.equal(f.id[0], 1);
  const later = m.frame(2000);
  assert.equal(later.lift[0], 0);
  m.dispose();
});

test("a tap selects, Esc (cancelGesture) puts a lifted pin back", async () => {
  const m = await mouseMap({ liftDelayMs: 250 });
  m.add(1, -118.35, 33.9);
  m.touch(0, "down", 400, 300, 0);
  m.touch(0, "up", 400, 300, 80);
  m.advance(1000);
  assert.deepEqual(types(m.events()), ["SELECTED"]);
  assert.equal(m.selected(), 1);
  m.touch(0, "down", 400, 300, 2000);
  m.tick(2250);
  m.touch(0, "move", 600, 400, 2300);
  m.cancelGesture(2310);
  const ev = m.events();
  assert.deepEqual(types(ev).filter((t) => t !== "DRAGGED"), ["LIFTED", "DRAG_CANCELLED"]);
  assert.deepEqual([ev.at(-1).lon, ev.at(-1).lat], [-118.35, 33.9]);
  assert.deepEqual(m.position(1), [-118.35, 33.9]);
  m.touch(0, "up", 600, 400, 2320);  // the pointer is still down: its up is accepted
  m.dispose();
});

test("dragging near the edge asks the host to pan (AUTOPAN with dx, dy; id of the pin)", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.touch(0, "down", 400, 300, 0);
  m.touch(0, "move", 795, 300, 16);
  m.tick(16 + 1000 / 60);
  m.tick(16 + 2000 / 60);
  const pans = m.events().filter((e) => e.type === "AUTOPAN");
  assert.ok(pans.length >= 1);
  assert.ok(pans[0].dx > 0 && pans[0].dy === 0);
  assert.equal(pans[0].lon, null);
  m.dispose();
});
