// The page's one door to the pindrop package (bindings/js, served at /pindrop/): every call the
// page makes goes through here, so the drawing and input code read the same whatever the package's
// views look like. The package is found through its package.json, as a bundler-less browser would.

let P = null;        // the package module

export let PIN_SELECTED = 1, PIN_EDITING = 2, PIN_DRAGGING = 4, PIN_SPREAD = 8, PIN_INVALID = 16, PIN_FOCUSED = 32;
export let CLUSTER_ONE_SPOT = 1, CLUSTER_STACK = 2;

function entryOf(pkg) {
  const e = pkg.exports;
  const pick = (v) => (typeof v === "string" ? v : v && (v.browser || v.import || v.default));
  return (e && (pick(e["."]) || pick(e))) || pkg.browser || pkg.module || pkg.main || "index.js";
}

export async function init(base = "/pindrop/") {
  const pkg = await (await fetch(base + "package.json")).json();
  P = await import(base + entryOf(pkg).replace(/^\.\//, ""));
  await P.load();
  return P;
}
export const pkg = () => P;

export function createMap(options) { return new P.Map(options); }
export function addMany(m, ids, lonlat) { m.addMany(ids, lonlat); }
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
export function nearby(m, lon, lat, radius) {
  const r = m.nearby(lon, lat, radius);
  if (Array.isArray(r)) return r.map((v) => (Array.isArray(v) ? v : [v.id, v.distanceM ?? v.distance]));
  const out = [];
  for (let i = 0; i < r.ids.length; i++) out.push([Number(r.ids[i]), r.distances ? r.distances[i] : r.distanceM[i]]);
  return out;
}

// frame() and clusters() as accessors over the package's typed-array views
const num = (v) => (typeof v === "bigint" ? Number(v) : v);
function viewOf(v, fields) {
  const n = v.length ?? v.count ?? v.n;
  const out = { n };
  for (const [name, candidates] of Object.entries(fields)) {
    const key = candidates.find((c) => v[c] !== undefined);
    const arr = v[key];
    out[name] = name === "key" ? (i) => arr[i] : (i) => num(arr[i]);
  }
  return out;
}
export function frame(m, t) {
  return viewOf(m.frame(t), { id: ["ids", "id"], x: ["x"], y: ["y"], ax: ["anchorX", "anchor_x"], ay: ["anchorY", "anchor_y"],
                              lift: ["lift"], flags: ["flags"] });
}
export function clusters(m, t) {
  return viewOf(m.clusters(t), { key: ["keys", "key"], x: ["x"], y: ["y"], lon: ["lon"], lat: ["lat"], count: ["count", "counts"],
                                 flags: ["flags"] });
}

// Behaviour 20 (keyboard focus, lift and drop), when the package has it.
export function hasKeyboard(m) { return typeof m.focusStep === "function" && typeof m.keyLift === "function"; }
export function focusStep(m, step) { return m.focusStep(step); }
export function keyLift(m, t) { m.keyLift(t); }
export function keyDrop(m, t) { m.keyDrop(t); }

export function hitTest(m, x, y) { return m.hitTest(x, y); }
// The bytes of the module's linear memory (the wasm heap), when the package tells.
export function wasmMemoryBytes() {
  const mem = P.memory || (P.wasm && P.wasm.memory) || (P.instance && P.instance.exports.memory);
  return mem ? mem.buffer.byteLength : null;
}
