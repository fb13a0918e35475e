// Batch spreading: the drawn positions of points that share a spot, without a map.

import { describe, float64Array, knownKeys, num, optionsObject } from "./arguments.js";
import { check, InvalidArgument } from "./errors.js";
import { need } from "./load.js";
import { SPREAD_OPTIONS } from "./tables.js";

/**
 * The drawn positions of n points lonlat = [lon0, lat0, ...] after the spreading rule (a new
 * Float64Array). layout "ring" (metres) or "spiral" (screen points at `zoom`, `spacing` apart).
 */
export function spread(lonlat, options = {}) {
  const l = need("spread");
  knownKeys(optionsObject(options, "spread"), SPREAD_OPTIONS, "spread");
  const { toleranceM = 0, layout = "ring", spacing = 25, zoom = undefined } = options;
  const a = float64Array(lonlat, "lonlat");
  num(toleranceM, "toleranceM"); num(spacing, "spacing");
  if (layout !== "ring" && layout !== "spiral") throw new TypeError(`layout must be "ring" or "spiral", not ${describe(layout)}`);
  if (layout === "spiral") num(zoom, "zoom (layout \"spiral\" is laid out in screen points: it needs the zoom)");
  else if (zoom !== undefined) throw new TypeError("zoom applies to layout \"spiral\" only (the ring is in metres)");
  if (a.length % 2) throw new InvalidArgument(`lonlat has an odd length ${a.length}`, -1, "pindrop_spread");
  const n = a.length / 2;
  const p = l.malloc(Math.max(8, 8 * a.length));
  try {
    l.fresh().f64.set(a, p >> 3);
    const fn = layout === "ring" ? "pindrop_spread" : "pindrop_spread_spiral";
    const r = layout === "ring" ? l.call(fn, p, n, toleranceM, p) : l.call(fn, p, n, toleranceM, spacing, zoom, p);
    check(l, r, fn);
    return l.f64.slice(p >> 3, (p >> 3) + a.length);
  } finally { l.free(p); }
}
