// The page's state, readable by tests (window.pindropPage), and its elements. What the layer
// knows (the pindrop map, what it drew, the selection, the focus) is read from it; the page keeps
// what it saw (every event, every announcement) and its data.

export const params = new URLSearchParams(location.search);

export const mapEl = document.getElementById("map");
export const shell = document.getElementById("shell");
export const calloutEl = document.getElementById("callout");
export const statusEl = document.getElementById("status");

const host = () => page.layer && page.layer.host;
export const page = {
  ready: false, error: null,
  input: params.get("input") || "auto",
  dataset: params.get("data") || "lawndale",
  layer: null,          // the PindropLayer
  leaflet: null,        // the L.Map
  trees: null,          // { ids, lonlat, categories, rowOf(id), title(row), place(row), categoryName(c) }
  lastDragged: null,    // { id, lon, lat } of the last DRAGGED event
  lastMoved: null,      // the last MOVED event
  events: [],           // every pindrop event, in order (plain objects)
  announcements: [],    // what the live region said
  loadProgress: [],     // the progress events of the load: [phase, loaded, total]
  get map() { return host() ? host().map : null; },
  get profile() { return host() ? host().profile : null; },
  get selected() { return host() ? host().selected : null; },
  get editing() { return host() ? host().editing : null; },
  get focus() { return host() ? host().focus : null; },
  get camera() { return host() ? host().camera : null; },
  get drawn() { return host() ? host().drawn : { at: 0 }; },
  get drawnPins() { return host() ? host().drawnPins : []; },
  get drawnClusters() { return host() ? host().drawnClusters : []; },
  get drawnStacks() { return host() ? host().drawnStacks : []; },
  get lastDownAt() { return host() ? host().lastDownAt : null; },
};
window.pindropPage = page;

export function treeTitle(id) {
  const row = page.trees.rowOf(id);
  return row >= 0 ? page.trees.title(row) : `New tree #${id}`;
}
