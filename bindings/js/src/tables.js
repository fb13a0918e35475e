// The constants and struct layouts of include/pindrop.h that the package reads and writes: pin
// and cluster flags, event types and causes, the enums the options take, the options struct with
// each field's byte offset on wasm32, the option keys the package's calls take, the sizes of the
// structs the module fills and of the memory the package reserves, which fields each event type
// carries, and the status of a call that cannot be made now. index.js exports the
// public ones (PIN_*, CLUSTER_*, CATEGORY_MIXED, EVENT_TYPES, CAUSES); the rest is the package's.

export const PIN_SELECTED = 1, PIN_EDITING = 2, PIN_DRAGGING = 4, PIN_SPREAD = 8, PIN_INVALID = 16;
/** Since 0.3: pindrop_pin_view.flags of the pin with the keyboard focus (Map.focusStep). */
export const PIN_FOCUSED = 32;
/** Since 0.3: the pin's drawing still changes with no input (a lift rising, a drop falling, a
 *  glide after a cancel, a snap or a tap-to-move): keep drawing frames while a drawn pin has it. */
export const PIN_ANIMATING = 64;
/** Since 0.3: clusters().flags and clusterSummary().flags. ONE_SPOT: every member shares one
 *  point (zooming in cannot separate them); STACK: a collapsed stack (spreadOnTap). */
export const CLUSTER_ONE_SPOT = 1, CLUSTER_STACK = 2;
/** Since 0.3: clusterSummary().category when the members' categories differ (not a category a
 *  pin may have). */
export const CATEGORY_MIXED = 4294967295;
export const EVENT_TYPES = Object.freeze(["SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED",
  "DRAG_CANCELLED", "MOVED", "GEOCODE_REQUEST", "CALLOUT_CHANGED", "NEARBY", "AUTOPAN", "CLUSTER_TAPPED",
  "STACK_OPENED", "STACK_CLOSED"]);
export const CAUSES = Object.freeze(["NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE", "KEYBOARD"]);
export const FOCUS_KINDS = ["none", "pin", "cluster"];
export const PHASES = { down: 0, move: 1, up: 2, cancel: 3 };
export const SPREAD_MODES = { off: 0, ring: 1, spiral: 2 };
export const OUTSIDE_POLICIES = { revert: 0, snap: 1 };
export const CALLOUT_PARTS = { title: 0, subtitle: 1 };
export const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
export const NO_ID = INT64_MIN;

// Struct layouts on wasm32 (natural alignment; size_t and pointers are 32 bits). Checked against
// the module's own pindrop_options_init defaults and the C structs by tests/exports.test.js.
export const OPTION_FIELDS = [  // [camelCase name, byte offset, "f64" | "i32" | enum table]
  ["hitRadius", 8, "f64"], ["dragThreshold", 16, "f64"], ["liftDelayMs", 24, "f64"],
  ["liftHeight", 32, "f64"], ["liftDurationMs", 40, "f64"], ["dropDurationMs", 48, "f64"],
  ["tapMaxMs", 56, "f64"], ["doubleTapMs", 64, "f64"], ["doubleTapSlop", 72, "f64"],
  ["autopanMargin", 80, "f64"], ["autopanSpeed", 88, "f64"], ["minSpacingM", 96, "f64"],
  ["spreadMode", 104, SPREAD_MODES], ["spreadToleranceM", 112, "f64"],
  ["outsidePolicy", 120, OUTSIDE_POLICIES], ["clusterRadius", 128, "f64"],
  ["clusterMaxZoom", 136, "f64"], ["spreadSpacing", 144, "f64"],
  ["clusterMinPoints", 152, "u32"], ["clusterByCategory", 156, "bool"], ["spreadOnTap", 160, "bool"],  // 0.3
];
export const MAP_OPTIONS = [...OPTION_FIELDS.map((f) => f[0]), "bigintIds"];
export const CAMERA_FIELDS = ["centerLon", "centerLat", "zoom", "width", "height", "bearingDeg"];
export const SPREAD_OPTIONS = ["toleranceM", "layout", "spacing", "zoom"];
export const OPTIONS_SIZE = 168;     // sizeof(pindrop_options) of 0.3: 152 bytes in 0.2, three uint32 and padding
export const PIN_VIEW_SIZE = 56;     // id i64, x, y, anchor_x, anchor_y, lift f64, flags u32
export const CLUSTER_VIEW_SIZE = 48; // key u64, x, y, lon, lat f64, count u32, flags u32
export const EVENT_SIZE = 96;        // type, cause i32; id, other i64; 8 f64; request u64
export const SUMMARY_SIZE = 40;      // count, valued, category, flags u32; value_sum, value_min, value_max f64
export const FOCUS_SIZE = 40;        // kind, reserved i32; id i64; key u64; x, y f64
// What add_many allocates per pin on wasm32 (the pin store, the index, the clusters' and the
// spreading's tables, and their growth: 107-113 bytes measured on 100k and 916k LA trees), reserved
// before a large batch; below RESERVE_MIN_BYTES the heap grows as it goes.
export const ADD_MANY_BYTES_PER_PIN = 112, RESERVE_MIN_BYTES = 4 << 20;
export const SCRATCH_SIZE = 256;     // a map's scratch: the camera, an event, a summary, a focus, out-parameters
if (Math.max(EVENT_SIZE, SUMMARY_SIZE, FOCUS_SIZE) > SCRATCH_SIZE) throw new Error("pindrop: the scratch buffer is too small");

// Which fields each event type carries (include/pindrop.h, Sources/PindropCore/Events.swift).
export const AT = 1, FROM = 2, OTHER = 4, DIST = 8, DXY = 16, REQ = 32, CAUSE = 64, ID = 128;
export const KEY = 256;  // request is a cluster's or a stack's key: a BigInt, also given as `key`
export const EVENT_FIELDS = [ID, ID, ID | AT, ID | AT, ID | AT, ID | AT, ID | AT | FROM | CAUSE, ID | AT | REQ,
  ID | AT, ID | OTHER | AT | DIST, ID | DXY, AT | REQ | KEY, AT | REQ | KEY, AT | REQ | KEY];

/** The exception class each error status throws (errors.js). */
export const ERROR_NAMES = Object.freeze({ [-1]: "InvalidArgument", [-2]: "NotFound", [-3]: "DuplicateId", [-4]: "ParseError", [-5]: "StateError", [-6]: "GeosError", [-7]: "NoMemory" });
/** PINDROP_ERR_STATE: also the status of the package's own state errors (a disposed map, no
 *  module loaded), as docs/web.md promises that `status` is the C status. */
export const STATUS_STATE = -5;
