// Arguments: each public call checks what it was given before anything happens, and a value of
// the wrong JavaScript type is a TypeError that names the argument and what it was.

export function num(v, name) {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, not ${describe(v)}`);
  return v;
}

export function int32(v, name) {
  num(v, name);
  if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) {
    throw new TypeError(`${name} must be a 32-bit integer, not ${v}`);
  }
  return v;
}

export function uint32(v, name) {
  num(v, name);
  if (!Number.isInteger(v) || v < 0 || v > 4294967295) {
    throw new TypeError(`${name} must be an unsigned 32-bit integer, not ${v}`);
  }
  return v;
}

/** A count or an offset: a non-negative safe integer (limit: also Infinity, "all"). */
export function count(v, name, infinite = false) {
  if (infinite && v === Infinity) return v;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new TypeError(`${name} must be a non-negative integer${infinite ? " or Infinity" : ""}, not ${typeof v === "number" ? v : describe(v)}`);
  }
  return v;
}

/** A yes/no option or argument: true or false, or 0 or 1 as the C int and the Python package's
 *  flags take them (Tests/web/replay.mjs passes a recording's 0 and 1 through). Anything else,
 *  "yes" or 2 or null, is a TypeError rather than a truthiness guess. */
export function bool(v, name) {
  if (v === true || v === false) return v;
  if (v === 0 || v === 1) return v === 1;
  throw new TypeError(`${name} must be a boolean (or 0 or 1), not ${typeof v === "number" ? v : describe(v)}`);
}

/** Refuses a key an options object does not know: a misspelt option (bearing for bearingDeg)
 *  would otherwise be ignored and its default used without a word. */
export function knownKeys(options, accepted, what) {
  for (const key of Object.keys(options)) {
    if (!accepted.includes(key)) {
      throw new TypeError(`${what}: unknown option "${key}" (options: ${accepted.join(", ")})`);
    }
  }
}

/** An options argument: an object (undefined: none), or a TypeError. */
export function optionsObject(v, what) {
  if (v === undefined) return {};
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(`the options of ${what} must be an object, not ${describe(v)}`);
  }
  return v;
}

export function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  if (t === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  if (t === "object") return `an object (${v.constructor?.name ?? "Object"})`;
  return t === "undefined" ? "undefined" : `a ${t}`;
}

/** An array-like argument's length, or a TypeError naming it. */
export function arrayLength(v, name) {
  const n = v?.length;
  if (typeof n !== "number" || typeof v === "string" || typeof v === "function") {
    throw new TypeError(`${name} must be an array or typed array, not ${describe(v)}`);
  }
  return n;
}

export function float64Array(v, name) {
  if (v instanceof Float64Array) return v;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const a = Float64Array.from(v, (x, i) => num(x, `${name}[${i}]`));
    return a;
  }
  throw new TypeError(`${name} must be a Float64Array (or an array of numbers), not ${describe(v)}`);
}
