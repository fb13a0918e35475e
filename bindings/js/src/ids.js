// Pin ids and cluster keys between JavaScript and the module's int64 and uint64: numbers while
// they are safe integers, BigInts beyond (or always, on a map with bigintIds), PINDROP_NO_ID as
// null; read from and written to the module's memory without a BigInt per id where possible.

import { InvalidArgument } from "./errors.js";
import { describe } from "./arguments.js";
import { INT64_MAX, INT64_MIN, NO_ID } from "./tables.js";

/** A pin id: a safe integer or a BigInt within int64 (not INT64_MIN, PINDROP_NO_ID). */
export function toId(v, name = "id") {
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
export function safeId(v, name = "id") {
  const id = toId(v, name);
  if ((id > 9007199254740991n || id < -9007199254740991n) && id !== NO_ID) throw unsafeId(id, name);
  return id;
}

/** safeId over the ids of an addMany, before anything is allocated: a BigInt64Array read as
 *  32-bit halves (no BigInt per id), an array's BigInts one by one; numbers are checked as they
 *  are written (writeIds). */
export function checkSafeIds(ids) {
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
export function fromId(v, bigint) {
  if (v === NO_ID) return null;
  if (bigint) return v;
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

export function u64(v, name) {
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
export function writeIds(l, ids, p) {
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

/** fromId of the int64 at p (8-aligned) in the module's memory, read as two 32-bit halves: no
 *  BigInt made unless the id needs one. */
export function idAt(l, p, bigint) {
  const lo = l.u32[p >> 2], hi = l.i32[(p >> 2) + 1];
  if (hi === -2147483648 && lo === 0) return null;  // PINDROP_NO_ID
  if (bigint) return l.i64[p >> 3];
  const v = hi * 4294967296 + lo;  // exact up to 2^53; beyond, rounding keeps it beyond
  return v >= -9007199254740991 && v <= 9007199254740991 ? v : l.i64[p >> 3];
}

/** The uint64 at p (8-aligned): a number below 2^53, else a BigInt, read as idAt reads. */
export function u64At(l, p) {
  const lo = l.u32[p >> 2], hi = l.u32[(p >> 2) + 1];
  return hi < 2097152 ? hi * 4294967296 + lo : l.u64[p >> 3];
}
