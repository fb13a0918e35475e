import { test } from "node:test";
import assert from "node:assert/strict";
import * as pindrop from "../index.js";
import { Map, PindropError, InvalidArgument, StateError } from "../index.js";
import { ready, mouseMap } from "./common.js";

test("wrong JavaScript types are TypeErrors naming the argument", async () => {
  const m = await mouseMap();
  assert.throws(() => m.add("1", 0, 0), { name: "TypeError", message: /id must be a number .* not the string "1"/ });
  assert.throws(() => m.add(1, "0", 0), { name: "TypeError", message: /lon must be a number, not the string "0"/ });
  assert.throws(() => m.add(1.5, 0, 0), { name: "TypeError", message: /safe integer/ });
  assert.throws(() => m.add(2 ** 60, 0, 0), { name: "TypeError", message: /pass a BigInt/ });
  assert.throws(() => m.touch(0, "press", 1, 1, 0), { name: "TypeError", message: /"down", "move", "up" or "cancel"/ });
  assert.throws(() => m.touch(0.5, "down", 1, 1, 0), { name: "TypeError", message: /pointer/ });
  assert.throws(() => m.setCamera(0, 0, "4", 100, 100), { name: "TypeError", message: /zoom/ });
  assert.throws(() => m.addMany("12", new Float64Array(4)), TypeError);
  assert.throws(() => m.addMany([1, 2], "no"), TypeError);
  assert.throws(() => m.setTitle(1, 5), TypeError);
  assert.throws(() => new Map({ hitRadius: "22" }), { name: "TypeError", message: /hitRadius/ });
  assert.throws(() => new Map({ spreadMode: 1 }), { name: "TypeError", message: /"off", "ring", "spiral"/ });
  assert.throws(() => new Map({ liftDelay: 0 }), { name: "TypeError", message: /unknown option "liftDelay"/ });
  assert.throws(() => new Map(null), TypeError);
  m.dispose();
});

test("bad values are PindropErrors with the map's message, and change nothing", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  const cases = [
    [() => m.add(2, NaN, 0), "InvalidArgument", /lon|coordinate|NaN|nan/i],
    [() => m.add(2, 0, 91), "InvalidArgument", /91/],
    [() => m.add(1, 0, 0), "DuplicateId", /1/],
    [() => m.add(-(2n ** 63n), 0, 0), "InvalidArgument", /id/],
    [() => m.add(2n ** 64n, 0, 0), "InvalidArgument", /64-bit/],
    [() => m.remove(99), "NotFound", /99/],
    [() => m.addMany([3, 3], new Float64Array([0, 0, 1, 1])), "DuplicateId", /3/],
    [() => m.addMany([3, 4], new Float64Array([0, 0, 1])), "InvalidArgument", /2 per id/],
    [() => m.setCamera(0, 0, 31, 800, 600), "InvalidArgument", /zoom/],
    [() => new Map({ hitRadius: -1 }), "InvalidArgument", /hit_radius|hitRadius/],
    [() => m.setAllowedArea("POLYGON((0 0, 1 0))"), "ParseError", /LinearRing/],
    [() => m.commit(0), "StateError", /edit/i],
  ];
  for (const [f, name, message] of cases) {
    assert.throws(f, (e) => {
      assert.ok(e instanceof PindropError, `${e} is a PindropError`);
      assert.equal(e.name, name);
      assert.match(e.message, message);
      assert.ok(e.status < 0);
      return true;
    });
  }
  assert.equal(m.count, 1);
  m.tick(100);
  assert.throws(() => m.tick(50), { name: "InvalidArgument", message: /earlier|back/ });
  assert.throws(() => m.touch(0, "move", 1, 1, 200), { name: "InvalidArgument", message: /not down/ });
  assert.throws(() => m.touch(0, "down", NaN, 1, 200), InvalidArgument);
  assert.equal(m.lastError().length > 0, true);
  m.dispose();
});

test("a disposed map refuses every call with a StateError; dispose is idempotent", async () => {
  const m = await mouseMap();
  m.dispose();
  m.dispose();
  assert.equal(m.disposed, true);
  for (const f of [() => m.add(1, 0, 0), () => m.frame(0), () => m.events(), () => m.count, () => m.touch(0, "down", 0, 0, 0)]) {
    assert.throws(f, (e) => e instanceof StateError && /disposed/.test(e.message));
  }
});

test("ids: BigInt in and out, unsafe ids come back as BigInt, bigintIds gives BigInt64Array frames", async () => {
  const m = await mouseMap();
  const big = 2n ** 62n + 1n;
  m.add(big, -118.35, 33.9);
  m.add(-5, -118.351, 33.9);
  assert.equal(m.hitTest(400, 300), big);
  const f = m.frame(0);
  assert.ok(f.id instanceof Float64Array);
  assert.ok([...f.id].includes(-5));
  m.dispose();
  const b = await mouseMap({ bigintIds: true });
  b.add(3, -118.35, 33.9);
  assert.equal(b.hitTest(400, 300), 3n);
  assert.ok(b.frame(0).id instanceof BigInt64Array);
  assert.equal(b.frame(1).id[0], 3n);
  b.dispose();
});

test("random calls with random arguments never let a wasm trap escape", async () => {
  const m = await mouseMap({ clusterRadius: 40, spreadOnTap: true });
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const values = [0, 1, -1, NaN, Infinity, -Infinity, 1e308, -1e308, 2 ** 31, 2 ** 53, -0, 0.5, 181, 91,
    "x", null, undefined, {}, [], 1n, -(2n ** 63n), 2n ** 63n - 1n, true];
  const pick = () => (rnd() < 0.6 ? (rnd() - 0.5) * 400 : values[Math.floor(rnd() * values.length)]);
  const methods = ["add", "remove", "setPosition", "position", "displayPosition", "setCamera", "toScreen", "toLonLat",
    "hitTest", "nearby", "frame", "clusters", "clusterMembers", "clusterExpansionZoom", "touch", "tick",
    "cancelGesture", "place", "edit", "commit", "cancelEdit", "select", "nudge", "setTitle", "answerGeocode",
    "callout", "setAllowedArea", "undo", "redo", "addMany", "hitTestMany", "setDraggable",
    "setAttributes", "clusterSummary", "clusterCategories", "focusStep", "keyLift", "keyDrop", "openStack",
    "closeStack", "nudge"];
  let calls = 0, failures = 0;
  for (let i = 0; i < 20000; i++) {
    const name = methods[Math.floor(rnd() * methods.length)];
    const args = Array.from({ length: 6 }, pick);
    if (name === "touch") args[1] = ["down", "move", "up", "cancel", "tap"][Math.floor(rnd() * 5)];
    // Real keys now and then (clusters' and stacks' keys, BigInts beyond 2^53), and ids as arrays.
    if (rnd() < 0.3 && /^(cluster|openStack)/.test(name)) {
      let c = null;
      try { c = m.clusters(200 + i); } catch (e) { assert.ok(e instanceof PindropError, String(e)); }
      if (c?.count) args[0] = c.key[Math.floor(rnd() * c.count)];
    }
    if (name === "setAttributes" && rnd() < 0.5) args[0] = [Math.floor(rnd() * 20), args[1]];
    try {
      m[name](...args);
      calls++;
    } catch (e) {
      failures++;
      assert.ok(e instanceof PindropError || e instanceof TypeError,
        `${name}(${args.map(String).join(", ")}) threw ${e?.constructor?.name}: ${e?.message}`);
      assert.ok(!(e instanceof pindrop.InternalError), `no trap: ${e.message}`);
      assert.ok(e.message.length > 0);
    }
  }
  assert.ok(calls > 100 && failures > 100);
  m.dispose();
});

test("the wasm heap does not grow over 10,000 maps created and disposed", async () => {
  await ready;
  const probe = await mouseMap();
  probe.dispose();
  const memory = () => {
    // The module's memory size, read through a map's frame buffer owner: WebAssembly memory only grows.
    return pindrop.__memoryBytes();
  };
  for (let i = 0; i < 200; i++) { const m = new Map({ clusterRadius: 60 }); m.add(1, 0, 0); m.frame(0); m.dispose(); }
  const before = memory();
  for (let i = 0; i < 10000; i++) {
    const m = new Map({ clusterRadius: 60 });
    m.add(i, 0, 0);
    m.addMany([i + 1, i + 2], new Float64Array([1, 1, 1, 1]));
    m.frame(0);
    m.clusters(0);
    m.dispose();
  }
  assert.equal(memory(), before, "the heap stayed within the memory it had");
});

test("addMany takes ids as numbers (negative and large safe ones), BigInts or a BigInt64Array", async () => {
  const m = await mouseMap();
  const ids = [-(2 ** 53 - 1), -1, 0, 2 ** 32, 2 ** 53 - 1, 5n, -(2n ** 62n)];
  const ll = new Float64Array(2 * ids.length).map((_, i) => (i % 2 ? 33.9 : -118.35 + i * 1e-4));
  m.addMany(ids, ll);
  for (let i = 0; i < ids.length; i++) assert.deepEqual(m.position(ids[i]), [ll[2 * i], ll[2 * i + 1]]);
  m.addMany(new BigInt64Array([7n, 8n]), new Float64Array([1, 1, 2, 2]));
  assert.equal(m.count, ids.length + 2);
  const near = m.nearby(-118.35, 33.9, 1e5);
  assert.equal(near.length, ids.length);
  assert.deepEqual(m.nearby(-118.35, 33.9, 1e5, 2).map((h) => h.id), near.slice(0, 2).map((h) => h.id));
  assert.deepEqual(m.nearby(-118.35, 33.9, 1e5, 0), []);
  assert.throws(() => m.nearby(-118.35, 33.9, 1e5, -1), TypeError);
  assert.throws(() => m.nearby(-118.35, 33.9, NaN), { name: "InvalidArgument", message: /radius/ });
  assert.throws(() => m.addMany([9, 2 ** 53], new Float64Array(4)), { name: "TypeError", message: /ids\[1\]/ });
  assert.equal(m.count, ids.length + 2, "nothing added by the failed call");
  m.dispose();
});
