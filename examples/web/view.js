// Drawing the page: each animation frame that something changed or moves, pindrop's clusters()
// and frame() painted into the canvas over the map (draw.js), what was drawn kept for the tests
// (window.pindropPage), the clusters coloured and described by what they hold, and the callout
// placed at the selected tree.

import { CLUSTER_ONE_SPOT, CLUSTER_STACK, PIN_ANIMATING, PIN_DRAGGING } from "pindrop";
import { placeCallout } from "./callout.js";
import { clusterRadius, focusRing, makeOverlay, paintFrame } from "./draw.js";
import { calloutEl, page, shell, ui } from "./page.js";

export const overlay = makeOverlay();

export function draw(t) {
  const t0 = performance.now();
  const m = page.map;
  const ctx = overlay.begin();
  const clusters = m.clusters(t);
  const frame = m.frame(t);
  const badges = paintFrame(ctx, clusters, frame, clusterColour(clusters));
  page.drawnStacks = badges.map((b) => ({ key: clusters.key[b.i], x: clusters.x[b.i], y: clusters.y[b.i],
    size: clusters.size[b.i], label: b.label, font: b.font, radius: b.radius, textWidth: b.textWidth }));

  const drawnClusters = [];
  let members = 0;
  for (let i = 0; i < clusters.count; i++) {
    members += clusters.size[i];
    drawnClusters.push({ key: clusters.key[i], x: clusters.x[i], y: clusters.y[i], lon: clusters.lon[i],
      lat: clusters.lat[i], size: clusters.size[i], flags: clusters.flags[i] });
  }
  const drawnPins = [];
  const keep = frame.count <= 5000;
  let calloutAt = null;
  ui.animating = false;
  for (let i = 0; i < frame.count; i++) {
    const id = frame.id[i], x = frame.x[i], y = frame.y[i], lift = frame.lift[i], flags = frame.flags[i];
    if (keep) drawnPins.push({ id, x, y, anchorX: frame.anchorX[i], anchorY: frame.anchorY[i], lift, flags });
    if (id === page.selected) calloutAt = [x, y, lift];
    // A lift, a drop or a glide (a cancel, a tap-to-move) still under way, or a held pin.
    if (flags & (PIN_ANIMATING | PIN_DRAGGING)) ui.animating = true;
  }
  page.drawnClusters = drawnClusters;
  const focus = page.focus;
  if (focus && focus.kind === "cluster") {
    const c = drawnClusters.find((k) => k.key === focus.key);
    if (c) focusRing(ctx, c.x, c.y, clusterRadius(c.size) + 9);
  }
  if (ui.dragText !== null) { calloutEl.querySelector(".callout-subtitle").textContent = ui.dragText; ui.dragText = null; }
  placeCallout(calloutAt);
  page.drawnPins = drawnPins;
  page.drawn = { pins: frame.count, clusters: clusters.count, clusterMembers: members, ms: performance.now() - t0, at: t };
  if (m.nextDeadline() < Infinity) ui.animating = true;
}

// A cluster's colour by its members' dominant category (behaviour 19): a hue
// per category, pale when the first category holds less than half of the members.
function clusterColour(clusters) {
  const m = page.map;
  return (i) => {
    let cats;
    try { cats = m.clusterCategories(clusters.key[i]); } catch (_) { return null; }
    if (!cats.category.length) return null;
    const cat = cats.category[0], count = cats.count[0];
    const hue = (cat * 137.508) % 360, share = count / clusters.size[i];
    const sat = share >= 0.5 ? 65 : 30;
    return [`hsla(${hue},${sat}%,60%,.45)`, `hsla(${hue},${sat}%,50%,.9)`];
  };
}

// What a drawn cluster holds, in words: its trees, its commonest category, "all on one spot".
export function describeCluster(c) {
  const m = page.map;
  let text = `${c.size.toLocaleString("en-US")} trees`;
  try {
    const cats = m.clusterCategories(c.key);
    const kinds = cats.category.length;
    if (kinds) {
      const cat = cats.category[0], n = cats.count[0];
      text += kinds === 1 ? ` · all ${page.trees.categoryName(cat)}`
        : ` · ${Math.round((100 * n) / c.size)}% ${page.trees.categoryName(cat)} · ${kinds} ${page.trees.categoryKind}`;
    }
    const sum = m.clusterSummary(c.key);
    if (sum && (sum.flags & CLUSTER_ONE_SPOT)) text += " · all on one spot";
  } catch (_) { /* a key gone stale since the drawing */ }
  if (c.flags & CLUSTER_STACK) text += " · tap to open";
  return text;
}

// A tooltip over the cluster under a hovering mouse.
export const tipEl = document.createElement("div");
tipEl.className = "cluster-tip"; tipEl.hidden = true;
shell.appendChild(tipEl);
export function hoverTip(x, y) {
  const c = page.drawnClusters.find((k) => Math.hypot(k.x - x, k.y - y) <= clusterRadius(k.size) + 5);
  if (!c) { tipEl.hidden = true; return; }
  tipEl.textContent = describeCluster(c);
  tipEl.style.left = c.x + "px"; tipEl.style.top = c.y + "px";
  tipEl.hidden = false;
}
