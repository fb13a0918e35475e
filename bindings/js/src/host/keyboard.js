// The keyboard: Esc, undo and redo, arrows that nudge the selected pin, and the keyboard path
// through the map (behaviour 20): with the map's container focused, Tab / Shift+Tab walk the
// drawn pins and clusters in reading order, L (or Alt+Space) lifts the focused pin, the arrows
// move it, Space or Enter drops it, Esc puts it back; Enter on a cluster zooms into it, on a
// collapsed stack opens it. Each step is announced in the ARIA live region.
//
// No keyboard trap: Tab on the last item (Shift+Tab on the first) is left to the browser, which
// moves the focus out of the map; so is every key while the focus is in the map's own controls
// (zoom buttons, attribution links) or in a text field. Keys reach the host when the focus is
// on the container or inside it, or on the page's body (a click on a pin does not focus the
// container: pindrop takes the press), and Esc always while a gesture is under way.

import { CLUSTER_STACK } from "../tables.js";

function isEditable(el) {
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName || ""));
}

/** L, or Alt+Space (which Windows and some Linux desktops take for the window menu before the
 *  browser sees it). */
export function isLiftKey(e) {
  if (e.key === "l" || e.key === "L") return !e.ctrlKey && !e.altKey && !e.metaKey;
  return e.key === " " && e.altKey;
}

export class KeyboardRouter {
  constructor(host) {
    this.host = host;
    this.keyboardDrag = false;   // a pin lifted by keyboard, not yet dropped
    this.fresh = true;           // the focus came to the container since the last Tab step
    this.onKey = this.onKey.bind(this);
    this.onFocus = this.onFocus.bind(this);
  }

  attach(container) {
    this.container = container;
    if (container.tabIndex < 0) container.tabIndex = 0;
    container.addEventListener("focus", this.onFocus);
    container.ownerDocument.addEventListener("keydown", this.onKey, { capture: true });
  }

  detach() {
    if (!this.container) return;
    this.container.removeEventListener("focus", this.onFocus);
    this.container.ownerDocument.removeEventListener("keydown", this.onKey, { capture: true });
    this.container = null;
  }

  onFocus() { this.fresh = true; }

  /** Whether a key event is the host's to take (see the top of this file). */
  concerns(e) {
    const t = e.target, doc = this.container.ownerDocument;
    if (isEditable(t) || this.host.adapter.isOwnControl(t)) return false;
    if (e.key === "Escape" && (this.host.input.underWay || this.keyboardDrag)) return true;
    return t === this.container || this.container.contains(t) || t === doc.body || t === doc.documentElement || t === doc;
  }

  onKey(e) {
    const host = this.host, m = host.map;
    if (!m || !this.concerns(e)) return;
    const mod = e.ctrlKey || e.metaKey;
    let handled = true;
    if (e.key === "Escape") {
      if (host.input.underWay || this.keyboardDrag) { host.attempt((t) => m.cancelGesture(t)); this.keyboardDrag = false; }
      else if (host.editing !== null) host.cancelEdit();
      else host.attempt((t) => m.cancelGesture(t));   // closes an open stack
    } else if (mod && (e.key === "z" || e.key === "Z") && !e.shiftKey) {
      host.attempt((t) => m.undo(t), "Nothing to undo");
    } else if (mod && (((e.key === "z" || e.key === "Z") && e.shiftKey) || e.key === "y")) {
      host.attempt((t) => m.redo(t), "Nothing to redo");
    } else if (e.key.startsWith("Arrow") && host.selected !== null && !mod && !e.altKey) {
      const step = e.shiftKey ? 10 : 1;
      const [dx, dy] = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
      host.attempt((t) => m.nudge(dx, dy, t), `This ${host.itemName} cannot be moved now`);
    } else {
      handled = this.focusKeys(e, m);
    }
    if (handled) { e.preventDefault(); e.stopPropagation(); host.afterInput(); }
  }

  // Tab, the lift, the drop and Enter on a cluster: only with the container itself focused.
  focusKeys(e, m) {
    const host = this.host;
    const onContainer = e.target === this.container;
    if (e.key === "Tab" && onContainer && !e.ctrlKey && !e.altKey && !e.metaKey) {
      const back = e.shiftKey;
      const rank = m.focusRank;
      const atEnd = rank.index !== null && rank.total > 0 && (back ? rank.index === 0 : rank.index === rank.total - 1);
      if (rank.total === 0 || this.keyboardDrag || (atEnd && !this.fresh)) return false;   // the browser moves the focus on
      this.fresh = false;
      const focus = m.focusStep(back ? -1 : 1);
      host.focus = focus;
      if (focus.kind === "pin") {
        host.attempt(() => m.select(focus.id));
        host.announce(`${host.titleOf(focus.id)} — L lifts it, arrows move it`);
      } else if (focus.kind === "cluster") {
        const c = host.drawnClusters.find((k) => k.key === focus.key);
        const stack = c && (c.flags & CLUSTER_STACK);
        host.announce(c ? `${stack ? "Stack" : "Cluster"}: ${host.describeCluster(c)} — Enter ${stack ? "opens it" : "zooms in"}`
          : "A cluster — Enter zooms in");
      }
      return true;
    }
    if (isLiftKey(e) && host.selected !== null) {
      if (host.attempt((t) => m.keyLift(t), `Select a ${host.itemName} first`)) this.keyboardDrag = true;
      return true;
    }
    if ((e.key === " " || e.key === "Enter") && this.keyboardDrag) {
      host.attempt((t) => m.keyDrop(t));
      this.keyboardDrag = false;
      return true;
    }
    const focus = host.focus;
    if (e.key === "Enter" && onContainer && focus && focus.kind === "cluster") {
      const c = host.drawnClusters.find((k) => k.key === focus.key);
      if (c && (c.flags & CLUSTER_STACK)) host.attempt((t) => m.openStack(c.key, t), "This stack cannot be opened now");
      else host.clusterClicked({ request: focus.key, key: focus.key, lon: c ? c.lon : host.camera.centerLon, lat: c ? c.lat : host.camera.centerLat });
      return true;
    }
    return false;
  }
}
