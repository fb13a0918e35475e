// Option objects and yes/no options: a misspelt key or a truthy guess must not pass unnoticed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load, version, spread, Map } from "../index.js";
import { ready, mouseMap } from "./common.js";

/** A TypeError naming the unknown key and listing every accepted one. */
function unknown(what, key, accepted) {
  return (e) => {
    assert.equal(e.name, "TypeError", String(e));
    assert.match(e.message, new RegExp(`^${what}: unknown option "${key}" \\(options: `));
    for (const k of accepted) assert.ok(e.message.includes(k), `${e.message} lists ${k}`);
    return true;
  };
}

test("every options object refuses an unknown key with a TypeError listing the accepted ones, and changes nothing", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  const before = m.toScreen(-118.35, 33.9);
  const camera = { centerLon: -118.34, centerLat: 33.91, zoom: 17, width: 400, height: 300 };
  assert.throws(() => m.setCamera({ ...camera, bearing: 30 }),
    unknown("setCamera", "bearing", ["centerLon", "centerLat", "zoom", "width", "height", "bearingDeg"]));
  assert.deepEqual(m.toScreen(-118.35, 33.9), before, "the camera is as it was");
  m.setCamera({ ...camera, bearingDeg: 30 });
  assert.notDeepEqual(m.toScreen(-118.35, 33.9), before, "the same camera with the right key is taken");

  assert.throws(() => spread([0, 0, 0, 0], { tolerance: 3 }), unknown("spread", "tolerance", ["toleranceM", "layout", "spacing", "zoom"]));
  assert.throws(() => spread([0, 0, 0, 0], null), { name: "TypeError", message: /options of spread must be an object, not null/ });
  assert.equal(spread([0, 0, 0, 0], { toleranceM: 3 }).length, 4);

  assert.throws(() => new Map({ liftDelay: 0 }), unknown("new Map", "liftDelay", ["liftDelayMs", "spreadOnTap", "bigintIds"]));

  // load: a rejected promise, and the module loaded before stays the one in use (fresh is not
  // acted on when another key is wrong).
  await assert.rejects(load({ sauce: 1 }), unknown("load", "sauce", ["source", "fresh"]));
  await assert.rejects(load({ fresh: true, sauce: 1 }), unknown("load", "sauce", ["source", "fresh"]));
  await assert.rejects(load(5), { name: "TypeError", message: /load takes the module's URL, path or bytes/ });
  await assert.rejects(load({ source: 5 }), { name: "TypeError", message: /options.source must be a URL/ });
  assert.equal(load(), ready, "the same load as before, not a fresh one");
  assert.equal(version(), "0.3.0");
  m.dispose();
});

test("load takes a URL as any object with an href (index.d.ts declares no DOM type)", async () => {
  await ready;
  const href = new URL("../pindrop.wasm", import.meta.url).href;
  try {
    assert.equal(await load({ source: { href }, fresh: true }), "0.3.0");
    // the href is the one read: a missing file fails
    await assert.rejects(load({ source: { href: href + ".missing" }, fresh: true }), /ENOENT|missing/);
  } finally {
    await load({ fresh: true });
  }
  assert.equal(version(), "0.3.0");
});

test("every yes/no option takes true or false (or 0 or 1) and refuses anything else, bigintIds as the others", async () => {
  await ready;
  const bad = ["yes", "true", 2, -1, 0.5, null, {}, 1n];
  for (const name of ["clusterByCategory", "spreadOnTap", "bigintIds"]) {
    for (const v of bad) {
      assert.throws(() => new Map({ [name]: v }), { name: "TypeError", message: new RegExp(`options.${name} must be a boolean \\(or 0 or 1\\)`) },
        `${name}: ${String(v)}`);
    }
  }
  for (const v of bad) {
    if (v === null) continue;   // load(null) is load(): no options
    await assert.rejects(load({ fresh: v }), { name: "TypeError", message: /options.fresh must be a boolean/ }, String(v));
  }
  // What they take means what it says: bigintIds 1 and true give BigInt ids, 0 and false numbers.
  for (const [v, type] of [[true, "bigint"], [1, "bigint"], [false, "number"], [0, "number"]]) {
    const m = await mouseMap({ bigintIds: v });
    m.add(3, -118.35, 33.9);
    assert.equal(typeof m.hitTest(400, 300), type, `bigintIds: ${v}`);
    m.dispose();
  }
});
