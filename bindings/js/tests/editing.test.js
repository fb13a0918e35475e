import { test } from "node:test";
import assert from "node:assert/strict";
import { mouseMap, types, closeTo } from "./common.js";

test("place, tap-to-move, commit; cancelEdit removes a placed pin", async () => {
  const m = await mouseMap();
  m.place(5, -118.35, 33.9, 0);
  assert.equal(m.count, 1);
  const f = m.frame(0);
  assert.ok(f.flags[0] & 2, "PIN_EDITING");
  // A tap elsewhere moves the edited pin there.
  m.touch(0, "down", 500, 200, 100);
  m.touch(0, "up", 500, 200, 150);
  m.advance(1000);
  const [lon, lat] = m.toLonLat(500, 200);
  const [plon, plat] = m.position(5);
  closeTo(plon, lon, 1e-9); closeTo(plat, lat, 1e-9);
  m.commit(1100);
  const moved = m.events().filter((e) => e.type === "MOVED");
  assert.deepEqual(moved.map((e) => e.cause), ["TAP", "PLACE"]);
  assert.throws(() => m.commit(1200), { name: "StateError", message: /edit/ });
  m.place(6, -118.34, 33.9, 1300);
  m.cancelEdit(1400);
  assert.equal(m.count, 1);
  assert.throws(() => m.position(6), { name: "NotFound" });
  m.dispose();
});

test("undo and redo take moves back and forth, MOVED with causes UNDO / REDO", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.touch(0, "down", 400, 300, 0);
  m.touch(0, "move", 450, 320, 16);
  m.touch(0, "up", 450, 320, 32);
  const moved = m.position(1);
  m.events();
  m.undo(1000);
  assert.deepEqual(m.position(1), [-118.35, 33.9]);
  m.redo(2000);
  assert.deepEqual(m.position(1), moved);
  const causes = m.events().filter((e) => e.type === "MOVED").map((e) => e.cause);
  assert.deepEqual(causes, ["UNDO", "REDO"]);
  assert.throws(() => m.redo(3000), { name: "StateError" });
  m.dispose();
});

test("nudges move the selected pin by screen points and undo as one step", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  assert.throws(() => m.nudge(1, 0, 0), { name: "StateError" });
  m.select(1);
  m.nudge(10, 0, 10); m.nudge(10, 0, 200); m.nudge(0, -10, 400);
  const [x, y] = m.toScreen(...m.position(1));
  closeTo(x, 420, 1e-6, "x"); closeTo(y, 290, 1e-6, "y");
  assert.ok(m.events().some((e) => e.type === "MOVED" && e.cause === "NUDGE"));
  m.undo(600);
  assert.deepEqual(m.position(1), [-118.35, 33.9]);
  m.select(null);
  assert.equal(m.selected(), null);
  assert.deepEqual(types(m.events()).slice(-1), ["DESELECTED"]);
  m.dispose();
});

test("callouts: titles, the coordinate subtitle after a move, geocode answers and stale ones", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.setTitle(1, "Jacaranda · 🌳");
  assert.equal(m.title(1), "Jacaranda · 🌳");
  m.touch(0, "down", 400, 300, 0); m.touch(0, "move", 420, 300, 16); m.touch(0, "up", 420, 300, 32);
  const req = m.events().find((e) => e.type === "GEOCODE_REQUEST");
  assert.match(m.subtitle(1), /^33\.9\d+, -118\.34\d+$/);
  assert.equal(m.answerGeocode(req.request, "1 Main St"), true);
  assert.equal(m.subtitle(1), "1 Main St");
  m.touch(0, "down", 420, 300, 1000); m.touch(0, "move", 440, 300, 1016); m.touch(0, "up", 440, 300, 1032);
  assert.equal(m.answerGeocode(req.request, "old answer"), false, "stale: the pin moved again");
  m.setTitle(1, null);
  assert.equal(m.title(1), "");
  m.dispose();
});

test("allowed area: a drop outside reverts, or snaps onto the boundary", async () => {
  const square = "POLYGON((-118.36 33.89, -118.34 33.89, -118.34 33.91, -118.36 33.91, -118.36 33.89))";
  for (const policy of ["revert", "snap"]) {
    const m = await mouseMap({ outsidePolicy: policy });
    m.setAllowedArea(square);
    m.add(1, -118.35, 33.9);
    const [x, y] = m.toScreen(-118.33, 33.9);  // east of the square
    m.touch(0, "down", 400, 300, 0); m.touch(0, "move", x, y, 16); m.touch(0, "up", x, y, 32);
    const [lon, lat] = m.position(1);
    if (policy === "revert") assert.deepEqual([lon, lat], [-118.35, 33.9]);
    else { closeTo(lon, -118.34, 1e-12, "snapped lon"); closeTo(lat, 33.9, 1e-9, "lat"); }
    m.setAllowedArea({ type: "Polygon", coordinates: [[[-119, 33], [-118, 33], [-118, 34], [-119, 34], [-119, 33]]] });
    m.setAllowedArea(null);
    assert.throws(() => m.setAllowedArea("POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))"), { name: "ParseError", message: /Self-intersection/ });
    assert.throws(() => m.setAllowedArea("{\"type\": \"Point\", \"coordinates\": [1, 2]}"), { name: "ParseError", message: /not a Point/ });
    m.dispose();
  }
});

test("edit then cancelEdit restores the pin; a pin that is not draggable is selected, not lifted", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.edit(1, 0);
  m.touch(0, "down", 600, 100, 100); m.touch(0, "up", 600, 100, 150);
  m.advance(800);
  assert.notDeepEqual(m.position(1), [-118.35, 33.9], "tap-to-move moved the edited pin");
  m.cancelEdit(900);
  assert.deepEqual(m.position(1), [-118.35, 33.9]);
  m.events();
  m.setDraggable(1, false);
  m.touch(0, "down", 400, 300, 1000); m.touch(0, "move", 500, 300, 1016); m.touch(0, "up", 500, 300, 1032);
  m.advance(2000);
  assert.ok(!m.events().some((e) => e.type === "LIFTED" || e.type === "MOVED"));
  assert.deepEqual(m.position(1), [-118.35, 33.9]);
  m.dispose();
});

test("hitTestMany answers as hitTest does, point by point", async () => {
  const m = await mouseMap();
  const ids = [], ll = [];
  for (let i = 0; i < 200; i++) { ids.push(i + 1); ll.push(-118.35 + ((i * 7919) % 200 - 100) * 2e-5, 33.9 + ((i * 104729) % 200 - 100) * 2e-5); }
  m.addMany(ids, new Float64Array(ll));
  const xy = new Float64Array(1000);
  for (let i = 0; i < 1000; i++) xy[i] = (i % 2 ? 600 : 800) * ((i * 2654435761) % 1000) / 1000;
  const many = m.hitTestMany(xy);
  let hits = 0;
  for (let i = 0; i < 500; i++) {
    const one = m.hitTest(xy[2 * i], xy[2 * i + 1]);
    assert.equal(many[i], one);
    if (one !== null) hits++;
  }
  assert.ok(hits > 10 && hits < 500, `${hits} hits`);
  assert.throws(() => m.hitTestMany(new Float64Array([1, NaN])), { name: "InvalidArgument" });
  m.dispose();
});
