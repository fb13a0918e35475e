// The demo's panel: Undo, Redo, Add tree, the edit's Done and Cancel, the legend of the cluster
// colours (the commonest categories), and a tooltip over the cluster under a hovering mouse.

import { fillCallout } from "./callout.js";
import { calloutEl, page, shell, treeTitle } from "./page.js";

const LEGEND_ROWS = 8;

export function listenToPanel(layer) {
  let nextNewId = null;
  document.getElementById("undo").onclick = () => layer.undo();
  document.getElementById("redo").onclick = () => layer.redo();
  document.getElementById("add").onclick = () => {
    if (nextNewId === null) { nextNewId = 0; for (const v of page.trees.ids) if (v >= nextNewId) nextNewId = v + 1; }
    const id = nextNewId++;
    const cam = page.camera;
    if (layer.place(id, cam.centerLon, cam.centerLat)) {
      layer.announce(`New tree #${id} placed at the centre: tap the map to move it, then Done`);
      fillCallout();
    }
  };
  for (const el of [calloutEl, document.getElementById("editing-row")]) {
    el.addEventListener("click", (e) => { if (e.target.dataset && e.target.dataset.act) editAction(layer, e.target.dataset.act); });
  }
  // Pointer events on the callout and the panel stay theirs.
  for (const el of [calloutEl, document.getElementById("panel")]) {
    for (const type of ["pointerdown", "mousedown", "touchstart", "dblclick", "wheel"]) {
      el.addEventListener(type, (e) => e.stopPropagation());
    }
  }
  layer.on("hover", (e) => {
    if (!e.cluster) { tipEl.hidden = true; return; }
    tipEl.textContent = e.text;
    tipEl.style.left = e.cluster.x + "px"; tipEl.style.top = e.cluster.y + "px";
    tipEl.hidden = false;
  });
}

// The edit's buttons, in the callout and (Done, Cancel) in the panel: each names its action.
function editAction(layer, act) {
  if (act === "edit" && page.selected !== null) {
    const id = page.selected;
    if (layer.edit(id)) layer.announce(`Editing ${treeTitle(id)}: drag it or tap where it should go, then Done`);
  } else if (act === "commit") {
    layer.commit(); layer.announce("Saved");
  } else if (act === "cancel-edit") {
    layer.cancelEdit();
  }
  fillCallout();
}

// A tooltip over the cluster under a hovering mouse.
const tipEl = document.createElement("div");
tipEl.className = "cluster-tip"; tipEl.hidden = true;
shell.appendChild(tipEl);

/** The legend: the swatch and name of the commonest categories, as the clusters are coloured. */
export function showLegend(layer) {
  const el = document.getElementById("legend");
  const rows = layer.legend();
  el.replaceChildren();
  const title = document.createElement("div");
  title.className = "legend-title";
  title.textContent = `Clusters by commonest ${page.trees.categoryKind === "cities" ? "city" : "species"} (pale: under half)`;
  el.appendChild(title);
  for (const row of rows.slice(0, LEGEND_ROWS)) {
    const item = document.createElement("div");
    item.className = "legend-row";
    const swatch = document.createElement("span");
    swatch.className = "legend-swatch";
    swatch.style.background = row.colour;
    item.append(swatch, `${row.name} (${row.count.toLocaleString("en-US")})`);
    el.appendChild(item);
  }
  if (rows.length > LEGEND_ROWS) {
    const more = document.createElement("div");
    more.className = "legend-row small";
    more.textContent = `… ${rows.length - LEGEND_ROWS} more`;
    el.appendChild(more);
  }
  el.hidden = false;
}
