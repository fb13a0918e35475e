// The callout of the selected tree: its title and subtitle (pindrop's callout texts, or the tree's
// own title and coordinate), where it stands over the map, the edit's buttons, and the page's
// answer to a GEOCODE_REQUEST.

import { calloutEl, page, treeTitle, ui } from "./page.js";

// The callout's size, measured once its text is set (fillCallout clears it), not on every frame.
let calloutSize = null;
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
  ui.dragText = null;
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

// The local answer to a GEOCODE_REQUEST: the nearest other tree, from pindrop's own index, and
// the place the data set names. It answers after a short wait, as a geocoding service would,
// so that an answer for a pin that moved again meanwhile is refused (stale) as it should be.
export function answerGeocode(e) {
  setTimeout(() => {
    const m = page.map;
    if (!m) return;
    let text = "";
    try {
      const near = m.nearby(e.lon, e.lat, 250, 16).filter((n) => n.id !== e.id);
      const row0 = near.length ? page.trees.rowOf(near[0].id) : -1;
      const where = row0 >= 0 ? page.trees.place(row0) : page.trees.place(0);
      text = near.length ? `${where} · ${near[0].distanceM.toFixed(0)} m from tree #${near[0].id}` : `${where} · no tree within 250 m`;
      const fresh = m.answerGeocode(e.request, text);
      if (fresh && e.id === page.selected) fillCallout();
    } catch (err) { console.warn("geocode answer", err); }
  }, 150);
}
