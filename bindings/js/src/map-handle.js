// What every Map method goes through: the map's handle in the module, and the calls on it that
// check the map is still there, turn a negative status (or a count of 0 with a last error) into
// the exception of its kind, and keep the buffers the map reuses from call to call.

import { ERRORS, InternalError, InvalidArgument, NoMemory, NotFound, PindropError, StateError } from "./errors.js";
import { safeId, toId } from "./ids.js";
import { STATUS_STATE } from "./tables.js";

/** A map's state on the JavaScript side: the module (`lib`), the map's handle in it (`ptr`, 0
 *  once disposed), whether ids come back as BigInts, and the buffers frame(), clusters() and the
 *  id-returning calls reuse. */
export class MapHandle {
  constructor(lib, ptr, bigint) {
    this.lib = lib;
    this.ptr = ptr;
    this.bigint = bigint;
    this.frameBuf = 0; this.frameCap = 0; this.frame = null; this.frameView = null;
    this.clusterBuf = 0; this.clusterCap = 0; this.clusters = null; this.clusterView = null;
    this.idsBuf = 0; this.idsCap = 0;
  }

  /** A status fn returned: negative throws the exception of its kind with the map's last error. */
  status(r, fn) {
    if (r < 0) {
      const E = ERRORS[r] ?? PindropError;
      const l = this.lib;
      throw new E(l.string(l.call("pindrop_map_last_error", this.ptr)) || `${fn} failed (status ${r})`, r, fn);
    }
    return r;
  }

  /** Calls the map's C function `fn` with the handle and up to five arguments; its status. */
  call(fn, a, b, c, d, e) {
    return this.status(this.lib.f[fn](this.ptr, a, b, c, d, e), fn);
  }

  /** A count-returning call: 0 with a last error set is a failure, of the kind the header
   *  gives for that function (an unknown cluster key: NotFound; anything else: InvalidArgument). */
  count(fn, a, b, c, d, e, f) {
    return this.counted(this.lib.f[fn](this.ptr, a, b, c, d, e, f) >>> 0, fn);
  }

  /** A count fn returned: 0 with a last error set throws (out of memory, whose message the C
   *  layer begins with "out of memory", as NoMemory). */
  counted(n, fn) {
    if (n === 0) {
      const msg = this.lib.string(this.lib.f.pindrop_map_last_error(this.ptr));
      if (msg) {
        const [E, status] = msg.startsWith("out of memory") ? [NoMemory, -7]
          : KEYED_COUNTS.has(fn) ? [NotFound, -2] : [InvalidArgument, -1];
        throw new E(msg, status, fn);
      }
    }
    return n;
  }

  /** A buffer of at least n int64 ids in the module's memory, kept for the next call. */
  ensureIds(n) {
    const l = this.lib;
    if (n > this.idsCap) {
      l.free(this.idsBuf);
      this.idsBuf = 0;
      this.idsCap = Math.max(n, 2 * this.idsCap, 64);
      this.idsBuf = l.malloc(8 * this.idsCap);
    }
    return this.idsBuf;
  }

  /** A new pin's id: any int64 on a map with bigintIds, within ±(2^53 − 1) on one without. */
  newId(v, name) { return this.bigint ? toId(v, name) : safeId(v, name); }

  /** Frees the buffers and the map in the module (not into a module that stopped). */
  release() {
    const l = this.lib;
    if (!l.broken) {
      for (const p of [this.frameBuf, this.clusterBuf, this.idsBuf]) l.free(p);
      l.call("pindrop_map_destroy", this.ptr);
    }
    this.ptr = 0;
    this.frameBuf = this.clusterBuf = this.idsBuf = 0;
  }
}

// A Map keeps its handle in a private field; map.js hands over the one way to read it when the
// class is defined (setHandleAccess), so that the methods written beside it reach it as fast.
let handleAccess = null;

/** Called once by map.js with (map) => map's handle (a TypeError for anything but a Map). */
export function setHandleAccess(get) { handleAccess = get; }

/** The map's handle as it is, disposed or not. A TypeError for anything but a Map. */
export function handleOf(map) { return handleAccess(map); }

/** The map's handle, or a StateError for a disposed map (status PINDROP_ERR_STATE, `function` the
 *  method called). `fn`: the method's name, or the C function it calls (pindrop_map_key_lift is
 *  keyLift). */
export function live(map, fn) {
  const h = handleOf(map);
  if (!h.ptr) {
    const method = methodOf(fn);
    throw new StateError(`the map has been disposed: ${method}() cannot be called on it`, STATUS_STATE, method);
  }
  if (h.lib.broken) throw new InternalError(`the pindrop module stopped after an internal error (${h.lib.broken})`);
  return h;
}

/** live(map, fn).call(fn, ...): the arguments are checked (evaluated) before the map is. */
export function call(map, fn, a, b, c, d, e) { return live(map, fn).call(fn, a, b, c, d, e); }

/** live(map, fn).count(fn, ...), as call. */
export function callCount(map, fn, a, b, c, d, e, f) { return live(map, fn).count(fn, a, b, c, d, e, f); }

/** Installs the methods (and getters) of each class in `groups` on `target`'s prototype, as
 *  Leaflet's Map.include does: the Map is one class to its users, written in files by concern.
 *  A name defined twice is a mistake in the package, refused at load. */
export function include(target, ...groups) {
  for (const group of groups) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(group.prototype))) {
      if (name === "constructor") continue;
      if (Object.prototype.hasOwnProperty.call(target.prototype, name)) {
        throw new Error(`pindrop: Map.${name} is defined twice (${group.name})`);
      }
      Object.defineProperty(target.prototype, name, descriptor);
    }
  }
}

/** The Map method that calls C function `fn` (pindrop_map_key_lift: keyLift), for the errors of
 *  a disposed map; a method's own name as it is. */
function methodOf(fn) {
  if (!fn.startsWith("pindrop_map_")) return fn;
  const name = fn.slice(12);
  return METHOD_NAMES[name] ?? name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}
/** The methods whose names are not their C function's in camelCase. */
const METHOD_NAMES = { to_lonlat: "toLonLat", cluster_members_from: "clusterMembers", focused: "focus",
  frame_clusters: "clusters" };

/** Count-returning calls whose failure (0 with a last error) is an unknown or stale key. */
const KEYED_COUNTS = new Set(["pindrop_map_cluster_members", "pindrop_map_cluster_members_from",
  "pindrop_map_cluster_categories"]);
