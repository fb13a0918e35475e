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
    if (inst && inst.exports.memory instanceof WebAssembly.Memory) { memory = inst.exports.memory; wasmExports = inst.exports; }
    return r;
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

export function createMap(options) { return new P.Map(options); }
export function addMany(m, ids, lonlat) { m.addMany(ids, lonlat); }
export function add(m, id, lon, lat) { m.add(id, lon, lat); }
export function setTitle(m, id, title) { m.setTitle(id, title); }
export function setCamera(m, cam) { m.setCamera(cam); }
export function touch(m, pointer, phase, x, y, t) { return !!m.touch(pointer, phase, x, y, t); }
export function tick(m, t) { m.tick(t); }
export function nextDeadline(m) { return m.nextDeadline(); }
export function cancelGesture(m, t) { m.cancelGesture(t); }
export function events(m) { return m.events(); }
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
export function clusters(m, t) {
  return viewOf(m.clusters(t), { key: ["key", "keys"], x: ["x"], y: ["y"], lon: ["lon"], lat: ["lat"], count: ["size", "counts"],
                                 flags: ["flags"] });
}

// Behaviour 20 (keyboard focus, lift and drop), when the package has it. A focus comes back as
// { kind: "none" | "pin" | "cluster", id, key, x, y }.
export function hasKeyboard(m) { return typeof m.focusStep === "function" && typeof m.keyLift === "function"; }
export function focusStep(m, step) {
  const f = m.focusStep(step);
  if (!f) return { kind: "none", id: null, key: null };
  const kind = typeof f.kind === "string" ? f.kind : ["none", "pin", "cluster"][f.kind] || "none";
  return { kind, id: f.id ?? null, key: f.key ?? null, x: f.x, y: f.y };
}
export function keyLift(m, t) { m.keyLift(t); }
export function keyDrop(m, t) { m.keyDrop(t); }

// Behaviour 19 (what a cluster holds), when the package has it.
export function hasSummaries(m) { return typeof m.clusterCategories === "function" && typeof m.setAttributes === "function"; }
export function setCategories(m, ids, categories) { m.setAttributes(ids, null, categories); }
// [[category, count], ...] most members first
export function clusterCategories(m, key) {
  const r = m.clusterCategories(key);
  if (Array.isArray(r)) return r.map((v) => (Array.isArray(v) ? v : [v.category, v.count]));
  if (r && ArrayBuffer.isView(r.categories)) return Array.from(r.categories, (c, i) => [c, r.counts[i]]);
  if (r instanceof Map) return [...r.entries()];
  return Object.entries(r || {}).map(([c, n]) => [+c, n]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}
export function clusterSummary(m, key) { return typeof m.clusterSummary === "function" ? m.clusterSummary(key) : null; }

// Behaviour 22 (stacks that open on demand): the option, when the package knows it.
export function createMapWith(options, extra) {
  try { return new P.Map({ ...options, ...extra }); } catch (err) {
    if (err instanceof TypeError) return new P.Map(options);
    throw err;
  }
}

export function hitTest(m, x, y) { return m.hitTest(x, y); }
// The bytes of the module's linear memory (the wasm heap).
export function wasmMemoryBytes() { return memory ? memory.buffer.byteLength : null; }
// The module's own exports (the C contract, memory, malloc, free), for the benchmark's calls
// without the package in between.
export function rawExports() { return wasmExports; }
