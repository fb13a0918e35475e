// Editing: placing and editing a pin until it is committed or cancelled, the selection, nudges,
// callouts (a title, and the subtitle a geocoder answers), the area pins may be dropped in, and
// undo and redo.

import { describe, num } from "./arguments.js";
import { idAt, toId, u64 } from "./ids.js";
import { call, handleOf, live } from "./map-handle.js";
import { CALLOUT_PARTS, NO_ID } from "./tables.js";

/** Map's editing methods (installed on Map by map.js). */
export class MapEditing {
  // -- editing -------------------------------------------------------------------------------

  /** Adds pin `id` and starts editing it (tap-to-move until commit / cancelEdit). */
  place(id, lon, lat, timeMs) { call(this, "pindrop_map_place", handleOf(this).newId(id), num(lon, "lon"), num(lat, "lat"), num(timeMs, "timeMs")); }
  /** Starts editing an existing pin. */
  edit(id, timeMs) { call(this, "pindrop_map_edit", toId(id), num(timeMs, "timeMs")); }
  /** Ends the edit, keeping the pin where it is (StateError when nothing is edited). */
  commit(timeMs) { call(this, "pindrop_map_commit", num(timeMs, "timeMs")); }
  /** Ends the edit: removes a placed pin, restores an edited one. */
  cancelEdit(timeMs) { call(this, "pindrop_map_cancel_edit", num(timeMs, "timeMs")); }
  /** Selects a pin (null: none), emitting SELECTED / DESELECTED. */
  select(id) { call(this, "pindrop_map_select", id === null ? NO_ID : toId(id)); }
  /** The selected pin, or null. */
  selected() {
    const h = live(this, "selected"), l = h.lib, s = l.scratch;
    h.call("pindrop_map_selected", s);
    return idAt(l, s, h.bigint);
  }

  /** Moves the selected pin by (dx, dy) screen points from where it is drawn (arrow keys). */
  nudge(dx, dy, timeMs) { call(this, "pindrop_map_nudge", num(dx, "dx"), num(dy, "dy"), num(timeMs, "timeMs")); }

  // -- callouts ------------------------------------------------------------------------------

  /** Sets the pin's callout title (null clears it). */
  setTitle(id, title) {
    const h = live(this, "setTitle"), l = h.lib, i = toId(id);
    if (title === null) { h.call("pindrop_map_set_title", i, 0); return; }
    if (typeof title !== "string") throw new TypeError(`title must be a string or null, not ${describe(title)}`);
    const p = l.cString(title, "title", "pindrop_map_set_title");
    try { h.call("pindrop_map_set_title", i, p); } finally { l.free(p); }
  }

  /** Answers a GEOCODE_REQUEST: true if shown, false if stale (the pin moved since). */
  answerGeocode(request, subtitle) {
    const h = live(this, "answerGeocode"), l = h.lib, r = u64(request, "request");
    if (typeof subtitle !== "string") throw new TypeError(`subtitle must be a string, not ${describe(subtitle)}`);
    const p = l.cString(subtitle, "subtitle", "pindrop_map_answer_geocode");
    try { return h.call("pindrop_map_answer_geocode", r, p) === 0; } finally { l.free(p); }
  }

  /** The pin's "title" or "subtitle" (default). */
  callout(id, which = "subtitle") {
    const w = CALLOUT_PARTS[which];
    if (w === undefined || typeof which !== "string") throw new TypeError(`which must be "title" or "subtitle", not ${describe(which)}`);
    const h = live(this, "callout"), l = h.lib, i = toId(id), s = l.scratch;
    h.call("pindrop_map_callout", i, w, 0, 0, s);
    const n = l.u32[s >> 2];
    const buf = l.malloc(n + 1);
    try {
      h.call("pindrop_map_callout", i, w, buf, n + 1, s);
      return new TextDecoder().decode(l.u8.slice(buf, buf + n));
    } finally { l.free(buf); }
  }
  title(id) { live(this, "title"); return this.callout(id, "title"); }
  subtitle(id) { live(this, "subtitle"); return this.callout(id, "subtitle"); }

  // -- area, history -------------------------------------------------------------------------

  /** The area pins may be dropped in: WKT or GeoJSON (text, or a GeoJSON object); null clears it. */
  setAllowedArea(area) {
    const h = live(this, "setAllowedArea"), l = h.lib;
    if (area === null) { h.call("pindrop_map_set_allowed_area", 0); return; }
    if (typeof area === "object") area = JSON.stringify(area);
    if (typeof area !== "string") throw new TypeError(`area must be WKT or GeoJSON text, a GeoJSON object or null, not ${describe(area)}`);
    const p = l.cString(area, "area", "pindrop_map_set_allowed_area");
    try { h.call("pindrop_map_set_allowed_area", p); } finally { l.free(p); }
  }

  /** Undoes the latest user move (StateError when there is none). */
  undo(timeMs) { call(this, "pindrop_map_undo", num(timeMs, "timeMs")); }
  /** Redoes the latest undone move (StateError when there is none). */
  redo(timeMs) { call(this, "pindrop_map_redo", num(timeMs, "timeMs")); }
}
