// The exceptions a failed call throws: PindropError, and one subclass per pindrop_status, each
// carrying the status, the message the map (or the library) gave and the C function that failed.

import { ERROR_NAMES } from "./tables.js";

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

/** The exception class of each error status (its name from the header's tables). */
const CLASSES = { InvalidArgument, NotFound, DuplicateId, ParseError, StateError, GeosError, NoMemory };
export const ERRORS = Object.fromEntries(Object.entries(ERROR_NAMES).map(([status, name]) => [status, CLASSES[name]]));

/** The exception for a failed call's status and message ("fn failed (status s)" without one). */
export function errorOf(status, message, fn) {
  const E = ERRORS[status] ?? PindropError;
  return new E(message || `${fn} failed (status ${status})`, status, fn);
}

/** A call without a map (`lib` the loaded module): its status, or the exception for a negative
 *  one, with the library's per-thread last error. */
export function check(lib, status, fn) {
  if (status < 0) throw errorOf(status, lib.lastError(), fn);
  return status;
}
