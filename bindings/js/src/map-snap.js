// Snapping (behaviour 24, since 0.4.0): the snap layers a dragged pin lands on (vertices and
// segments of points, lines and polygons, each feature with the host's id) and what it snapped to.

import { describe, uint32 } from "./arguments.js";
import { fromId } from "./ids.js";
import { live } from "./map-handle.js";
import { SNAP_KINDS } from "./tables.js";

/** Map's snapping methods (installed on Map by map.js). */
export class MapSnap {
  /** Replaces snap layer `layer` (0 ... 1023) with the features of `data`: WKT text (a
   *  GEOMETRYCOLLECTION or one geometry, whose parts get ids 0, 1, ...), GeoJSON text, or a GeoJSON
   *  object (JSON.stringified; a FeatureCollection's features carry their integer "id"). null or
   *  "" clears the layer. ParseError for bad text or a feature without an integer id,
   *  InvalidArgument for a layer out of range; either changes nothing. */
  setSnapLayer(layer, data) {
    const h = live(this, "setSnapLayer"), l = h.lib, n = uint32(layer, "layer");
    if (data === null) { h.call("pindrop_map_set_snap_layer", n, 0); return; }
    if (typeof data === "object") data = JSON.stringify(data);
    if (typeof data !== "string") throw new TypeError(`data must be WKT or GeoJSON text, a GeoJSON object or null, not ${describe(data)}`);
    const p = l.cString(data, "data", "pindrop_map_set_snap_layer");
    try { h.call("pindrop_map_set_snap_layer", n, p); } finally { l.free(p); }
  }

  /** What the dragged pin is snapped to now: {kind, layer, feature, index, lon, lat}; kind
   *  "none" when no pin is dragged or it is not snapped ("pin", "vertex" or "segment" else;
   *  feature: the feature's id, or the pin's; index: the vertex, or the segment's first vertex). */
  snapTarget() {
    const h = live(this, "snapTarget"), dv = h.lib.dv, s = h.lib.scratch;
    h.call("pindrop_map_snap_target", s);
    const k = dv.getInt32(s, true);
    return { kind: SNAP_KINDS[k] ?? `SNAP_${k}`, layer: dv.getUint32(s + 4, true),
      feature: fromId(dv.getBigInt64(s + 8, true), h.bigint), index: Number(dv.getBigInt64(s + 16, true)),
      lon: dv.getFloat64(s + 24, true), lat: dv.getFloat64(s + 32, true) };
  }
}
