// The Map class: a map's life (create, dispose), its camera, its pins and the queries on them.
// The rest of its methods are written by concern beside it and installed on the same class:
// map-drawing.js (frame, clusters), map-clusters.js (what clusters hold, stacks), map-input.js
// (pointers, timeouts, events, the keyboard), map-editing.js (edits, callouts, area, history) and
// map-selection.js (several pins at once: selectMany, selectInRect, selection, setModifiers).

import { bool, arrayLength, describe, float64Array, knownKeys, num, uint32 } from "./arguments.js";
import { check, InvalidArgument } from "./errors.js";
import { checkSafeIds, fromId, idAt, toId, writeIds } from "./ids.js";
import { need } from "./load.js";
import { call, handleOf, include, live, MapHandle, setHandleAccess } from "./map-handle.js";
import { MapClusters } from "./map-clusters.js";
import { MapDrawing } from "./map-drawing.js";
import { MapEditing } from "./map-editing.js";
import { MapInput } from "./map-input.js";
import { MapSelection } from "./map-selection.js";
import { MapSnap } from "./map-snap.js";
import { ADD_MANY_BYTES_PER_PIN, CAMERA_FIELDS, MAP_OPTIONS, OPTION_FIELDS, OPTIONS_SIZE } from "./tables.js";

/**
 * A map: its pins, the camera, the gesture in progress, spread layouts, clusters, the edit and
 * its history. Options are pindrop_options in camelCase, with string enums:
 * `new Map({ liftDelayMs: 0, spreadMode: "spiral", clusterRadius: 60, outsidePolicy: "snap" })`.
 * `bigintIds: true` returns ids as BigInt everywhere (frame().id is then a BigInt64Array); a map
 * whose ids go beyond 2^53 needs it (without it, ids are numbers and such an id is refused).
 * Unknown option keys and yes/no options that are not booleans (or 0 or 1) are TypeErrors.
 */
export class Map {
  #handle;   // its MapHandle
  // The one way to read #handle, for the methods written beside the class (map-handle.js); a
  // static field rather than a static block, which Safari before 16.4 cannot parse.
  static #handleAccess = setHandleAccess((map) => map.#handle);

  constructor(options = {}) {
    const l = need("new Map");
    if (options === null || typeof options !== "object") throw new TypeError(`options must be an object, not ${describe(options)}`);
    knownKeys(options, MAP_OPTIONS, "new Map");
    const bigint = options.bigintIds === undefined ? false : bool(options.bigintIds, "options.bigintIds");
    const o = l.malloc(OPTIONS_SIZE);
    let ptr;
    try {
      check(l, l.call("pindrop_options_init", o, OPTIONS_SIZE), "pindrop_options_init");
      for (const [name, offset, kind] of OPTION_FIELDS) {
        const v = options[name];
        if (v === undefined) continue;
        if (kind === "f64") { l.dv.setFloat64(o + offset, num(v, `options.${name}`), true); continue; }
        if (kind === "u32") { l.dv.setUint32(o + offset, uint32(v, `options.${name}`), true); continue; }
        if (kind === "bool") { l.dv.setUint32(o + offset, bool(v, `options.${name}`) ? 1 : 0, true); continue; }
        if (typeof v !== "string" || !(v in kind)) {
          throw new TypeError(`options.${name} must be one of ${Object.keys(kind).map((k) => `"${k}"`).join(", ")}, not ${describe(v)}`);
        }
        l.dv.setInt32(o + offset, kind[v], true);
      }
      const out = l.scratch;
      l.dv.setUint32(out, 0, true);
      check(l, l.call("pindrop_map_create", o, out), "pindrop_map_create");
      ptr = l.fresh().dv.getUint32(out, true);
    } finally {
      l.free(o);
    }
    this.#handle = new MapHandle(l, ptr, bigint);
    registry?.register(this, { owner: l, handle: ptr }, this);
  }

  /** Frees the map now (also done when a dropped Map is garbage collected). Idempotent. */
  dispose() {
    const h = handleOf(this);
    if (!h.ptr) return;
    registry?.unregister(this);
    h.release();
  }

  get disposed() { return !handleOf(this).ptr; }

  /** The message of the last failed call on this map ("" if none). */
  lastError() { const h = live(this, "lastError"), l = h.lib; return l.string(l.call("pindrop_map_last_error", h.ptr)); }

  // -- view ----------------------------------------------------------------------------------

  /** The built-in Web Mercator camera (256-point tiles): centre, zoom, viewport in points,
   *  bearing clockwise. Also takes one object {centerLon, centerLat, zoom, width, height, bearingDeg}. */
  setCamera(centerLon, centerLat, zoom, width, height, bearingDeg = 0) {
    const h = live(this, "setCamera"), l = h.lib;
    if (centerLon !== null && typeof centerLon === "object") {
      knownKeys(centerLon, CAMERA_FIELDS, "setCamera");
      ({ centerLon, centerLat, zoom, width, height, bearingDeg = 0 } = centerLon);
    }
    const c = l.scratch, dv = l.dv;
    dv.setFloat64(c, num(centerLon, "centerLon"), true);
    dv.setFloat64(c + 8, num(centerLat, "centerLat"), true);
    dv.setFloat64(c + 16, num(zoom, "zoom"), true);
    dv.setFloat64(c + 24, num(bearingDeg, "bearingDeg"), true);
    dv.setFloat64(c + 32, num(width, "width"), true);
    dv.setFloat64(c + 40, num(height, "height"), true);
    h.status(l.f.pindrop_map_set_camera(h.ptr, c), "pindrop_map_set_camera");
  }

  /** The screen point [x, y] of (lon, lat). */
  toScreen(lon, lat) {
    const h = live(this, "toScreen"), l = h.lib, s = l.scratch;
    h.call("pindrop_map_to_screen", num(lon, "lon"), num(lat, "lat"), s, s + 8);
    return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
  }

  /** The coordinate [lon, lat] under screen point (x, y). */
  toLonLat(x, y) {
    const h = live(this, "toLonLat"), l = h.lib, s = l.scratch;
    h.call("pindrop_map_to_lonlat", num(x, "x"), num(y, "y"), s, s + 8);
    return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
  }

  // -- pins ----------------------------------------------------------------------------------

  /** Adds pin `id` at (lon, lat). Without bigintIds, an id beyond ±(2^53 − 1) is a TypeError. */
  add(id, lon, lat) { call(this, "pindrop_map_add", handleOf(this).newId(id), num(lon, "lon"), num(lat, "lat")); }

  /** Adds n pins: ids (numbers, BigInts, a BigInt64Array or a Float64Array of safe integers; as
   *  add, within ±(2^53 − 1) unless bigintIds) and lonlat, a Float64Array [lon0, lat0, lon1, lat1,
   *  ...]. All or nothing. */
  addMany(ids, lonlat) {
    const h = live(this, "addMany"), l = h.lib;
    const n = arrayLength(ids, "ids");
    if (!h.bigint) checkSafeIds(ids);
    const ll = float64Array(lonlat, "lonlat");
    if (ll.length !== 2 * n) {
      throw new InvalidArgument(`lonlat has ${ll.length} numbers for ${n} ids (it needs 2 per id: lon, lat)`, -1, "pindrop_map_add_many");
    }
    if (n === 0) return;
    const pi = l.malloc(8 * n);
    let pl = 0;
    try {
      pl = l.malloc(16 * n);
      l.reserve(n * ADD_MANY_BYTES_PER_PIN);
      writeIds(l.fresh(), ids, pi);
      l.f64.set(ll, pl >> 3);
      h.call("pindrop_map_add_many", pi, pl, n);
    } finally {
      l.free(pi); l.free(pl);
    }
  }

  remove(id) { call(this, "pindrop_map_remove", toId(id)); }

  /** Moves a pin as the host: no MOVED event, no undo entry. */
  setPosition(id, lon, lat) {
    const h = live(this, "setPosition"), l = h.lib, i = toId(id);
    h.status(l.f.pindrop_map_set_position(h.ptr, i, num(lon, "lon"), num(lat, "lat")), "pindrop_map_set_position");
  }

  /** The pin's true coordinate [lon, lat]. */
  position(id) { return pair(this, "pindrop_map_position", id); }

  /** Where the pin is drawn [lon, lat] (spread, or where it would land while dragged). */
  displayPosition(id) { return pair(this, "pindrop_map_display_position", id); }

  setDraggable(id, draggable) {
    if (typeof draggable !== "boolean") throw new TypeError(`draggable must be a boolean, not ${describe(draggable)}`);
    call(this, "pindrop_map_set_draggable", toId(id), draggable ? 1 : 0);
  }

  /** Number of pins. */
  get count() { const h = live(this, "count"), l = h.lib; return l.call("pindrop_map_count", h.ptr) >>> 0; }
  get size() { live(this, "size"); return this.count; }

  // -- queries -------------------------------------------------------------------------------

  /** The pin drawn nearest to (x, y) within hitRadius, or null. */
  hitTest(x, y) {
    const h = live(this, "hitTest"), l = h.lib, s = l.scratch;
    const r = l.f.pindrop_map_hit_test(h.ptr, num(x, "x"), num(y, "y"), s);
    if (r === -2) return null;
    if (r < 0) h.status(r, "pindrop_map_hit_test");
    return idAt(l, s, h.bigint);
  }

  /** hitTest for many points xy = [x0, y0, x1, y1, ...]: an array of ids (null for a miss). */
  hitTestMany(xy) {
    const h = live(this, "hitTestMany"), l = h.lib, a = float64Array(xy, "xy");
    if (a.length % 2) throw new InvalidArgument(`xy has an odd length ${a.length}`, -1, "pindrop_map_hit_test_many");
    const n = a.length / 2;
    if (n === 0) return [];
    const p = l.malloc(16 * n), ids = h.ensureIds(n);
    try {
      l.fresh().f64.set(a, p >> 3);
      h.call("pindrop_map_hit_test_many", p, n, ids);
      const out = new Array(n), i64 = l.i64, base = ids >> 3;
      for (let i = 0; i < n; i++) out[i] = fromId(i64[base + i], h.bigint);
      return out;
    } finally { l.free(p); }
  }

  /** Pins whose true coordinate lies within radiusM metres of (lon, lat), nearest first:
   *  [{id, distanceM}]; at most `limit` of them when given. */
  nearby(lon, lat, radiusM, limit = Infinity) {
    const h = live(this, "nearby"), l = h.lib;
    num(lon, "lon"); num(lat, "lat"); num(radiusM, "radiusM");
    if (limit !== Infinity && !(Number.isSafeInteger(limit) && limit >= 0)) {
      throw new TypeError(`limit must be a non-negative integer or Infinity, not ${typeof limit === "number" ? limit : describe(limit)}`);
    }
    if (limit === 0) return [];
    let cap = Math.min(limit, 256);
    for (;;) {
      const ids = h.ensureIds(cap);
      const dist = l.malloc(8 * Math.max(cap, 1));
      try {
        const total = h.count("pindrop_map_nearby", lon, lat, radiusM, ids, dist, cap);
        const want = Math.min(total, limit);
        if (want <= cap) {
          const out = [], i64 = l.i64, f64 = l.f64;
          for (let i = 0; i < want; i++) out.push({ id: fromId(i64[(ids >> 3) + i], h.bigint), distanceM: f64[(dist >> 3) + i] });
          return out;
        }
        cap = want;
      } finally { l.free(dist); }
    }
  }
}

include(Map, MapDrawing, MapClusters, MapInput, MapEditing, MapSelection, MapSnap);

// `using map = new Map()` where explicit resource management exists (Node 18 has no Symbol.dispose).
if (typeof Symbol.dispose === "symbol") {
  Object.defineProperty(Map.prototype, Symbol.dispose, { value() { this.dispose(); }, writable: true, configurable: true });
}

/** The pair of f64 a C function writes for pin `id` (position, displayPosition). */
function pair(map, fn, id) {
  const l = live(map, fn).lib, s = l.scratch;
  call(map, fn, toId(id), s, s + 8);
  return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
}

// Maps dropped without dispose() are freed when collected.
const registry = typeof FinalizationRegistry !== "undefined"
  ? new FinalizationRegistry(({ owner, handle }) => {
    // Only into the module that made the map, and never letting a trap out of the collector.
    if (owner.broken) return;
    try { owner.x.pindrop_map_destroy(handle); } catch (e) { owner.broken = `pindrop_map_destroy: ${e.message}`; }
  })
  : null;
