// Loading GeoJSON without freezing the page: the features are read, then added to the map, in
// chunks of about `chunkMs` of main-thread work each, the page getting the thread back between
// two (a `progress` event after each chunk: {phase: "read" | "add", loaded, total}). A refused
// feature stops the load before any pin of it is on the map. One load runs at a time: a second
// call waits for the first.

import { featuresOf, readFeatures, toFeatureCollection } from "./geojson.js";

const yieldToPage = () => new Promise((resolve) => {
  if (typeof MessageChannel === "undefined") { setTimeout(resolve, 0); return; }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
  ch.port2.postMessage(0);
});

/** Runs work(start, end) over [0, total) in chunks sized to take about budgetMs each. */
async function inChunks(total, budgetMs, clock, work, progress) {
  let start = 0, size = 2048;
  while (start < total) {
    const begun = start, end = Math.min(total, start + size);
    const t0 = clock();
    work(start, end);
    const ms = clock() - t0;
    progress(end);
    start = end;
    // the next chunk sized from this one's pace, growing at most 4 times
    size = Math.max(256, Math.min(size * 4, Math.floor((budgetMs / Math.max(ms, 0.05)) * (end - begun))));
    if (start < total) await yieldToPage();
  }
}

/** host.addGeoJSON: resolves to the number of pins added. */
export function addGeoJSON(host, input, options = {}) {
  const run = async () => {
    await host.start();
    const features = featuresOf(input);
    const total = features.length;
    const clock = () => host.clock.source();
    const budget = host.options.chunkMs;
    const seen = new globalThis.Map();
    const taken = (id) => host.store.has(id);
    const parts = [];
    host.fire("progress", { phase: "read", loaded: 0, total });
    await inChunks(total, budget, clock, (start, end) => {
      parts.push(readFeatures(features, options, start, end, host.categories, taken, seen));
    }, (loaded) => host.fire("progress", { phase: "read", loaded, total }));
    seen.clear();
    // add: the parts as read, each in pieces of the budget's size
    const m = host.map;
    let added = 0;
    for (const part of parts) {
      const n = part.ids.length;
      await inChunks(n, budget, clock, (start, end) => {
        const ids = part.ids.slice(start, end), lonlat = part.lonlat.subarray(2 * start, 2 * end);
        m.addMany(ids, lonlat);
        const values = part.values && part.values.subarray(start, end);
        const categories = part.categories && part.categories.subarray(start, end);
        if (values || categories) m.setAttributes(ids, values, categories);
        host.store.addMany(ids, lonlat, values, categories, part.features.slice(start, end));
      }, (done) => host.fire("progress", { phase: "add", loaded: added + done, total }));
      added += n;
      host.dirty = true;
      host.adapter.requestRedraw();
      await yieldToPage();
    }
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
    host.fire("progress", { phase: "add", loaded: 0, total });
    await inChunks(total, host.options.chunkMs, clock, (start, end) => {
      const chunk = ids.slice(start, end), xy = lonlat.subarray(2 * start, 2 * end);
      const v = values && values.subarray(start, end), c = categories && categories.subarray(start, end);
      m.addMany(chunk, xy);
      if (v || c) m.setAttributes(chunk, v, c);
      host.store.addMany(chunk, xy, v, c, null);
    }, (loaded) => host.fire("progress", { phase: "add", loaded, total }));
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
