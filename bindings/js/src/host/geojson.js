// GeoJSON in and out: the id, value and category of each Point feature, read by a property name
// or a function; the features kept on the JavaScript side (pindrop holds only ids, positions,
// values and categories); a FeatureCollection back with the positions pins were moved to.
//
// Id rules: a pin's id is an integer (a number within ±(2^53 − 1), a BigInt, or a string of
// decimal digits such as "5603"). `id` names a property ("tree_id"), or is a function
// (feature, index) => id; without it the feature's own `id` is used, then its `properties.id`.
// A feature whose id is missing or not such an integer, that repeats an id already given, or
// whose geometry is not a Point with two finite coordinates, is refused: readFeatures throws an
// Error naming the feature's index and its properties, and nothing of that call is kept.

/** The function that gives a feature's raw id, value or category from an option: a property
 *  name, a function (feature, index) => any, or undefined (fallback). */
function getter(spec, what, fallback) {
  if (spec === undefined || spec === null) return fallback;
  if (typeof spec === "function") return spec;
  if (typeof spec === "string") return (f) => (f.properties ? f.properties[spec] : undefined);
  throw new TypeError(`${what} must be a property name or a function (feature, index) => ${what}, not ${typeof spec}`);
}

const defaultId = (f) => (f.id !== undefined && f.id !== null ? f.id : f.properties ? f.properties.id : undefined);

/** A pin id from a raw id, or null when it is not usable (see the id rules above). */
export function usableId(raw) {
  if (typeof raw === "number") return Number.isSafeInteger(raw) ? raw : null;
  if (typeof raw === "bigint") return raw >= -(2n ** 63n) && raw < 2n ** 63n ? raw : null;
  if (typeof raw === "string" && /^-?\d{1,19}$/.test(raw)) {
    const n = Number(raw);
    if (Number.isSafeInteger(n)) return n;
    const b = BigInt(raw);
    return b >= -(2n ** 63n) && b < 2n ** 63n ? b : null;
  }
  return null;
}

/** What a refused feature is called in the message: its index and (a short form of) its properties. */
export function nameFeature(f, index) {
  let props;
  try { props = JSON.stringify(f && f.properties); } catch (_) { props = "(properties that cannot be written)"; }
  if (props && props.length > 160) props = props.slice(0, 157) + "...";
  return `feature ${index} (properties ${props})`;
}

/** The features of a FeatureCollection, an array of features or one Feature. */
export function featuresOf(input) {
  if (Array.isArray(input)) return input;
  if (input && input.type === "FeatureCollection" && Array.isArray(input.features)) return input.features;
  if (input && input.type === "Feature") return [input];
  throw new TypeError("addGeoJSON takes a FeatureCollection, an array of Features or a Feature");
}

/**
 * The categories' names and numbers: pindrop's categories are integers, a feature's may be any
 * string or number. The first name seen is category 0, the next new one 1, ...; a feature
 * without a category gets the name null.
 */
export class CategoryTable {
  constructor() { this.names = []; this.numbers = new globalThis.Map(); }
  numberOf(name) {
    const key = name === undefined ? null : name;
    let n = this.numbers.get(key);
    if (n === undefined) { n = this.names.length; this.names.push(key); this.numbers.set(key, n); }
    return n;
  }
  nameOf(n) { return n < this.names.length ? this.names[n] : undefined; }
}

/**
 * Reads features[start, end) into plain arrays: ids, lonlat (interleaved), values (NaN = none),
 * categories (numbers from `table`), and the features themselves. `taken(id)` says whether an id
 * is already on the map; `seen` (a Map id -> index) collects this load's ids to refuse repeats.
 * Throws an Error naming the first refused feature.
 */
export function readFeatures(features, options, start, end, table, taken, seen) {
  const idOf = getter(options.id, "id", defaultId);
  const valueOf = getter(options.value, "value", null);
  const categoryOf = getter(options.category, "category", null);
  const n = end - start;
  const ids = new Array(n), lonlat = new Float64Array(2 * n), kept = new Array(n);
  const values = valueOf ? new Float64Array(n) : null;
  const categories = categoryOf ? new Uint32Array(n) : null;
  for (let k = 0; k < n; k++) {
    const index = start + k, f = features[index];
    if (!f || typeof f !== "object") throw new Error(`GeoJSON ${nameFeature(f, index)} is not a Feature`);
    const id = usableId(idOf(f, index));
    if (id === null) {
      throw new Error(`GeoJSON ${nameFeature(f, index)} has no usable id (an integer, or a string of digits): ` +
        `${describeRaw(idOf(f, index))}; name the id's property ({ id: "name" }) or give a function ({ id: (f, i) => ... })`);
    }
    const first = seen.get(id);
    if (first !== undefined || taken(id)) {
      throw new Error(`GeoJSON ${nameFeature(f, index)} repeats the id ${id}` +
        (first !== undefined ? ` of feature ${first}` : " of a pin already on the map"));
    }
    const g = f.geometry;
    const c = g && g.type === "Point" && g.coordinates;
    if (!c || !Number.isFinite(c[0]) || !Number.isFinite(c[1])) {
      throw new Error(`GeoJSON ${nameFeature(f, index)} is not a Point with a finite longitude and latitude`);
    }
    seen.set(id, index);
    ids[k] = id; lonlat[2 * k] = c[0]; lonlat[2 * k + 1] = c[1]; kept[k] = f;
    if (values) { const v = Number(valueOf(f, index)); values[k] = valueOf(f, index) === null ? NaN : v; }
    if (categories) categories[k] = table.numberOf(categoryOf(f, index));
  }
  return { ids, lonlat, values, categories, features: kept };
}

function describeRaw(v) {
  if (v === undefined) return "none";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 37) + "..." : v);
  return String(v);
}

/** A FeatureCollection of `features` (each with its pin's id) with the positions `positionOf(id)`
 *  gives: each feature is a new object with its id, its properties (the same object, intact) and
 *  a Point at the pin's true position. */
export function toFeatureCollection(entries, positionOf) {
  const out = [];
  for (const [id, f] of entries) {
    const p = positionOf(id);
    if (!p) continue;   // a pin removed since
    const g = f.geometry;
    const coordinates = g.coordinates.length > 2 ? [p[0], p[1], ...g.coordinates.slice(2)] : [p[0], p[1]];
    const feature = { ...f, geometry: { ...g, type: "Point", coordinates } };
    if (feature.id === undefined) feature.id = typeof id === "bigint" ? id.toString() : id;
    out.push(feature);
  }
  return { type: "FeatureCollection", features: out };
}
