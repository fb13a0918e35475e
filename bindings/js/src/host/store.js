// The pins a host put on its map, kept on the JavaScript side: their ids, true positions (kept up
// to date from MOVED events), values and categories, and the GeoJSON feature of each pin that
// came from one. pindrop's options are fixed when a map is created; a host that needs other
// options (a mouse after a touch: no hold, no lift height) builds a new map from this store.

const GROW = 1.5;
const SHARDS = 64;

/**
 * A Map of pin ids split over 64 Maps by id: the same get, set, has and delete, but growing one
 * small Map at a time. A single Map of 900k ids rehashes everything at once when it grows (some
 * 50-100 ms in one go, a long task); 64 of them rehash 1/64 as much each time.
 */
export class IdMap {
  constructor() { this.shards = Array.from({ length: SHARDS }, () => new globalThis.Map()); }
  #shard(id) {
    const k = typeof id === "bigint" ? Number(BigInt.asUintN(6, id)) : ((id % SHARDS) + SHARDS) % SHARDS;
    return this.shards[k | 0];
  }
  get(id) { return this.#shard(id).get(id); }
  has(id) { return this.#shard(id).has(id); }
  set(id, v) { this.#shard(id).set(id, v); return this; }
  delete(id) { return this.#shard(id).delete(id); }
  clear() { for (const m of this.shards) m.clear(); }
  get size() { return this.shards.reduce((n, m) => n + m.size, 0); }
  *entries() { for (const m of this.shards) yield* m.entries(); }
}

export class PinStore {
  constructor() {
    this.count = 0;
    this.ids = new Array(0);
    this.lonlat = new Float64Array(0);
    this.values = new Float64Array(0);
    this.categories = new Uint32Array(0);
    this.rows = new IdMap();        // id -> row
    this.features = new IdMap();    // id -> the GeoJSON feature it came from
  }

  has(id) { return this.rows.has(id); }
  rowOf(id) { const r = this.rows.get(id); return r === undefined ? -1 : r; }
  featureOf(id) { return this.features.get(id); }

  #reserve(n) {
    if (n <= this.lonlat.length / 2) return;
    const cap = Math.max(n, Math.ceil(this.lonlat.length / 2 * GROW), 64);
    const lonlat = new Float64Array(2 * cap); lonlat.set(this.lonlat.subarray(0, 2 * this.count));
    const values = new Float64Array(cap).fill(NaN); values.set(this.values.subarray(0, this.count));
    const categories = new Uint32Array(cap); categories.set(this.categories.subarray(0, this.count));
    this.lonlat = lonlat; this.values = values; this.categories = categories;
  }

  /** Adds pins: ids (an array), lonlat (interleaved), values and categories (or null), features
   *  (or null). The caller has checked that no id is here already. */
  addMany(ids, lonlat, values = null, categories = null, features = null) {
    const n = ids.length, base = this.count;
    this.#reserve(base + n);
    this.lonlat.set(lonlat.subarray ? lonlat.subarray(0, 2 * n) : lonlat.slice(0, 2 * n), 2 * base);
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      this.ids[base + k] = id;
      this.rows.set(id, base + k);
      this.values[base + k] = values ? values[k] : NaN;
      this.categories[base + k] = categories ? categories[k] : 0;
      if (features && features[k]) this.features.set(id, features[k]);
    }
    this.count = base + n;
  }

  add(id, lon, lat, value = NaN, category = 0, feature = null) {
    this.addMany([id], Float64Array.of(lon, lat), Float64Array.of(value), Uint32Array.of(category), feature ? [feature] : null);
  }

  /** A pin's true position changed (MOVED, DRAG_CANCELLED). */
  move(id, lon, lat) {
    const r = this.rows.get(id);
    if (r === undefined) return;
    this.lonlat[2 * r] = lon; this.lonlat[2 * r + 1] = lat;
  }

  setAttributes(id, value, category) {
    const r = this.rows.get(id);
    if (r === undefined) return;
    if (value !== undefined) this.values[r] = value;
    if (category !== undefined) this.categories[r] = category;
  }

  remove(id) {
    const r = this.rows.get(id);
    if (r === undefined) return;
    const last = this.count - 1;
    if (r !== last) {
      const moved = this.ids[last];
      this.ids[r] = moved; this.rows.set(moved, r);
      this.lonlat[2 * r] = this.lonlat[2 * last]; this.lonlat[2 * r + 1] = this.lonlat[2 * last + 1];
      this.values[r] = this.values[last]; this.categories[r] = this.categories[last];
    }
    this.ids.length = last;
    this.rows.delete(id); this.features.delete(id);
    this.count = last;
  }

  /** Puts every pin on `map` (a new pindrop map), `chunk` at a time. */
  fill(map) {
    if (this.count === 0) return;
    const n = this.count;
    map.addMany(this.ids.length === n ? this.ids : this.ids.slice(0, n), this.lonlat.subarray(0, 2 * n));
    map.setAttributes(this.ids.length === n ? this.ids : this.ids.slice(0, n), this.values.subarray(0, n), this.categories.subarray(0, n));
  }
}
