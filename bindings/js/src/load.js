// Loading the WebAssembly module: load() compiles and instantiates pindrop.wasm once per page or
// process, version() and __memoryBytes() read the loaded module, and need() hands it to the calls
// that use it.

import { InternalError, StateError } from "./errors.js";
import { bool, describe, knownKeys } from "./arguments.js";
import { Library } from "./library.js";
import { STATUS_STATE } from "./tables.js";
import { wasiShim } from "./wasi.js";

let lib = null;        // the loaded module (one per page / process)
let loading = null;

/**
 * Loads the WebAssembly module (once; later calls return the same promise). `source`: the
 * module's URL, path or bytes (default: pindrop.wasm beside the package's index.js). Resolves to the module's
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

/** The loaded module, or a StateError naming `fn` when none is loaded (an InternalError when it
 *  stopped). */
export function need(fn) {
  if (!lib) throw new StateError(`pindrop is not loaded: await load() before ${fn}`, STATUS_STATE, fn);
  if (lib.broken) throw new InternalError(`the pindrop module stopped after an internal error (${lib.broken}); load({ fresh: true }) a new one`);
  return lib;
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
    const response = await fetch(source ?? new URL("../pindrop.wasm", import.meta.url));
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
  const url = source ?? new URL("../pindrop.wasm", import.meta.url);
  const isNode = typeof process !== "undefined" && process.versions && process.versions.node;
  if (isNode && (typeof url === "string" ? !/^https?:/.test(url) : url.protocol === "file:")) {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`pindrop: could not fetch ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
