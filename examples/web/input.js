// Input: pointer events (mouse, touch and pen alike) handed to pindrop on the capture phase, so
// that a gesture pindrop owns never reaches Leaflet; the keys (Esc, undo and redo, arrows, the
// keyboard focus and drag); and the panel's and the callout's buttons.

import { CLUSTER_STACK } from "pindrop";
import { fillCallout } from "./callout.js";
import { drain, zoomIntoCluster } from "./events.js";
import { createMap, scheduleTick } from "./host.js";
import { announce, calloutEl, mapEl, now, page, shell, treeTitle, tryCall, ui } from "./page.js";
import { describeCluster, hoverTip, tipEl } from "./view.js";

/** Installs the page's listeners (once, when the page starts). */
export function listen() {
  for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
    shell.addEventListener(type, onPointer, { capture: true });
  }
  // The compatibility mouse and touch events of a gesture pindrop owns never reach Leaflet either.
  for (const type of ["mousedown", "touchstart", "touchmove", "touchend", "dblclick"]) {
    shell.addEventListener(type, (e) => { if (gestureUnderWay() && mapEl.contains(e.target)) e.stopPropagation(); }, { capture: true });
  }
  document.addEventListener("keydown", onKey, { capture: true });
  listenToButtons();
}

function localXY(e) {
  const r = mapEl.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}
const kindOf = (e) => (e.pointerType === "mouse" ? "mouse" : "touch");
const gestureUnderWay = () => [...page.pointers.values()].some((p) => !p.leaflet);

function onPointer(e) {
  if (!page.ready || !mapEl.contains(e.target)) return;
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
    try { owned = page.map.touch(e.pointerId, "down", x, y, page.lastDownAt); } catch (err) {
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
    try { owned = page.map.touch(e.pointerId, phase, x, y, now()); } catch (err) { console.warn("touch", err); }
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
  ui.dirty = true;
}

function onKey(e) {
  if (!page.ready) return;
  if (e.target instanceof HTMLInputElement) return;
  const m = page.map, t = now();
  const mod = e.ctrlKey || e.metaKey;
  let handled = true;
  if (e.key === "Escape") {
    if (gestureUnderWay() || keyboardDrag) {
      tryCall(() => m.cancelGesture(t), "");
      keyboardDrag = false;
    } else if (page.editing !== null) {
      cancelEditing(m, t);
    } else {
      tryCall(() => m.cancelGesture(t), "");  // closes an open stack
    }
  } else if (mod && (e.key === "z" || e.key === "Z") && !e.shiftKey) {
    tryCall(() => m.undo(t), "Nothing to undo");
  } else if (mod && ((e.key === "z" || e.key === "Z") && e.shiftKey || e.key === "y")) {
    tryCall(() => m.redo(t), "Nothing to redo");
  } else if (e.key.startsWith("Arrow") && page.selected !== null && !mod) {
    const step = e.shiftKey ? 10 : 1;
    const [dx, dy] = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    tryCall(() => m.nudge(dx, dy, t), "This tree cannot be nudged now");
  } else if (keyHandlers(e, m, t)) {
    // keyboard focus and keyboard drag
  } else {
    handled = false;
  }
  if (handled) { e.preventDefault(); e.stopPropagation(); drain(); scheduleTick(); ui.dirty = true; }
}

// Keyboard lift and drop and the focus walk (behaviour 20): Tab / Shift+Tab move the focus through
// what is drawn, L or Alt+Space lifts the selected (focused) pin, Space or Enter drops it.
// Alt+Space opens the window menu on Windows and in GNOME, XFCE and some KDE setups, which take it
// before the browser does; no window manager takes a plain L.
function isLiftKey(e) {
  if (e.key === "l" || e.key === "L") return !e.ctrlKey && !e.altKey && !e.metaKey;
  return e.key === " " && e.altKey;
}
let keyboardDrag = false;
function keyHandlers(e, m, t) {
  if (e.key === "Tab" && mapEl.contains(document.activeElement)) {
    const focus = page.focus = m.focusStep(e.shiftKey ? -1 : 1);
    if (focus.kind === "pin") {
      tryCall(() => m.select(focus.id), "");
      announce(`${treeTitle(focus.id)} — L lifts it, arrows nudge it`);
    } else if (focus.kind === "cluster") {
      const c = page.drawnClusters.find((k) => k.key === focus.key);
      const stack = c && (c.flags & CLUSTER_STACK);
      announce(c ? `${stack ? "Stack" : "Cluster"}: ${describeCluster(c)} — Enter ${stack ? "opens it" : "zooms in"}`
        : "A cluster — Enter zooms in");
    }
    return true;
  }
  if (isLiftKey(e) && page.selected !== null) {
    if (tryCall(() => m.keyLift(t), "Select a tree first")) keyboardDrag = true;
    return true;
  }
  if ((e.key === " " || e.key === "Enter") && keyboardDrag) {
    tryCall(() => m.keyDrop(t), "");
    keyboardDrag = false;
    return true;
  }
  const focus = page.focus;
  if (e.key === "Enter" && focus && focus.kind === "cluster") {
    const c = page.drawnClusters.find((k) => k.key === focus.key);
    if (c && (c.flags & CLUSTER_STACK)) tryCall(() => m.openStack(c.key, t), "This stack cannot be opened now");
    else zoomIntoCluster({ request: focus.key, lon: c ? c.lon : page.camera.centerLon, lat: c ? c.lat : page.camera.centerLat });
    return true;
  }
  return false;
}

// An edit ends without keeping it: a tree placed on the page goes away, an edited one goes back.
function cancelEditing(m, t) {
  const id = page.editing;
  tryCall(() => m.cancelEdit(t), "");
  if (page.trees.rowOf(id) < 0) {
    page.added.delete(id);
    if (page.selected === id) page.selected = null;
  }
  page.editing = null; fillCallout(); announce("Editing cancelled");
}

// ---- buttons ----------------------------------------------------------------------------------
function listenToButtons() {
  document.getElementById("undo").onclick = () => { tryCall(() => page.map.undo(now()), "Nothing to undo"); drain(); };
  document.getElementById("redo").onclick = () => { tryCall(() => page.map.redo(now()), "Nothing to redo"); drain(); };
  document.getElementById("add").onclick = () => {
    const id = ui.nextNewId++;
    const cam = page.camera;
    if (tryCall(() => page.map.place(id, cam.centerLon, cam.centerLat, now()), "Finish the tree being edited first")) {
      page.editing = id;
      drain();
      tryCall(() => page.map.select(id), "");
      drain();
      announce(`New tree #${id} placed at the centre: tap the map to move it, then Done`);
      fillCallout();
    }
  };
  for (const el of [calloutEl, document.getElementById("editing-row")]) {
    el.addEventListener("click", (e) => { if (e.target.dataset && e.target.dataset.act) editAction(e.target.dataset.act); });
  }
  // Pointer events on the callout and the panel stay theirs.
  for (const el of [calloutEl, document.getElementById("panel")]) {
    for (const type of ["pointerdown", "mousedown", "touchstart", "dblclick", "wheel"]) {
      el.addEventListener(type, (e) => e.stopPropagation());
    }
  }
}

// The edit's buttons, in the callout and (Done, Cancel) in the panel: each names its action.
function editAction(act) {
  const m = page.map, t = now();
  if (act === "edit" && page.selected !== null) {
    if (tryCall(() => m.edit(page.selected, t), "Finish the tree being edited first")) {
      page.editing = page.selected;
      announce(`Editing ${treeTitle(page.selected)}: drag it or tap where it should go, then Done`);
    }
  } else if (act === "commit") {
    tryCall(() => m.commit(t), ""); page.editing = null; announce("Saved");
  } else if (act === "cancel-edit") {
    cancelEditing(m, t);
  }
  drain(); fillCallout(); ui.dirty = true;
}
