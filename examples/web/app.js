// The Leaflet page of pindrop: a Leaflet map with pindrop's Leaflet layer ("pindrop/leaflet"),
// which does all of pindrop's hosting — input, camera, clock, drawing, keyboard, announcements.
// The page's own code is the demo: its data (trees.js), its panel with a legend (panel.js) and
// the selected tree's callout (callout.js).
//
// URL parameters: ?data=lawndale (default, bundled) | la (the 916k LA trees), ?input=mouse|touch
// (default: the device's primary pointer, then each press's), ?tiles=URL (an {z}/{x}/{y} tile
// server of your own), ?spread=spiral|ring|off (how trees sharing a spot are drawn),
// ?stacks=spread (always spread), ?lat=&lon=&zoom= (the first view).
//
// The package is imported by name (index.html's import map points "pindrop/leaflet" at
// /pindrop/src/leaflet.js, where serve.py serves bindings/js), as a page built with a bundler would.

import { pindropLayer } from "pindrop/leaflet";
import { listenToCallout } from "./callout.js";
import { listenToPanel, showLegend } from "./panel.js";
import { mapEl, page, params, statusEl, treeTitle } from "./page.js";
import { loadTrees } from "./trees.js";

async function start() {
  page.trees = await loadTrees(page.dataset);
  document.getElementById("dataset").textContent = page.trees.name;

  const tiles = params.get("tiles");
  const lat = +(params.get("lat") ?? page.trees.center[0]);
  const lon = +(params.get("lon") ?? page.trees.center[1]);
  const zoom = +(params.get("zoom") ?? page.trees.zoom);
  const lmap = L.map(mapEl, {
    center: [lat, lon], zoom, zoomSnap: 0, zoomDelta: 1, wheelPxPerZoomLevel: 120,
    maxZoom: 22, zoomAnimation: false, fadeAnimation: false, markerZoomAnimation: false,
    inertia: false, boxZoom: false,
  });
  page.leaflet = lmap;
  if (tiles) {
    L.tileLayer(tiles, { maxZoom: 22, maxNativeZoom: 19, attribution: "tiles: " + new URL(tiles, location.href).host }).addTo(lmap);
  } else {
    mapEl.classList.add("plain");
    lmap.attributionControl.addAttribution("no base map (offline): ?tiles=URL adds one");
  }
  lmap.attributionControl.addAttribution("trees: " + (page.dataset === "la" ? "LA county cities" : "City of Lawndale"));

  const spread = params.get("spread");
  const layer = pindropLayer({
    input: ["mouse", "touch"].includes(page.input) ? page.input : "auto",
    spreadMode: ["ring", "spiral", "off"].includes(spread) ? spread : "spiral",
    spreadOnTap: params.get("stacks") !== "spread",   // stacks open on a tap, as markercluster spiderfies
    minSpacingM: 1,
    clusterClick: "zoom",          // the cluster's expansion zoom, centred on it
    itemName: "tree",
    title: (id) => treeTitle(id),
  });
  page.layer = layer;
  layer.on("pindropevent", (e) => page.events.push(e.pindrop));
  layer.on("announce", (e) => { page.announcements.push(e.text); statusEl.textContent = e.text; });
  layer.on("pindrag", (e) => { page.lastDragged = { id: e.id, lon: e.lon, lat: e.lat }; });
  layer.on("pinmoved", (e) => { page.lastMoved = e.pindrop; });
  layer.on("progress", (e) => {
    page.loadProgress.push([e.phase, e.loaded, e.total]);
    statusEl.textContent = `loading ${e.loaded.toLocaleString("en-US")} of ${e.total.toLocaleString("en-US")} trees…`;
  });
  listenToCallout(layer);
  listenToPanel(layer);
  layer.addTo(lmap);

  const t = page.trees;
  await layer.setCategoryNames(t.categoryNames);
  await layer.addPins(t.ids, t.lonlat, { categories: t.categories });
  showLegend(layer);
  statusEl.textContent = `${t.count.toLocaleString("en-US")} trees · ${layer.host.profile} input`;
  // ready once a frame with every tree is drawn
  layer.once("draw", () => { page.ready = true; });
  layer.redraw();
}

start().catch((err) => {
  page.error = String(err && err.stack || err);
  statusEl.textContent = "Could not start: " + err.message;
  console.error(err);
});
