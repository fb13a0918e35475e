// pindrop's Leaflet layer (pindrop/leaflet) in the benchmark page, driven by bench_web.py with real
// input events (CDP Input): loading the trees (addPins, chunked), each pan and zoom frame with its
// drawing, and a drag of a tree at 60 frames a second. The page's work per frame is timed on the
// main thread: the input handlers (from the first listener, capture phase on window, to the last,
// bubbling on window, so the layer's and Leaflet's own handlers in between) and the layer's
// drawing (its render at the animation frame), summed per animation frame.

let layer = null, lmap = null;
const frames = [];          // per animation frame: { input, render, total } ms
let inputMs = 0, renderMs = 0, inputStart = -1;

function instrument() {
  const start = () => { if (inputStart < 0) inputStart = performance.now(); };
  const end = () => { if (inputStart >= 0) { inputMs += performance.now() - inputStart; inputStart = -1; } };
  for (const type of ["pointerdown", "pointermove", "pointerup", "mousedown", "mousemove", "mouseup", "wheel"]) {
    window.addEventListener(type, start, { capture: true });
    window.addEventListener(type, end, { capture: false });   // after document's (Leaflet's drag)
  }
  // the layer's drawing: its host's render, timed around
  const host = layer.host, render = host.render.bind(host);
  host.render = () => { const t0 = performance.now(); render(); renderMs += performance.now() - t0; };
  const tick = () => {
    if (inputMs || renderMs) frames.push({ input: inputMs, render: renderMs, total: inputMs + renderMs });
    inputMs = 0; renderMs = 0;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The layer on a Leaflet map at (center, zoom), the trees added: the load's time, as a user
 *  waits for it (addPins resolves once every chunk is in), and the first frame drawn. */
export async function layerLoad(data, center, zoom) {
  const { pindropLayer } = await import("/pindrop/src/leaflet.js");
  lmap = L.map(document.getElementById("map"), { center, zoom, zoomAnimation: false, fadeAnimation: false,
                                                 markerZoomAnimation: false, inertia: false, maxZoom: 22 });
  layer = pindropLayer({ input: "mouse" }).addTo(lmap);
  await layer.ready;
  const t0 = performance.now();
  await layer.addPins(data.ids, data.lonlat);
  const t1 = performance.now();
  layer.host.render();
  const t2 = performance.now();
  instrument();
  return { loadMs: t1 - t0, firstDrawMs: t2 - t1, pins: layer.map.count };
}

/** Clears the frames recorded so far (a phase starts). */
export function resetFrames() { frames.length = 0; inputMs = 0; renderMs = 0; }

/** The frames recorded since resetFrames: [{input, render, total}]. */
export function takeFrames() { const out = frames.slice(); resetFrames(); return out; }

/** Zoom changes through Leaflet (setZoom without animation), each timed with the layer's drawing
 *  of it (rendered at once rather than at the next animation frame). */
export function zoomFrames(zooms) {
  const out = [];
  for (const z of zooms) {
    const t0 = performance.now();
    lmap.setZoom(z, { animate: false });
    layer.host.render();
    out.push({ zoom: z, ms: performance.now() - t0, drawn: layer.host.drawn.clusters + layer.host.drawn.pins });
  }
  return out;
}

/** Where a tree is drawn now, in the map's container points (for the drag). */
export function treePoint(lon, lat) {
  const p = lmap.latLngToContainerPoint(L.latLng(lat, lon));
  const r = lmap.getContainer().getBoundingClientRect();
  return [p.x + r.left, p.y + r.top];
}

/** Centres the map at (lon, lat, zoom), drawn. */
export function view(lon, lat, zoom) { lmap.setView([lat, lon], zoom, { animate: false }); layer.host.render(); }

/** A tree's true position (after the drag). */
export function position(id) { return layer.map.position(id); }

/** The first tree drawn alone (not in a cluster) nearest the container's middle: [id, lon, lat]. */
export function loneTree() {
  const m = layer.map, f = m.frame(layer.now());
  const size = lmap.getSize();
  let best = -1, bestD = Infinity;
  for (let i = 0; i < f.count; i++) {
    const d = (f.x[i] - size.x / 2) ** 2 + (f.y[i] - size.y / 2) ** 2;
    if (d < bestD) { bestD = d; best = i; }
  }
  if (best < 0) return null;
  const id = Number(f.id[best]);
  return [id, ...m.position(id)];
}
