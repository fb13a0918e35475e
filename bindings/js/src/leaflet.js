// "pindrop/leaflet": pindrop as a Leaflet layer (leaflet/layer.js), on the Leaflet of the page
// (the global L) or the one given.
//
//   import { pindropLayer } from "pindrop/leaflet";
//   const layer = pindropLayer({ clusterRadius: 60 }).addTo(map);
//   await layer.addGeoJSON(trees, { id: "tree_id", category: "species" });
//   layer.on("pinmoved", (e) => save(e.id, e.lon, e.lat, e.feature));
//
// With a bundler that imports Leaflet as a module: `withLeaflet(L)` gives the layer class for that
// L. Importing this module with a global L also defines L.PindropLayer and L.pindropLayer, as a
// plain script (leaflet.global.js) does.

import * as core from "./host/index.js";
import { definePindropLayer } from "./leaflet/layer.js";

const classes = new WeakMap();

/** The PindropLayer class for a Leaflet namespace (one class per L). */
export function withLeaflet(L) {
  if (!L || !L.Layer) throw new Error("pindrop/leaflet needs Leaflet: load it first, or pass it to withLeaflet(L)");
  let cls = classes.get(L);
  if (!cls) { cls = definePindropLayer(L, () => Promise.resolve(core)); classes.set(L, cls); }
  return cls;
}

/** A new layer on the page's Leaflet (or `leaflet`): options are pindrop map options and the host's. */
export function pindropLayer(options, leaflet = globalThis.L) {
  const PindropLayer = withLeaflet(leaflet);
  return new PindropLayer(options);
}

export const PindropLayer = globalThis.L && globalThis.L.Layer ? withLeaflet(globalThis.L) : undefined;

if (PindropLayer && !globalThis.L.PindropLayer) {
  globalThis.L.PindropLayer = PindropLayer;
  globalThis.L.pindropLayer = (options) => new PindropLayer(options);
}
