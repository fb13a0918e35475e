// The Leaflet host of pindrop: Leaflet draws nothing but an empty map (or the tiles of ?tiles=URL)
// and owns pans and zooms; pindrop decides what every pointer means, and one canvas over the map
// draws what pindrop's frame() and clusters() say, pins and clusters alike (no DOM marker per pin).
//
// URL parameters: ?data=lawndale (default, bundled) | la (the 916k LA trees), ?input=mouse|touch
// (default: the device's primary pointer), ?tiles=URL (an {z}/{x}/{y} tile server of your own),
// ?spread=spiral|ring|off (how trees sharing a spot are drawn), ?stacks=spread (always spread),
// ?lat=&lon=&zoom= (the first view).

import * as pd from "./pindrop-host.js";
import { paintFrame, focusRing, clusterRadius, makeOverlay, cameraOf } from "./draw.js";

const params = new URLSearchParams(location.search);
const mapEl = document.getElementById("map");
const shell = document.getElementById("shell");
const calloutEl = document.getElementById("callout");
const liveEl = document.getElementById("live");
const statusEl = document.getElementById("status");

// ---- the page's state, readable by tests (window.pindropPage) ----------------------------------
const page = {
  ready: false, error: null,
  profile: params.get("input") || (matchMedia("(pointer: coarse)").matches ? "touch" : "mouse"),
  dataset: params.get("data") || "lawndale",
  map: null,            // the pindrop Map
  leaflet: null,        // the L.Map
  trees: null,          // { ids: Float64Array, lonlat: Float64Array, index: Map id -> row, label(row) }
  selected: null, editing: null,
  lastDragged: null,    // { id, lon, lat } of the last DRAGGED event
  lastMoved: null,      // the last MOVED event
  events: [],           // every event, in order (plain objects)
  announcements: [],    // what the live region said
  drawn: { pins: 0, clusters: 0, clusterMembers: 0, ms: 0, at: 0 },
  drawnClusters: [],    // [{ key, x, y, lon, lat, count, flags }] of the last drawing
  drawnPins: [],        // [{ id, x, y, ax, ay, lift, flags }] of the last drawing (up to 5000)
  drawnStacks: [],      // [{ key, x, y, count, label, font, radius, textWidth }]: collapsed stacks' badges as drawn
  camera: null,
  pointers: new Map(),  // pointerId -> { owned, leaflet, x, y }
  added: new Map(),     // id -> [lon, lat] of the trees placed on the page
};
page.pd = pd;
window.pindropPage = page;

// ---- time: one monotonic clock for every call (pindrop refuses time that goes back) -----------
let lastTime = 0;
function now() {
  const t = performance.now();
  if (t > lastTime) lastTime = t;
  return lastTime;
}

// ---- the data ----------------------------------------------------------------------------------
async function loadTrees(which) {
  if (which === "la") {
    const res = await fetch("/data/la_trees.csv");
    if (!res.ok) throw new Error("the LA trees are not here (../shared/data/la_trees.csv): try ?data=lawndale");
    const text = await res.text();
    // city,idx,lat,lon ; id = the row number (0 .. 916,113)
    const n = countLines(text) - 1;
    const ids = new Float64Array(n), lonlat = new Float64Array(2 * n), city = new Uint16Array(n);
    const cities = [], cityIndex = new Map();
    let pos = text.indexOf("\n") + 1, row = 0;
    while (pos < text.length && row < n) {
      let end = text.indexOf("\n", pos);
      if (end < 0) end = text.length;
      const c1 = text.indexOf(",", pos), c2 = text.indexOf(",", c1 + 1), c3 = text.indexOf(",", c2 + 1);
      const name = text.slice(pos, c1);
      let ci = cityIndex.get(name);
      if (ci === undefined) { ci = cities.length; cities.push(name); cityIndex.set(name, ci); }
      ids[row] = row;
      lonlat[2 * row + 1] = +text.slice(c2 + 1, c3);
      lonlat[2 * row] = +text.slice(c3 + 1, end);
      city[row] = ci;
      row++;
      pos = end + 1;
    }
    const pretty = (s) => s.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
    return {
      name: `LA county street trees (${n.toLocaleString("en-US")})`, ids, lonlat, count: n,
      categories: Uint32Array.from(city), categoryName: (c) => pretty(cities[c]), categoryKind: "cities",
      rowOf: (id) => (Number.isInteger(id) && id >= 0 && id < n ? id : -1),
      title: (row) => `Tree #${row} · ${pretty(cities[city[row]])}`,
      place: (row) => pretty(cities[city[row]]),
      center: [34.0219, -118.4814], zoom: 10,
    };
  }
  const res = await fetch("/data/lawndale_trees.csv");
  if (!res.ok) throw new Error("examples/data/lawndale_trees.csv is missing");
  const lines = (await res.text()).split("\n").slice(1).filter((l) => l.length > 0);
  const n = lines.length;
  const ids = new Float64Array(n), lonlat = new Float64Array(2 * n), species = new Array(n);
  const rows = new Map(), categories = new Uint32Array(n), speciesIndex = new Map(), speciesNames = [];
  lines.forEach((line, i) => {
    const [id, lon, lat, sp] = line.split(",");
    ids[i] = +id; lonlat[2 * i] = +lon; lonlat[2 * i + 1] = +lat; species[i] = sp || "unknown species";
    rows.set(+id, i);
    let c = speciesIndex.get(species[i]);
    if (c === undefined) { c = speciesNames.length; speciesNames.push(species[i]); speciesIndex.set(species[i], c); }
    categories[i] = c;
  });
  return {
    name: `Lawndale street trees (${n.toLocaleString("en-US")})`, ids, lonlat, count: n,
    categories, categoryName: (c) => speciesNames[c] ?? "mixed", categoryKind: "species",
    rowOf: (id) => rows.get(id) ?? -1,
    title: (row) => `${species[row]} #${ids[row]}`,
    place: () => "Lawndale",
    center: [33.8872, -118.3526], zoom: 15,
  };
}

function countLines(text) {
  let n = 0, i = -1;
  while ((i = text.indexOf("\n", i + 1)) >= 0) n++;
  if (text.length && text[text.length - 1] !== "\n") n++;
  return n;
}

// ---- the pindrop map --------------------------------------------------------------------------
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

let nextNewId = 0;
function createMap(profile) {
  if (page.map) page.map.dispose();
  // Stacks collapsed until tapped (behaviour 22), as Leaflet.markercluster spiderfies, unless
  // ?stacks=spread asks for them always spread.
  const m = pd.createMap({ ...optionsFor(profile), spreadOnTap: params.get("stacks") !== "spread" });
  pd.addMany(m, page.trees.ids, page.trees.lonlat);
  for (const [id, [lon, lat]] of page.added) pd.add(m, id, lon, lat);   // trees placed on the page
  // The species (Lawndale) or the city (LA) as the pins' category: clusters say what they hold.
  m.setAttributes(page.trees.ids, null, page.trees.categories);
  page.map = m;
  page.profile = profile;
  syncCamera();
  if (page.selected !== null) tryCall(() => pd.select(m, page.selected), "");
  if (page.ready) { drain(); draw(now()); }   // the new map's first frame: what a touch right after will hit
}

// True coordinates the page keeps (updated by MOVED): a change of input profile rebuilds the
// map from them (pindrop's options are fixed when a map is created).
function storePosition(id, lon, lat) {
  const row = page.trees.rowOf(id);
  if (row >= 0) { page.trees.lonlat[2 * row] = lon; page.trees.lonlat[2 * row + 1] = lat; }
  else page.added.set(id, [lon, lat]);
}

// ---- Leaflet and the camera -------------------------------------------------------------------
function syncCamera() {
  const L_ = page.leaflet;
  if (!L_ || !page.map) return;
  const cam = cameraOf(L_);
  pd.setCamera(page.map, cam);
  page.camera = cam;
  overlay.resize(cam.width, cam.height);
  dirty = true;
}
const overlay = makeOverlay();

// ---- drawing ----------------------------------------------------------------------------------
let dirty = true, animating = false;
let focus = null;     // the keyboard focus (behaviour 20)
let dragText = null;  // the callout's "→ lat, lon" of the latest DRAGGED, written by the next draw

function draw(t) {
  const t0 = performance.now();
  const m = page.map;
  const ctx = overlay.begin();
  const C = pd.clusters(m, t);
  const P = pd.frame(m, t);
  const badges = paintFrame(ctx, C, P, pd, clusterColour(C));
  page.drawnStacks = badges.map((b) => ({ key: C.key(b.i), x: C.x(b.i), y: C.y(b.i), count: C.count(b.i),
    label: b.label, font: b.font, radius: b.radius, textWidth: b.textWidth }));

  const drawnClusters = [];
  let members = 0;
  for (let i = 0; i < C.n; i++) {
    members += C.count(i);
    drawnClusters.push({ key: C.key(i), x: C.x(i), y: C.y(i), lon: C.lon(i), lat: C.lat(i), count: C.count(i), flags: C.flags(i) });
  }
  const drawnPins = [];
  const keep = P.n <= 5000;
  let calloutAt = null;
  animating = false;
  for (let i = 0; i < P.n; i++) {
    const id = P.id(i), lift = P.lift(i), flags = P.flags(i);
    if (keep) drawnPins.push({ id, x: P.x(i), y: P.y(i), ax: P.ax(i), ay: P.ay(i), lift, flags });
    if (id === page.selected) calloutAt = [P.x(i), P.y(i), lift];
    // A lift, a drop or a glide (a cancel, a tap-to-move) still under way, or a held pin.
    if (flags & (pd.PIN_ANIMATING | pd.PIN_DRAGGING)) animating = true;
  }
  page.drawnClusters = drawnClusters;
  if (focus && focus.kind === "cluster") {
    const c = drawnClusters.find((k) => k.key === focus.key);
    if (c) focusRing(ctx, c.x, c.y, clusterRadius(c.count) + 9);
  }
  if (dragText !== null) { calloutEl.querySelector(".callout-subtitle").textContent = dragText; dragText = null; }
  placeCallout(calloutAt);
  page.drawnPins = drawnPins;
  page.drawn = { pins: P.n, clusters: C.n, clusterMembers: members, ms: performance.now() - t0, at: t };
  if (pd.nextDeadline(m) < Infinity) animating = true;
}

// A cluster's colour by its members' dominant category (behaviour 19): a hue
// per category, pale when the first category holds less than half of the members.
function clusterColour(C) {
  const m = page.map;
  return (i) => {
    let cats;
    try { cats = pd.clusterCategories(m, C.key(i)); } catch (_) { return null; }
    if (!cats.length) return null;
    const [cat, count] = cats[0];
    const hue = (cat * 137.508) % 360, share = count / C.count(i);
    const sat = share >= 0.5 ? 65 : 30;
    return [`hsla(${hue},${sat}%,60%,.45)`, `hsla(${hue},${sat}%,50%,.9)`];
  };
}

function describeCluster(c) {
  const m = page.map;
  let text = `${c.count.toLocaleString("en-US")} trees`;
  try {
    const cats = pd.clusterCategories(m, c.key);
    if (cats.length) {
      const [cat, n] = cats[0];
      text += cats.length === 1 ? ` · all ${page.trees.categoryName(cat)}`
        : ` · ${Math.round((100 * n) / c.count)}% ${page.trees.categoryName(cat)} · ${cats.length} ${page.trees.categoryKind}`;
    }
    const sum = m.clusterSummary(c.key);
    if (sum && (sum.flags & pd.CLUSTER_ONE_SPOT)) text += " · all on one spot";
  } catch (_) { /* a key gone stale since the drawing */ }
  if (c.flags & pd.CLUSTER_STACK) text += " · tap to open";
  return text;
}

// A tooltip over the cluster under a hovering mouse.
const tipEl = document.createElement("div");
tipEl.className = "cluster-tip"; tipEl.hidden = true;
shell.appendChild(tipEl);
function hoverTip(x, y) {
  const c = page.drawnClusters.find((k) => Math.hypot(k.x - x, k.y - y) <= clusterRadius(k.count) + 5);
  if (!c) { tipEl.hidden = true; return; }
  tipEl.textContent = describeCluster(c);
  tipEl.style.left = c.x + "px"; tipEl.style.top = c.y + "px";
  tipEl.hidden = false;
}

// ---- callouts ---------------------------------------------------------------------------------
// The callout's size, measured once its text is set (fillCallout clears it), not on every frame.
let calloutSize = null;
function placeCallout(at) {
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

function fillCallout() {
  calloutSize = null;
  // The edit's Done and Cancel are in the panel too: the tree (and its callout) may be off-screen
  // after a pan or a zoom, and a phone has no Esc key.
  document.getElementById("editing-row").hidden = page.editing === null;
  dragText = null;
  const id = page.selected;
  if (id === null) { calloutEl.hidden = true; return; }
  const m = page.map;
  const title = pd.callout(m, id, "title") || treeTitle(id);
  let subtitle = pd.callout(m, id, "subtitle");
  if (!subtitle) {
    const [lon, lat] = pd.position(m, id);
    subtitle = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
  }
  calloutEl.querySelector(".callout-title").textContent = title;
  calloutEl.querySelector(".callout-subtitle").textContent = subtitle;
  const editing = page.editing === id;
  calloutEl.querySelector('[data-act="edit"]').hidden = editing;
  calloutEl.querySelector('[data-act="commit"]').hidden = !editing;
  calloutEl.querySelector('[data-act="cancel-edit"]').hidden = !editing;
}

function treeTitle(id) {
  const row = page.trees.rowOf(id);
  return row >= 0 ? page.trees.title(row) : `New tree #${id}`;
}

// The local answer to a GEOCODE_REQUEST: the nearest other tree, from pindrop's own index, and
// the place the data set names. It answers after a short wait, as a geocoding service would,
// so that an answer for a pin that moved again meanwhile is refused (stale) as it should be.
function answerGeocode(e) {
  setTimeout(() => {
    const m = page.map;
    if (!m) return;
    let text = "";
    try {
      const near = pd.nearby(m, e.lon, e.lat, 250).filter(([id]) => id !== e.id);
      const row0 = near.length ? page.trees.rowOf(near[0][0]) : -1;
      const where = row0 >= 0 ? page.trees.place(row0) : page.trees.place(0);
      text = near.length ? `${where} · ${near[0][1].toFixed(0)} m from tree #${near[0][0]}` : `${where} · no tree within 250 m`;
      const fresh = pd.answerGeocode(m, e.request, text);
      if (fresh && e.id === page.selected) fillCallout();
    } catch (err) { console.warn("geocode answer", err); }
  }, 150);
}

// ---- what happened: pindrop's events ----------------------------------------------------------
function announce(text) {
  page.announcements.push(text);
  liveEl.textContent = text;
  statusEl.textContent = text;
}

function metres(lon1, lat1, lon2, lat2) {
  const R = 6378137, r = Math.PI / 180;
  const dl = (lat2 - lat1) * r, dn = (lon2 - lon1) * r;
  const a = Math.sin(dl / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dn / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}
const fmtM = (d) => (d < 10 ? d.toFixed(1) : d.toFixed(0)) + " m";
// The compass direction of the initial bearing from one coordinate to another.
function direction(lon1, lat1, lon2, lat2) {
  const r = Math.PI / 180;
  const y = Math.sin((lon2 - lon1) * r) * Math.cos(lat2 * r);
  const x = Math.cos(lat1 * r) * Math.sin(lat2 * r) - Math.sin(lat1 * r) * Math.cos(lat2 * r) * Math.cos((lon2 - lon1) * r);
  const deg = (Math.atan2(y, x) / r + 360) % 360;
  return ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"][Math.round(deg / 45) % 8];
}

function drain() {
  const m = page.map;
  let droppedId = null, movedAfterDrop = false;
  for (const e of pd.events(m)) {
    page.events.push(e);
    dirty = true;
    switch (e.type) {
      case "SELECTED":
        page.selected = e.id;
        if (!pd.callout(m, e.id, "title")) tryCall(() => pd.setTitle(m, e.id, treeTitle(e.id)), "");
        fillCallout(); announce(`Selected ${treeTitle(e.id)}`);
        break;
      case "DESELECTED": if (page.selected === e.id) page.selected = null; fillCallout(); break;
      case "LIFTED": announce(`Lifted ${treeTitle(e.id)}`); break;
      case "DRAGGED":
        page.lastDragged = { id: e.id, lon: e.lon, lat: e.lat };
        if (e.id === page.selected) {   // the callout shows where the tree would land now (drawn
          // with the next frame: a write per pointer event would make the next event's
          // getBoundingClientRect lay the page out again, 100-200 µs each)
          dragText = `→ ${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}`;
        }
        break;
      case "DROPPED": droppedId = e.id; break;
      case "DRAG_CANCELLED": storePosition(e.id, e.lon, e.lat); if (e.id === page.selected) fillCallout(); announce(`Move cancelled: ${treeTitle(e.id)} is back where it was`); break;
      case "MOVED": {
        page.lastMoved = e;
        if (e.id === droppedId) movedAfterDrop = true;
        storePosition(e.id, e.lon, e.lat);
        const d = metres(e.fromLon, e.fromLat, e.lon, e.lat);
        const what = treeTitle(e.id);
        const how = { DRAG: "Dropped", TAP: "Moved", PLACE: "Placed", NUDGE: "Nudged", SNAP: "Snapped",
                      KEYBOARD: "Dropped", UNDO: "Undone:", REDO: "Redone:" }[e.cause] || "Moved";
        if (e.cause === "UNDO") announce(`Undone: ${what} is back where it was, ${fmtM(d)} away`);
        else if (e.cause === "PLACE") announce(`Placed ${what}`);
        else announce(`${how} ${what}: moved ${fmtM(d)}${d > 0 ? " " + direction(e.fromLon, e.fromLat, e.lon, e.lat) : ""}`);
        if (e.id === page.selected) fillCallout();
        break;
      }
      case "GEOCODE_REQUEST": answerGeocode(e); break;
      case "CALLOUT_CHANGED": if (e.id === page.selected) fillCallout(); break;
      case "NEARBY": announce(`${page.announcements.at(-1) || ""} — tree #${e.other} is ${fmtM(e.distanceM)} away: is it already on the map?`); break;
      case "AUTOPAN": page.leaflet.panBy([e.dx, e.dy], { animate: false }); break;
      case "CLUSTER_TAPPED": zoomIntoCluster(e); break;
      case "STACK_OPENED": {
        const c = page.drawnClusters.find((k) => k.key === e.request);
        announce(`Opened a stack of ${c ? c.count + " trees" : "trees"} sharing one spot: each can be dragged out`);
        break;
      }
      case "STACK_CLOSED": announce("Closed the stack"); break;
      default: break;
    }
  }
  if (droppedId !== null && !movedAfterDrop) announce(`Dropped ${treeTitle(droppedId)} where it was`);
}

function zoomIntoCluster(e) {
  const m = page.map;
  let zoom;
  try { zoom = pd.clusterExpansionZoom(m, e.request); } catch (err) { zoom = page.leaflet.getZoom() + 2; }
  const c = page.drawnClusters.find((k) => k.key === e.request);
  const target = Math.min(Math.max(zoom, page.leaflet.getZoom() + 0.5), page.leaflet.getMaxZoom());
  page.leaflet.setView([e.lat, e.lon], target, { animate: false });
  announce(`Zoomed in to ${c ? c.count.toLocaleString("en-US") + " trees" : "a cluster"} (zoom ${target.toFixed(1)})`);
}

// ---- input: pointer events for mouse, touch and pen -------------------------------------------
function localXY(e) {
  const r = mapEl.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}
const kindOf = (e) => (e.pointerType === "mouse" ? "mouse" : "touch");
const gestureUnderWay = () => [...page.pointers.values()].some((p) => !p.leaflet);

function onPointer(e) {
  if (!page.ready || !mapEl.contains(e.target)) return;
  const m = page.map;
  const [x, y] = localXY(e);
  const phase = { pointerdown: "down", pointermove: "move", pointerup: "up", pointercancel: "cancel" }[e.type];
  let st = page.pointers.get(e.pointerId);
  if (phase === "down") {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (page.pointers.size === 0 && kindOf(e) !== page.profile && page.editing === null) {
      createMap(kindOf(e));  // pindrop's options are the map's: a hybrid device changes profile here
      announce(`${kindOf(e) === "touch" ? "Touch" : "Mouse"} input: ${kindOf(e) === "touch" ? "press and hold a tree to lift it" : "drag a tree to move it"}`);
    }
    let owned = false;
    page.lastDownAt = now();
    try { owned = pd.touch(page.map, e.pointerId, "down", x, y, page.lastDownAt); } catch (err) {
      announce(err.name === "StateError" ? "Drop the tree being moved with the keyboard first (Space or Enter)" : err.message);
    }
    st = { owned, leaflet: !owned, x, y };
    page.pointers.set(e.pointerId, st);
    if (owned) {
      e.stopPropagation(); e.preventDefault();
      try { mapEl.setPointerCapture(e.pointerId); } catch (_) { /* synthetic pointers */ }
    }
  } else {
    if (!st) {                   // a hover is not a touch
      if (phase === "move" && e.pointerType === "mouse") hoverTip(x, y);
      return;
    }
    if (!tipEl.hidden) tipEl.hidden = true;   // (setting it again would restyle the page)
    let owned = false;
    try { owned = pd.touch(page.map, e.pointerId, phase, x, y, now()); } catch (err) { console.warn("touch", err); }
    if (!st.leaflet) {
      e.stopPropagation(); e.preventDefault();
      // pindrop gave the gesture back (a finger that moved before the hold lifted): pan by hand,
      // since Leaflet never saw this pointer go down.
      if (phase === "move" && !owned) page.leaflet.panBy([st.x - x, st.y - y], { animate: false });
    }
    st.x = x; st.y = y;
    if (phase === "up" || phase === "cancel") page.pointers.delete(e.pointerId);
  }
  drain();
  scheduleTick();
  dirty = true;
}
for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
  shell.addEventListener(type, onPointer, { capture: true });
}
// The compatibility mouse and touch events of a gesture pindrop owns never reach Leaflet either.
for (const type of ["mousedown", "touchstart", "touchmove", "touchend", "dblclick"]) {
  shell.addEventListener(type, (e) => { if (gestureUnderWay() && mapEl.contains(e.target)) e.stopPropagation(); }, { capture: true });
}

// ---- keys -------------------------------------------------------------------------------------
function tryCall(f, failText) {
  try { f(); return true; } catch (err) {
    if (err && err.name && /Pindrop|State|NotFound|Error/.test(err.name) && failText) announce(failText);
    else if (failText === undefined) throw err;
    return false;
  }
}

document.addEventListener("keydown", (e) => {
  if (!page.ready) return;
  if (e.target instanceof HTMLInputElement) return;
  const m = page.map, t = now();
  const mod = e.ctrlKey || e.metaKey;
  let handled = true;
  if (e.key === "Escape") {
    if (gestureUnderWay() || keyboardDrag) {
      tryCall(() => pd.cancelGesture(m, t), "");
      keyboardDrag = false;
    } else if (page.editing !== null) {
      cancelEditing(m, t);
    } else {
      tryCall(() => pd.cancelGesture(m, t), "");  // closes an open stack
    }
  } else if (mod && (e.key === "z" || e.key === "Z") && !e.shiftKey) {
    tryCall(() => pd.undo(m, t), "Nothing to undo");
  } else if (mod && ((e.key === "z" || e.key === "Z") && e.shiftKey || e.key === "y")) {
    tryCall(() => pd.redo(m, t), "Nothing to redo");
  } else if (e.key.startsWith("Arrow") && page.selected !== null && !mod) {
    const step = e.shiftKey ? 10 : 1;
    const [dx, dy] = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    tryCall(() => pd.nudge(m, dx, dy, t), "This tree cannot be nudged now");
  } else if (keyHandlers(e, m, t)) {
    // keyboard focus and keyboard drag
  } else {
    handled = false;
  }
  if (handled) { e.preventDefault(); e.stopPropagation(); drain(); scheduleTick(); dirty = true; }
}, { capture: true });

// Keyboard lift and drop and the focus walk (behaviour 20): Tab / Shift+Tab move the focus through
// what is drawn, Alt+Space lifts the selected (focused) pin, Space or Enter drops it.
let keyboardDrag = false;
function keyHandlers(e, m, t) {
  if (e.key === "Tab" && mapEl.contains(document.activeElement)) {
    focus = page.focus = m.focusStep(e.shiftKey ? -1 : 1);
    if (focus.kind === "pin") {
      tryCall(() => pd.select(m, focus.id), "");
      announce(`${treeTitle(focus.id)} — Alt+Space lifts it, arrows nudge it`);
    } else if (focus.kind === "cluster") {
      const c = page.drawnClusters.find((k) => k.key === focus.key);
      const stack = c && (c.flags & pd.CLUSTER_STACK);
      announce(c ? `${stack ? "Stack" : "Cluster"}: ${describeCluster(c)} — Enter ${stack ? "opens it" : "zooms in"}`
        : "A cluster — Enter zooms in");
    }
    return true;
  }
  if (e.key === " " && e.altKey && page.selected !== null) {
    if (tryCall(() => m.keyLift(t), "Select a tree first")) keyboardDrag = true;
    return true;
  }
  if ((e.key === " " || e.key === "Enter") && keyboardDrag) {
    tryCall(() => m.keyDrop(t), "");
    keyboardDrag = false;
    return true;
  }
  if (e.key === "Enter" && focus && focus.kind === "cluster") {
    const c = page.drawnClusters.find((k) => k.key === focus.key);
    if (c && (c.flags & pd.CLUSTER_STACK)) tryCall(() => m.openStack(c.key, t), "This stack cannot be opened now");
    else zoomIntoCluster({ request: focus.key, lon: c ? c.lon : page.camera.centerLon, lat: c ? c.lat : page.camera.centerLat });
    return true;
  }
  return false;
}

// An edit ends without keeping it: a tree placed on the page goes away, an edited one goes back.
function cancelEditing(m, t) {
  const id = page.editing;
  tryCall(() => pd.cancelEdit(m, t), "");
  if (page.trees.rowOf(id) < 0) {
    page.added.delete(id);
    if (page.selected === id) page.selected = null;
  }
  page.editing = null; fillCallout(); announce("Editing cancelled");
}

// ---- buttons ----------------------------------------------------------------------------------
document.getElementById("undo").onclick = () => { tryCall(() => pd.undo(page.map, now()), "Nothing to undo"); drain(); };
document.getElementById("redo").onclick = () => { tryCall(() => pd.redo(page.map, now()), "Nothing to redo"); drain(); };
document.getElementById("add").onclick = () => {
  const id = nextNewId++;
  const cam = page.camera;
  if (tryCall(() => pd.place(page.map, id, cam.centerLon, cam.centerLat, now()), "Finish the tree being edited first")) {
    page.editing = id;
    drain();
    tryCall(() => pd.select(page.map, id), "");
    drain();
    announce(`New tree #${id} placed at the centre: tap the map to move it, then Done`);
    fillCallout();
  }
};
// The edit's buttons, in the callout and (Done, Cancel) in the panel: each names its action.
function editAction(act) {
  const m = page.map, t = now();
  if (act === "edit" && page.selected !== null) {
    if (tryCall(() => pd.edit(m, page.selected, t), "Finish the tree being edited first")) {
      page.editing = page.selected;
      announce(`Editing ${treeTitle(page.selected)}: drag it or tap where it should go, then Done`);
    }
  } else if (act === "commit") {
    tryCall(() => pd.commit(m, t), ""); page.editing = null; announce("Saved");
  } else if (act === "cancel-edit") {
    cancelEditing(m, t);
  }
  drain(); fillCallout(); dirty = true;
}
for (const el of [calloutEl, document.getElementById("editing-row")]) {
  el.addEventListener("click", (e) => { if (e.target.dataset && e.target.dataset.act) editAction(e.target.dataset.act); });
}
// Pointer events on the callout and the panel stay theirs.
for (const el of [calloutEl, document.getElementById("panel")]) {
  for (const type of ["pointerdown", "mousedown", "touchstart", "dblclick", "wheel"]) {
    el.addEventListener(type, (e) => e.stopPropagation());
  }
}

// ---- the clock: ticks at pindrop's deadlines, drawing when something changed or moves ----------
let tickTimer = 0;
function scheduleTick() {
  if (!page.map) return;
  const d = pd.nextDeadline(page.map);
  clearTimeout(tickTimer);
  if (d < Infinity) tickTimer = setTimeout(onTick, Math.max(0, d - performance.now()) + 1);
}
function onTick() {
  const t = now();
  if (pd.nextDeadline(page.map) <= t) { pd.tick(page.map, t); drain(); }
  scheduleTick();
  dirty = true;
}
function loop() {
  if (page.ready) {
    const t = now();
    if (pd.nextDeadline(page.map) <= t) { pd.tick(page.map, t); drain(); scheduleTick(); }
    if (dirty || animating) { dirty = false; draw(t); }
  }
  requestAnimationFrame(loop);
}

// ---- start ------------------------------------------------------------------------------------
async function start() {
  await pd.init();
  page.trees = await loadTrees(page.dataset);
  document.getElementById("dataset").textContent = page.trees.name;
  let maxId = 0;
  for (const v of page.trees.ids) if (v > maxId) maxId = v;
  nextNewId = maxId + 1;

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
