// Several pins at once (behaviour 23, since 0.4): select many by id or by a rectangle on the
// screen, read the selection, and tell the map which modifier keys the user holds. A drag of one
// selected pin then moves them all (one undo step); nudges and the keyboard drag move the whole
// selection.

import { arrayLength, describe, num, uint32 } from "./arguments.js";
import { InvalidArgument } from "./errors.js";
import { checkSafeIds, fromId, writeIds } from "./ids.js";
import { live } from "./map-handle.js";
import { MODIFIERS, SELECT_MODES } from "./tables.js";

/** A selection mode: "set", "add", "remove", "toggle", or its number (PINDROP_SELECT_*). */
function selectMode(mode, fn) {
  if (typeof mode === "string") {
    const m = SELECT_MODES[mode];
    if (m === undefined || !Object.prototype.hasOwnProperty.call(SELECT_MODES, mode)) {
      throw new InvalidArgument(`mode "${mode}" is not one of ${Object.keys(SELECT_MODES).map((k) => `"${k}"`).join(", ")}`, -1, fn);
    }
    return m;
  }
  if (typeof mode === "number" && Number.isInteger(mode) && mode >= -2147483648 && mode <= 2147483647) return mode;
  throw new TypeError(`mode must be "set", "add", "remove", "toggle" or a 32-bit integer, not ${describe(mode)}`);
}

/** Map's selection methods (installed on Map by map.js). */
export class MapSelection {
  /** Changes the selection by `ids` (an array or typed array; a repeated id counts once): mode
   *  "set" (the default) makes them the selection, "add" adds them, "remove" takes them out,
   *  "toggle" flips each. DESELECTED for each pin that leaves, then SELECTED for each that joins,
   *  in ascending id order. All-or-nothing: NotFound for an unknown id, InvalidArgument for an
   *  unknown mode; nothing changes then. selectMany([]) clears the selection. */
  selectMany(ids, mode = "set") {
    const h = live(this, "selectMany"), l = h.lib;
    const m = selectMode(mode, "pindrop_map_select_many");
    const n = arrayLength(ids, "ids");
    if (!h.bigint) checkSafeIds(ids);
    if (n === 0) { h.call("pindrop_map_select_many", 0, 0, m); return; }
    const p = l.malloc(8 * n);
    try {
      writeIds(l.fresh(), ids, p);
      h.call("pindrop_map_select_many", p, n, m);
    } finally {
      l.free(p);
    }
  }

  /** Changes the selection by the pins drawn inside the screen rectangle with corners (x0, y0) and
   *  (x1, y1), in either order, edges included, as frame(timeMs) draws them; a cluster (or a
   *  collapsed stack) drawn inside counts with all its members. mode as for selectMany. */
  selectInRect(x0, y0, x1, y1, timeMs, mode = "set") {
    const h = live(this, "selectInRect"), l = h.lib;
    const args = [num(x0, "x0"), num(y0, "y0"), num(x1, "x1"), num(y1, "y1")];
    const m = selectMode(mode, "pindrop_map_select_in_rect"), t = num(timeMs, "timeMs");
    h.status(l.f.pindrop_map_select_in_rect(h.ptr, args[0], args[1], args[2], args[3], m, t), "pindrop_map_select_in_rect");
  }

  /** The selected ids in ascending order (numbers, or BigInts on a map with bigintIds); selected()
   *  is the first of them. */
  selection() {
    const h = live(this, "selection"), l = h.lib;
    let cap = 64;
    for (;;) {
      const buf = h.ensureIds(cap);
      const total = l.f.pindrop_map_selection(h.ptr, buf, cap) >>> 0;
      if (total <= cap) {
        const out = new Array(total), i64 = l.i64, base = buf >> 3;
        for (let i = 0; i < total; i++) out[i] = fromId(i64[base + i], h.bigint);
        return out;
      }
      cap = total;
    }
  }

  /** Tells the map which modifier keys the user holds now: { add, noSnap } (add: a tap on a pin
   *  adds it to the selection or takes it out, as Shift or Ctrl; noSnap: snapping is off while
   *  held), or the PINDROP_MOD_* bits as a number. setModifiers({}) releases them. */
  setModifiers(modifiers) {
    const h = live(this, "setModifiers");
    let bits;
    if (typeof modifiers === "number") {
      bits = uint32(modifiers, "modifiers");
    } else if (modifiers !== null && typeof modifiers === "object") {
      for (const k of Object.keys(modifiers)) {
        if (k !== "add" && k !== "noSnap") throw new TypeError(`setModifiers: unknown key "${k}" (add, noSnap)`);
      }
      bits = (modifiers.add ? MODIFIERS.add : 0) | (modifiers.noSnap ? MODIFIERS.no_snap : 0);
    } else {
      throw new TypeError(`modifiers must be { add, noSnap } or a number, not ${describe(modifiers)}`);
    }
    h.call("pindrop_map_set_modifiers", bits);
  }
}
