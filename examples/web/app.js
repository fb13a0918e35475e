// The Leaflet host of pindrop: Leaflet draws nothing but an empty map (or the tiles of ?tiles=URL)
// and owns pans and zooms; pindrop decides what every pointer means, and one canvas over the map
// draws what pindrop's frame() and clusters() say, pins and clusters alike (no DOM marker per pin).
//
// URL parameters: ?data=lawndale (default, bundled) | la (the 916k LA trees), ?input=mouse|touch
// (default: the device's primary pointer), ?tiles=URL (an {z}/{x}/{y} tile server of your own),
// ?spread=spiral|ring|off (how trees sharing a spot are drawn), ?stacks=spread (always spread),
// ?lat=&lon=&zoom= (the first view).
//
// The package is imported as "pindrop" (index.html's import map points it at /pindrop/index.js,
// where serve.py serves bindings/js). The page's modules, each one concern:
//   page.js     the page's state (window.pindropPage), its elements, its clock, announcements
//   trees.js    the data sets
//   host.js     the pindrop map: options, building it, its camera, the clock that ticks it
//   input.js    pointer events, keys and buttons, handed to the map
//   events.js   what happened: the map's events and what the page does with them
//   view.js     drawing the page each frame (draw.js paints), cluster colours and descriptions
//   callout.js  the selected tree's callout and the geocoder's answer

import { load } from "pindrop";
import { createMap, loop, syncCamera } from "./host.js";
import { listen } from "./input.js";
import { mapEl, page, params, statusEl, ui } from "./page.js";
import { loadTrees } from "./trees.js";
import { overlay } from "./view.js";

listen();

async function start() {
  await load();
  page.trees = await loadTrees(page.dataset);
  document.getElementById("dataset").textContent = page.trees.name;
  let maxId = 0;
  for (const v of page.trees.ids) if (v > maxId) maxId = v;
  ui.nextNewId = maxId + 1;

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
  overlay.addTo(lmap);
  createMap(page.profile);
  lmap.on("move zoom resize viewreset", syncCamera);
  page.ready = true;
  statusEl.textContent = `${page.trees.count.toLocaleString("en-US")} trees · ${page.profile} input`;
  requestAnimationFrame(loop);
}

start().catch((err) => {
  page.error = String(err && err.stack || err);
  statusEl.textContent = "Could not start: " + err.message;
  console.error(err);
});
