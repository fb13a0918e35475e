// The page's state, readable by tests (window.pindropPage), its elements, its one clock and the
// announcements of its live region.

export const params = new URLSearchParams(location.search);

export const mapEl = document.getElementById("map");
export const shell = document.getElementById("shell");
export const calloutEl = document.getElementById("callout");
const liveEl = document.getElementById("live");
export const statusEl = document.getElementById("status");

export const page = {
  ready: false, error: null,
  profile: params.get("input") || (matchMedia("(pointer: coarse)").matches ? "touch" : "mouse"),
  dataset: params.get("data") || "lawndale",
  map: null,            // the pindrop Map
  leaflet: null,        // the L.Map
  trees: null,          // { ids: Float64Array, lonlat: Float64Array, index: Map id -> row, label(row) }
  selected: null, editing: null,
  focus: null,          // the keyboard focus (behaviour 20): the last focusStep
  lastDragged: null,    // { id, lon, lat } of the last DRAGGED event
  lastMoved: null,      // the last MOVED event
  events: [],           // every event, in order (plain objects)
  announcements: [],    // what the live region said
  drawn: { pins: 0, clusters: 0, clusterMembers: 0, ms: 0, at: 0 },
  drawnClusters: [],    // [{ key, x, y, lon, lat, size, flags }] of the last drawing
  drawnPins: [],        // [{ id, x, y, anchorX, anchorY, lift, flags }] of the last drawing (up to 5000)
  drawnStacks: [],      // [{ key, x, y, size, label, font, radius, textWidth }]: collapsed stacks' badges as drawn
  camera: null,
  pointers: new Map(),  // pointerId -> { owned, leaflet, x, y }
  added: new Map(),     // id -> [lon, lat] of the trees placed on the page
};
window.pindropPage = page;

// What the page's modules tell one another between frames.
export const ui = {
  dirty: true,          // something changed: draw the next animation frame
  animating: false,     // a drawn pin still moves by itself (or a deadline is pending)
  dragText: null,       // the callout's "→ lat, lon" of the latest DRAGGED, written by the next draw
  nextNewId: 0,         // the id of the next tree placed on the page
};

// ---- time: one monotonic clock for every call (pindrop refuses time that goes back) -----------
let lastTime = 0;
export function now() {
  const t = performance.now();
  if (t > lastTime) lastTime = t;
  return lastTime;
}

export function announce(text) {
  page.announcements.push(text);
  liveEl.textContent = text;
  statusEl.textContent = text;
}

// A pindrop call that may be refused (nothing to undo, nothing selected, ...): false, and the
// announcement `failText` when there is one; an error that is not pindrop's goes on when
// failText is undefined.
export function tryCall(f, failText) {
  try { f(); return true; } catch (err) {
    if (err && err.name && /Pindrop|State|NotFound|Error/.test(err.name) && failText) announce(failText);
    else if (failText === undefined) throw err;
    return false;
  }
}

// True coordinates the page keeps (updated by MOVED): a change of input profile rebuilds the
// map from them (pindrop's options are fixed when a map is created).
export function storePosition(id, lon, lat) {
  const row = page.trees.rowOf(id);
  if (row >= 0) { page.trees.lonlat[2 * row] = lon; page.trees.lonlat[2 * row + 1] = lat; }
  else page.added.set(id, [lon, lat]);
}

export function treeTitle(id) {
  const row = page.trees.rowOf(id);
  return row >= 0 ? page.trees.title(row) : `New tree #${id}`;
}
