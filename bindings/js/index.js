// pindrop: placement, drag, spreading and clustering of map pins, in the browser and in Node.
//
//   import { load, PinMap } from "pindrop";
//   await load();
//   const m = new PinMap({ liftDelayMs: 0, liftHeight: 0 });     // mouse: drag at once
//   m.setCamera(-118.35, 33.9, 18, 800, 600);
//   m.add(1, -118.35, 33.9);
//   m.hitTest(400, 300);                                        // 1
//
// The same library as the native one (include/pindrop.h), compiled to WebAssembly from the same
// Swift sources; the package only converts JavaScript values to the C contract and back. The host
// draws the map and the pins, feeds pointer events in (touch, tick) and reads what happened
// (events) and what to draw (frame, clusters). Coordinates are (lon, lat) WGS84 degrees, screen
// positions points from the top-left, times milliseconds on a clock that never goes back (e.g.
// performance.now()). Failures throw a PindropError subclass carrying the map's last error;
// arguments of the wrong JavaScript type throw a TypeError. See docs/web.md.
//
// This file is the package's entry: it gathers the public API from the modules of src/, one
// concern each, API first: the Map (map.js, with its methods by concern in map-*.js), the
// functions without a map (distance.js, spread.js), loading the module (load.js), the errors
// (errors.js) and the header's constants (tables.js). The plumbing is theirs: the loaded module
// and its memory (library.js, wasi.js), a map's handle and calls (map-handle.js), arguments
// (arguments.js), ids (ids.js) and events (events.js).

// PinMap is the map; Map, its name before 0.4, stays as a deprecated alias (it shadows
// JavaScript's global Map in a module that imports it by that name).
export { Map as PinMap, Map } from "./src/map.js";
export { distance } from "./src/distance.js";
export { spread } from "./src/spread.js";
export { load, version, __memoryBytes } from "./src/load.js";
export {
  PindropError, InvalidArgument, NotFound, DuplicateId, ParseError, StateError, GeosError, NoMemory,
  InternalError,
} from "./src/errors.js";
export {
  PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID, PIN_FOCUSED, PIN_ANIMATING, PIN_SNAPPED,
  CLUSTER_ONE_SPOT, CLUSTER_STACK, CATEGORY_MIXED, EVENT_TYPES, CAUSES,
} from "./src/tables.js";
