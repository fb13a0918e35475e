// The page's one door to the pindrop package (bindings/js, served at /pindrop/): every call the
// page makes goes through here, so the drawing and input code read the same whatever the package's
// views look like. The package is found through its package.json, as a bundler-less browser would.

let P = null;        // the package module

export let PIN_SELECTED = 1, PIN_EDITING = 2, PIN_DRAGGING = 4, PIN_SPREAD = 8, PIN_INVALID = 16, PIN_FOCUSED = 32;
export let CLUSTER_ONE_SPOT = 1, CLUSTER_STACK = 2;
const constants = { PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID, PIN_FOCUSED, CLUSTER_ONE_SPOT, CLUSTER_STACK };

function entryOf(pkg) {
  const e = pkg.exports;
  const pick = (v) => (typeof v === "string" ? v : v && (v.browser || v.import || v.default));
  return (e && (pick(e["."]) || pick(e))) || pkg.browser || pkg.module || pkg.main || "index.js";
}

let memory = null;   // the module's linear memory, caught as the package instantiates it
let wasmExports = null;

export async function init(base = "/pindrop/") {
  if (P) return P;
  const pkg = await (await fetch(base + "package.json")).json();
  P = await import(base + entryOf(pkg).replace(/^\.\//, ""));
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (...args) {
    const r = await instantiate.apply(this, args);
    const inst = r instanceof WebAssembly.Instance ? r : r.instance;
    if (!inst || !(inst.exports.memory instanceof WebAssembly.Memory)) return r;
    memory = inst.exports.memory; wasmExports = inst.exports;
    // The package's own exports, with map_create seen from here: the page learns each map's
    // handle (for the 0.3 calls the package does not wrap yet) and can give it 0.3's options.
    const exports = Object.assign(Object.create(null), inst.exports, { pindrop_map_create: createWithExtras });
    return r instanceof WebAssembly.Instance ? { exports } : { module: r.module, instance: { exports } };
  };
  try { await P.load(); } finally { WebAssembly.instantiate = instantiate; }
  for (const k of ["PIN_SELECTED", "PIN_EDITING", "PIN_DRAGGING", "PIN_SPREAD", "PIN_INVALID", "PIN_FOCUSED",
                   "CLUSTER_ONE_SPOT", "CLUSTER_STACK"]) {
    if (typeof P[k] === "number") constants[k] = P[k];
  }
  ({ PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID, PIN_FOCUSED, CLUSTER_ONE_SPOT, CLUSTER_STACK } = constants);
  return P;
}
export const pkg = () => P;

// ---- 0.3 calls the package does not wrap yet, on the module's own exports ----------------------
// (behaviours 19, 20, 22: keyboard focus and drag, cluster summaries, collapsed stacks). Each is
// used only while the package lacks its own method.
const handles = new WeakMap();   // package Map -> the module's map handle
let lastHandle = 0, pendingExtras = null;
const OPTIONS_0_3 = 168;         // sizeof(pindrop_options) on wasm32 with 0.3's three uint32 fields
const EXTRA_OFFSETS = { clusterMinPoints: 152, clusterByCategory: 156, spreadOnTap: 160 };

function createWithExtras(options, out) {
  const X = wasmExports;
  let big = 0;
  if (pendingExtras) {
    big = X.malloc(OPTIONS_0_3);
    if (big && X.pindrop_options_init(big, OPTIONS_0_3) === 0) {
      const u8 = new Uint8Array(X.memory.buffer);
      u8.copyWithin(big + 8, options + 8, options + 152);   // the package's 0.2 fields
      const dv = new DataView(X.memory.buffer);
      for (const [name, v] of Object.entries(pendingExtras)) dv.setUint32(big + EXTRA_OFFSETS[name], Number(v), true);
    } else if (big) { X.free(big); big = 0; }
  }
  const r = X.pindrop_map_create(big || options, out);
  if (big) X.free(big);
  if (r === 0) lastHandle = new Uint32Array(X.memory.buffer)[out >> 2];
  return r;
}

function handle(m) {
  const h = handles.get(m);
  if (!h || m.disposed) throw new (P.StateError || Error)("this map's handle is not known to the page");
  return h;
}
function cString(p) {
  const u8 = new Uint8Array(wasmExports.memory.buffer);
  let e = p;
  while (u8[e]) e++;
  return new TextDecoder().decode(u8.subarray(p, e));
}
function rawCheck(m, r, fn) {
  if (r >= 0) return r;
  const msg = cString(wasmExports.pindrop_map_last_error(handle(m))) || `${fn} failed (${r})`;
  const E = { [-1]: P.InvalidArgument, [-2]: P.NotFound, [-5]: P.StateError }[r] || P.PindropError || Error;
  throw new E(msg, r, fn);
}
const fromU64 = (v) => (v <= 9007199254740991n ? Number(v) : v);
const toU64 = (k) => (typeof k === "bigint" ? k : BigInt(k));
let scratch = 0;
function scratchPtr() { if (!scratch) scratch = wasmExports.malloc(64); return scratch; }

export function createMap(options) {
  const m = new P.Map(options);
  handles.set(m, lastHandle);
  return m;
}
export function addMany(m, ids, lonlat) { m.addMany(ids, lonlat); }
export function add(m, id, lon, lat) { m.add(id, lon, lat); }
export function setTitle(m, id, title) { m.setTitle(id, title); }
export function setCamera(m, cam) { m.setCamera(cam); }
export function touch(m, pointer, phase, x, y, t) { return !!m.touch(pointer, phase, x, y, t); }
export function tick(m, t) { m.tick(t); }
export function nextDeadline(m) { return m.nextDeadline(); }
export function cancelGesture(m, t) { m.cancelGesture(t); }
// 0.3's event types and causes, which a 0.2 package reports as numbers or as EVENT_n / CAUSE_n
const EVENT_NAMES_0_3 = { 12: "STACK_OPENED", 13: "STACK_CLOSED", EVENT_12: "STACK_OPENED", EVENT_13: "STACK_CLOSED" };
const CAUSE_NAMES_0_3 = { 8: "KEYBOARD", CAUSE_8: "KEYBOARD" };
export function events(m) {
  const out = m.events();
  for (const e of out) {
    if (EVENT_NAMES_0_3[e.type]) e.type = EVENT_NAMES_0_3[e.type];
    if (CAUSE_NAMES_0_3[e.cause]) e.cause = CAUSE_NAMES_0_3[e.cause];
  }
  return out;
}
export function nudge(m, dx, dy, t) { m.nudge(dx, dy, t); }
export function undo(m, t) { m.undo(t); }
export function redo(m, t) { m.redo(t); }
export function place(m, id, lon, lat, t) { m.place(id, lon, lat, t); }
export function edit(m, id, t) { m.edit(id, t); }
export function commit(m, t) { m.commit(t); }
export function cancelEdit(m, t) { m.cancelEdit(t); }
export function select(m, id) { m.select(id); }
export function clusterExpansionZoom(m, key) { return m.clusterExpansionZoom(key); }
export function answerGeocode(m, request, text) { return m.answerGeocode(request, text); }
export function position(m, id) { const p = m.position(id); return Array.isArray(p) ? p : [p.lon, p.lat]; }
export function toLonLat(m, x, y) { const p = m.toLonLat(x, y); return Array.isArray(p) ? p : [p.lon, p.lat]; }
export function toScreen(m, lon, lat) { const p = m.toScreen(lon, lat); return Array.isArray(p) ? p : [p.x, p.y]; }
export function callout(m, id, which) {
  if (which === "title" && m.title) return m.title(id);
  if (which === "subtitle" && m.subtitle) return m.subtitle(id);
  return m.callout(id, which);
}
// [[id, metres], ...] nearest first
export function nearby(m, lon, lat, radius, limit = 16) {
  return m.nearby(lon, lat, radius, limit).map((v) => [v.id, v.distanceM]);
}

// frame() and clusters() as accessors over the package's typed-array views ({count, id, x, ...},
// reused by the next call). A field the package does not give (clusters' flags before 0.3) reads 0.
const zero = () => 0;
function viewOf(v, fields) {
  const out = { n: v.count };
  for (const [name, candidates] of Object.entries(fields)) {
    const key = candidates.find((c) => ArrayBuffer.isView(v[c]));
    const arr = key === undefined ? null : v[key];
    out[name] = arr === null ? zero : arr instanceof BigInt64Array || arr instanceof BigUint64Array ? (i) => Number(arr[i]) : (i) => arr[i];
  }
  return out;
}
export function frame(m, t) {
  return viewOf(m.frame(t), { id: ["id", "ids"], x: ["x"], y: ["y"], ax: ["anchorX"], ay: ["anchorY"], lift: ["lift"], flags: ["flags"] });
}
// The package's clusters() gives keys as a Float64Array, exact below 2^53 only; 0.3's keys use
// bits 58-63 (level, generation, the stack bit), so the page reads the views itself (keys above
// 2^53 as BigInts, as the package gives events' requests) whenever it knows the map's handle.
const rawClusters = { buf: 0, cap: 0, view: null };
export function clusters(m, t) {
  if (handles.has(m)) return rawClusterView(m, t);
  return viewOf(m.clusters(t), { key: ["key", "keys"], x: ["x"], y: ["y"], lon: ["lon"], lat: ["lat"], count: ["size", "counts"],
                                 flags: ["flags"] });
}

// frame_clusters on the module's exports, with the flags (ONE_SPOT, STACK) and keys beyond 2^53
function rawClusterView(m, t) {
  const X = wasmExports, h = handle(m), R = rawClusters;
  let n = X.pindrop_map_frame_clusters(h, t, R.buf, R.cap) >>> 0;
  if (n > R.cap) {
    if (R.buf) X.free(R.buf);
    R.cap = Math.max(n, 2 * R.cap, 256);
    R.buf = X.malloc(48 * R.cap);
    n = Math.min(X.pindrop_map_frame_clusters(h, t, R.buf, R.cap) >>> 0, R.cap);
  }
  const f64 = new Float64Array(X.memory.buffer), u32 = new Uint32Array(X.memory.buffer), u64 = new BigUint64Array(X.memory.buffer);
  const key = new Array(n), x = new Float64Array(n), y = new Float64Array(n), lon = new Float64Array(n), lat = new Float64Array(n),
    size = new Uint32Array(n), flags = new Uint32Array(n);
  for (let i = 0, d = R.buf >> 3; i < n; i++, d += 6) {
    key[i] = fromU64(u64[d]); x[i] = f64[d + 1]; y[i] = f64[d + 2]; lon[i] = f64[d + 3]; lat[i] = f64[d + 4];
    size[i] = u32[2 * d + 10]; flags[i] = u32[2 * d + 11];
  }
  return { n, key: (i) => key[i], x: (i) => x[i], y: (i) => y[i], lon: (i) => lon[i], lat: (i) => lat[i],
           count: (i) => size[i], flags: (i) => flags[i] };
}

// Behaviour 20 (keyboard focus, lift and drop), when the package has it. A focus comes back as
// { kind: "none" | "pin" | "cluster", id, key, x, y }.
export function hasKeyboard(m) {
  return (typeof m.focusStep === "function" && typeof m.keyLift === "function") ||
    (handles.has(m) && typeof wasmExports.pindrop_map_focus_step === "function");
}
export function focusStep(m, step) {
  const f = typeof m.focusStep === "function" ? m.focusStep(step) : rawFocusStep(m, step);
  if (!f) return { kind: "none", id: null, key: null };
  const kind = typeof f.kind === "string" ? f.kind : ["none", "pin", "cluster"][f.kind] || "none";
  return { kind, id: f.id ?? null, key: f.key ?? null, x: f.x, y: f.y };
}
export function keyLift(m, t) {
  if (typeof m.keyLift === "function") m.keyLift(t); else rawCheck(m, wasmExports.pindrop_map_key_lift(handle(m), t), "pindrop_map_key_lift");
}
export function keyDrop(m, t) {
  if (typeof m.keyDrop === "function") m.keyDrop(t); else rawCheck(m, wasmExports.pindrop_map_key_drop(handle(m), t), "pindrop_map_key_drop");
}
function rawFocusStep(m, step) {
  const X = wasmExports, p = scratchPtr();
  rawCheck(m, X.pindrop_map_focus_step(handle(m), step, p), "pindrop_map_focus_step");
  const dv = new DataView(X.memory.buffer);
  const id = dv.getBigInt64(p + 8, true);
  return { kind: dv.getInt32(p, true), id: id === -(2n ** 63n) ? null : Number(id), key: fromU64(dv.getBigUint64(p + 16, true)),
           x: dv.getFloat64(p + 24, true), y: dv.getFloat64(p + 32, true) };
}

// Behaviour 22: open a collapsed stack (what a tap on it does), e.g. from the keyboard.
export function openStack(m, key, t) {
  if (typeof m.openStack === "function") { m.openStack(key, t); return; }
  rawCheck(m, wasmExports.pindrop_map_open_stack(handle(m), toU64(key), t), "pindrop_map_open_stack");
}

// Behaviour 19 (what a cluster holds), when the package has it.
export function hasSummaries(m) {
  return (typeof m.clusterCategories === "function" && typeof m.setAttributes === "function") ||
    (handles.has(m) && typeof wasmExports.pindrop_map_cluster_categories === "function");
}
export function setCategories(m, ids, categories) {
  if (typeof m.setAttributes === "function") { m.setAttributes(ids, null, categories); return; }
  const X = wasmExports, n = ids.length;
  const pi = X.malloc(8 * n), pc = X.malloc(4 * n);
  try {
    const i64 = new BigInt64Array(X.memory.buffer, pi, n);
    for (let i = 0; i < n; i++) i64[i] = BigInt(ids[i]);
    new Uint32Array(X.memory.buffer, pc, n).set(categories);
    rawCheck(m, X.pindrop_map_set_attributes(handle(m), pi, 0, pc, n), "pindrop_map_set_attributes");
  } finally { X.free(pi); X.free(pc); }
}
function rawClusterCategories(m, key) {
  const X = wasmExports, h = handle(m), k = toU64(key);
  let cap = 16;
  for (;;) {
    const pc = X.malloc(4 * cap), pn = X.malloc(4 * cap);
    try {
      const total = X.pindrop_map_cluster_categories(h, k, pc, pn, cap) >>> 0;
      if (total === 0) { const msg = cString(X.pindrop_map_last_error(h)); if (msg) throw new P.NotFound(msg, -2, "pindrop_map_cluster_categories"); }
      if (total <= cap) {
        const c = new Uint32Array(X.memory.buffer, pc, total), n = new Uint32Array(X.memory.buffer, pn, total);
        return Array.from(c, (v, i) => [v, n[i]]);
      }
      cap = total;
    } finally { X.free(pc); X.free(pn); }
  }
}
// [[category, count], ...] most members first
export function clusterCategories(m, key) {
  if (typeof m.clusterCategories !== "function") return rawClusterCategories(m, key);
  const r = m.clusterCategories(key);
  if (Array.isArray(r)) return r.map((v) => (Array.isArray(v) ? v : [v.category, v.count]));
  if (r && ArrayBuffer.isView(r.categories)) return Array.from(r.categories, (c, i) => [c, r.counts[i]]);
  if (r instanceof Map) return [...r.entries()];
  return Object.entries(r || {}).map(([c, n]) => [+c, n]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}
export function clusterSummary(m, key) {
  if (typeof m.clusterSummary === "function") return m.clusterSummary(key);
  const X = wasmExports, p = scratchPtr();
  rawCheck(m, X.pindrop_map_cluster_summary(handle(m), toU64(key), p), "pindrop_map_cluster_summary");
  const dv = new DataView(X.memory.buffer);
  return { count: dv.getUint32(p, true), valued: dv.getUint32(p + 4, true), category: dv.getUint32(p + 8, true),
           flags: dv.getUint32(p + 12, true), valueSum: dv.getFloat64(p + 16, true), valueMin: dv.getFloat64(p + 24, true),
           valueMax: dv.getFloat64(p + 32, true) };
}

// Behaviour 22 (stacks that open on demand): the option, when the package knows it.
export function createMapWith(options, extra) {
  let m;
  try { m = new P.Map({ ...options, ...extra }); } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    pendingExtras = extra;                  // the package does not know them: set them here
    try { m = new P.Map(options); } finally { pendingExtras = null; }
  }
  handles.set(m, lastHandle);
  return m;
}

export function hitTest(m, x, y) { return m.hitTest(x, y); }
// The bytes of the module's linear memory (the wasm heap).
export function wasmMemoryBytes() { return memory ? memory.buffer.byteLength : null; }
// The module's own exports (the C contract, memory, malloc, free), for the benchmark's calls
// without the package in between.
export function rawExports() { return wasmExports; }
