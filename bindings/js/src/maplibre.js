// pindrop/maplibre: pindrop as a MapLibre GL JS 5.x layer.
//
//   import { pindropLayer } from "pindrop/maplibre";
//   const layer = pindropLayer({ itemName: "tree" });     // pindrop map options + the host's (host/host.js)
//   map.addLayer(layer);                                   // once the style is loaded
//   await layer.addGeoJSON(trees, { id: "tree_id", category: "species" });
//   layer.on("pinmoved", (e) => save(e.id, e.lon, e.lat, e.feature));
//
// Loaded after maplibre-gl.js without a bundler, as a module script (<script type="module"
// src=".../src/maplibre.js">) or as a plain one (<script src=".../src/maplibre-layer.js">), it
// also sets maplibregl.pindropLayer and maplibregl.PindropLayer.
//
// A MapLibre custom layer (type "custom") whose render() draws pindrop's frame into a 2D canvas
// over the map's WebGL canvas, in the same animation frame as the map: the pins never lag a pan,
// a zoom or a rotation. A frame that only pindrop needs (a pin lifted, dragged or dropped) redraws
// the 2D canvas alone: MapLibre does not draw its WebGL frame again for it. Everything else is
// the web host core's (host/): the clock, the routing
// of pointers and keys, the tick loop, the drawing and its style hooks, the keyboard path and its
// announcements, GeoJSON in and out, the events. The layer (./maplibre-layer.js) is only the
// MapLibre adapter:
//
// - the camera: MapLibre's tiles are 512 pixels, pindrop's 256 points, so pindrop's zoom is
//   MapLibre's + 1; the bearing is the same (the compass direction that points up); the centre
//   is the map's own unprojection of the canvas's middle (right with padding too);
// - input: the host listens on the canvas container (where MapLibre's handlers listen) on the
//   capture phase; while pindrop holds a pointer, the map's dragPan is off;
// - rotation is supported (pindrop's camera has a bearing: pins stand upright, lifted pins rise
//   towards the top of the screen, the arrow keys nudge in screen directions);
// - a pitched map, the globe projection and 3D terrain are not: pindrop draws, hit-tests and
//   clusters on a flat Web Mercator view. Adding the layer to such a map throws; while the layer
//   is on, maxPitch is 0, and a view that becomes one anyway (maxPitch raised, setPitch, globe,
//   terrain) suspends the layer: it draws nothing, leaves every pointer and key to the map, warns
//   once and fires `suspended` { reason, message }; back on a flat view it fires `resumed`.

import * as core from "./host/index.js";
import "./maplibre-layer.js";

const defined = globalThis.__pindropMapLibre(() => Promise.resolve(core));

export const PindropLayer = defined.PindropLayer;
/** Why pindrop cannot draw this view ("pitch", "globe", "terrain"), with the words, or null. */
export const refusal = defined.refusal;
/** A new pindrop layer for a MapLibre map: map.addLayer(pindropLayer(options)). */
export function pindropLayer(options) { return new PindropLayer(options); }

if (globalThis.maplibregl && !globalThis.maplibregl.pindropLayer) {
  globalThis.maplibregl.pindropLayer = pindropLayer;
  globalThis.maplibregl.PindropLayer = PindropLayer;
}
