// Events as plain objects: the pindrop_event the module filled, with each field its type
// carries (the others null), the type and cause as names, ids and keys as numbers or BigInts.

import { idAt, u64At } from "./ids.js";
import { AT, CAUSE, CAUSES, DIST, DXY, EVENT_FIELDS, EVENT_SIZE, EVENT_TYPES, FROM, ID, KEY, OTHER, REQ } from "./tables.js";

const MOVED = 6;  // PINDROP_EVENT_MOVED

/** The event at e (a map's scratch) in `l`'s memory; ids as BigInts when `bigint`. */
export function readEvent(l, e, bigint) {
  // e is 8-aligned (a map's scratch): the fields read through the typed-array views.
  const i32 = l.i32, f64 = l.f64, b = e >> 2, d = e >> 3;
  const t = i32[b], c = i32[b + 1];
  const has = EVENT_FIELDS[t] ?? 0xff;
  const ev = {
    // A type or cause newer than this file (the header grows) keeps its number: "EVENT_12".
    type: EVENT_TYPES[t] ?? `EVENT_${t}`,
    cause: has & CAUSE ? (CAUSES[c] ?? `CAUSE_${c}`) : null,
    id: has & ID ? idAt(l, e + 8, bigint) : null,
    other: has & OTHER ? idAt(l, e + 16, bigint) : null,
    lon: has & AT ? f64[d + 3] : null, lat: has & AT ? f64[d + 4] : null,
    fromLon: has & FROM ? f64[d + 5] : null, fromLat: has & FROM ? f64[d + 6] : null,
    dx: has & DXY ? f64[d + 7] : null, dy: has & DXY ? f64[d + 8] : null,
    distanceM: has & DIST ? f64[d + 9] : null,
    timeMs: f64[d + 10],
    request: has & REQ ? (has & KEY ? l.u64[d + 11] : u64At(l, e + 88)) : null,
  };
  if (has & KEY) ev.key = ev.request;  // CLUSTER_TAPPED, STACK_OPENED, STACK_CLOSED
  // MOVED: how far the true coordinate moved, in metres on pindrop's sphere (pindrop_distance,
  // as every distance pindrop reports); the C event leaves distance_m to the reader.
  if (t === MOVED && ev.distanceM === null) ev.distanceM = movedMetres(l, e + EVENT_SIZE, ev);
  return ev;
}

/** The great-circle distance from (fromLon, fromLat) to (lon, lat), through the module's
 *  pindrop_distance with its out-parameter at `out` (scratch after the event, 8-aligned); null
 *  when a coordinate is missing or refused. */
function movedMetres(l, out, ev) {
  if (ev.fromLon === null || ev.lon === null) return null;
  const r = l.f.pindrop_distance(ev.fromLon, ev.fromLat, ev.lon, ev.lat, out, 0);
  return r === 0 ? l.f64[out >> 3] : null;
}
