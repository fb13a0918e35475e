// The loaded module: its exports, each behind a guard that turns a trap into an InternalError,
// and views of its memory, with the strings, allocations and reservations the calls need.

import { InternalError, InvalidArgument, NoMemory } from "./errors.js";
import { RESERVE_MIN_BYTES, SCRATCH_SIZE } from "./tables.js";

const DECODER = new TextDecoder();

/** The exports and the module's memory views, renewed when the memory grows. */
export class Library {
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
    // The empty message (every successful count-returning call that found nothing: an empty
    // view) without a decoder or a view made.
    if (u8[p] === 0) return "";
    let end = p;
    while (u8[end] !== 0) end++;
    return DECODER.decode(u8.subarray(p, end));
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
