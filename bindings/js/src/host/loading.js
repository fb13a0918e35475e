// Loading GeoJSON without freezing the page: the features are read, then added to the map, in
// chunks of about `chunkMs` of main-thread work each, the page getting the thread back between
// two (a `progress` event after each chunk: {phase: "read" | "add", loaded, total}). A refused
// feature stops the load before any pin of it is on the map. One load runs at a time: a second
// call waits for the first. The map is drawn when the load ends, not between chunks (a frame
// between two chunks would make the module build its clusters again each time).
//
// The module's time per addMany is in proportion to the pins it adds, not to those already on the
// map, so the add phase sizes its chunks by time as the read phase does: each chunk from the
// previous one's pace (the module's calls and the page's work on them), yielding to the page with
// a macrotask (MessageChannel) between two. host.loadStats keeps the last load's calls into the
// module ([startMs, durationMs] of each addMany and setAttributes) and the add chunks
// ([startMs, durationMs, pins]).

import { featuresOf, readFeatures, toFeatureCollection } from "./geojson.js";
import { IdMap } from "./store.js";

const yieldToPage = () => new Promise((resolve) => {
  if (typeof MessageChannel === "undefined") { setTimeout(resolve, 0); return; }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
  ch.port2.postMessage(0);
});

/** Runs work(start, end) over [0, total) in chunks sized to take about budgetMs each, but never
 *  fewer than `least` items (a call into the module costs time of its own, whatever its size). */
async function inChunks(total, budgetMs, clock, work, progress, least = 256, stats = null) {
  let start = 0, size = Math.max(1024, least);
  while (start < total) {
    const begun = start, end = Math.min(total, start + size);
    const t0 = clock();
    work(start, end);
    const ms = clock() - t0;
    if (stats) stats.push([t0, ms, end - start]);
    progress(end);
    start = end;
    // the next chunk sized from this one's pace, growing at most 4 times
    size = Math.max(least, Math.min(size * 4, Math.floor((budgetMs / Math.max(ms, 0.05)) * (end - begun))));
    if (start < total) await yieldToPage();
  }
}

function joinTyped(arrays, Type) {
  const out = new Type(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}

/** Calls f(), recording its time in host.loadStats. */
function timed(host, f) {
  const t0 = host.clock.source();
  f();
  host.loadStats.calls.push([t0, host.clock.source() - t0]);
}

/** host.addGeoJSON: resolves to the number of pins added. */
export function addGeoJSON(host, input, options = {}) {
  const run = async () => {
    await host.start();
    const features = featuresOf(input);
    const total = features.length;
    const clock = () => host.clock.source();
    const budget = host.options.chunkMs;
    const seen = new IdMap();
    const taken = (id) => host.store.has(id);
    const parts = [];
    host.loadStats = { calls: [], reads: [], adds: [] };
    host.fire("progress", { phase: "read", loaded: 0, total });
    await inChunks(total, budget, clock, (start, end) => {
      parts.push(readFeatures(features, options, start, end, host.categories, taken, seen));
    }, (loaded) => host.fire("progress", { phase: "read", loaded, total }), 256, host.loadStats.reads);
    seen.clear();
    // add: in chunks sized by time (from the previous chunk's pace, growing at most 4 times),
    // each joined from the parts as read
    const m = host.map;
    let size = 1024;
    const hasValues = parts.length > 0 && parts[0].values !== null, hasCategories = parts.length > 0 && parts[0].categories !== null;
    host.loading_ = true;
    try {
      let part = 0, offset = 0, loaded = 0;
      while (loaded < total) {
        const t0 = clock();
        const pieces = [];
        let n = 0;
        while (n < size && part < parts.length) {
          const p = parts[part], take = Math.min(size - n, p.ids.length - offset);
          pieces.push([p, offset, offset + take]);
          n += take; offset += take;
          if (offset === p.ids.length) { parts[part] = null; part++; offset = 0; }
        }
        const ids = [].concat(...pieces.map(([p, a, b]) => p.ids.slice(a, b)));
        const xy = joinTyped(pieces.map(([p, a, b]) => p.lonlat.subarray(2 * a, 2 * b)), Float64Array);
        const v = hasValues ? joinTyped(pieces.map(([p, a, b]) => p.values.subarray(a, b)), Float64Array) : null;
        const c = hasCategories ? joinTyped(pieces.map(([p, a, b]) => p.categories.subarray(a, b)), Uint32Array) : null;
        timed(host, () => m.addMany(ids, xy));
        if (v || c) timed(host, () => m.setAttributes(ids, v, c));
        host.store.addMany(ids, xy, v, c, [].concat(...pieces.map(([p, a, b]) => p.features.slice(a, b))));
        loaded += n;
        const ms = clock() - t0;
        host.loadStats.adds.push([t0, ms, n]);
        size = Math.max(1024, Math.min(size * 4, Math.floor((budget / Math.max(ms, 0.05)) * n)));
        host.fire("progress", { phase: "add", loaded, total });
        if (loaded < total) await yieldToPage();
      }
    } finally { host.loading_ = false; }
    const added = total;
    host.dirty = true;
    host.adapter.requestRedraw();
    host.fire("load", { count: added });
    return added;
  };
  const p = host.loading.then(run, run);
  host.loading = p.catch(() => {});
  return p;
}

/** host.addPins: ids (an array or a typed array) with interleaved lonlat, and optional values
 *  and categories (numbers), added in chunks as GeoJSON is; resolves to the number added. */
export function addPins(host, ids, lonlat, { values = null, categories = null } = {}) {
  const run = async () => {
    await host.start();
    const total = ids.length, m = host.map, clock = () => host.clock.source();
    for (let k = 0; k < total; k++) {
      if (host.store.has(ids[k])) throw new Error(`addPins: the id ${ids[k]} (index ${k}) is on the map already`);
    }
    host.loadStats = { calls: [] };
    host.loading_ = true;
    host.fire("progress", { phase: "add", loaded: 0, total });
    try {
      await inChunks(total, host.options.chunkMs, clock, (start, end) => {
        const chunk = ids.slice(start, end), xy = lonlat.subarray(2 * start, 2 * end);
        const v = values && values.subarray(start, end), c = categories && categories.subarray(start, end);
        timed(host, () => m.addMany(chunk, xy));
        if (v || c) timed(host, () => m.setAttributes(chunk, v, c));
        host.store.addMany(chunk, xy, v, c, null);
      }, (loaded) => host.fire("progress", { phase: "add", loaded, total }), 1024);
    } finally { host.loading_ = false; }
    host.dirty = true;
    host.adapter.requestRedraw();
    host.fire("load", { count: total });
    return total;
  };
  const p = host.loading.then(run, run);
  host.loading = p.catch(() => {});
  return p;
}

/** host.toGeoJSON: a FeatureCollection of the pins that came from GeoJSON, at their true positions. */
export function toGeoJSON(host) {
  return toFeatureCollection(host.store.features.entries(), (id) => {
    const r = host.store.rowOf(id);
    return r < 0 ? null : [host.store.lonlat[2 * r], host.store.lonlat[2 * r + 1]];
  });
}
