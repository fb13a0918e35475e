// The module's exports are the C contract: every function include/pindrop.h declares (from the
// tables generated from the header, src/tables.js, so functions added to it are covered), plus
// memory, malloc and free, and nothing else. Its imports are only WASI functions the package's
// shim provides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { FUNCTIONS } from "../src/tables.js";

const wasmPath = new URL("../pindrop.wasm", import.meta.url);

/** The functions the header declares (tools/gen_tables.py reads them from it). */
export function headerFunctions() {
  return new Set(Object.keys(FUNCTIONS));
}

test("the module exports exactly the header's functions, memory, malloc and free", () => {
  const declared = headerFunctions();
  assert.ok(declared.size >= 40, `the header declares ${declared.size} functions`);
  assert.ok(declared.has("pindrop_map_create") && declared.has("pindrop_spread_spiral") && !declared.has("pindrop_project_fn"));
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const exports = WebAssembly.Module.exports(module);
  const functions = new Set(exports.filter((e) => e.kind === "function").map((e) => e.name));
  const missing = [...declared].filter((n) => !functions.has(n));
  assert.deepEqual(missing, [], "declared in pindrop.h but not exported");
  const extra = [...functions].filter((n) => !declared.has(n) && n !== "malloc" && n !== "free");
  assert.deepEqual(extra, [], "exported but not in pindrop.h");
  assert.ok(functions.has("malloc") && functions.has("free"));
  assert.deepEqual(exports.filter((e) => e.kind === "memory").map((e) => e.name), ["memory"]);
});

test("the module imports only WASI functions the package shims", () => {
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const imports = WebAssembly.Module.imports(module);
  const shimmed = new Set(["fd_write", "fd_close", "fd_seek", "random_get"]);
  for (const i of imports) {
    assert.equal(i.module, "wasi_snapshot_preview1", `${i.module}.${i.name}`);
    assert.ok(shimmed.has(i.name), `${i.name} is shimmed by src/wasi.js`);
  }
});

test("the options struct layout the package writes matches the module's pindrop_options_init", async () => {
  const { load } = await import("../index.js");
  await load();
  // Instantiate a second copy to read the raw defaults at the offsets src/tables.js gives.
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const stub = () => 52;
  const imports = { wasi_snapshot_preview1: Object.fromEntries(WebAssembly.Module.imports(module).map((i) => [i.name, stub])) };
  const { exports: x } = new WebAssembly.Instance(module, imports);
  const p = x.malloc(256);
  assert.equal(x.pindrop_options_init(p, 152), 0);
  const dv = new DataView(x.memory.buffer);
  const f = (o) => dv.getFloat64(p + o, true);
  assert.equal(dv.getUint32(p, true), 152);
  assert.deepEqual([f(8), f(16), f(24), f(32), f(40), f(48), f(56), f(64), f(72), f(80), f(88), f(96)],
    [22, 5, 250, 40, 200, 250, 250, 300, 40, 40, 600, 0], "hit_radius .. min_spacing_m");
  assert.equal(dv.getInt32(p + 104, true), 1, "spread_mode RING");
  assert.equal(f(112), 0);
  assert.equal(dv.getInt32(p + 120, true), 0, "outside_policy REVERT");
  assert.deepEqual([f(128), f(136), f(144)], [0, 17, 25], "cluster_radius, cluster_max_zoom, spread_spacing");
  // 0.3's three uint32 fields follow at 152, 156, 160 (sizeof 168): an 0.2-size init leaves them alone.
  new Uint8Array(x.memory.buffer, p + 152, 16).fill(0xEE);
  assert.equal(dv.getUint32(p + 152, true), 0xEEEEEEEE, "beyond an 0.2-size struct: untouched");
  assert.equal(x.pindrop_options_init(p, 168), 0);
  assert.equal(dv.getUint32(p, true), 168);
  assert.deepEqual([dv.getUint32(p + 152, true), dv.getUint32(p + 156, true), dv.getUint32(p + 160, true)], [2, 0, 0],
    "cluster_min_points, cluster_by_category, spread_on_tap");
  // Event and view sizes: a poll into a buffer whose tail is marked leaves the mark past 96 bytes.
  assert.equal(x.pindrop_map_create(0, p), 0);
  const map = dv.getUint32(p, true);
  assert.equal(x.pindrop_map_add(map, 1n, 0, 0), 0);
  assert.equal(x.pindrop_map_select(map, 1n), 0);
  const e = x.malloc(128);
  new Uint8Array(x.memory.buffer, e, 128).fill(0xAB);
  assert.equal(x.pindrop_map_poll_event(map, e), 1);
  const bytes = new Uint8Array(x.memory.buffer, e, 128);
  assert.equal(bytes[96], 0xAB);
  assert.equal(new DataView(x.memory.buffer).getBigInt64(e + 8, true), 1n, "id at offset 8");
  x.pindrop_map_destroy(map);
});

test("an 0.2-size options struct still creates a map: the 0.3 fields beyond it take their defaults", async () => {
  // Four pins on one spot: collapsed into one stack with spread_on_tap = 1, drawn spread without it.
  // (random_get must succeed here: Swift's hashing seeds itself from it for the second pin.)
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const stub = (name) => (name === "random_get" ? () => 0 : () => 52);
  const imports = { wasi_snapshot_preview1: Object.fromEntries(WebAssembly.Module.imports(module).map((i) => [i.name, stub(i.name)])) };
  const { exports: x } = new WebAssembly.Instance(module, imports);
  const o = x.malloc(168), out = x.malloc(8), cam = x.malloc(48), views = x.malloc(48 * 8);
  const drawn = (size) => {
    assert.equal(x.pindrop_options_init(o, 168), 0);
    const dv = new DataView(x.memory.buffer);
    dv.setUint32(o + 160, 1, true);       // spread_on_tap = 1 in the struct's 0.3 tail
    dv.setUint32(o, size, true);          // ... which an 0.2 caller's struct_size does not cover
    assert.equal(x.pindrop_map_create(o, out), 0);
    const map = new DataView(x.memory.buffer).getUint32(out, true);
    const c = new DataView(x.memory.buffer);
    [-118.2, 33.8, 18, 0, 800, 600].forEach((v, i) => c.setFloat64(cam + 8 * i, v, true));
    assert.equal(x.pindrop_map_set_camera(map, cam), 0);
    for (let i = 1n; i <= 4n; i++) assert.equal(x.pindrop_map_add(map, i, -118.2, 33.8), 0);
    const pins = x.pindrop_map_frame(map, 0, 0, 0), stacks = x.pindrop_map_frame_clusters(map, 0, views, 8);
    x.pindrop_map_destroy(map);
    return [pins, stacks];
  };
  assert.deepEqual(drawn(168), [0, 1], "0.3-size: spread_on_tap read, one collapsed stack");
  assert.deepEqual(drawn(152), [4, 0], "0.2-size: spread_on_tap not read (default 0), four pins spread");
});

test("index.d.ts declares every export of index.js and every method of PinMap (Map, its old name)", async () => {
  const js = readFileSync(new URL("../index.js", import.meta.url), "utf8");
  const dts = readFileSync(new URL("../index.d.ts", import.meta.url), "utf8");
  const pkg = await import("../index.js");
  for (const name of Object.keys(pkg)) {
    assert.match(dts, new RegExp(`export (declare )?(function|class|const|let)[^;{(]*\\b${name}\\b`), `index.d.ts declares ${name}`);
  }
  const body = dts.slice(dts.indexOf("export class PinMap"), dts.indexOf("export interface SpreadOptions"));
  for (const name of Object.getOwnPropertyNames(pkg.Map.prototype)) {
    if (name === "constructor") continue;
    assert.match(body, new RegExp(`\\b${name}\\b`), `index.d.ts declares PinMap.${name}`);
  }
  assert.ok(js.length > 0);
});

test("on wasm32 a size_t of 2^31 or more is a buffer no one could hold: refused, not a trap", () => {
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const stub = () => 52;
  const imports = { wasi_snapshot_preview1: Object.fromEntries(WebAssembly.Module.imports(module).map((i) => [i.name, stub])) };
  const { exports: x } = new WebAssembly.Instance(module, imports);
  const p = x.malloc(64);
  assert.equal(x.pindrop_map_create(0, p), 0);
  const map = new DataView(x.memory.buffer).getUint32(p, true);
  const text = (q) => { const u8 = new Uint8Array(x.memory.buffer); let e = q; while (u8[e]) e++; return new TextDecoder().decode(u8.subarray(q, e)); };
  assert.equal(x.pindrop_map_frame(map, 0, p, 0x80000000), 0);
  assert.match(text(x.pindrop_map_last_error(map)), /2147483648 is more than any buffer could hold/);
  assert.equal(x.pindrop_map_add_many(map, p, p, 0xFFFFFFFF), -1);
  assert.equal(x.pindrop_map_frame(map, 0, p, 1), 0, "a capacity that fits is fine");
  assert.equal(text(x.pindrop_map_last_error(map)), "");
  x.pindrop_map_destroy(map);
});

/** The parameters the header gives a function (void: none), null for a function it lacks. */
function headerArity(name) {
  return FUNCTIONS[name] ?? null;
}

/** The top-level arguments of a call's argument text (commas inside brackets do not count). */
function argumentCount(text) {
  let depth = 0, n = text.trim() ? 1 : 0;
  for (const ch of text) {
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === "," && depth === 0) n++;
  }
  return n;
}

// nearby() once passed its capacity nowhere: the map's count helper forwarded one argument fewer
// than nearby's C function takes, and the module wrote no hits. Every call the package makes
// through the map's helpers (call / callCount in src/map-handle.js, or the same methods of a
// map's handle: h.call / h.count) passes the map handle and as many arguments as the header
// declares, and each helper forwards all of them.
test("every call through the map's helpers passes the header's arguments, all forwarded", () => {
  const src = new URL("../src/", import.meta.url);
  const source = readdirSync(src).filter((f) => f.endsWith(".js")).sort()
    .map((f) => readFileSync(new URL(f, src), "utf8")).join("\n");
  const forwards = {};
  // The handle's methods, and the functions that look the handle up and call them.
  for (const [helper, pattern] of [["call", /^ {2}call\(fn((?:, [a-z])*)\) \{/m], ["count", /^ {2}count\(fn((?:, [a-z])*)\) \{/m],
    ["call", /^export function call\(map, fn((?:, [a-z])*)\) \{/m], ["count", /^export function callCount\(map, fn((?:, [a-z])*)\) \{/m]]) {
    const m = pattern.exec(source);
    assert.ok(m, `${pattern} is defined`);
    const n = argumentCount(m[1].slice(2));
    forwards[helper] = Math.min(forwards[helper] ?? Infinity, n);
  }
  for (const [helper, pattern] of [["call", /\bcall\(map, fn((?:, [a-z])*)\) \{ return live\(map, fn\)\.call\(fn((?:, [a-z])*)\)/],
    ["count", /\bcallCount\(map, fn((?:, [a-z])*)\) \{ return live\(map, fn\)\.count\(fn((?:, [a-z])*)\)/],
    ["call", /^ {2}call\(fn((?:, [a-z])*)\) \{\s*return this\.status\(this\.lib\.f\[fn\]\(this\.ptr((?:, [a-z])*)\)/m],
    ["count", /^ {2}count\(fn((?:, [a-z])*)\) \{\s*return this\.counted\(this\.lib\.f\[fn\]\(this\.ptr((?:, [a-z])*)\)/m]]) {
    const m = pattern.exec(source);
    assert.ok(m, `${pattern} forwards its arguments`);
    assert.equal(m[2], m[1], `${helper} forwards every argument it takes`);
  }
  const sites = [...source.matchAll(/(?:\bh\.(call|count)\(|\b(call|callCount)\(this, )"(pindrop_[a-z_]+)"((?:[^;])*?)\);/g)];
  assert.ok(sites.length >= 30, `${sites.length} call sites found`);
  for (const [, method, fnHelper, fn, rest] of sites) {
    const helper = method ?? (fnHelper === "call" ? "call" : "count");
    const wanted = headerArity(fn);
    assert.notEqual(wanted, null, `${fn} is declared in pindrop.h`);
    const passed = rest.trim() ? argumentCount(rest.replace(/^\s*,/, "")) : 0;
    assert.equal(passed + 1, wanted, `${fn}: the package passes the map and ${passed} arguments, the header takes ${wanted}`);
    assert.ok(passed <= forwards[helper], `${fn}: ${helper} forwards ${forwards[helper]} arguments, the call passes ${passed}`);
  }
});
