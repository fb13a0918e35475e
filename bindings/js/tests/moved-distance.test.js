import { test } from "node:test";
import assert from "node:assert/strict";
import { distance } from "../index.js";
import { mouseMap, closeTo } from "./common.js";

test("MOVED carries distanceM: the metres between fromLon/fromLat and lon/lat (a drag, undo, a nudge)", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.touch(0, "down", 400, 300, 0);
  m.touch(0, "move", 550, 300, 16);
  m.touch(0, "up", 550, 300, 32);
  m.undo(1000);
  m.select(1);
  m.nudge(0, 20, 1200);
  const moved = m.events().filter((e) => e.type === "MOVED");
  assert.deepEqual(moved.map((e) => e.cause), ["DRAG", "UNDO", "NUDGE"]);
  for (const e of moved) {
    assert.equal(typeof e.distanceM, "number", `${e.cause}: distanceM is a number`);
    closeTo(e.distanceM, distance(e.fromLon, e.fromLat, e.lon, e.lat).metres, 1e-9, `${e.cause} distanceM`);
  }
  // 150 screen points at zoom 16 and latitude 33.9: 150 × 156543.03 × cos(33.9°) / 2^16 m.
  const expected = 150 * 156543.03392804097 * Math.cos(33.9 * Math.PI / 180) / 2 ** 16;
  closeTo(moved[0].distanceM, expected, 0.05, "the drag's 150 points in metres");
  closeTo(moved[1].distanceM, moved[0].distanceM, 1e-6, "undo moves it back as far");
  closeTo(moved[2].distanceM, 20 * expected / 150, 0.05, "the nudge's 20 points");
  // Events that carry no distance keep null.
  m.select(null);
  assert.ok(m.events().every((e) => e.distanceM === null));
  m.dispose();
});
