// The page's pindrop map: its options for the input profile (mouse or touch), building it from the
// trees the page keeps, the camera Leaflet's view gives it, and the clock that ticks it at its
// deadlines and draws when something changed or moves.

import * as pindrop from "pindrop";
import { cameraOf } from "./draw.js";
import { drain } from "./events.js";
import { now, page, params, tryCall, ui } from "./page.js";
import { draw, overlay } from "./view.js";

function optionsFor(profile) {
  const mouse = profile === "mouse";
  return {
    hitRadius: mouse ? 12 : 22,
    dragThreshold: mouse ? 3 : 8,    // touch: Android's touch slop (8 dp); a held finger wobbles
    liftDelayMs: mouse ? 0 : 250,    // mouse: drag at once; touch: press and hold
    liftHeight: mouse ? 0 : 40,      // touch: the pin marks a point above the finger
    clusterRadius: 60,
    clusterMaxZoom: 17,
    spreadMode: ["ring", "spiral", "off"].includes(params.get("spread")) ? params.get("spread") : "spiral",
    spreadSpacing: 25,
    minSpacingM: 1,
  };
}

// A new map for the input profile (pindrop's options are fixed when a map is created: a hybrid
// device's first touch after the mouse, or the reverse, builds the map again from the true
// positions the page keeps).
export function createMap(profile) {
  if (page.map) page.map.dispose();
  // Stacks collapsed until tapped (behaviour 22), as Leaflet.markercluster spiderfies, unless
  // ?stacks=spread asks for them always spread.
  const m = new pindrop.Map({ ...optionsFor(profile), spreadOnTap: params.get("stacks") !== "spread" });
  m.addMany(page.trees.ids, page.trees.lonlat);
  for (const [id, [lon, lat]] of page.added) m.add(id, lon, lat);   // trees placed on the page
  // The species (Lawndale) or the city (LA) as the pins' category: clusters say what they hold.
  m.setAttributes(page.trees.ids, null, page.trees.categories);
  page.map = m;
  page.profile = profile;
  syncCamera();
  if (page.selected !== null) tryCall(() => m.select(page.selected), "");
  if (page.ready) { drain(); draw(now()); }   // the new map's first frame: what a touch right after will hit
}

// ---- Leaflet and the camera -------------------------------------------------------------------
export function syncCamera() {
  const L_ = page.leaflet;
  if (!L_ || !page.map) return;
  const cam = cameraOf(L_);
  page.map.setCamera(cam);
  page.camera = cam;
  overlay.resize(cam.width, cam.height);
  ui.dirty = true;
}

// ---- the clock: ticks at pindrop's deadlines, drawing when something changed or moves ----------
let tickTimer = 0;
export function scheduleTick() {
  if (!page.map) return;
  const d = page.map.nextDeadline();
  clearTimeout(tickTimer);
  if (d < Infinity) tickTimer = setTimeout(onTick, Math.max(0, d - performance.now()) + 1);
}
function onTick() {
  const t = now();
  if (page.map.nextDeadline() <= t) { page.map.tick(t); drain(); }
  scheduleTick();
  ui.dirty = true;
}
// The animation frame loop (started once the page is ready).
export function loop() {
  if (page.ready) {
    const t = now();
    if (page.map.nextDeadline() <= t) { page.map.tick(t); drain(); scheduleTick(); }
    if (ui.dirty || ui.animating) { ui.dirty = false; draw(t); }
  }
  requestAnimationFrame(loop);
}
