// pindrop: placement, drag, spreading and clustering of map pins, in the browser and in Node.
//
//   import { load, Map } from "pindrop";
//   await load();
//   const m = new Map({ liftDelayMs: 0, liftHeight: 0 });     // mouse: drag at once
//   m.setCamera(-118.35, 33.9, 18, 800, 600);
//   m.add(1, -118.35, 33.9);
//   m.hitTest(400, 300);                                        // 1
//
// The same library as the native one (include/pindrop.h), compiled to WebAssembly from the same
// Swift sources; this file only converts JavaScript values to the C contract and back. The host
// draws the map and the pins, feeds pointer events in (touch, tick) and reads what happened
// (events) and what to draw (frame, clusters). Coordinates are (lon, lat) WGS84 degrees, screen
// positions points from the top-left, times milliseconds on a clock that never goes back (e.g.
// performance.now()). Failures throw a PindropError subclass carrying the map's last error;
// arguments of the wrong JavaScript type throw a TypeError. See docs/web.md.

// ---------------------------------------------------------------------------------------------
// Constants of include/pindrop.h
// ---------------------------------------------------------------------------------------------

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
const FOCUS_KINDS = ["none", "pin", "cluster"];
const PHASES = { down: 0, move: 1, up: 2, cancel: 3 };
const SPREAD_MODES = { off: 0, ring: 1, spiral: 2 };
const OUTSIDE_POLICIES = { revert: 0, snap: 1 };
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
const NO_ID = INT64_MIN;

// Struct layouts on wasm32 (natural alignment; size_t and pointers are 32 bits). Checked against
// the module's own pindrop_options_init defaults and the C structs by test/exports.test.js.
const OPTION_FIELDS = [  // [camelCase name, byte offset, "f64" | "i32" | enum table]
  ["hitRadius", 8, "f64"], ["dragThreshold", 16, "f64"], ["liftDelayMs", 24, "f64"],
  ["liftHeight", 32, "f64"], ["liftDurationMs", 40, "f64"], ["dropDurationMs", 48, "f64"],
  ["tapMaxMs", 56, "f64"], ["doubleTapMs", 64, "f64"], ["doubleTapSlop", 72, "f64"],
  ["autopanMargin", 80, "f64"], ["autopanSpeed", 88, "f64"], ["minSpacingM", 96, "f64"],
  ["spreadMode", 104, SPREAD_MODES], ["spreadToleranceM", 112, "f64"],
  ["outsidePolicy", 120, OUTSIDE_POLICIES], ["clusterRadius", 128, "f64"],
  ["clusterMaxZoom", 136, "f64"], ["spreadSpacing", 144, "f64"],
  ["clusterMinPoints", 152, "u32"], ["clusterByCategory", 156, "bool"], ["spreadOnTap", 160, "bool"],  // 0.3
];
const MAP_OPTIONS = [...OPTION_FIELDS.map((f) => f[0]), "bigintIds"];
const CAMERA_FIELDS = ["centerLon", "centerLat", "zoom", "width", "height", "bearingDeg"];
const SPREAD_OPTIONS = ["toleranceM", "layout", "spacing", "zoom"];
const OPTIONS_SIZE = 168;     // sizeof(pindrop_options) of 0.3: 152 bytes in 0.2, three uint32 and padding
const PIN_VIEW_SIZE = 56;     // id i64, x, y, anchor_x, anchor_y, lift f64, flags u32
const CLUSTER_VIEW_SIZE = 48; // key u64, x, y, lon, lat f64, count u32, flags u32
const EVENT_SIZE = 96;        // type, cause i32; id, other i64; 8 f64; request u64
const SUMMARY_SIZE = 40;      // count, valued, category, flags u32; value_sum, value_min, value_max f64
const FOCUS_SIZE = 40;        // kind, reserved i32; id i64; key u64; x, y f64
// What add_many allocates per pin on wasm32 (the pin store, the index, the clusters' and the
// spreading's tables, and their growth: 107-113 bytes measured on 100k and 916k LA trees), reserved
// before a large batch; below RESERVE_MIN_BYTES the heap grows as it goes.
const ADD_MANY_BYTES_PER_PIN = 112, RESERVE_MIN_BYTES = 4 << 20;
const SCRATCH_SIZE = 256;     // a map's scratch: the camera, an event, a summary, a focus, out-parameters
if (Math.max(EVENT_SIZE, SUMMARY_SIZE, FOCUS_SIZE) > SCRATCH_SIZE) throw new Error("pindrop: the scratch buffer is too small");

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** A failed call: `status` is the pindrop_status, `message` the map's (or the library's) last error. */
export class PindropError extends Error {
  constructor(message, status = 0, fn = "") {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.function = fn;
  }
}
export class InvalidArgument extends PindropError {}
export class NotFound extends PindropError {}
export class DuplicateId extends PindropError {}
export class ParseError extends PindropError {}
export class StateError extends PindropError {}
export class GeosError extends PindropError {}
export class NoMemory extends PindropError {}
/** The WebAssembly module stopped (a trap): a defect in pindrop, reported rather than thrown raw.
 *  The module is not used again; load() a fresh one (load({ fresh: true })). */
export class InternalError extends PindropError {}

/** PINDROP_ERR_STATE: also the status of the package's own state errors (a disposed map, no
 *  module loaded), as docs/web.md promises that `status` is the C status. */
const STATUS_STATE = -5;

const ERRORS = { [-1]: InvalidArgument, [-2]: NotFound, [-3]: DuplicateId, [-4]: ParseError,
  [-5]: StateError, [-6]: GeosError, [-7]: NoMemory };

// ---------------------------------------------------------------------------------------------
// The module
// ---------------------------------------------------------------------------------------------

let lib = null;        // the loaded module (one per page / process)
let loading = null;

/** The WASI functions wasi-libc may import, for hosts without WASI (browsers): standard output and
 *  error go to the console, randomness comes from crypto.getRandomValues, anything else reports
 *  ENOSYS. */
function wasiShim(getMemory) {
  const ENOSYS = 52, EBADF = 8;
  const lines = { 1: "", 2: "" };
  return {
    fd_write(fd, iovs, iovsLen, nwritten) {
      const m = getMemory(), dv = new DataView(m.buffer);
      let text = "", n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const p = dv.getUint32(iovs + 8 * i, true), len = dv.getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(m.buffer, p, len));
        n += len;
      }
      if (fd === 1 || fd === 2) {
        const all = lines[fd] + text, parts = all.split("\n");
        lines[fd] = parts.pop();
        for (const line of parts) (fd === 1 ? console.log : console.error)(line);
      } else return EBADF;
      dv.setUint32(nwritten, n, true);
      return 0;
    },
    fd_close() { return EBADF; },
    fd_seek() { return EBADF; },
    random_get(p, len) {
      const bytes = new Uint8Array(getMemory().buffer, p, len);
      const c = globalThis.crypto;
      if (c && c.getRandomValues) {
        for (let i = 0; i < len; i += 65536) c.getRandomValues(bytes.subarray(i, Math.min(len, i + 65536)));
      } else {
        for (let i = 0; i < len; i++) bytes[i] = Math.floor(Math.random() * 256);
      }
      return 0;
    },
    ENOSYS,
  };
}

const LOAD_OPTIONS = ["source", "fresh"];

/** A URL: the platform's, or any object with an href (index.d.ts declares no DOM type, so that a
 *  Node program type-checks without the DOM's or Node's declarations). */
function isUrl(v) {
  return v !== null && typeof v === "object" && (v instanceof URL || typeof v.href === "string");
}

/** What load() takes as the module: a URL, a path or its bytes. */
function isSource(v) {
  return typeof v === "string" || isUrl(v) || v instanceof ArrayBuffer || ArrayBuffer.isView(v);
}

/** The compiled module: streamed from a fetch where the server says application/wasm. */
async function compile(source) {
  if (isUrl(source) && !(source instanceof URL)) source = new URL(source.href);
  const isNode = typeof process !== "undefined" && process.versions && process.versions.node;
  if (!isNode && !(source instanceof ArrayBuffer || ArrayBuffer.isView(source)) && WebAssembly.compileStreaming) {
    const response = await fetch(source ?? new URL("./pindrop.wasm", import.meta.url));
    if (!response.ok) throw new Error(`pindrop: could not fetch ${response.url}: HTTP ${response.status}`);
    if ((response.headers.get("Content-Type") ?? "").startsWith("application/wasm")) {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  }
  return WebAssembly.compile(await wasmBytes(source));
}

async function wasmBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source ?? new URL("./pindrop.wasm", import.meta.url);
  const isNode = typeof process !== "undefined" && process.versions && process.versions.node;
  if (isNode && (typeof url === "string" ? !/^https?:/.test(url) : url.protocol === "file:")) {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`pindrop: could not fetch ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Loads the WebAssembly module (once; later calls return the same promise). `source`: the
 * module's URL, path or bytes (default: pindrop.wasm beside this file). Resolves to the module's
 * version ("0.3.0").
 */
export function load(options = {}) {
  options ??= {};
  if (isSource(options)) options = { source: options };
  // Checked before anything happens (a failed load leaves the loaded module as it was), and
  // reported as the promise's rejection, as every failure of an asynchronous call is.
  try {
    if (typeof options !== "object" || Array.isArray(options)) {
      throw new TypeError(`load takes the module's URL, path or bytes, or options { source, fresh }, not ${describe(options)}`);
    }
    knownKeys(options, LOAD_OPTIONS, "load");
    if (options.source !== undefined && !isSource(options.source)) {
      throw new TypeError(`options.source must be a URL, a path or the module's bytes, not ${describe(options.source)}`);
    }
    if (options.fresh !== undefined) bool(options.fresh, "options.fresh");
  } catch (e) { return Promise.reject(e); }
  if (options.fresh) { lib = null; loading = null; }
  if (!loading) {
    loading = (async () => {
      const module = await compile(options.source);
      let memory = null;
      const shim = wasiShim(() => memory);
      const imports = {};
      for (const imp of WebAssembly.Module.imports(module)) {
        if (imp.kind !== "function") continue;
        imports[imp.module] ??= {};
        imports[imp.module][imp.name] = shim[imp.name] ?? (() => shim.ENOSYS);
      }
      const instance = await WebAssembly.instantiate(module, imports);
      memory = instance.exports.memory;
      lib = new Library(instance.exports);
      return lib.version;
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** The size in bytes of the module's linear memory (it only grows): for tests and monitoring. */
export function __memoryBytes() { return need("__memoryBytes").memory.buffer.byteLength; }

/** The version ("MAJOR.MINOR.PATCH") of the loaded module. */
export function version() { return need("version").version; }

/** An export behind a guard: a trap becomes an InternalError, and the memory views are renewed
 *  when the call grew the memory. One closure per arity, so that calls pass no argument array. */
function guard(l, name, fn) {
  const done = (r) => { if (l.u8.byteLength === 0) l.views(); return r; };
  switch (fn.length) {
    case 0: return () => { try { return done(fn()); } catch (e) { throw l.trapped(name, e); } };
    case 1: return (a) => { try { return done(fn(a)); } catch (e) { throw l.trapped(name, e); } };
    case 2: return (a, b) => { try { return done(fn(a, b)); } catch (e) { throw l.trapped(name, e); } };
    case 3: return (a, b, c) => { try { return done(fn(a, b, c)); } catch (e) { throw l.trapped(name, e); } };
    case 4: return (a, b, c, d) => { try { return done(fn(a, b, c, d)); } catch (e) { throw l.trapped(name, e); } };
    case 5: return (a, b, c, d, e) => { try { return done(fn(a, b, c, d, e)); } catch (x) { throw l.trapped(name, x); } };
    case 6: return (a, b, c, d, e, f) => { try { return done(fn(a, b, c, d, e, f)); } catch (x) { throw l.trapped(name, x); } };
    default: return (...args) => { try { return done(fn(...args)); } catch (e) { throw l.trapped(name, e); } };
  }
}

function need(fn) {
  if (!lib) throw new StateError(`pindrop is not loaded: await load() before ${fn}`, STATUS_STATE, fn);
  if (lib.broken) throw new InternalError(`the pindrop module stopped after an internal error (${lib.broken}); load({ fresh: true }) a new one`);
  return lib;
}

/** The exports and the module's memory views, renewed when the memory grows. */
class Library {
  constructor(exports) {
    this.x = exports;
    this.memory = exports.memory;
    this.broken = null;
    // Each exported function behind a guard of its own arity (no rest parameters, no lookup by
    // name on the hot paths): `this.f.pindrop_map_touch(...)`.
    this.f = {};
    for (const [name, fn] of Object.entries(exports)) {
      if (typeof fn === "function") this.f[name] = guard(this, name, fn);
    }
    this.scratch = exports.malloc(SCRATCH_SIZE);
    this.views();
    this.version = this.string(exports.pindrop_version());
  }

  views() {
    const b = this.memory.buffer;
    this.buffer = b;
    this.u8 = new Uint8Array(b);
    this.i32 = new Int32Array(b);
    this.u32 = new Uint32Array(b);
    this.f64 = new Float64Array(b);
    this.i64 = new BigInt64Array(b);
    this.u64 = new BigUint64Array(b);
    this.dv = new DataView(b);
  }

  /** Renews the views once the memory has grown (growing detaches the old buffer: its views
   *  read 0 bytes, a check far cheaper than the memory's `buffer` getter). */
  fresh() { if (this.u8.byteLength === 0) this.views(); return this; }

  /** A trap inside `name` as an InternalError (the module is not used again); other errors as
   *  they are. */
  trapped(name, e) {
    if (!(e instanceof WebAssembly.RuntimeError)) return e;
    this.broken = `${name}: ${e.message}`;
    return new InternalError(`pindrop stopped inside ${name} (${e.message}); the module cannot be used again`, 0, name);
  }

  /** Calls an export by name (the guarded one: a trap becomes an InternalError). */
  call(name, ...args) { return this.f[name](...args); }

  string(p) {
    if (!p) return "";
    this.fresh();
    const u8 = this.u8;
    let end = p;
    while (u8[end] !== 0) end++;
    return new TextDecoder().decode(u8.subarray(p, end));
  }

  /** A NUL-terminated UTF-8 copy of s in the module's memory (free it after use). A string with
   *  a NUL is refused before anything is allocated: C would read it only up to the NUL, so the
   *  map would silently keep a cut text (bindings/python/pindrop/_check.py `text` refuses it so). */
  cString(s, name, fn) {
    if (s.includes("\0")) {
      throw new InvalidArgument(`${name} contains a NUL character (at ${s.indexOf("\0")}): C would cut the text there`, -1, fn);
    }
    const bytes = new TextEncoder().encode(s);
    const p = this.malloc(bytes.length + 1);
    this.u8.set(bytes, p);
    this.u8[p + bytes.length] = 0;
    return p;
  }

  malloc(n) {
    const p = this.call("malloc", n);
    if (!p) throw new NoMemory(`the WebAssembly heap could not give ${n} bytes`, -7, "malloc");
    return p;
  }

  free(p) { if (p) this.call("free", p); }

  /** Grows the heap in one step to hold `bytes` more (a block taken and given back at once),
   *  where a large call would otherwise grow it many times on the way: each growth of a
   *  WebAssembly memory costs far more than its size suggests. Best effort: nothing happens
   *  when the memory cannot grow that far, and the call then fails or succeeds on its own. */
  reserve(bytes) {
    if (bytes < RESERVE_MIN_BYTES) return;
    const p = this.f.malloc(bytes);
    if (p) this.f.free(p);
  }

  lastError() { return this.string(this.call("pindrop_last_error")); }
}

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

function num(v, name) {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, not ${describe(v)}`);
  return v;
}

function int32(v, name) {
  num(v, name);
  if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) {
    throw new TypeError(`${name} must be a 32-bit integer, not ${v}`);
  }
  return v;
}

function uint32(v, name) {
  num(v, name);
  if (!Number.isInteger(v) || v < 0 || v > 4294967295) {
    throw new TypeError(`${name} must be an unsigned 32-bit integer, not ${v}`);
  }
  return v;
}

/** A count or an offset: a non-negative safe integer (limit: also Infinity, "all"). */
function count(v, name, infinite = false) {
  if (infinite && v === Infinity) return v;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new TypeError(`${name} must be a non-negative integer${infinite ? " or Infinity" : ""}, not ${typeof v === "number" ? v : describe(v)}`);
  }
  return v;
}

/** A yes/no option or argument: true or false, or 0 or 1 as the C int and the Python package's
 *  flags take them (Tests/web/replay.mjs passes a recording's 0 and 1 through). Anything else,
 *  "yes" or 2 or null, is a TypeError rather than a truthiness guess. */
function bool(v, name) {
  if (v === true || v === false) return v;
  if (v === 0 || v === 1) return v === 1;
  throw new TypeError(`${name} must be a boolean (or 0 or 1), not ${typeof v === "number" ? v : describe(v)}`);
}

/** Refuses a key an options object does not know: a misspelt option (bearing for bearingDeg)
 *  would otherwise be ignored and its default used without a word. */
function knownKeys(options, accepted, what) {
  for (const key of Object.keys(options)) {
    if (!accepted.includes(key)) {
      throw new TypeError(`${what}: unknown option "${key}" (options: ${accepted.join(", ")})`);
    }
  }
}

/** An options argument: an object (undefined: none), or a TypeError. */
function optionsObject(v, what) {
  if (v === undefined) return {};
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(`the options of ${what} must be an object, not ${describe(v)}`);
  }
  return v;
}

function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  if (t === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  if (t === "object") return `an object (${v.constructor?.name ?? "Object"})`;
  return t === "undefined" ? "undefined" : `a ${t}`;
}

/** A pin id: a safe integer or a BigInt within int64 (not INT64_MIN, PINDROP_NO_ID). */
function toId(v, name = "id") {
  if (typeof v === "bigint") {
    if (v < INT64_MIN || v > INT64_MAX) throw new InvalidArgument(`${name} ${v} is outside the 64-bit integers`, -1);
    return v;
  }
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) {
      throw new TypeError(`${name} must be a safe integer or a BigInt, not ${v}${Number.isInteger(v) ? " (beyond 2^53: pass a BigInt)" : ""}`);
    }
    return BigInt(v);
  }
  throw new TypeError(`${name} must be a number (safe integer) or a BigInt, not ${describe(v)}`);
}

const MAX_SAFE = 9007199254740991;

/** The TypeError for a new pin's id beyond ±(2^53 − 1) on a map without bigintIds. Such a map
 *  returns ids as numbers, and frame().id as a Float64Array, where 2^62 + 1 would read 2^62: the
 *  pin is refused rather than given an id it could not be told by (docs/web.md, "Ids"). */
function unsafeId(id, name) {
  return new TypeError(`${name} ${id} is beyond 2^53, which a map without bigintIds cannot return exactly ` +
    "(its ids, frame().id included, are float64): create the map with { bigintIds: true }");
}

/** A new pin's id on a map without bigintIds (toId, then unsafeId beyond 2^53). NO_ID goes on to
 *  the library, which refuses it with its own message. */
function safeId(v, name = "id") {
  const id = toId(v, name);
  if ((id > 9007199254740991n || id < -9007199254740991n) && id !== NO_ID) throw unsafeId(id, name);
  return id;
}

/** safeId over the ids of an addMany, before anything is allocated: a BigInt64Array read as
 *  32-bit halves (no BigInt per id), an array's BigInts one by one; numbers are checked as they
 *  are written (writeIds). */
function checkSafeIds(ids) {
  const n = ids.length;
  if (ids instanceof BigInt64Array) {
    const halves = new Int32Array(ids.buffer, ids.byteOffset, 2 * n);
    for (let i = 0; i < n; i++) {
      const hi = halves[2 * i + 1], lo = halves[2 * i] >>> 0;
      const v = hi * 4294967296 + lo;  // exact up to 2^53; beyond, rounding keeps it beyond
      if ((v > MAX_SAFE || v < -MAX_SAFE) && !(hi === -2147483648 && lo === 0)) throw unsafeId(ids[i], `ids[${i}]`);
    }
  } else if (!ArrayBuffer.isView(ids) || ids instanceof BigUint64Array) {
    for (let i = 0; i < n; i++) if (typeof ids[i] === "bigint") safeId(ids[i], `ids[${i}]`);
  }
}

/** An id from the module: null for PINDROP_NO_ID, a number when safe, else a BigInt. */
function fromId(v, bigint) {
  if (v === NO_ID) return null;
  if (bigint) return v;
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

function u64(v, name) {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new TypeError(`${name} must be a non-negative safe integer or a BigInt, not ${v}${Number.isInteger(v) && v > 0 ? " (beyond 2^53: pass the BigInt as it came)" : ""}`);
    }
    return BigInt(v);
  }
  if (typeof v === "bigint") {
    if (v < 0n || v >= 2n ** 64n) throw new InvalidArgument(`${name} ${v} is outside the unsigned 64-bit integers`, -1);
    return v;
  }
  throw new TypeError(`${name} must be a number or a BigInt, not ${describe(v)}`);
}

/** Writes ids (numbers, BigInts, a BigInt64Array) as int64 at p in the module's memory. Safe
 *  integers are written as two 32-bit halves (no BigInt per id); BigInts as they are. */
function writeIds(l, ids, p) {
  const i64 = l.i64, base = p >> 3, n = ids.length;
  if (ids instanceof BigInt64Array) { i64.set(ids, base); return; }
  const u32 = l.u32, i32 = l.i32;
  for (let i = 0; i < n; i++) {
    const v = ids[i];
    if (typeof v === "number" && Number.isSafeInteger(v)) {
      const hi = Math.floor(v / 4294967296);
      u32[2 * (base + i)] = v - hi * 4294967296;
      i32[2 * (base + i) + 1] = hi;
    } else {
      i64[base + i] = toId(v, `ids[${i}]`);
    }
  }
}

/** An array-like argument's length, or a TypeError naming it. */
function arrayLength(v, name) {
  const n = v?.length;
  if (typeof n !== "number" || typeof v === "string" || typeof v === "function") {
    throw new TypeError(`${name} must be an array or typed array, not ${describe(v)}`);
  }
  return n;
}

function fromU64(v) { return v <= 9007199254740991n ? Number(v) : v; }

/** The n pindrop_cluster_view structs at p into the typed arrays of c (one small function of
 *  its own: the engine optimises it once, whatever state the calling method is in). */
function copyClusters(l, p, n, c) {
  const f64 = l.f64, u32 = l.u32;
  const { keyHalves, x, y, lon, lat, size, flags } = c;
  for (let i = 0, d = p >> 3; i < n; i++, d += 6) {
    // all 64 bits of the key (a level, a generation and a slot; a stack's top five bits set),
    // copied as two halves: no BigInt per cluster
    keyHalves[2 * i] = u32[2 * d]; keyHalves[2 * i + 1] = u32[2 * d + 1];
    x[i] = f64[d + 1]; y[i] = f64[d + 2]; lon[i] = f64[d + 3]; lat[i] = f64[d + 4];
    size[i] = u32[2 * d + 10]; flags[i] = u32[2 * d + 11];
  }
}

/** fromId of the int64 at p (8-aligned) in the module's memory, read as two 32-bit halves: no
 *  BigInt made unless the id needs one. */
function idAt(l, p, bigint) {
  const lo = l.u32[p >> 2], hi = l.i32[(p >> 2) + 1];
  if (hi === -2147483648 && lo === 0) return null;  // PINDROP_NO_ID
  if (bigint) return l.i64[p >> 3];
  const v = hi * 4294967296 + lo;  // exact up to 2^53; beyond, rounding keeps it beyond
  return v >= -9007199254740991 && v <= 9007199254740991 ? v : l.i64[p >> 3];
}

/** fromU64 of the uint64 at p (8-aligned), as idAt. */
function u64At(l, p) {
  const lo = l.u32[p >> 2], hi = l.u32[(p >> 2) + 1];
  return hi < 2097152 ? hi * 4294967296 + lo : l.u64[p >> 3];
}

function float64Array(v, name) {
  if (v instanceof Float64Array) return v;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const a = Float64Array.from(v, (x, i) => num(x, `${name}[${i}]`));
    return a;
  }
  throw new TypeError(`${name} must be a Float64Array (or an array of numbers), not ${describe(v)}`);
}

// ---------------------------------------------------------------------------------------------
// Maps
// ---------------------------------------------------------------------------------------------

/** The Map method that calls C function `fn` (pindrop_map_key_lift: keyLift), for the errors of
 *  a disposed map; a method's own name as it is. */
function methodOf(fn) {
  if (!fn.startsWith("pindrop_map_")) return fn;
  const name = fn.slice(12);
  return METHOD_NAMES[name] ?? name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}
/** The methods whose names are not their C function's in camelCase. */
const METHOD_NAMES = { to_lonlat: "toLonLat", cluster_members_from: "clusterMembers", focused: "focus",
  frame_clusters: "clusters" };

/** Count-returning calls whose failure (0 with a last error) is an unknown or stale key. */
const KEYED_COUNTS = new Set(["pindrop_map_cluster_members", "pindrop_map_cluster_members_from",
  "pindrop_map_cluster_categories"]);

const registry = typeof FinalizationRegistry !== "undefined"
  ? new FinalizationRegistry(({ owner, handle }) => {
    // Only into the module that made the map, and never letting a trap out of the collector.
    if (owner.broken) return;
    try { owner.x.pindrop_map_destroy(handle); } catch (e) { owner.broken = `pindrop_map_destroy: ${e.message}`; }
  })
  : null;

/**
 * A map: its pins, the camera, the gesture in progress, spread layouts, clusters, the edit and
 * its history. Options are pindrop_options in camelCase, with string enums:
 * `new Map({ liftDelayMs: 0, spreadMode: "spiral", clusterRadius: 60, outsidePolicy: "snap" })`.
 * `bigintIds: true` returns ids as BigInt everywhere (frame().id is then a BigInt64Array); a map
 * whose ids go beyond 2^53 needs it (without it, ids are numbers and such an id is refused).
 * Unknown option keys and yes/no options that are not booleans (or 0 or 1) are TypeErrors.
 */
export class Map {
  #lib; #h; #bigint;
  #frameBuf = 0; #frameCap = 0; #frame = null; #frameView = null;
  #clusterBuf = 0; #clusterCap = 0; #clusters = null; #clusterView = null;
  #idsBuf = 0; #idsCap = 0;

  constructor(options = {}) {
    const l = need("new Map");
    if (options === null || typeof options !== "object") throw new TypeError(`options must be an object, not ${describe(options)}`);
    knownKeys(options, MAP_OPTIONS, "new Map");
    this.#bigint = options.bigintIds === undefined ? false : bool(options.bigintIds, "options.bigintIds");
    const o = l.malloc(OPTIONS_SIZE);
    try {
      check(l, l.call("pindrop_options_init", o, OPTIONS_SIZE), "pindrop_options_init");
      for (const [name, offset, kind] of OPTION_FIELDS) {
        const v = options[name];
        if (v === undefined) continue;
        if (kind === "f64") { l.dv.setFloat64(o + offset, num(v, `options.${name}`), true); continue; }
        if (kind === "u32") { l.dv.setUint32(o + offset, uint32(v, `options.${name}`), true); continue; }
        if (kind === "bool") { l.dv.setUint32(o + offset, bool(v, `options.${name}`) ? 1 : 0, true); continue; }
        if (typeof v !== "string" || !(v in kind)) {
          throw new TypeError(`options.${name} must be one of ${Object.keys(kind).map((k) => `"${k}"`).join(", ")}, not ${describe(v)}`);
        }
        l.dv.setInt32(o + offset, kind[v], true);
      }
      const out = l.scratch;
      l.dv.setUint32(out, 0, true);
      check(l, l.call("pindrop_map_create", o, out), "pindrop_map_create");
      this.#h = l.fresh().dv.getUint32(out, true);
    } finally {
      l.free(o);
    }
    this.#lib = l;
    registry?.register(this, { owner: l, handle: this.#h }, this);
  }

  /** Frees the map now (also done when a dropped Map is garbage collected). Idempotent. */
  dispose() {
    if (!this.#h) return;
    const l = this.#lib;
    registry?.unregister(this);
    if (!l.broken) {
      for (const p of [this.#frameBuf, this.#clusterBuf, this.#idsBuf]) l.free(p);
      l.call("pindrop_map_destroy", this.#h);
    }
    this.#h = 0;
    this.#frameBuf = this.#clusterBuf = this.#idsBuf = 0;
  }

  get disposed() { return !this.#h; }

  /** The library, or a StateError for a disposed map (status PINDROP_ERR_STATE, `function` the
   *  method called). `fn`: the method's name, or the C function it calls (pindrop_map_key_lift
   *  is keyLift). */
  #m(fn) {
    if (!this.#h) {
      const method = methodOf(fn);
      throw new StateError(`the map has been disposed: ${method}() cannot be called on it`, STATUS_STATE, method);
    }
    if (this.#lib.broken) throw new InternalError(`the pindrop module stopped after an internal error (${this.#lib.broken})`);
    return this.#lib;
  }

  #status(l, r, fn) {
    if (r < 0) {
      const E = ERRORS[r] ?? PindropError;
      throw new E(l.string(l.call("pindrop_map_last_error", this.#h)) || `${fn} failed (status ${r})`, r, fn);
    }
    return r;
  }

  #call(fn, a, b, c, d, e) {
    const l = this.#m(fn);
    return this.#status(l, l.f[fn](this.#h, a, b, c, d, e), fn);
  }

  /** A count-returning call: 0 with a last error set is a failure, of the kind the header
   *  gives for that function (an unknown cluster key: NotFound; anything else: InvalidArgument). */
  #count(fn, a, b, c, d, e, f) {
    const l = this.#m(fn);
    return this.#counted(l, l.f[fn](this.#h, a, b, c, d, e, f) >>> 0, fn);
  }

  /** A count fn returned: 0 with a last error set throws. */
  #counted(l, n, fn) {
    if (n === 0) {
      const msg = l.string(l.f.pindrop_map_last_error(this.#h));
      if (msg) {
        const [E, status] = KEYED_COUNTS.has(fn) ? [NotFound, -2] : [InvalidArgument, -1];
        throw new E(msg, status, fn);
      }
    }
    return n;
  }

  #ensureIds(n) {
    const l = this.#lib;
    if (n > this.#idsCap) {
      l.free(this.#idsBuf);
      this.#idsBuf = 0;
      this.#idsCap = Math.max(n, 2 * this.#idsCap, 64);
      this.#idsBuf = l.malloc(8 * this.#idsCap);
    }
    return this.#idsBuf;
  }

  /** The message of the last failed call on this map ("" if none). */
  lastError() { const l = this.#m("lastError"); return l.string(l.call("pindrop_map_last_error", this.#h)); }

  // -- view ----------------------------------------------------------------------------------

  /** The built-in Web Mercator camera (256-point tiles): centre, zoom, viewport in points,
   *  bearing clockwise. Also takes one object {centerLon, centerLat, zoom, width, height, bearingDeg}. */
  setCamera(centerLon, centerLat, zoom, width, height, bearingDeg = 0) {
    const l = this.#m("setCamera");
    if (centerLon !== null && typeof centerLon === "object") {
      knownKeys(centerLon, CAMERA_FIELDS, "setCamera");
      ({ centerLon, centerLat, zoom, width, height, bearingDeg = 0 } = centerLon);
    }
    const c = l.scratch, dv = l.dv;
    dv.setFloat64(c, num(centerLon, "centerLon"), true);
    dv.setFloat64(c + 8, num(centerLat, "centerLat"), true);
    dv.setFloat64(c + 16, num(zoom, "zoom"), true);
    dv.setFloat64(c + 24, num(bearingDeg, "bearingDeg"), true);
    dv.setFloat64(c + 32, num(width, "width"), true);
    dv.setFloat64(c + 40, num(height, "height"), true);
    this.#status(l, l.f.pindrop_map_set_camera(this.#h, c), "pindrop_map_set_camera");
  }

  /** The screen point [x, y] of (lon, lat). */
  toScreen(lon, lat) {
    const l = this.#m("toScreen"), s = l.scratch;
    this.#call("pindrop_map_to_screen", num(lon, "lon"), num(lat, "lat"), s, s + 8);
    return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
  }

  /** The coordinate [lon, lat] under screen point (x, y). */
  toLonLat(x, y) {
    const l = this.#m("toLonLat"), s = l.scratch;
    this.#call("pindrop_map_to_lonlat", num(x, "x"), num(y, "y"), s, s + 8);
    return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
  }

  // -- pins ----------------------------------------------------------------------------------

  /** Adds pin `id` at (lon, lat). Without bigintIds, an id beyond ±(2^53 − 1) is a TypeError. */
  add(id, lon, lat) { this.#call("pindrop_map_add", this.#newId(id), num(lon, "lon"), num(lat, "lat")); }

  /** A new pin's id: any int64 on a map with bigintIds, within ±(2^53 − 1) on one without. */
  #newId(v, name) { return this.#bigint ? toId(v, name) : safeId(v, name); }

  /** Adds n pins: ids (numbers, BigInts, a BigInt64Array or a Float64Array of safe integers; as
   *  add, within ±(2^53 − 1) unless bigintIds) and lonlat, a Float64Array [lon0, lat0, lon1, lat1,
   *  ...]. All or nothing. */
  addMany(ids, lonlat) {
    const l = this.#m("addMany");
    const n = arrayLength(ids, "ids");
    if (!this.#bigint) checkSafeIds(ids);
    const ll = float64Array(lonlat, "lonlat");
    if (ll.length !== 2 * n) {
      throw new InvalidArgument(`lonlat has ${ll.length} numbers for ${n} ids (it needs 2 per id: lon, lat)`, -1, "pindrop_map_add_many");
    }
    if (n === 0) return;
    const pi = l.malloc(8 * n);
    let pl = 0;
    try {
      pl = l.malloc(16 * n);
      l.reserve(n * ADD_MANY_BYTES_PER_PIN);
      writeIds(l.fresh(), ids, pi);
      l.f64.set(ll, pl >> 3);
      this.#call("pindrop_map_add_many", pi, pl, n);
    } finally {
      l.free(pi); l.free(pl);
    }
  }

  remove(id) { this.#call("pindrop_map_remove", toId(id)); }

  /** Moves a pin as the host: no MOVED event, no undo entry. */
  setPosition(id, lon, lat) {
    const l = this.#m("setPosition"), i = toId(id);
    this.#status(l, l.f.pindrop_map_set_position(this.#h, i, num(lon, "lon"), num(lat, "lat")), "pindrop_map_set_position");
  }

  /** The pin's true coordinate [lon, lat]. */
  position(id) { return this.#pair("pindrop_map_position", id); }

  /** Where the pin is drawn [lon, lat] (spread, or where it would land while dragged). */
  displayPosition(id) { return this.#pair("pindrop_map_display_position", id); }

  #pair(fn, id) {
    const l = this.#m(fn), s = l.scratch;
    this.#call(fn, toId(id), s, s + 8);
    return [l.f64[s >> 3], l.f64[(s >> 3) + 1]];
  }

  setDraggable(id, draggable) {
    if (typeof draggable !== "boolean") throw new TypeError(`draggable must be a boolean, not ${describe(draggable)}`);
    this.#call("pindrop_map_set_draggable", toId(id), draggable ? 1 : 0);
  }

  /** Number of pins. */
  get count() { const l = this.#m("count"); return l.call("pindrop_map_count", this.#h) >>> 0; }
  get size() { this.#m("size"); return this.count; }

  // -- queries -------------------------------------------------------------------------------

  /** The pin drawn nearest to (x, y) within hitRadius, or null. */
  hitTest(x, y) {
    const l = this.#m("hitTest"), s = l.scratch;
    const r = l.f.pindrop_map_hit_test(this.#h, num(x, "x"), num(y, "y"), s);
    if (r === -2) return null;
    if (r < 0) this.#status(l, r, "pindrop_map_hit_test");
    return idAt(l, s, this.#bigint);
  }

  /** hitTest for many points xy = [x0, y0, x1, y1, ...]: an array of ids (null for a miss). */
  hitTestMany(xy) {
    const l = this.#m("hitTestMany"), a = float64Array(xy, "xy");
    if (a.length % 2) throw new InvalidArgument(`xy has an odd length ${a.length}`, -1, "pindrop_map_hit_test_many");
    const n = a.length / 2;
    if (n === 0) return [];
    const p = l.malloc(16 * n), ids = this.#ensureIds(n);
    try {
      l.fresh().f64.set(a, p >> 3);
      this.#call("pindrop_map_hit_test_many", p, n, ids);
      const out = new Array(n), i64 = l.i64, base = ids >> 3;
      for (let i = 0; i < n; i++) out[i] = fromId(i64[base + i], this.#bigint);
      return out;
    } finally { l.free(p); }
  }

  /** Pins whose true coordinate lies within radiusM metres of (lon, lat), nearest first:
   *  [{id, distanceM}]; at most `limit` of them when given. */
  nearby(lon, lat, radiusM, limit = Infinity) {
    const l = this.#m("nearby");
    num(lon, "lon"); num(lat, "lat"); num(radiusM, "radiusM");
    if (limit !== Infinity && !(Number.isSafeInteger(limit) && limit >= 0)) {
      throw new TypeError(`limit must be a non-negative integer or Infinity, not ${typeof limit === "number" ? limit : describe(limit)}`);
    }
    if (limit === 0) return [];
    let cap = Math.min(limit, 256);
    for (;;) {
      const ids = this.#ensureIds(cap);
      const dist = l.malloc(8 * Math.max(cap, 1));
      try {
        const total = this.#count("pindrop_map_nearby", lon, lat, radiusM, ids, dist, cap);
        const want = Math.min(total, limit);
        if (want <= cap) {
          const out = [], i64 = l.i64, f64 = l.f64;
          for (let i = 0; i < want; i++) out.push({ id: fromId(i64[(ids >> 3) + i], this.#bigint), distanceM: f64[(dist >> 3) + i] });
          return out;
        }
        cap = want;
      } finally { l.free(dist); }
    }
  }

  // -- what to draw --------------------------------------------------------------------------

  /**
   * The pins to draw at timeMs, in drawing order, as typed arrays (reused by the next call: copy
   * what you keep): {count, id, x, y, anchorX, anchorY, lift, flags}, each array `count` long.
   */
  frame(timeMs) {
    const l = this.#m("frame");
    num(timeMs, "timeMs");
    let n = this.#counted(l, l.f.pindrop_map_frame(this.#h, timeMs, this.#frameBuf, this.#frameCap) >>> 0, "pindrop_map_frame");
    if (n > this.#frameCap) {
      l.free(this.#frameBuf);
      this.#frameBuf = 0;
      this.#frameCap = Math.max(n, 2 * this.#frameCap, 256);
      this.#frameBuf = l.malloc(PIN_VIEW_SIZE * this.#frameCap);
      n = Math.min(this.#count("pindrop_map_frame", timeMs, this.#frameBuf, this.#frameCap), this.#frameCap);
    }
    let f = this.#frame;
    if (!f || f.x.length < n) {
      const cap = Math.max(n, 2 * (f?.x.length ?? 0), 64);
      f = this.#frame = {
        id: this.#bigint ? new BigInt64Array(cap) : new Float64Array(cap),
        x: new Float64Array(cap), y: new Float64Array(cap), anchorX: new Float64Array(cap),
        anchorY: new Float64Array(cap), lift: new Float64Array(cap), flags: new Uint32Array(cap),
      };
      this.#frameView = null;
    }
    const f64 = l.f64, i32 = l.i32, u32 = l.u32, i64 = l.i64;
    let d = this.#frameBuf >> 3;
    const { id, x, y, anchorX, anchorY, lift, flags } = f;
    for (let i = 0; i < n; i++, d += 7) {
      if (this.#bigint) id[i] = i64[d];
      else id[i] = i32[2 * d + 1] * 4294967296 + u32[2 * d];
      x[i] = f64[d + 1]; y[i] = f64[d + 2]; anchorX[i] = f64[d + 3]; anchorY[i] = f64[d + 4];
      lift[i] = f64[d + 5]; flags[i] = u32[2 * d + 12];
    }
    // The same object as last time when the count is the same (its views already cover n).
    if (this.#frameView?.count === n) return this.#frameView;
    return (this.#frameView = { count: n, id: id.subarray(0, n), x: x.subarray(0, n), y: y.subarray(0, n),
      anchorX: anchorX.subarray(0, n), anchorY: anchorY.subarray(0, n), lift: lift.subarray(0, n),
      flags: flags.subarray(0, n) });
  }

  /**
   * The clusters to draw at timeMs (none unless clusterRadius > 0 and the zoom is below
   * clusterMaxZoom; with spreadOnTap also the collapsed stacks), as typed arrays reused by the
   * next call: {count, key, x, y, lon, lat, size, flags} (`size`: the members, >= 2; `key`, a
   * BigUint64Array, names the cluster in clusterMembers, clusterSummary, ... while its members
   * stay the same; `flags`: CLUSTER_ONE_SPOT, CLUSTER_STACK for a collapsed stack).
   */
  clusters(timeMs) {
    const l = this.#m("clusters");
    num(timeMs, "timeMs");
    let n = this.#counted(l, l.f.pindrop_map_frame_clusters(this.#h, timeMs, this.#clusterBuf, this.#clusterCap) >>> 0,
      "pindrop_map_frame_clusters");
    if (n > this.#clusterCap) {
      l.free(this.#clusterBuf);
      this.#clusterBuf = 0;
      this.#clusterCap = Math.max(n, 2 * this.#clusterCap, 256);
      this.#clusterBuf = l.malloc(CLUSTER_VIEW_SIZE * this.#clusterCap);
      n = Math.min(this.#count("pindrop_map_frame_clusters", timeMs, this.#clusterBuf, this.#clusterCap), this.#clusterCap);
    }
    let c = this.#clusters;
    if (!c || c.x.length < n) {
      const cap = Math.max(n, 2 * (c?.x.length ?? 0), 64);
      const key = new BigUint64Array(cap);
      c = this.#clusters = { key, keyHalves: new Uint32Array(key.buffer), x: new Float64Array(cap), y: new Float64Array(cap),
        lon: new Float64Array(cap), lat: new Float64Array(cap), size: new Uint32Array(cap), flags: new Uint32Array(cap) };
      this.#clusterView = null;
    }
    copyClusters(l, this.#clusterBuf, n, c);
    if (this.#clusterView?.count === n) return this.#clusterView;
    const { key, x, y, lon, lat, size, flags } = c;
    return (this.#clusterView = { count: n, key: key.subarray(0, n), x: x.subarray(0, n), y: y.subarray(0, n),
      lon: lon.subarray(0, n), lat: lat.subarray(0, n), size: size.subarray(0, n), flags: flags.subarray(0, n) });
  }

  /** The ids of a cluster's (or a collapsed stack's) members in ascending id order, from
   *  `offset` on, at most `limit` of them (default: all): a page, as supercluster's getLeaves.
   *  NotFound for an unknown or stale key (a key goes stale once its members change). */
  clusterMembers(key, offset = 0, limit = Infinity) {
    const l = this.#m("clusterMembers"), k = u64(key, "key");
    count(offset, "offset"); count(limit, "limit", true);
    // size_t is 32 bits here and the module refuses 2^31 and above as no buffer's size: no
    // cluster has that many members, so a larger offset is past every member all the same.
    const first = Math.min(offset, 0x7FFFFFFF);
    let cap = Math.min(limit, 256);
    for (;;) {
      const ids = this.#ensureIds(Math.max(cap, 1));
      const total = this.#count("pindrop_map_cluster_members_from", k, first, ids, cap);
      const n = Math.max(0, Math.min(limit, total - first));
      if (n <= cap) {
        const out = new Array(n), i64 = l.i64, base = ids >> 3;
        for (let i = 0; i < n; i++) out[i] = fromId(i64[base + i], this.#bigint);
        return out;
      }
      cap = n;
    }
  }

  /** The zoom where a tap on the cluster should take the camera. */
  clusterExpansionZoom(key) {
    const l = this.#m("clusterExpansionZoom"), s = l.scratch;
    this.#call("pindrop_map_cluster_expansion_zoom", u64(key, "key"), s);
    return l.f64[s >> 3];
  }

  // -- what clusters hold (since 0.3) --------------------------------------------------------

  /**
   * Sets the pins' values (numbers, e.g. a trunk diameter; NaN = none) and/or categories
   * (unsigned 32-bit integers, e.g. a species code; any but CATEGORY_MIXED): arrays or typed
   * arrays as long as `ids`, or one number for every id; undefined or null leaves that attribute
   * as it is. All or nothing: NotFound for an unknown id, InvalidArgument for an infinite value or
   * CATEGORY_MIXED, and nothing changes. Summaries follow at once (clusterSummary, clusterCategories).
   */
  setAttributes(ids, values = null, categories = null) {
    const l = this.#m("setAttributes");
    const n = arrayLength(ids, "ids");
    const vals = values === null || values === undefined ? null
      : typeof values === "number" ? new Float64Array(n).fill(values) : float64Array(values, "values");
    let cats = null;
    if (categories !== null && categories !== undefined) {
      if (typeof categories === "number") cats = new Uint32Array(n).fill(uint32(categories, "categories"));
      else if (categories instanceof Uint32Array) cats = categories;
      else cats = Uint32Array.from({ length: arrayLength(categories, "categories") }, (_, i) => uint32(categories[i], `categories[${i}]`));
    }
    for (const [a, name] of [[vals, "values"], [cats, "categories"]]) {
      if (a && a.length !== n) {
        throw new InvalidArgument(`${name} has ${a.length} entries for ${n} ids (one per id, or one number for all)`, -1, "pindrop_map_set_attributes");
      }
    }
    if (n === 0) return;
    const pi = l.malloc(8 * n);
    let pv = 0, pc = 0;
    try {
      if (vals) pv = l.malloc(8 * n);
      if (cats) pc = l.malloc(4 * n);
      writeIds(l.fresh(), ids, pi);
      if (vals) l.f64.set(vals, pv >> 3);
      if (cats) l.u32.set(cats, pc >> 2);
      this.#call("pindrop_map_set_attributes", pi, pv, pc, n);
    } finally {
      l.free(pi); l.free(pv); l.free(pc);
    }
  }

  /**
   * What a cluster (or a collapsed stack) holds: {count, valued, category, flags, valueSum,
   * valueMin, valueMax, valueMean}: its pins, how many have a value, the sum, minimum, maximum
   * and mean of those values (NaN when none has one), the pins' common category or
   * CATEGORY_MIXED, and flags (CLUSTER_ONE_SPOT when they share one point). NotFound for an
   * unknown or stale key.
   */
  clusterSummary(key) {
    const l = this.#m("clusterSummary"), k = u64(key, "key"), s = l.scratch;
    this.#call("pindrop_map_cluster_summary", k, s);
    const u32 = l.u32, f64 = l.f64, b = s >> 2, d = s >> 3;
    const valued = u32[b + 1], valueSum = f64[d + 2];
    return { count: u32[b], valued, category: u32[b + 2], flags: u32[b + 3], valueSum,
      valueMin: f64[d + 3], valueMax: f64[d + 4], valueMean: valued ? valueSum / valued : NaN };
  }

  /** A cluster's categories with their pin counts, most pins first, ties by lower category:
   *  {category: Uint32Array, count: Uint32Array} (new arrays). NotFound for an unknown or stale key. */
  clusterCategories(key) {
    const l = this.#m("clusterCategories"), k = u64(key, "key");
    let cap = 16;
    for (;;) {
      const p = l.malloc(8 * cap);
      try {
        const total = this.#count("pindrop_map_cluster_categories", k, p, p + 4 * cap, cap);
        if (total <= cap) {
          const u32 = l.u32, b = p >> 2;
          return { category: u32.slice(b, b + total), count: u32.slice(b + cap, b + cap + total) };
        }
        cap = total;
      } finally { l.free(p); }
    }
  }

  // -- keyboard focus and drag (since 0.3) ----------------------------------------------------

  /** Moves the keyboard focus to the next (+1, Tab) or previous (-1, Shift+Tab) pin or cluster
   *  the last frame() drew inside the viewport, in reading order, wrapping; returns the new focus
   *  {kind: "none" | "pin" | "cluster", id, key, x, y}. InvalidArgument for another step. */
  focusStep(step) {
    const l = this.#m("focusStep"), s = l.scratch;
    this.#call("pindrop_map_focus_step", int32(step, "step"), s);
    return this.#focus(l, s);
  }

  /** The keyboard focus as the last frame left it: {kind, id, key, x, y} (id: the pin or null;
   *  key: the cluster's key, a BigInt, or null; x, y: its drawn screen point). */
  get focus() {
    const l = this.#m("focus"), s = l.scratch;
    this.#call("pindrop_map_focused", s);
    return this.#focus(l, s);
  }

  #focus(l, s) {
    const dv = l.dv, k = dv.getInt32(s, true);
    const kind = FOCUS_KINDS[k] ?? `FOCUS_${k}`;
    return { kind, id: kind === "pin" ? fromId(dv.getBigInt64(s + 8, true), this.#bigint) : null,
      key: kind === "cluster" ? dv.getBigUint64(s + 16, true) : null,
      x: dv.getFloat64(s + 24, true), y: dv.getFloat64(s + 32, true) };
  }

  /** Where the focus stands among the items focusStep moves through, for "4 of 27":
   *  {index, total} (index from 0; null when none of them has the focus). */
  get focusRank() {
    const l = this.#m("focusRank"), s = l.scratch;
    this.#call("pindrop_map_focus_rank", s, s + 4);
    const index = l.u32[s >> 2], total = l.u32[(s >> 2) + 1];
    return { index: index === total ? null : index, total };
  }

  /** Lifts the selected pin by keyboard (Alt+Space): LIFTED; nudges then drag it (DRAGGED),
   *  keyDrop drops it, cancelGesture puts it back. StateError when nothing is selected, the
   *  keyboard already holds a pin or a pointer is down. */
  keyLift(timeMs) { this.#call("pindrop_map_key_lift", num(timeMs, "timeMs")); }

  /** Drops the pin the keyboard holds (Space, Enter): DROPPED, then MOVED with cause KEYBOARD
   *  and its follow-ups, one undo step. StateError when the keyboard holds no pin. */
  keyDrop(timeMs) { this.#call("pindrop_map_key_drop", num(timeMs, "timeMs")); }

  // -- stacks that open on demand (spreadOnTap, since 0.3) ------------------------------------

  /** Opens the collapsed stack `key` (a clusters() item flagged CLUSTER_STACK): STACK_CLOSED for
   *  the stack open before, then STACK_OPENED. NotFound for a key that names no stack now. */
  openStack(key, timeMs) { this.#call("pindrop_map_open_stack", u64(key, "key"), num(timeMs, "timeMs")); }

  /** Closes the open stack (STACK_CLOSED); nothing happens when none is open. */
  closeStack(timeMs) { this.#call("pindrop_map_close_stack", num(timeMs, "timeMs")); }

  // -- input ---------------------------------------------------------------------------------

  /** Feeds one pointer event: phase "down" | "move" | "up" | "cancel". True when pindrop owns
   *  the gesture (do not pan or zoom the map with it), false when the map should handle it. */
  touch(pointer, phase, x, y, timeMs) {
    int32(pointer, "pointer");
    const p = PHASES[phase];
    if (typeof phase !== "string" || p === undefined) {
      throw new TypeError(`phase must be "down", "move", "up" or "cancel", not ${describe(phase)}`);
    }
    const l = this.#m("touch");
    const r = l.f.pindrop_map_touch(this.#h, pointer, p, num(x, "x"), num(y, "y"), num(timeMs, "timeMs"));
    if (r < 0) this.#status(l, r, "pindrop_map_touch");
    return r === 1;
  }

  /** Resolves timeouts due at timeMs (lift delay, double-tap window, auto-pan). */
  tick(timeMs) {
    const l = this.#m("tick");
    const r = l.f.pindrop_map_tick(this.#h, num(timeMs, "timeMs"));
    if (r < 0) this.#status(l, r, "pindrop_map_tick");
  }

  /** When the next tick is due (ms), Infinity when nothing is pending. */
  nextDeadline() { const l = this.#m("nextDeadline"); return l.f.pindrop_map_next_deadline(this.#h); }

  /** Ticks at every deadline up to timeMs, then at timeMs: what a host's timer would do. */
  advance(timeMs) {
    this.#m("advance");
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
  cancelGesture(timeMs) { this.#call("pindrop_map_cancel_gesture", num(timeMs, "timeMs")); }

  /** The oldest pending event, or null. */
  pollEvent() {
    const l = this.#m("pollEvent"), e = l.scratch;
    if (l.f.pindrop_map_poll_event(this.#h, e) !== 1) return null;
    return readEvent(l, e, this.#bigint);
  }

  /** Drains the pending events, oldest first, into an array of plain objects. */
  events() {
    const l = this.#m("events"), e = l.scratch, poll = l.f.pindrop_map_poll_event, h = this.#h, out = [];
    while (poll(h, e) === 1) out.push(readEvent(l, e, this.#bigint));
    return out;
  }

  // -- editing -------------------------------------------------------------------------------

  /** Adds pin `id` and starts editing it (tap-to-move until commit / cancelEdit). */
  place(id, lon, lat, timeMs) { this.#call("pindrop_map_place", this.#newId(id), num(lon, "lon"), num(lat, "lat"), num(timeMs, "timeMs")); }
  /** Starts editing an existing pin. */
  edit(id, timeMs) { this.#call("pindrop_map_edit", toId(id), num(timeMs, "timeMs")); }
  /** Ends the edit, keeping the pin where it is (StateError when nothing is edited). */
  commit(timeMs) { this.#call("pindrop_map_commit", num(timeMs, "timeMs")); }
  /** Ends the edit: removes a placed pin, restores an edited one. */
  cancelEdit(timeMs) { this.#call("pindrop_map_cancel_edit", num(timeMs, "timeMs")); }
  /** Selects a pin (null: none), emitting SELECTED / DESELECTED. */
  select(id) { this.#call("pindrop_map_select", id === null ? NO_ID : toId(id)); }
  /** The selected pin, or null. */
  selected() {
    const l = this.#m("selected"), s = l.scratch;
    this.#call("pindrop_map_selected", s);
    return idAt(l, s, this.#bigint);
  }

  /** Moves the selected pin by (dx, dy) screen points from where it is drawn (arrow keys). */
  nudge(dx, dy, timeMs) { this.#call("pindrop_map_nudge", num(dx, "dx"), num(dy, "dy"), num(timeMs, "timeMs")); }

  // -- callouts ------------------------------------------------------------------------------

  /** Sets the pin's callout title (null clears it). */
  setTitle(id, title) {
    const l = this.#m("setTitle"), i = toId(id);
    if (title === null) { this.#call("pindrop_map_set_title", i, 0); return; }
    if (typeof title !== "string") throw new TypeError(`title must be a string or null, not ${describe(title)}`);
    const p = l.cString(title, "title", "pindrop_map_set_title");
    try { this.#call("pindrop_map_set_title", i, p); } finally { l.free(p); }
  }

  /** Answers a GEOCODE_REQUEST: true if shown, false if stale (the pin moved since). */
  answerGeocode(request, subtitle) {
    const l = this.#m("answerGeocode"), r = u64(request, "request");
    if (typeof subtitle !== "string") throw new TypeError(`subtitle must be a string, not ${describe(subtitle)}`);
    const p = l.cString(subtitle, "subtitle", "pindrop_map_answer_geocode");
    try { return this.#call("pindrop_map_answer_geocode", r, p) === 0; } finally { l.free(p); }
  }

  /** The pin's "title" or "subtitle" (default). */
  callout(id, which = "subtitle") {
    const w = { title: 0, subtitle: 1 }[which];
    if (w === undefined || typeof which !== "string") throw new TypeError(`which must be "title" or "subtitle", not ${describe(which)}`);
    const l = this.#m("callout"), i = toId(id), s = l.scratch;
    this.#call("pindrop_map_callout", i, w, 0, 0, s);
    const n = l.u32[s >> 2];
    const buf = l.malloc(n + 1);
    try {
      this.#call("pindrop_map_callout", i, w, buf, n + 1, s);
      return new TextDecoder().decode(l.u8.slice(buf, buf + n));
    } finally { l.free(buf); }
  }
  title(id) { this.#m("title"); return this.callout(id, "title"); }
  subtitle(id) { this.#m("subtitle"); return this.callout(id, "subtitle"); }

  // -- area, history -------------------------------------------------------------------------

  /** The area pins may be dropped in: WKT or GeoJSON (text, or a GeoJSON object); null clears it. */
  setAllowedArea(area) {
    const l = this.#m("setAllowedArea");
    if (area === null) { this.#call("pindrop_map_set_allowed_area", 0); return; }
    if (typeof area === "object") area = JSON.stringify(area);
    if (typeof area !== "string") throw new TypeError(`area must be WKT or GeoJSON text, a GeoJSON object or null, not ${describe(area)}`);
    const p = l.cString(area, "area", "pindrop_map_set_allowed_area");
    try { this.#call("pindrop_map_set_allowed_area", p); } finally { l.free(p); }
  }

  /** Undoes the latest user move (StateError when there is none). */
  undo(timeMs) { this.#call("pindrop_map_undo", num(timeMs, "timeMs")); }
  /** Redoes the latest undone move (StateError when there is none). */
  redo(timeMs) { this.#call("pindrop_map_redo", num(timeMs, "timeMs")); }
}

function check(l, status, fn) {
  if (status < 0) {
    const E = ERRORS[status] ?? PindropError;
    throw new E(l.lastError() || `${fn} failed (status ${status})`, status, fn);
  }
  return status;
}

// `using map = new Map()` where explicit resource management exists (Node 18 has no Symbol.dispose).
if (typeof Symbol.dispose === "symbol") {
  Object.defineProperty(Map.prototype, Symbol.dispose, { value() { this.dispose(); }, writable: true, configurable: true });
}

// Which fields each event type carries (include/pindrop.h, Sources/PindropCore/Events.swift).
const AT = 1, FROM = 2, OTHER = 4, DIST = 8, DXY = 16, REQ = 32, CAUSE = 64, ID = 128;
const KEY = 256;  // request is a cluster's or a stack's key: a BigInt, also given as `key`
const EVENT_FIELDS = [ID, ID, ID | AT, ID | AT, ID | AT, ID | AT, ID | AT | FROM | CAUSE, ID | AT | REQ,
  ID | AT, ID | OTHER | AT | DIST, ID | DXY, AT | REQ | KEY, AT | REQ | KEY, AT | REQ | KEY];

function readEvent(l, e, bigint) {
  // e is 8-aligned (a map's scratch): the fields read through the typed-array views.
  const i32 = l.i32, f64 = l.f64, b = e >> 2, d = e >> 3;
  const t = i32[b], c = i32[b + 1];
  const has = EVENT_FIELDS[t] ?? 0xff;
  const ev = {
    // A type or cause newer than this file (the header grows) keeps its number: "EVENT_12".
    type: EVENT_TYPES[t] ?? `EVENT_${t}`,
    cause: has & CAUSE ? (CAUSES[c] ?? `CAUSE_${c}`) : null,
    id: has & ID ? idAt(l, e + 8, bigint) : null,
    other: has & OTHER ? idAt(l, e + 16, bigint) : null,
    lon: has & AT ? f64[d + 3] : null, lat: has & AT ? f64[d + 4] : null,
    fromLon: has & FROM ? f64[d + 5] : null, fromLat: has & FROM ? f64[d + 6] : null,
    dx: has & DXY ? f64[d + 7] : null, dy: has & DXY ? f64[d + 8] : null,
    distanceM: has & DIST ? f64[d + 9] : null,
    timeMs: f64[d + 10],
    request: has & REQ ? (has & KEY ? l.u64[d + 11] : u64At(l, e + 88)) : null,
  };
  if (has & KEY) ev.key = ev.request;  // CLUSTER_TAPPED, STACK_OPENED, STACK_CLOSED
  return ev;
}

// ---------------------------------------------------------------------------------------------
// Measures
// ---------------------------------------------------------------------------------------------

/**
 * The facts of an announcement ("moved 12 m north-east"): {metres, bearing}, the great-circle
 * distance between two coordinates on pindrop's sphere (radius 6378137 m, as every distance
 * pindrop reports) and the initial bearing from the first to the second, degrees clockwise from
 * north in [0, 360). InvalidArgument for a coordinate that is not finite or out of range. Since 0.3.
 */
export function distance(fromLon, fromLat, toLon, toLat) {
  const l = need("distance"), s = l.scratch;
  check(l, l.call("pindrop_distance", num(fromLon, "fromLon"), num(fromLat, "fromLat"), num(toLon, "toLon"),
    num(toLat, "toLat"), s, s + 8), "pindrop_distance");
  return { metres: l.f64[s >> 3], bearing: l.f64[(s >> 3) + 1] };
}

// ---------------------------------------------------------------------------------------------
// Batch spreading
// ---------------------------------------------------------------------------------------------

/**
 * The drawn positions of n points lonlat = [lon0, lat0, ...] after the spreading rule (a new
 * Float64Array). layout "ring" (metres) or "spiral" (screen points at `zoom`, `spacing` apart).
 */
export function spread(lonlat, options = {}) {
  const l = need("spread");
  knownKeys(optionsObject(options, "spread"), SPREAD_OPTIONS, "spread");
  const { toleranceM = 0, layout = "ring", spacing = 25, zoom = undefined } = options;
  const a = float64Array(lonlat, "lonlat");
  num(toleranceM, "toleranceM"); num(spacing, "spacing");
  if (layout !== "ring" && layout !== "spiral") throw new TypeError(`layout must be "ring" or "spiral", not ${describe(layout)}`);
  if (layout === "spiral") num(zoom, "zoom (layout \"spiral\" is laid out in screen points: it needs the zoom)");
  else if (zoom !== undefined) throw new TypeError("zoom applies to layout \"spiral\" only (the ring is in metres)");
  if (a.length % 2) throw new InvalidArgument(`lonlat has an odd length ${a.length}`, -1, "pindrop_spread");
  const n = a.length / 2;
  const p = l.malloc(Math.max(8, 8 * a.length));
  try {
    l.fresh().f64.set(a, p >> 3);
    const fn = layout === "ring" ? "pindrop_spread" : "pindrop_spread_spiral";
    const r = layout === "ring" ? l.call(fn, p, n, toleranceM, p) : l.call(fn, p, n, toleranceM, spacing, zoom, p);
    check(l, r, fn);
    return l.f64.slice(p >> 3, (p >> 3) + a.length);
  } finally { l.free(p); }
}
