// The MapLibre GL JS page: the same street trees as the Leaflet page, on a MapLibre map with
// pindrop's layer (pindrop/maplibre). The page keeps only its data loading and its panel; the
// layer does the rest (input, drawing, keyboard, announcements, GeoJSON).
//
// URL parameters: ?data=lawndale (default, bundled) | la (the 916k LA trees), ?input=mouse|touch,
// ?lat=&lon=&zoom= (zoom as the Leaflet page counts it: 256-point tiles, MapLibre's + 1),
// ?bearing= (degrees). No base map: a plain style with one background layer (offline).
//
// window.pindropPage is what the tests read: { ready, error, map, layer, events, longTasks, ... }.

import { pindropLayer } from "pindrop/maplibre";

const params = new URLSearchParams(location.search);
const statusEl = document.getElementById("status");
const page = { ready: false, error: null, map: null, layer: null, dataset: params.get("data") || "lawndale",
  events: [], announcements: [], progress: [], longTasks: [], draws: [], loadedAt: null, loadStartedAt: null, count: 0 };
window.pindropPage = page;

// Main-thread tasks over 50 ms (the Long Tasks API), from the page's start.
if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes.includes("longtask")) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) page.longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: "longtask", buffered: true });
}

const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

// The trees as GeoJSON features, read from the CSV a few thousand rows at a time (the page stays
// responsive while 916k rows are read): Lawndale's id,lon,lat,species or LA's city,idx,lat,lon.
async function loadFeatures(which) {
  const url = which === "la" ? "/data/la_trees.csv" : "/data/lawndale_trees.csv";
  const res = await fetch(url);
  if (!res.ok) throw new Error(which === "la" ? "the LA trees are not here (../shared/data/la_trees.csv): try ?data=lawndale" : `${url} is missing`);
  const text = await res.text();
  const features = [];
  let pos = text.indexOf("\n") + 1, row = 0;
  while (pos < text.length) {
    const t0 = performance.now();
    while (pos < text.length && performance.now() - t0 < 10) {
      for (let k = 0; k < 500 && pos < text.length; k++) {
        let end = text.indexOf("\n", pos);
        if (end < 0) end = text.length;
        const f = text.slice(pos, end).split(",");
        pos = end + 1;
        if (f.length < 4) continue;
        features.push(which === "la"
          ? { type: "Feature", properties: { id: row++, city: f[0] }, geometry: { type: "Point", coordinates: [+f[3], +f[2]] } }
          : { type: "Feature", properties: { id: +f[0], species: f[3] || "unknown species" }, geometry: { type: "Point", coordinates: [+f[1], +f[2]] } });
      }
    }
    await yieldToPage();
  }
  return { type: "FeatureCollection", features };
}

const plainStyle = { version: 8, sources: {}, layers: [{ id: "background", type: "background", paint: { "background-color": "#e9efe6" } }] };
const prettyCity = (s) => s.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");

async function start() {
  const la = page.dataset === "la";
  const [lat0, lon0, zoom0] = la ? [34.0219, -118.4814, 10] : [33.8872, -118.3526, 15];
  const map = new maplibregl.Map({
    container: "map", style: plainStyle, center: [+(params.get("lon") ?? lon0), +(params.get("lat") ?? lat0)],
    zoom: +(params.get("zoom") ?? zoom0) - 1, bearing: +(params.get("bearing") ?? 0), maxZoom: 21,
    attributionControl: { compact: false, customAttribution: `no base map (offline) · trees: ${la ? "LA county cities" : "City of Lawndale"}` },
  });
  page.map = map;
  map.addControl(new maplibregl.NavigationControl({ showCompass: true }), "top-left");
  await new Promise((resolve) => map.once("load", resolve));

  const layer = pindropLayer({
    itemName: "tree", input: params.get("input") || "auto",
    title: (id, f) => (f ? (la ? `Tree #${id} · ${prettyCity(f.properties.city)}` : `${f.properties.species} #${id}`) : `Tree #${id}`),
  });
  page.layer = layer;
  for (const type of ["pinselected", "pindeselected", "pindragstart", "pindrag", "pindragend", "pinmoved", "clusterclick", "stackopened",
    "stackclosed", "nearby", "geocoderequest", "suspended", "resumed", "load"]) {
    layer.on(type, (e) => page.events.push(record(e)));
  }
  layer.on("draw", () => { page.draws.push([performance.now(), layer.host.drawn.ms]); if (page.draws.length > 400) page.draws.shift(); });
  const tip = document.getElementById("tip");        // what the cluster under the mouse holds
  layer.on("hover", (e) => {
    tip.hidden = !e.cluster;
    if (e.cluster) { tip.textContent = e.text; tip.style.left = e.cluster.x + "px"; tip.style.top = e.cluster.y + "px"; }
  });
  layer.on("announce", (e) => { page.announcements.push(e.text); statusEl.textContent = e.text; });
  layer.on("progress", (e) => { page.progress.push([e.phase, e.loaded, e.total, Math.round(performance.now())]); statusEl.textContent = `loading ${e.loaded.toLocaleString("en-US")} of ${e.total.toLocaleString("en-US")}…`; });
  layer.on("geocoderequest", (e) => setTimeout(() => e.answer(la ? prettyCity(e.feature ? e.feature.properties.city : "los-angeles") : "Lawndale"), 150));
  map.addLayer(layer);
  await layer.ready;

  const trees = await loadFeatures(page.dataset);
  page.loadStartedAt = performance.now();
  console.timeStamp("load-start");        // (marks in a trace: the tests measure the load between them)
  page.count = await layer.addGeoJSON(trees, { id: "id", category: la ? "city" : "species" });
  console.timeStamp("load-end");
  page.loadedAt = performance.now();
  document.getElementById("dataset").textContent = `${page.count.toLocaleString("en-US")} ${la ? "LA county" : "Lawndale"} street trees`;
  statusEl.textContent = `${page.count.toLocaleString("en-US")} trees · ${layer.host.profile} input`;
  showLegend(layer, la ? prettyCity : (s) => s);
  document.getElementById("undo").onclick = () => layer.undo();
  document.getElementById("redo").onclick = () => layer.redo();
  page.ready = true;
}

// A plain object of what a layer event says (the tests read these).
function record(e) {
  const r = { type: e.type };
  for (const k of ["id", "lon", "lat", "fromLon", "fromLat", "cause", "distanceM", "cancelled", "count", "reason", "message"]) {
    if (e[k] !== undefined) r[k] = e[k];
  }
  if (e.key !== undefined) r.key = String(e.key);
  if (e.feature) r.properties = e.feature.properties;
  return r;
}

// The cluster colours' legend: the commonest categories with the layer's colour for each.
function showLegend(layer, pretty) {
  const ul = document.getElementById("legend");
  for (const entry of layer.legend().slice(0, 8)) {
    const li = document.createElement("li");
    const dot = document.createElement("span");
    dot.className = "swatch"; dot.style.background = entry.colour;
    li.append(dot, `${pretty(String(entry.name))} (${entry.count.toLocaleString("en-US")})`);
    ul.append(li);
  }
}

start().catch((err) => {
  page.error = String((err && err.stack) || err);
  statusEl.textContent = "Could not start: " + (err && err.message);
  console.error(err);
});
