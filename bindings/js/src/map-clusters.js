// What clusters hold and the stacks that open on demand: a cluster's members (paged), the zoom
// that separates them, the pins' values and categories and the summaries built from them, and
// opening and closing a collapsed stack (spreadOnTap).

import { count, float64Array, arrayLength, num, uint32 } from "./arguments.js";
import { InvalidArgument } from "./errors.js";
import { fromId, u64, writeIds } from "./ids.js";
import { call, live } from "./map-handle.js";

/** Map's cluster and stack methods (installed on Map by map.js). */
export class MapClusters {
  /** The ids of a cluster's (or a collapsed stack's) members in ascending id order, from
   *  `offset` on, at most `limit` of them (default: all): a page, as supercluster's getLeaves.
   *  NotFound for an unknown or stale key (a key goes stale once its members change). */
  clusterMembers(key, offset = 0, limit = Infinity) {
    const h = live(this, "clusterMembers"), l = h.lib, k = u64(key, "key");
    count(offset, "offset"); count(limit, "limit", true);
    // size_t is 32 bits here and the module refuses 2^31 and above as no buffer's size: no
    // cluster has that many members, so a larger offset is past every member all the same.
    const first = Math.min(offset, 0x7FFFFFFF);
    let cap = Math.min(limit, 256);
    for (;;) {
      const ids = h.ensureIds(Math.max(cap, 1));
      const total = h.count("pindrop_map_cluster_members_from", k, first, ids, cap);
      const n = Math.max(0, Math.min(limit, total - first));
      if (n <= cap) {
        const out = new Array(n), i64 = l.i64, base = ids >> 3;
        for (let i = 0; i < n; i++) out[i] = fromId(i64[base + i], h.bigint);
        return out;
      }
      cap = n;
    }
  }

  /** The zoom where a tap on the cluster should take the camera. */
  clusterExpansionZoom(key) {
    const h = live(this, "clusterExpansionZoom"), l = h.lib, s = l.scratch;
    h.call("pindrop_map_cluster_expansion_zoom", u64(key, "key"), s);
    return l.f64[s >> 3];
  }

  // -- what clusters hold (since 0.3) --------------------------------------------------------

  /**
   * Sets the pins' values (numbers, e.g. a trunk diameter; NaN = none) and/or categories
   * (unsigned 32-bit integers, e.g. a species code; any but CATEGORY_MIXED): arrays or typed
   * arrays as long as `ids`, or one number for every id; undefined or null leaves that attribute
   * as it is. All or nothing: NotFound for an unknown id, InvalidArgument for an infinite value or
   * CATEGORY_MIXED, and nothing changes. Summaries follow at once (clusterSummary, clusterCategories).
   */
  setAttributes(ids, values = null, categories = null) {
    const h = live(this, "setAttributes"), l = h.lib;
    const n = arrayLength(ids, "ids");
    const vals = values === null || values === undefined ? null
      : typeof values === "number" ? new Float64Array(n).fill(values) : float64Array(values, "values");
    let cats = null;
    if (categories !== null && categories !== undefined) {
      if (typeof categories === "number") cats = new Uint32Array(n).fill(uint32(categories, "categories"));
      else if (categories instanceof Uint32Array) cats = categories;
      else cats = Uint32Array.from({ length: arrayLength(categories, "categories") }, (_, i) => uint32(categories[i], `categories[${i}]`));
    }
    for (const [a, name] of [[vals, "values"], [cats, "categories"]]) {
      if (a && a.length !== n) {
        throw new InvalidArgument(`${name} has ${a.length} entries for ${n} ids (one per id, or one number for all)`, -1, "pindrop_map_set_attributes");
      }
    }
    if (n === 0) return;
    const pi = l.malloc(8 * n);
    let pv = 0, pc = 0;
    try {
      if (vals) pv = l.malloc(8 * n);
      if (cats) pc = l.malloc(4 * n);
      writeIds(l.fresh(), ids, pi);
      if (vals) l.f64.set(vals, pv >> 3);
      if (cats) l.u32.set(cats, pc >> 2);
      h.call("pindrop_map_set_attributes", pi, pv, pc, n);
    } finally {
      l.free(pi); l.free(pv); l.free(pc);
    }
  }

  /**
   * What a cluster (or a collapsed stack) holds: {count, valued, category, flags, valueSum,
   * valueMin, valueMax, valueMean}: its pins, how many have a value, the sum, minimum, maximum
   * and mean of those values (NaN when none has one), the pins' common category or
   * CATEGORY_MIXED, and flags (CLUSTER_ONE_SPOT when they share one point). NotFound for an
   * unknown or stale key.
   */
  clusterSummary(key) {
    const h = live(this, "clusterSummary"), l = h.lib, k = u64(key, "key"), s = l.scratch;
    h.call("pindrop_map_cluster_summary", k, s);
    const u32 = l.u32, f64 = l.f64, b = s >> 2, d = s >> 3;
    const valued = u32[b + 1], valueSum = f64[d + 2];
    return { count: u32[b], valued, category: u32[b + 2], flags: u32[b + 3], valueSum,
      valueMin: f64[d + 3], valueMax: f64[d + 4], valueMean: valued ? valueSum / valued : NaN };
  }

  /** A cluster's categories with their pin counts, most pins first, ties by lower category:
   *  {category: Uint32Array, count: Uint32Array} (new arrays). NotFound for an unknown or stale key. */
  clusterCategories(key) {
    const h = live(this, "clusterCategories"), l = h.lib, k = u64(key, "key");
    let cap = 16;
    for (;;) {
      const p = l.malloc(8 * cap);
      try {
        const total = h.count("pindrop_map_cluster_categories", k, p, p + 4 * cap, cap);
        if (total <= cap) {
          const u32 = l.u32, b = p >> 2;
          return { category: u32.slice(b, b + total), count: u32.slice(b + cap, b + cap + total) };
        }
        cap = total;
      } finally { l.free(p); }
    }
  }

  // -- stacks that open on demand (spreadOnTap, since 0.3) ------------------------------------

  /** Opens the collapsed stack `key` (a clusters() item flagged CLUSTER_STACK): STACK_CLOSED for
   *  the stack open before, then STACK_OPENED. NotFound for a key that names no stack now. */
  openStack(key, timeMs) { call(this, "pindrop_map_open_stack", u64(key, "key"), num(timeMs, "timeMs")); }

  /** Closes the open stack (STACK_CLOSED); nothing happens when none is open. */
  closeStack(timeMs) { call(this, "pindrop_map_close_stack", num(timeMs, "timeMs")); }
}
