import { test } from "node:test";
import assert from "node:assert/strict";
import * as pindrop from "../index.js";
import { Map, PindropError, InvalidArgument, StateError } from "../index.js";
import { spawnSync } from "node:child_process";
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

// Valid arguments for every method of Map (the disposal, not a bad argument, must be what fails).
const VALID_ARGS = {
  setCamera: [0, 0, 1, 100, 100], toScreen: [0, 0], toLonLat: [1, 1], add: [1, 0, 0], addMany: [[1], [0, 0]],
  remove: [1], setPosition: [1, 0, 0], position: [1], displayPosition: [1], setDraggable: [1, true],
  hitTest: [1, 1], hitTestMany: [[1, 1]], nearby: [0, 0, 10], frame: [0], clusters: [0], clusterMembers: [1n],
  clusterExpansionZoom: [1n], setAttributes: [[1], [1]], clusterSummary: [1n], clusterCategories: [1n],
  focusStep: [1], keyLift: [0], keyDrop: [0], openStack: [1n, 0], closeStack: [0], touch: [0, "down", 1, 1, 0],
  tick: [0], nextDeadline: [], advance: [0], cancelGesture: [0], pollEvent: [], events: [], place: [1, 0, 0, 0],
  edit: [1, 0], commit: [0], cancelEdit: [0], select: [1], selected: [], nudge: [1, 0, 0], setTitle: [1, "a"],
  answerGeocode: [1, "a"], callout: [1], title: [1], subtitle: [1], setAllowedArea: [null], undo: [0], redo: [0],
  lastError: [], selectMany: [[1]], selectInRect: [0, 0, 1, 1, 0], selection: [], setModifiers: [0],
  setSnapLayer: [0, null], snapTarget: [],
};

test("a disposed map's StateError has status -5 (PINDROP_ERR_STATE) and names the method called", async () => {
  const m = await mouseMap();
  m.dispose();
  const names = Object.getOwnPropertyNames(Map.prototype).filter((n) => n !== "constructor" && n !== "dispose" && n !== "disposed");
  for (const name of names) {
    const getter = Object.getOwnPropertyDescriptor(Map.prototype, name).get;
    if (!getter) assert.ok(VALID_ARGS[name], `VALID_ARGS has arguments for ${name}`);
    const call = getter ? () => m[name] : () => m[name](...VALID_ARGS[name]);
    assert.throws(call, (e) => {
      assert.ok(e instanceof StateError, `${name}: ${e}`);
      assert.equal(e.status, -5, name);
      assert.equal(e.function, name);
      assert.match(e.message, new RegExp(`disposed: ${name}\\(\\)`));
      return true;
    });
  }
});

test("without a loaded module the StateError has status -5 and names the call", () => {
  const index = new URL("../index.js", import.meta.url).href;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `import { Map, version } from ${JSON.stringify(index)};
    for (const f of [() => new Map(), () => version()]) {
      try { f(); } catch (e) { console.log(e.name, e.status, e.function); }
    }`], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split("\n"), ["StateError -5 new Map", "StateError -5 version"]);
});

test("a text with a NUL is refused (InvalidArgument, as the Python package does), not cut short", async () => {
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  m.setTitle(1, "Oak");
  const nul = (name) => (e) => e instanceof InvalidArgument && e.status === -1 && new RegExp(`${name} contains a NUL`).test(e.message);
  assert.throws(() => m.setTitle(1, "a\0b"), nul("title"));
  assert.equal(m.title(1), "Oak", "the title is as it was");
  assert.throws(() => m.setTitle(1, "\0"), nul("title"));
  assert.equal(m.title(1), "Oak");
  // A geocode answer: the request of a move's GEOCODE_REQUEST, answered with a NUL, then properly.
  m.touch(0, "down", 400, 300, 0);
  m.touch(0, "move", 450, 300, 20);
  m.touch(0, "up", 450, 300, 40);
  const request = m.events().find((e) => e.type === "GEOCODE_REQUEST").request;
  const before = m.subtitle(1);
  assert.throws(() => m.answerGeocode(request, "Main St\0 12"), nul("subtitle"));
  assert.equal(m.subtitle(1), before, "the subtitle is as it was");
  assert.equal(m.answerGeocode(request, "Main St 12"), true, "the request is still open");
  assert.equal(m.subtitle(1), "Main St 12");
  // An allowed area's text: refused before the parser sees a cut text.
  m.setAllowedArea("POLYGON((-119 33, -117 33, -117 35, -119 35, -119 33))");
  assert.throws(() => m.setAllowedArea("POLYGON((0 0, 1 0, 1 1, 0 0))\0garbage"), nul("area"));
  m.setPosition(1, -118.35, 33.9);
  m.touch(0, "down", 400, 300, 100);
  m.touch(0, "move", 400, 300 + 600, 120);
  m.touch(0, "up", 400, 300 + 600, 140);   // 33.89° is inside the first area: the drop stays
  assert.ok(m.events().some((e) => e.type === "MOVED"), "the first area is still the one in force");
  m.dispose();
});

test("ids: BigInt in and out, bigintIds gives BigInt64Array frames", async () => {
  const m = await mouseMap();
  m.add(2n ** 53n - 1n, -118.35, 33.9);
  m.add(-5, -118.351, 33.9);
  assert.equal(m.hitTest(400, 300), 2 ** 53 - 1);
  const f = m.frame(0);
  assert.ok(f.id instanceof Float64Array);
  assert.deepEqual([...f.id].sort((a, b) => a - b), [-5, 2 ** 53 - 1]);
  m.dispose();
  const b = await mouseMap({ bigintIds: true });
  b.add(3, -118.35, 33.9);
  assert.equal(b.hitTest(400, 300), 3n);
  assert.ok(b.frame(0).id instanceof BigInt64Array);
  assert.equal(b.frame(1).id[0], 3n);
  b.dispose();
});

test("an id beyond 2^53 needs bigintIds: refused on a map without (frame().id is float64), kept exact with", async () => {
  const big = 2n ** 62n + 1n;   // 2^62 as a float64: the + 1 would be lost
  const m = await mouseMap();
  m.add(1, -118.35, 33.9);
  const refused = (name) => ({ name: "TypeError", message: new RegExp(`${name.replace(/[[\]]/g, "\\$&")} .* beyond 2\\^53.*bigintIds: true`) });
  assert.throws(() => m.add(big, -118.35, 33.9), refused("id"));
  assert.throws(() => m.add(-(2n ** 53n), -118.35, 33.9), refused("id"));
  assert.throws(() => m.place(big, -118.35, 33.9, 0), refused("id"));
  assert.throws(() => m.addMany([2, big], [-118.35, 33.9, -118.35, 33.9]), refused("ids[1]"));
  assert.throws(() => m.addMany(new BigInt64Array([2n, 3n, -big]), new Float64Array(6)), refused("ids[2]"));
  assert.throws(() => m.addMany(new BigUint64Array([2n ** 62n]), [0, 0]), refused("ids[0]"));
  assert.equal(m.count, 1, "nothing added by the refused calls");
  assert.equal(m.frame(0).count, 1);
  m.addMany(new BigInt64Array([2n ** 53n - 1n, -(2n ** 53n) + 1n]), [-118.3, 33.9, -118.3, 33.9]);  // the largest that fit
  assert.equal(m.count, 3);
  m.dispose();
  const b = await mouseMap({ bigintIds: true });
  b.add(big, -118.35, 33.9);
  b.addMany(new BigInt64Array([big + 1n, -big]), [-118.349, 33.9, -118.351, 33.9]);
  assert.equal(b.hitTest(400, 300), big);
  assert.deepEqual([...b.frame(0).id].sort(), [-big, big, big + 1n].sort());
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
  const ids = [-(2 ** 53 - 1), -1, 0, 2 ** 32, 2 ** 53 - 1, 5n, -(2n ** 40n)];
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
