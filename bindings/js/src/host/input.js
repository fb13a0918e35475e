// Pointer input (mouse, touch and pen alike) routed between pindrop and the map: every pointer
// event over the map's container is handed to pindrop first, on the capture phase, before the
// map's own handlers (which listen on the container or below it) see it. When pindrop owns the
// gesture (touch() returned true on the press), the event goes no further: the map neither pans
// nor zooms with it, and its drag-pan is off until the gesture ends. When pindrop does not own
// it, the map gets it as usual. A gesture pindrop gave back (a finger that moved before the hold
// lifted) pans the map by hand, since the map never saw that pointer go down. The compatibility
// mouse and touch events of a gesture pindrop owns are stopped too.
//
// Times are read when an event is handled (performance.now() through the host's clock), not
// taken from event.timeStamp: a press queued behind a long task (a map rebuilt for the other
// input profile) would otherwise seem to have been held for the whole task.

const PHASES = { pointerdown: "down", pointermove: "move", pointerup: "up", pointercancel: "cancel" };
const COMPAT = ["mousedown", "touchstart", "touchmove", "touchend", "dblclick"];

export const kindOf = (e) => (e.pointerType === "mouse" ? "mouse" : "touch");

export class PointerRouter {
  constructor(host) {
    this.host = host;
    this.pointers = new globalThis.Map();   // pointerId -> { owned, byMap, x, y }
    this.onPointer = this.onPointer.bind(this);
    this.onCompat = this.onCompat.bind(this);
  }

  attach(el) {
    this.el = el;
    for (const type of Object.keys(PHASES)) el.addEventListener(type, this.onPointer, { capture: true });
    for (const type of COMPAT) el.addEventListener(type, this.onCompat, { capture: true });
  }

  detach() {
    if (!this.el) return;
    for (const type of Object.keys(PHASES)) this.el.removeEventListener(type, this.onPointer, { capture: true });
    for (const type of COMPAT) this.el.removeEventListener(type, this.onCompat, { capture: true });
    this.el = null;
    this.pointers.clear();
    this.host.adapter.setDragPan(true);
  }

  /** True while a gesture pindrop owns (or gave back) is under way. */
  get underWay() {
    for (const p of this.pointers.values()) if (!p.byMap) return true;
    return false;
  }

  onCompat(e) {
    if (this.underWay && !this.host.adapter.isOwnControl(e.target)) e.stopPropagation();
  }

  onPointer(e) {
    const host = this.host;
    if (!host.map || host.adapter.isOwnControl(e.target)) return;
    const r = this.el.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    const phase = PHASES[e.type];
    let st = this.pointers.get(e.pointerId);
    if (phase === "down") {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      if (this.pointers.size === 0) host.inputKind(kindOf(e));   // may rebuild the map for the other profile
      let owned = false;
      try {
        owned = host.touch(e.pointerId, "down", x, y);
      } catch (err) {
        host.refused(err);
      }
      st = { owned, byMap: !owned, x, y };
      this.pointers.set(e.pointerId, st);
      if (owned) {
        e.stopPropagation(); e.preventDefault();
        host.adapter.setDragPan(false);
        try { this.el.setPointerCapture(e.pointerId); } catch (_) { /* a pointer the browser no longer knows */ }
      }
    } else {
      if (!st) {                       // a hover is not a touch
        if (phase === "move" && e.pointerType === "mouse") host.hovered(x, y);
        return;
      }
      if (host.hoveredCluster) host.hovered(-1e9, -1e9);   // a press ends a hover
      let owned = false;
      try { owned = host.touch(e.pointerId, phase, x, y); } catch (err) { host.refused(err); }
      if (!st.byMap) {
        e.stopPropagation(); e.preventDefault();
        // pindrop gave the gesture back: pan by hand (the map never saw this pointer go down)
        if (phase === "move" && !owned) host.adapter.panBy(st.x - x, st.y - y);
      }
      st.x = x; st.y = y;
      if (phase === "up" || phase === "cancel") {
        this.pointers.delete(e.pointerId);
        if (!this.underWay) host.adapter.setDragPan(true);
      }
    }
    host.afterInput();
  }
}
