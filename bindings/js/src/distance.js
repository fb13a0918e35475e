// distance(): how far and in which direction one coordinate lies from another, without a map.

import { num } from "./arguments.js";
import { check } from "./errors.js";
import { need } from "./load.js";

/**
 * The facts of an announcement ("moved 12 m north-east"): {metres, bearing}, the great-circle
 * distance between two coordinates on pindrop's sphere (radius 6378137 m, as every distance
 * pindrop reports) and the initial bearing from the first to the second, degrees clockwise from
 * north in [0, 360). InvalidArgument for a coordinate that is not finite or out of range. Since 0.3.
 */
export function distance(fromLon, fromLat, toLon, toLat) {
  const l = need("distance"), s = l.scratch;
  check(l, l.call("pindrop_distance", num(fromLon, "fromLon"), num(fromLat, "fromLat"), num(toLon, "toLon"),
    num(toLat, "toLat"), s, s + 8), "pindrop_distance");
  return { metres: l.f64[s >> 3], bearing: l.f64[(s >> 3) + 1] };
}
