// Input: pointer events with their times, the timeouts they leave (tick, nextDeadline,
// advance), the events that come out, and the keyboard's focus walk and drag.

import { describe, int32, num } from "./arguments.js";
import { fromId } from "./ids.js";
import { readEvent } from "./events.js";
import { call, live } from "./map-handle.js";
import { FOCUS_KINDS, PHASES } from "./tables.js";

/** Map's input and event methods (installed on Map by map.js). */
export class MapInput {
  /** Feeds one pointer event: phase "down" | "move" | "up" | "cancel". True when pindrop owns
   *  the gesture (do not pan or zoom the map with it), false when the map should handle it. */
  touch(pointer, phase, x, y, timeMs) {
    int32(pointer, "pointer");
    const p = PHASES[phase];
    if (typeof phase !== "string" || p === undefined) {
      throw new TypeError(`phase must be "down", "move", "up" or "cancel", not ${describe(phase)}`);
    }
    const h = live(this, "touch"), l = h.lib;
    const r = l.f.pindrop_map_touch(h.ptr, pointer, p, num(x, "x"), num(y, "y"), num(timeMs, "timeMs"));
    if (r < 0) h.status(r, "pindrop_map_touch");
    return r === 1;
  }

  /** Resolves timeouts due at timeMs (lift delay, double-tap window, auto-pan). */
  tick(timeMs) {
    const h = live(this, "tick"), l = h.lib;
    const r = l.f.pindrop_map_tick(h.ptr, num(timeMs, "timeMs"));
    if (r < 0) h.status(r, "pindrop_map_tick");
  }

  /** When the next tick is due (ms), Infinity when nothing is pending. */
  nextDeadline() { const h = live(this, "nextDeadline"), l = h.lib; return l.f.pindrop_map_next_deadline(h.ptr); }

  /** Ticks at every deadline up to timeMs, then at timeMs: what a host's timer would do. */
  advance(timeMs) {
    live(this, "advance");
    num(timeMs, "timeMs");
    let deadline = this.nextDeadline();
    while (deadline <= timeMs) {
      this.tick(deadline);
      const following = this.nextDeadline();
      if (following <= deadline) break;
      deadline = following;
    }
    this.tick(timeMs);
  }

  /** Cancels the gesture in progress (Esc): a lifted pin goes back, nothing is saved. */
  cancelGesture(timeMs) { call(this, "pindrop_map_cancel_gesture", num(timeMs, "timeMs")); }

  /** The oldest pending event, or null. */
  pollEvent() {
    const h = live(this, "pollEvent"), l = h.lib, e = l.scratch;
    if (l.f.pindrop_map_poll_event(h.ptr, e) !== 1) return null;
    return readEvent(l, e, h.bigint);
  }

  /** Drains the pending events, oldest first, into an array of plain objects. */
  events() {
    const h = live(this, "events"), l = h.lib, e = l.scratch, poll = l.f.pindrop_map_poll_event, ptr = h.ptr, out = [];
    while (poll(ptr, e) === 1) out.push(readEvent(l, e, h.bigint));
    return out;
  }

  // -- the keyboard: focus and drag (since 0.3) -----------------------------------------------

  /** Moves the keyboard focus to the next (+1, Tab) or previous (-1, Shift+Tab) pin or cluster
   *  the last frame() drew inside the viewport, in reading order, wrapping; returns the new focus
   *  {kind: "none" | "pin" | "cluster", id, key, x, y}. InvalidArgument for another step. */
  focusStep(step) {
    const h = live(this, "focusStep"), s = h.lib.scratch;
    h.call("pindrop_map_focus_step", int32(step, "step"), s);
    return readFocus(h, s);
  }

  /** The keyboard focus as the last frame left it: {kind, id, key, x, y} (id: the pin or null;
   *  key: the cluster's key, a BigInt, or null; x, y: its drawn screen point). */
  get focus() {
    const h = live(this, "focus"), s = h.lib.scratch;
    h.call("pindrop_map_focused", s);
    return readFocus(h, s);
  }

  /** Where the focus stands among the items focusStep moves through, for "4 of 27":
   *  {index, total} (index from 0; null when none of them has the focus). */
  get focusRank() {
    const h = live(this, "focusRank"), l = h.lib, s = l.scratch;
    h.call("pindrop_map_focus_rank", s, s + 4);
    const index = l.u32[s >> 2], total = l.u32[(s >> 2) + 1];
    return { index: index === total ? null : index, total };
  }

  /** Lifts the selected pin by keyboard (Alt+Space): LIFTED; nudges then drag it (DRAGGED),
   *  keyDrop drops it, cancelGesture puts it back. StateError when nothing is selected, the
   *  keyboard already holds a pin or a pointer is down. */
  keyLift(timeMs) { call(this, "pindrop_map_key_lift", num(timeMs, "timeMs")); }

  /** Drops the pin the keyboard holds (Space, Enter): DROPPED, then MOVED with cause KEYBOARD
   *  and its follow-ups, one undo step. StateError when the keyboard holds no pin. */
  keyDrop(timeMs) { call(this, "pindrop_map_key_drop", num(timeMs, "timeMs")); }
}

/** The pindrop_focus at s (a map's scratch): {kind, id, key, x, y}. */
function readFocus(h, s) {
  const dv = h.lib.dv, k = dv.getInt32(s, true);
  const kind = FOCUS_KINDS[k] ?? `FOCUS_${k}`;
  return { kind, id: kind === "pin" ? fromId(dv.getBigInt64(s + 8, true), h.bigint) : null,
    key: kind === "cluster" ? dv.getBigUint64(s + 16, true) : null,
    x: dv.getFloat64(s + 24, true), y: dv.getFloat64(s + 32, true) };
}
