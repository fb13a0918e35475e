// The page's one door to the pindrop package (bindings/js, served at /pindrop/): the package is
// found through its package.json, as a bundler-less browser would, and the page's drawing code
// reads frames and clusters through the accessors below. Everything else is the package's own
// methods on the map (m.focusStep, m.clusterSummary, m.openStack, ...), called from app.js.

let P = null;        // the package module

export let PIN_SELECTED = 1, PIN_EDITING = 2, PIN_DRAGGING = 4, PIN_SPREAD = 8, PIN_INVALID = 16, PIN_FOCUSED = 32, PIN_ANIMATING = 64;
export let CLUSTER_ONE_SPOT = 1, CLUSTER_STACK = 2;

function entryOf(pkg) {
  const e = pkg.exports;
  const pick = (v) => (typeof v === "string" ? v : v && (v.browser || v.import || v.default));
  return (e && (pick(e["."]) || pick(e))) || pkg.browser || pkg.module || pkg.main || "index.js";
}

let base_ = "/pindrop/";
export async function init(base = "/pindrop/") {
  if (P) return P;
  base_ = base;
  const pkg = await (await fetch(base + "package.json")).json();
  P = await import(base + entryOf(pkg).replace(/^\.\//, ""));
  await P.load();
  ({ PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID, PIN_FOCUSED, PIN_ANIMATING, CLUSTER_ONE_SPOT, CLUSTER_STACK } = P);
  return P;
}
export const pkg = () => P;

export function createMap(options) { return new P.Map(options); }
export function addMany(m, ids, lonlat) { m.addMany(ids, lonlat); }
export function add(m, id, lon, lat) { m.add(id, lon, lat); }
export function setTitle(m, id, title) { m.setTitle(id, title); }
export function setCamera(m, cam) { m.setCamera(cam); }
export function touch(m, pointer, phase, x, y, t) { return m.touch(pointer, phase, x, y, t); }
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
export function position(m, id) { return m.position(id); }
export function toLonLat(m, x, y) { return m.toLonLat(x, y); }
export function toScreen(m, lon, lat) { return m.toScreen(lon, lat); }
export function callout(m, id, which) { return m.callout(id, which); }
// [[id, metres], ...] nearest first
export function nearby(m, lon, lat, radius, limit = 16) {
  return m.nearby(lon, lat, radius, limit).map((v) => [v.id, v.distanceM]);
}
export function hitTest(m, x, y) { return m.hitTest(x, y); }
// A cluster's categories as [[category, count], ...], most members first.
export function clusterCategories(m, key) {
  const c = m.clusterCategories(key);
  return Array.from(c.category, (cat, i) => [cat, c.count[i]]);
}

// frame() and clusters() as accessors over the package's typed-array views ({count, id, x, ...},
// reused by the next call: read them before the next frame). Cluster keys stay BigInts.
function viewOf(v, fields) {
  const out = { n: v.count };
  for (const [name, field] of Object.entries(fields)) {
    const arr = v[field];
    out[name] = arr instanceof BigInt64Array ? (i) => Number(arr[i]) : (i) => arr[i];
  }
  return out;
}
export function frame(m, t) {
  return viewOf(m.frame(t), { id: "id", x: "x", y: "y", ax: "anchorX", ay: "anchorY", lift: "lift", flags: "flags" });
}
export function clusters(m, t) {
  return viewOf(m.clusters(t), { key: "key", x: "x", y: "y", lon: "lon", lat: "lat", count: "size", flags: "flags" });
}

// The bytes of the module's linear memory (the wasm heap).
export function wasmMemoryBytes() { return P ? P.__memoryBytes() : null; }

// A second instance of the module, for the benchmark's calls on its exports without the package
// in between (the C contract, memory, malloc, free). Its WASI imports: nothing to print, and
// random_get from crypto (Swift's hashing seeds itself from it).
let raw = null;
export async function rawExports() {
  if (raw) return raw;
  const module = await WebAssembly.compileStreaming(fetch(base_ + "pindrop.wasm"));
  let memory = null;
  const wasi = {
    random_get(p, n) { crypto.getRandomValues(new Uint8Array(memory.buffer, p, n)); return 0; },
  };
  const imports = { wasi_snapshot_preview1: {} };
  for (const i of WebAssembly.Module.imports(module)) imports[i.module][i.name] = wasi[i.name] ?? (() => 52);
  const instance = await WebAssembly.instantiate(module, imports);
  memory = instance.exports.memory;
  raw = instance.exports;
  return raw;
}
