// The benchmark page (driven by bench_web.py over the DevTools protocol): pindrop.wasm and
// Leaflet.markercluster 1.5.3 on the same Leaflet map and the same trees, and pindrop.wasm's
// per-operation times for the comparison with the native library. Each peer runs in a browser
// of its own, so that one's heap is not the other's.

// Served at /bench/ by the host page's server (examples/web/serve.py, mounted by bench_web.py):
// the package comes from /pindrop/ (bindings/js, through its index.js), the drawing code from the
// host page (/draw.js), so that pindrop's zoom changes are painted as the page paints them.
import * as pindrop from "/pindrop/index.js";
import { paintFrame, makeOverlay, cameraOf } from "/draw.js";
import * as peers from "./peers.js";
import * as layerBench from "./layer.js";

// The package, loaded once.
const init = () => pindrop.load();

// A second instance of the module, for the calls on its exports without the package in between
// (the C contract, memory, malloc, free). Its WASI imports: nothing to print, and random_get from
// crypto (Swift's hashing seeds itself from it).
let raw = null;
async function rawExports() {
  if (raw) return raw;
  const module = await WebAssembly.compileStreaming(fetch("/pindrop/pindrop.wasm"));
  let memory = null;
  const wasi = {
    random_get(p, n) { crypto.getRandomValues(new Uint8Array(memory.buffer, p, n)); return 0; },
  };
  const imports = { wasi_snapshot_preview1: {} };
  for (const i of WebAssembly.Module.imports(module)) imports[i.module][i.name] = wasi[i.name] ?? (() => 52);
  const instance = await WebAssembly.instantiate(module, imports);
  memory = instance.exports.memory;
  raw = instance.exports;
  return raw;
}

const mapEl = document.getElementById("map");
const OPTIONS = {
  hitRadius: 22, liftDelayMs: 0, liftHeight: 0, clusterRadius: 60, clusterMaxZoom: 17,
  spreadMode: "spiral", spreadSpacing: 25,
};
let data = null, lmap = null, overlay = null, m = null, mcg = null, markers = null;
let clock = 0;
const tnow = () => (clock = Math.max(clock + 0.001, performance.now()));
const forceLayout = () => mapEl.getBoundingClientRect().height + document.body.offsetHeight;

async function loadData(url = "/data/la_trees.csv") {
  const text = await (await fetch(url)).text();
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < text.length - 1; i = text.indexOf("\n", i + 1)) n++;
  const ids = new Float64Array(n), lonlat = new Float64Array(2 * n);
  let pos = text.indexOf("\n") + 1;
  for (let row = 0; row < n; row++) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const c1 = text.indexOf(",", pos), c2 = text.indexOf(",", c1 + 1), c3 = text.indexOf(",", c2 + 1);
    ids[row] = row;
    lonlat[2 * row + 1] = +text.slice(c2 + 1, c3);
    lonlat[2 * row] = +text.slice(c3 + 1, end);
    pos = end + 1;
  }
  data = { n, ids, lonlat };
  return n;
}

// The trees from an array [lon0, lat0, lon1, lat1, ...] (the tests' smaller sets); ids 0 .. n-1.
function setData(lonlat) {
  const n = lonlat.length / 2;
  data = { n, ids: Float64Array.from({ length: n }, (_, i) => i), lonlat: Float64Array.from(lonlat) };
  return n;
}

function leaflet(center, zoom) {
  lmap = L.map(mapEl, { center, zoom, zoomSnap: 0, zoomAnimation: false, fadeAnimation: false,
                        markerZoomAnimation: false, inertia: false, maxZoom: 22 });
  return lmap;
}

function drawPindrop() {
  const t = tnow();
  const ctx = overlay.begin();
  const C = m.clusters(t), P = m.frame(t);
  const counts = [C.count, P.count];   // read before painting: the views are reused by the next call
  paintFrame(ctx, C, P);
  return counts;
}

// ---- pindrop.wasm on the map --------------------------------------------------------------------
async function pindropCluster(center, zoom) {
  await init();
  leaflet(center, zoom);
  overlay = makeOverlay().addTo(lmap);
  const t0 = performance.now();
  m = new pindrop.Map(OPTIONS);
  m.addMany(data.ids, data.lonlat);
  const t1 = performance.now();
  m.setCamera(cameraOf(lmap));
  const [nc, np] = drawPindrop();
  forceLayout();
  const t2 = performance.now();
  lmap.on("move zoom resize viewreset", () => m.setCamera(cameraOf(lmap)));
  return { addManyMs: t1 - t0, firstViewMs: t2 - t1, clusters: nc, pins: np };
}

// every cluster level built: a view at each integer zoom below cluster_max_zoom (what
// markercluster's addLayers builds up front)
function pindropAllLevels(center) {
  const cam = cameraOf(lmap);
  const t0 = performance.now();
  for (let z = 0; z < 17; z++) {
    m.setCamera({ ...cam, zoom: z });
    m.clusters(tnow());
  }
  m.setCamera(cam);
  return { allLevelsMs: performance.now() - t0 };
}

// ---- Leaflet.markercluster on the map ------------------------------------------------------------
function markerclusterCreate(center, zoom) {
  leaflet(center, zoom);
  const t0 = performance.now();
  markers = new Array(data.n);
  for (let i = 0; i < data.n; i++) markers[i] = L.marker([data.lonlat[2 * i + 1], data.lonlat[2 * i]]);
  const t1 = performance.now();
  mcg = L.markerClusterGroup({ maxClusterRadius: 60, chunkedLoading: false, animate: false,
                               disableClusteringAtZoom: 17 });
  lmap.addLayer(mcg);
  return { createMarkersMs: t1 - t0 };
}

function markerclusterAddLayers() {
  const t0 = performance.now();
  mcg.addLayers(markers);
  forceLayout();
  const t1 = performance.now();
  return { addLayersMs: t1 - t0, drawnIcons: mapEl.querySelectorAll(".leaflet-marker-icon").length };
}

// ---- zoom changes: setView, then what each draws, then a forced style and layout ---------------
function zoomChanges(kind, center, zooms, rounds) {
  const times = Object.fromEntries(zooms.map((z) => [z, []]));
  const drawn = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...zooms].reverse() : zooms;
    for (const z of order) {
      const t0 = performance.now();
      lmap.setView(center, z, { animate: false });
      if (kind === "pindrop") drawn[z] = drawPindrop();
      forceLayout();
      times[z].push(performance.now() - t0);
      if (kind !== "pindrop") drawn[z] = mapEl.querySelectorAll(".leaflet-marker-icon").length;
    }
  }
  return { times, drawn };
}

// ---- pindrop.wasm's operations, the same workload as the native run --------------------------
const WARM_PASSES = 5;   // the native side (bench_web.py) warms up as many times

function camera(c) { return { centerLon: c[0], centerLat: c[1], zoom: c[2], bearingDeg: 0, width: c[3], height: c[4] }; }

async function ops(w) {
  await init();
  const out = {};
  // add_many into a fresh map, best of w.addReps
  let bestAdd = Infinity, mm = null;
  for (let r = 0; r < w.addReps; r++) {
    if (mm) mm.dispose();
    mm = new pindrop.Map(OPTIONS);
    const t0 = performance.now();
    mm.addMany(data.ids, data.lonlat);
    bestAdd = Math.min(bestAdd, performance.now() - t0);
  }
  out.add_many = bestAdd;
  m = mm;
  // every level once (untimed: the build is measured as the clustering figure)
  for (let z = 0; z < 17; z++) { m.setCamera(camera([w.center[0], w.center[1], z, w.width, w.height])); m.clusters(tnow()); }

  // Each figure is the best of w.trials trials after one untimed (the engine's tiers: a page's
  // first calls run in its baseline compilers), as on the native side; the untimed trial of the
  // moves and of the drag runs WARM_PASSES times.
  const T = w.trials;
  const best = (f) => { let b = Infinity; for (let k = 0; k <= T; k++) { const v = f(k); if (k > 0) b = Math.min(b, v); } return b; };
  // frame: for each camera one untimed call, then w.reps timed calls
  const timed = (cams, f) => {
    let total = 0, calls = 0;
    for (const c of cams) {
      m.setCamera(camera(c));
      f();
      const t0 = performance.now();
      for (let r = 0; r < w.reps; r++) f();
      total += performance.now() - t0; calls += w.reps;
    }
    return total / calls;
  };
  // Times advance by 1 µs per call without reading the clock, as the raw and native loops do:
  // performance.now() costs 0.3-1.2 µs in Chromium, a third of a frame_clusters.
  const step = () => (clock += 0.001);
  out.frame = best(() => timed(w.frameCams, () => m.frame(step())));
  out.frame_clusters = best(() => timed(w.clusterCams, () => m.clusters(step())));

  // hit tests after a frame: per tap
  out.hit_test = best(() => {
    let total = 0, calls = 0, found = 0;
    const per = w.hitXY.length / 2 / w.hitCams.length;
    for (let c = 0; c < w.hitCams.length; c++) {
      m.setCamera(camera(w.hitCams[c]));
      m.frame(tnow());
      const t0 = performance.now();
      for (let i = 0; i < per; i++) found += m.hitTest(w.hitXY[2 * (c * per + i)], w.hitXY[2 * (c * per + i) + 1]) !== null;
      total += performance.now() - t0; calls += per;
    }
    out.hits_found = found;
    return total / calls;
  });

  // set_position + the cluster update the next frame_clusters makes, per move; each trial
  // moves its own slice of the pins, the untimed one (k = 0) WARM_PASSES times there and back
  const chunk = Math.floor(w.moveIds.length / (T + 1));
  out.set_position_cluster_update = best((k) => {
    m.setCamera(camera(w.moveCam));
    m.clusters(tnow());
    const t0 = performance.now();
    for (let pass = 0; pass < (k ? 1 : WARM_PASSES); pass++) {
      const ll = pass % 2 ? data.lonlat : null;   // odd passes: back where the trees were
      for (let i = k * chunk; i < (k + 1) * chunk; i++) {
        const id = w.moveIds[i];
        if (ll) m.setPosition(id, ll[2 * id], ll[2 * id + 1]);
        else m.setPosition(id, w.moveLonLat[2 * i], w.moveLonLat[2 * i + 1]);
        m.clusters(step());
      }
    }
    return (performance.now() - t0) / chunk;
  });

  // a drag's MOVE (and draining its DRAGGED event), mouse profile; each trial's drag ends where
  // the next one presses
  const drag = () => {
    m.setCamera(camera(w.dragCam));
    m.frame(tnow());
    const [x0, y0] = w.dragStart;
    let t = tnow() + 1000;           // the last drag's drop animation and double-tap window are over
    m.tick(t);
    for (const e of m.events()) void e;
    const owned = m.touch(1, "down", x0, y0, t);
    if (!owned) throw new Error("the drag's press missed the pin");
    m.touch(1, "move", x0 + 10, y0, (t += 1));
    for (const e of m.events()) void e;
    const k = w.dragPath.length / 2;
    const t0 = performance.now();
    for (let i = 0; i < k; i++) {
      m.touch(1, "move", w.dragPath[2 * i], w.dragPath[2 * i + 1], (t += 1));
      for (const e of m.events()) void e;
    }
    const dt = (performance.now() - t0) / k;
    m.touch(1, "up", w.dragPath[2 * k - 2], w.dragPath[2 * k - 1], (t += 1));
    for (const e of m.events()) void e;
    clock = t;
    return dt;
  };
  out.drag_move = best((k) => { for (let r = 1; r < (k ? 1 : WARM_PASSES); r++) drag(); return drag(); });
  out.drag_landed = m.position(w.dragTree);
  return out;
}

// ---- the same operations on the module's exports directly (no package in between) -----------
// What the JavaScript wrapper costs shows as the difference between the two wasm columns.
async function rawOps(w) {
  await init();
  const X = await rawExports();
  const heap = () => X.memory.buffer;
  const f64 = () => new Float64Array(heap()), i64 = () => new BigInt64Array(heap()), u32 = () => new Uint32Array(heap());
  const check = (r, what) => { if (r < 0) throw new Error(`${what}: status ${r}`); return r; };
  const out = {};
  // options: pindrop_options as the package lays it out on wasm32 (struct_size 152, 0.2's fields)
  const o = X.malloc(152);
  const outp = X.malloc(8), cam = X.malloc(48), ev = X.malloc(96), idp = X.malloc(8);
  const mkMap = () => {
    check(X.pindrop_options_init(o, 152), "options_init");
    const dv = new DataView(heap());
    dv.setFloat64(o + 8, OPTIONS.hitRadius, true); dv.setFloat64(o + 24, OPTIONS.liftDelayMs, true);
    dv.setFloat64(o + 32, OPTIONS.liftHeight, true); dv.setInt32(o + 104, 2, true);
    dv.setFloat64(o + 128, OPTIONS.clusterRadius, true); dv.setFloat64(o + 136, OPTIONS.clusterMaxZoom, true);
    dv.setFloat64(o + 144, OPTIONS.spreadSpacing, true);
    check(X.pindrop_map_create(o, outp), "map_create");
    return u32()[outp >> 2];
  };
  const setCam = (h, c) => {
    const a = f64(), b = cam >> 3;
    a[b] = c[0]; a[b + 1] = c[1]; a[b + 2] = c[2]; a[b + 3] = 0; a[b + 4] = c[3]; a[b + 5] = c[4];
    check(X.pindrop_map_set_camera(h, cam), "set_camera");
  };
  const n = data.n;
  const pi = X.malloc(8 * n), pl = X.malloc(16 * n);
  { const a = i64(); for (let i = 0; i < n; i++) a[(pi >> 3) + i] = BigInt(data.ids[i]); f64().set(data.lonlat, pl >> 3); }
  let bestAdd = Infinity, h = 0;
  for (let r = 0; r < w.addReps; r++) {
    if (h) X.pindrop_map_destroy(h);
    h = mkMap();
    const t0 = performance.now();
    check(X.pindrop_map_add_many(h, pi, pl, n), "add_many");
    bestAdd = Math.min(bestAdd, performance.now() - t0);
  }
  out.add_many = bestAdd;
  X.free(pi); X.free(pl);
  const cap = 200000;
  const pins = X.malloc(56 * cap), views = X.malloc(48 * cap);
  let t = 1;
  for (let z = 0; z < 17; z++) { setCam(h, [w.center[0], w.center[1], z, w.width, w.height]); X.pindrop_map_frame_clusters(h, (t += 0.001), views, cap); }
  const timed = (cams, f) => {
    let total = 0, calls = 0;
    for (const c of cams) {
      setCam(h, c);
      f();
      const t0 = performance.now();
      for (let r = 0; r < w.reps; r++) f();
      total += performance.now() - t0; calls += w.reps;
    }
    return total / calls;
  };
  const T = w.trials;
  const best = (f) => { let b = Infinity; for (let k = 0; k <= T; k++) { const v = f(k); if (k > 0) b = Math.min(b, v); } return b; };
  out.frame = best(() => timed(w.frameCams, () => X.pindrop_map_frame(h, (t += 0.001), pins, cap)));
  out.frame_clusters = best(() => timed(w.clusterCams, () => X.pindrop_map_frame_clusters(h, (t += 0.001), views, cap)));
  out.hit_test = best(() => {
    let total = 0, calls = 0, found = 0;
    const per = w.hitXY.length / 2 / w.hitCams.length;
    for (let c = 0; c < w.hitCams.length; c++) {
      setCam(h, w.hitCams[c]);
      X.pindrop_map_frame(h, t, pins, cap);
      const t0 = performance.now();
      for (let i = 0; i < per; i++) found += X.pindrop_map_hit_test(h, w.hitXY[2 * (c * per + i)], w.hitXY[2 * (c * per + i) + 1], idp) === 0;
      total += performance.now() - t0; calls += per;
    }
    out.hits_found = found;
    return total / calls;
  });
  const ids = w.moveIds.map((v) => BigInt(v));
  const chunk = Math.floor(ids.length / (T + 1));
  out.set_position_cluster_update = best((k) => {
    setCam(h, w.moveCam);
    X.pindrop_map_frame_clusters(h, (t += 0.001), views, cap);
    const t0 = performance.now();
    for (let pass = 0; pass < (k ? 1 : WARM_PASSES); pass++) {
      const ll = pass % 2 ? data.lonlat : null;
      for (let i = k * chunk; i < (k + 1) * chunk; i++) {
        const id = w.moveIds[i];
        const lon = ll ? ll[2 * id] : w.moveLonLat[2 * i], lat = ll ? ll[2 * id + 1] : w.moveLonLat[2 * i + 1];
        check(X.pindrop_map_set_position(h, ids[i], lon, lat), "set_position");
        X.pindrop_map_frame_clusters(h, (t += 0.001), views, cap);
      }
    }
    return (performance.now() - t0) / chunk;
  });
  const drag = () => {
    setCam(h, w.dragCam);
    t += 1000;                       // the last drag's drop animation and double-tap window are over
    X.pindrop_map_tick(h, t);
    while (X.pindrop_map_poll_event(h, ev) === 1) { /* drain */ }
    X.pindrop_map_frame(h, t, pins, cap);
    const [x0, y0] = w.dragStart;
    if (X.pindrop_map_touch(h, 1, 0, x0, y0, (t += 1)) !== 1) throw new Error("the drag's press missed the pin");
    X.pindrop_map_touch(h, 1, 1, x0 + 10, y0, (t += 1));
    while (X.pindrop_map_poll_event(h, ev) === 1) { /* drain */ }
    const k = w.dragPath.length / 2;
    const t0 = performance.now();
    for (let i = 0; i < k; i++) {
      X.pindrop_map_touch(h, 1, 1, w.dragPath[2 * i], w.dragPath[2 * i + 1], (t += 1));
      while (X.pindrop_map_poll_event(h, ev) === 1) { /* drain */ }
    }
    const dt = (performance.now() - t0) / k;
    X.pindrop_map_touch(h, 1, 2, w.dragPath[2 * k - 2], w.dragPath[2 * k - 1], (t += 1));
    while (X.pindrop_map_poll_event(h, ev) === 1) { /* drain */ }
    return dt;
  };
  out.drag_move = best((k) => { for (let r = 1; r < (k ? 1 : WARM_PASSES); r++) drag(); return drag(); });
  check(X.pindrop_map_position(h, BigInt(w.dragTree), pins, pins + 8), "position");
  out.drag_landed = [f64()[pins >> 3], f64()[(pins >> 3) + 1]];
  for (const p of [o, outp, cam, ev, idp, pins, views]) X.free(p);
  X.pindrop_map_destroy(h);
  return out;
}

function wasmBytes() { return pindrop.__memoryBytes(); }

// supercluster beside pindrop (peers.js), on the trees loaded here.
const superclusterBench = {
  missing: () => peers.superclusterMissing(),
  pindropFirstView: async (cam) => { await init(); return peers.pindropFirstView(data, cam); },
  superclusterFirstView: (cam) => peers.superclusterFirstView(data, cam),
  views: async (list, reps, trials) => { await init(); return peers.views(data, list, reps, trials); },
  release: () => peers.release(),
};

// pindrop's Leaflet layer (layer.js), on the trees loaded here.
const layer = { ...layerBench, load: (center, zoom) => layerBench.layerLoad(data, center, zoom) };

window.bench = { loadData, setData, pindropCluster, pindropAllLevels, markerclusterCreate, markerclusterAddLayers,
                 zoomChanges, ops, rawOps, wasmBytes, peers: superclusterBench, layer, ready: true };
