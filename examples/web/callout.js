// The selected tree's callout: its title and subtitle (pindrop's callout texts, or the tree's own
// title and coordinate), kept over the tree as the layer draws it, the edit's buttons, and the
// page's answer to the layer's `geocoderequest`.

import { calloutEl, page, treeTitle } from "./page.js";

let calloutSize = null;   // measured once its text is set (fill clears it), not on every frame
let dragText = null;      // "→ lat, lon" of the latest drag, written at the next frame

export function listenToCallout(layer) {
  layer.on("pinselected", (e) => {
    if (!layer.map.callout(e.id, "title")) layer.map.setTitle(e.id, treeTitle(e.id));
    fillCallout();
  });
  layer.on("pindeselected pinmoved calloutchange", (e) => { if (e.type === "pindeselected" || e.id === page.selected) fillCallout(); });
  layer.on("pindragend", (e) => { if (e.cancelled && e.id === page.selected) fillCallout(); });
  // the callout shows where the tree would land now, written with the next frame (a write per
  // pointer event would make the next event's getBoundingClientRect lay the page out again)
  layer.on("pindrag", (e) => { if (e.id === page.selected) dragText = `→ ${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}`; });
  layer.on("draw", () => {
    if (dragText !== null) { calloutEl.querySelector(".callout-subtitle").textContent = dragText; dragText = null; }
    placeCallout(layer.host.selectedAt);
  });
  layer.on("geocoderequest", answerGeocode);
}

export function placeCallout(at) {
  if (page.selected === null || !at) { calloutEl.hidden = true; return; }
  const [x, y, lift] = at;
  calloutEl.hidden = false;
  if (!calloutSize) calloutSize = [calloutEl.offsetWidth, calloutEl.offsetHeight];
  // Kept inside the map, its arrow still at the pin: shifted off an edge, and below the pin when
  // there is no room above it (a pin near the top of a phone's screen).
  const [w, h] = calloutSize, size = page.leaflet.getSize(), m = 4;
  const left = Math.min(Math.max(x, w / 2 + m), Math.max(w / 2 + m, size.x - w / 2 - m));
  const top = y - (lift > 0.001 ? 34 : 4);
  const below = top - h - 18 < m && y + 22 + h + m <= size.y;
  calloutEl.classList.toggle("below", below);
  calloutEl.style.left = left + "px";
  calloutEl.style.top = (below ? y + 22 : top) + "px";
  calloutEl.style.setProperty("--arrow", Math.max(-(w / 2 - 14), Math.min(w / 2 - 14, x - left)) + "px");
}

export function fillCallout() {
  calloutSize = null;
  // The edit's Done and Cancel are in the panel too: the tree (and its callout) may be off-screen
  // after a pan or a zoom, and a phone has no Esc key.
  document.getElementById("editing-row").hidden = page.editing === null;
  dragText = null;
  const id = page.selected;
  if (id === null) { calloutEl.hidden = true; return; }
  const m = page.map;
  const title = m.callout(id, "title") || treeTitle(id);
  let subtitle = m.callout(id, "subtitle");
  if (!subtitle) {
    const [lon, lat] = m.position(id);
    subtitle = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
  }
  calloutEl.querySelector(".callout-title").textContent = title;
  calloutEl.querySelector(".callout-subtitle").textContent = subtitle;
  const editing = page.editing === id;
  calloutEl.querySelector('[data-act="edit"]').hidden = editing;
  calloutEl.querySelector('[data-act="commit"]').hidden = !editing;
  calloutEl.querySelector('[data-act="cancel-edit"]').hidden = !editing;
}

// The local answer to a geocode request: the nearest other tree, from pindrop's own index, and
// the place the data set names. It answers after a short wait, as a geocoding service would, so
// that an answer for a pin that moved again meanwhile is refused (stale) as it should be.
function answerGeocode(e) {
  setTimeout(() => {
    const m = page.map;
    if (!m) return;
    try {
      const near = m.nearby(e.lon, e.lat, 250, 16).filter((n) => n.id !== e.id);
      const row0 = near.length ? page.trees.rowOf(near[0].id) : -1;
      const where = row0 >= 0 ? page.trees.place(row0) : page.trees.place(0);
      const text = near.length ? `${where} · ${near[0].distanceM.toFixed(0)} m from tree #${near[0].id}` : `${where} · no tree within 250 m`;
      if (e.answer(text) && e.id === page.selected) fillCallout();
    } catch (err) { console.warn("geocode answer", err); }
  }, 150);
}
