// pindrop.wasm against supercluster in the benchmark page (driven by bench_web.py): the first view
// of the trees in a fresh page, the views at zooms 8-16 (empty ones included), and the memory each
// holds for the same trees. supercluster (and kdbush, which it imports) is not vendored: bench_web.py
// serves the copies SUPERCLUSTER_DIR and KDBUSH_DIR name at /peers/supercluster/ and /peers/kdbush/,
// which bench.html's import map resolves; without them the page says so and these functions refuse.
import * as pindrop from "/pindrop/index.js";

let Supercluster = null;
let unavailable = "";
try {
  ({ default: Supercluster } = await import("/peers/supercluster/index.js"));
} catch (e) {
  unavailable = `supercluster could not be imported from /peers/supercluster/ (${e.message}): ` +
    "give bench_web.py SUPERCLUSTER_DIR and KDBUSH_DIR";
}

// The clustering rule both apply: a radius of 60 points on 256-point tiles (supercluster's radius is
// in tile units of its extent), clusters at zooms 0-16, 2 pins at least.
export const PINDROP_OPTIONS = { clusterRadius: 60, clusterMaxZoom: 17, clusterMinPoints: 2 };
export const SUPERCLUSTER_OPTIONS = { radius: 60, extent: 256, minZoom: 0, maxZoom: 16, minPoints: 2 };

let pm = null, sc = null, features = null;

export function superclusterVersion() { return unavailable ? null : "8.0.1 (index.js as given)"; }
export function superclusterMissing() { return unavailable; }

function needSupercluster() { if (unavailable) throw new Error(unavailable); }

/** pindrop's first view: a map, addMany of every tree, the camera, the first clusters() (which
 *  builds the level it shows). The module is loaded before (load() is not part of the view). */
export function pindropFirstView(data, cam) {
  const t0 = performance.now();
  pm = new (pindrop.PinMap ?? pindrop.Map)(PINDROP_OPTIONS);
  pm.addMany(data.ids, data.lonlat);
  pm.setCamera(cam);
  const c = pm.clusters(performance.now());
  const ms = performance.now() - t0;
  return { ms, clusters: c.count };
}

/** supercluster's first view: the GeoJSON features its load() takes, load(), the first
 *  getClusters() of the same view. */
export function superclusterFirstView(data, cam) {
  needSupercluster();
  const t0 = performance.now();
  const n = data.n, ll = data.lonlat;
  features = new Array(n);
  for (let i = 0; i < n; i++) {
    features[i] = { type: "Feature", properties: { id: i }, geometry: { type: "Point", coordinates: [ll[2 * i], ll[2 * i + 1]] } };
  }
  sc = new Supercluster(SUPERCLUSTER_OPTIONS);
  sc.load(features);
  const c = sc.getClusters(bbox(cam), Math.floor(cam.zoom));
  const ms = performance.now() - t0;
  return { ms, clusters: c.length };
}

/** The [west, south, east, north] a camera shows (Web Mercator, 256-point tiles). */
export function bbox(cam) {
  const scale = 256 * 2 ** cam.zoom;
  const x = (cam.centerLon + 180) / 360 * scale;
  const s = Math.sin(cam.centerLat * Math.PI / 180);
  const y = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * scale;
  const lon = (px) => px / scale * 360 - 180;
  const lat = (py) => Math.atan(Math.sinh(Math.PI * (1 - 2 * py / scale))) * 180 / Math.PI;
  return [lon(x - cam.width / 2), lat(y + cam.height / 2), lon(x + cam.width / 2), lat(y - cam.height / 2)];
}

/**
 * Each view's time, ms per call, both built: pindrop's setCamera + clusters() + frame() (the
 * clusters and the lone pins, what a page draws) and its setCamera + clusters() alone, against
 * supercluster's getClusters(bbox, zoom) (clusters and lone points in one answer). `list`: cameras
 * {centerLon, centerLat, zoom, width, height}, each timed as `reps` calls, the best of `trials`
 * after one untimed. Also what each shows, to see that they agree.
 */
export function views(data, list, reps, trials) {
  needSupercluster();
  if (!pm) pindropFirstView(data, list[0]);
  if (!sc) superclusterFirstView(data, list[0]);
  let t = performance.now();
  const out = [];
  for (const cam of list) {
    const box = bbox(cam), z = Math.floor(cam.zoom);
    let bestP = Infinity, bestC = Infinity, bestS = Infinity;
    for (let k = 0; k <= trials; k++) {
      let t0 = performance.now();
      for (let r = 0; r < reps; r++) { pm.setCamera(cam); pm.clusters((t += 0.001)); pm.frame(t); }
      const p = (performance.now() - t0) / reps;
      t0 = performance.now();
      for (let r = 0; r < reps; r++) { pm.setCamera(cam); pm.clusters((t += 0.001)); }
      const c = (performance.now() - t0) / reps;
      t0 = performance.now();
      for (let r = 0; r < reps; r++) sc.getClusters(box, z);
      const s = (performance.now() - t0) / reps;
      if (k > 0) { bestP = Math.min(bestP, p); bestC = Math.min(bestC, c); bestS = Math.min(bestS, s); }
    }
    // what each shows: pindrop's clusters (their members) and lone pins against supercluster's
    // features (a cluster's point_count, or 1)
    pm.setCamera(cam);
    const c = pm.clusters((t += 0.001));
    let sizeP = pm.frame(t).count, sizeS = 0;
    for (let i = 0; i < c.count; i++) sizeP += c.size[i];
    const features = sc.getClusters(box, z);
    for (const f of features) sizeS += f.properties.cluster ? f.properties.point_count : 1;
    out.push({ zoom: cam.zoom, lon: cam.centerLon, lat: cam.centerLat, pindropMs: bestP, pindropClustersMs: bestC,
               superclusterMs: bestS, pindropClusters: c.count, pindropShown: sizeP,
               superclusterFeatures: features.length, superclusterPins: sizeS });
  }
  return out;
}

/** Drops what the page holds (the heap measurement of the other peer starts clean). */
export function release() {
  if (pm) pm.dispose();
  pm = null; sc = null; features = null;
}
