// What to draw: frame() (the pins, in drawing order) and clusters() (the clusters and collapsed
// stacks), read from the module's views into typed arrays the map reuses from frame to frame.

import { num } from "./arguments.js";
import { live } from "./map-handle.js";
import { CLUSTER_VIEW_SIZE, PIN_VIEW_SIZE } from "./tables.js";

/** Map's drawing methods (installed on Map by map.js). */
export class MapDrawing {
  /**
   * The pins to draw at timeMs, in drawing order, as typed arrays (reused by the next call: copy
   * what you keep): {count, id, x, y, anchorX, anchorY, lift, flags}, each array `count` long.
   */
  frame(timeMs) {
    const h = live(this, "frame"), l = h.lib;
    num(timeMs, "timeMs");
    let n = h.counted(l.f.pindrop_map_frame(h.ptr, timeMs, h.frameBuf, h.frameCap) >>> 0, "pindrop_map_frame");
    if (n > h.frameCap) {
      l.free(h.frameBuf);
      h.frameBuf = 0;
      h.frameCap = Math.max(n, 2 * h.frameCap, 256);
      h.frameBuf = l.malloc(PIN_VIEW_SIZE * h.frameCap);
      n = Math.min(h.count("pindrop_map_frame", timeMs, h.frameBuf, h.frameCap), h.frameCap);
    }
    let f = h.frame;
    if (!f || f.x.length < n) {
      const cap = Math.max(n, 2 * (f?.x.length ?? 0), 64);
      f = h.frame = {
        id: h.bigint ? new BigInt64Array(cap) : new Float64Array(cap),
        x: new Float64Array(cap), y: new Float64Array(cap), anchorX: new Float64Array(cap),
        anchorY: new Float64Array(cap), lift: new Float64Array(cap), flags: new Uint32Array(cap),
      };
      h.frameView = null;
    }
    const f64 = l.f64, i32 = l.i32, u32 = l.u32, i64 = l.i64;
    let d = h.frameBuf >> 3;
    const { id, x, y, anchorX, anchorY, lift, flags } = f;
    for (let i = 0; i < n; i++, d += 7) {
      if (h.bigint) id[i] = i64[d];
      else id[i] = i32[2 * d + 1] * 4294967296 + u32[2 * d];
      x[i] = f64[d + 1]; y[i] = f64[d + 2]; anchorX[i] = f64[d + 3]; anchorY[i] = f64[d + 4];
      lift[i] = f64[d + 5]; flags[i] = u32[2 * d + 12];
    }
    // The same object as last time when the count is the same (its views already cover n).
    if (h.frameView?.count === n) return h.frameView;
    return (h.frameView = { count: n, id: id.subarray(0, n), x: x.subarray(0, n), y: y.subarray(0, n),
      anchorX: anchorX.subarray(0, n), anchorY: anchorY.subarray(0, n), lift: lift.subarray(0, n),
      flags: flags.subarray(0, n) });
  }

  /**
   * The clusters to draw at timeMs (none unless clusterRadius > 0 and the zoom is below
   * clusterMaxZoom; with spreadOnTap also the collapsed stacks), as typed arrays reused by the
   * next call: {count, key, x, y, lon, lat, size, flags} (`size`: the members, >= 2; `key`, a
   * BigUint64Array, names the cluster in clusterMembers, clusterSummary, ... while its members
   * stay the same; `flags`: CLUSTER_ONE_SPOT, CLUSTER_STACK for a collapsed stack).
   */
  clusters(timeMs) {
    const h = live(this, "clusters"), l = h.lib;
    num(timeMs, "timeMs");
    let n = h.counted(l.f.pindrop_map_frame_clusters(h.ptr, timeMs, h.clusterBuf, h.clusterCap) >>> 0,
      "pindrop_map_frame_clusters");
    if (n > h.clusterCap) {
      l.free(h.clusterBuf);
      h.clusterBuf = 0;
      h.clusterCap = Math.max(n, 2 * h.clusterCap, 256);
      h.clusterBuf = l.malloc(CLUSTER_VIEW_SIZE * h.clusterCap);
      n = Math.min(h.count("pindrop_map_frame_clusters", timeMs, h.clusterBuf, h.clusterCap), h.clusterCap);
    }
    let c = h.clusters;
    if (!c || c.x.length < n) {
      const cap = Math.max(n, 2 * (c?.x.length ?? 0), 64);
      const key = new BigUint64Array(cap);
      c = h.clusters = { key, keyHalves: new Uint32Array(key.buffer), x: new Float64Array(cap), y: new Float64Array(cap),
        lon: new Float64Array(cap), lat: new Float64Array(cap), size: new Uint32Array(cap), flags: new Uint32Array(cap) };
      h.clusterView = null;
    }
    copyClusters(l, h.clusterBuf, n, c);
    if (h.clusterView?.count === n) return h.clusterView;
    const { key, x, y, lon, lat, size, flags } = c;
    return (h.clusterView = { count: n, key: key.subarray(0, n), x: x.subarray(0, n), y: y.subarray(0, n),
      lon: lon.subarray(0, n), lat: lat.subarray(0, n), size: size.subarray(0, n), flags: flags.subarray(0, n) });
  }
}

/** The n pindrop_cluster_view structs at p into the typed arrays of c (one small function of
 *  its own: the engine optimises it once, whatever state the calling method is in). */
function copyClusters(l, p, n, c) {
  const f64 = l.f64, u32 = l.u32;
  const { keyHalves, x, y, lon, lat, size, flags } = c;
  for (let i = 0, d = p >> 3; i < n; i++, d += 6) {
    // all 64 bits of the key (a level, a generation and a slot; a stack's top five bits set),
    // copied as two halves: no BigInt per cluster
    keyHalves[2 * i] = u32[2 * d]; keyHalves[2 * i + 1] = u32[2 * d + 1];
    x[i] = f64[d + 1]; y[i] = f64[d + 2]; lon[i] = f64[d + 3]; lat[i] = f64[d + 4];
    size[i] = u32[2 * d + 10]; flags[i] = u32[2 * d + 11];
  }
}
