// The accepted ranges and the bounded event queue through pindrop.wasm (docs/robustness.md,
// "Accepted ranges", "The event queue", "Beyond ±85.0511°"): values no real host can mean are
// refused with the library's message and change nothing; drag moves without a poll keep the queue
// within PINDROP_EVENT_QUEUE_LIMIT (the browser once queued 1,999,995 events) and every drop and
// MOVED still arrives; a pin at 89.9° is kept as given and drawn on the world's edge.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Map, InvalidArgument } from "../index.js";
import { ready } from "./common.js";

import { EVENT_QUEUE_LIMIT as LIMIT } from "../src/tables.js";

async function selectedMap() {
  await ready;
  const m = new Map({ liftDelayMs: 0, liftHeight: 0, autopanMargin: 0 });
  m.setCamera(-118.25, 34.05, 17, 800, 600);
  m.add(1, -118.25, 34.05);
  m.select(1);
  m.events();
  return m;
}

const state = (m) => JSON.stringify([m.position(1), String(m.selected()), m.toScreen(-118.249, 34.051)]);

function refused(m, call, ...words) {
  const before = state(m);
  assert.throws(call, (e) => {
    assert.ok(e instanceof InvalidArgument, String(e));
    for (const w of words) assert.ok(e.message.includes(w), `"${e.message}" does not say ${w}`);
    return true;
  });
  assert.equal(state(m), before);
  assert.deepEqual(m.events(), []);
}

test("a nudge of 1e300 points is refused and moves nothing", async () => {
  const m = await selectedMap();
  refused(m, () => m.nudge(1e300, 1e300, 10), "nudge", "1e+300", "1e7");
  refused(m, () => m.nudge(0, -2e7, 10), "nudge");
  assert.deepEqual(m.position(1), [-118.25, 34.05]);
  m.nudge(1e7, 0, 10);
  assert.notDeepEqual(m.position(1), [-118.25, 34.05]);
  m.dispose();
});

test("a bearing beyond a million degrees is refused", async () => {
  const m = await selectedMap();
  for (const bearing of [1e300, -1e6 - 1, Infinity]) {
    refused(m, () => m.setCamera(-118.25, 34.05, 17, 800, 600, bearing), "bearing_deg");
  }
  m.setCamera(-118.25, 34.05, 17, 800, 600, 1e6);
  m.dispose();
});

test("touches beyond the viewport grown by 1e7 points are refused", async () => {
  const m = await selectedMap();
  for (const [x, y] of [[1e300, 300], [400, -1e7 - 1], [800 + 1e7 + 1, 0]]) {
    refused(m, () => m.touch(0, "down", x, y, 10), "touch position", "1e7");
  }
  assert.equal(m.touch(0, "down", -1e7, 300, 10), false);
  m.dispose();
});

test("times outside [0, 1e13] ms are refused", async () => {
  const m = await selectedMap();
  for (const t of [1e300, 1e13 + 1e6, -0.5]) {
    refused(m, () => m.tick(t), "time", "[0, 1e13]");
    refused(m, () => m.nudge(1, 0, t), "time");
  }
  m.tick(Date.now());
  m.tick(1e13);
  m.dispose();
});

test("2,000,000 drag moves without a poll stay within the queue limit and every drop arrives", async () => {
  const m = await selectedMap();
  m.setCamera(-118.25, 34.05, 18, 1200, 800);
  let t = 0;
  for (let round = 0; round < 4; round++) {
    const [x, y] = m.toScreen(...m.displayPosition(1));
    assert.equal(m.touch(0, "down", x, y, t), true);
    for (let i = 0; i < 500000; i++) {
      t += 0.001;
      m.touch(0, "move", 400 + (i % 400), 300 + round, t);
    }
    t += 1;
    m.touch(0, "up", 617, 300 + round, t);
    t += 1000;
    m.tick(t);
  }
  const events = m.events();
  assert.ok(events.length <= LIMIT + 6 * 4, `${events.length} events queued`);
  let last = null, drops = 0, moved = 0;
  for (const e of events) {
    if (e.type === "DRAGGED") last = [e.lon, e.lat];
    if (e.type === "DROPPED") { assert.deepEqual([e.lon, e.lat], last); drops++; }
    if (e.type === "MOVED") { assert.deepEqual([e.lon, e.lat], last); assert.equal(e.cause, "DRAG"); moved++; }
  }
  assert.equal(drops, 4);
  assert.equal(moved, 4);
  assert.deepEqual(m.position(1), last);
  m.dispose();
});

test("a pin at 89.9° is kept as given and drawn on the world's edge", async () => {
  await ready;
  const m = new Map();
  m.setCamera(10, 80, 3, 800, 600);
  m.add(1, 10, 89.9);
  assert.deepEqual(m.position(1), [10, 89.9]);
  const edge = m.toScreen(10, 85.0511287798066), at = m.toScreen(10, 89.9);
  assert.ok(Math.abs(at[0] - edge[0]) < 1e-6 && Math.abs(at[1] - edge[1]) < 1e-6, `${at} vs ${edge}`);
  m.frame(0);
  assert.equal(m.hitTest(edge[0], edge[1] + 2), 1);
  assert.throws(() => m.toScreen(10, 90), InvalidArgument);
  m.dispose();
});
