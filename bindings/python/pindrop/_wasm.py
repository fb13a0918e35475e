"""The wasm backend: pindrop.wasm (the module of the JavaScript package) run through wasmtime,
behind the interface of the ctypes library.

`Library` stands where `ctypes.CDLL("libpindrop.so")` stands: its `pindrop_*` attributes are
functions that take `restype`, `argtypes` and `errcheck` as ctypes functions do, and accept what
the package passes to those: handles (`c_void_p`, `None`, objects with `_as_parameter_`), numbers,
`byref()` of ctypes structures and scalars, ctypes arrays, `bytes`, buffers as addresses
(`array.ctypes.data`) and CFUNCTYPE callbacks. Each call copies what its pointers point to into the
module's linear memory (one copy per argument, sized by the C contract of include/pindrop.h), runs
the export through wasmtime's `wasmtime_func_call_unchecked` over raw values, and copies what the
function wrote back (one copy per output, only what was written). The memory is configured not to
move, so its address is read once.

What differs from a C library, and how it is made the same:

- wasm32 has 4-byte pointers and `size_t`: handles, `size_t` arguments and the `size_t` and
  `pindrop_map *` out-parameters are converted at the boundary.
- Function pointers are indexes into the module's function table (exported and growable): a
  callback is added to it as a host function, and its slot is reused once the callback is gone.
- One module instance serves every map and thread: calls are serialised by a lock, and
  `pindrop_last_error` (per thread in the C library) is kept per thread here.
- A trap inside the module (a defect in pindrop; the C library would abort the process) raises
  `RuntimeError`, and the module is not used again.
"""
from __future__ import annotations

import ctypes
import os
import struct
import threading
import weakref
from ctypes import (POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint32,
                    c_uint64, c_void_p)
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import wasmtime
from wasmtime import _bindings

_wt: Any = _bindings           # wasmtime-py's own ctypes layer (its C API)
_CFuncPtr: Any = getattr(ctypes, "_CFuncPtr")

_CArg = type(ctypes.byref(c_int()))
_string_at = ctypes.string_at
_memmove = ctypes.memmove
_addressof = ctypes.addressof

#: Bytes of scratch memory each function has for what its small pointers point to.
_REGION = 512

# The buffers behind the raw pointer arguments (c_void_p) of the C API: argument index ->
# (direction, bytes per item, items as an expression of the arguments a0.. and, for outputs, the
# result r). Outputs copy back only what the function wrote.
_BUFFERS: Dict[str, Dict[int, Tuple[str, int, str]]] = {
    "pindrop_map_add_many": {1: ("in", 8, "a3"), 2: ("in", 16, "a3")},
    "pindrop_map_hit_test_many": {1: ("in", 16, "a2"), 3: ("out", 8, "(a2 if r == 0 else 0)")},
    "pindrop_map_nearby": {4: ("out", 8, "min(r, a6)"), 5: ("out", 8, "min(r, a6)")},
    "pindrop_map_frame": {2: ("out", 56, "min(r, a3)")},
    "pindrop_map_frame_clusters": {2: ("out", 48, "min(r, a3)")},
    "pindrop_map_cluster_members": {2: ("out", 8, "min(r, a3)")},
    "pindrop_map_select_many": {1: ("in", 8, "a2")}, "pindrop_map_selection": {1: ("out", 8, "min(r, a2)")},
    "pindrop_map_cluster_members_from": {3: ("out", 8, "max(0, min(a4, r - a2))")},
    "pindrop_map_set_attributes": {1: ("in", 8, "a4"), 2: ("in", 8, "a4"), 3: ("in", 4, "a4")},
    "pindrop_map_cluster_categories": {2: ("out", 4, "min(r, a4)"), 3: ("out", 4, "min(r, a4)")},
    # the text and its NUL, cut to the capacity (the length is the size_t the call wrote)
    "pindrop_map_callout": {3: ("out", 1, "(min(a4, _u32(p5) + 1) if r == 0 else 0)")},
    "pindrop_spread": {0: ("in", 16, "a1"), 3: ("out", 16, "(a1 if r == 0 else 0)")},
    "pindrop_spread_spiral": {0: ("in", 16, "a1"), 5: ("out", 16, "(a1 if r == 0 else 0)")},
}

_U32_MAX = 0xFFFFFFFF


class _Trapped(RuntimeError):
    pass


def _find() -> List[Path]:
    """Where pindrop.wasm may be: $PINDROP_WASM, then inside this package, then the build output
    of a source checkout."""
    env = os.environ.get("PINDROP_WASM")
    if env:
        return [Path(env)]
    here = Path(__file__).resolve().parent
    root = here.parents[2]
    return [here / "pindrop.wasm", root / "dist" / "pindrop.wasm", root / "bindings" / "js" / "pindrop.wasm"]


def load() -> Tuple["Library", Path]:
    tried = []
    for path in _find():
        tried.append(str(path))
        if path.is_file():
            return Library(path), path
    raise OSError("pindrop.wasm not found (set PINDROP_WASM); tried: " + ", ".join(tried))


def _address(a: Any) -> int:
    """The address a pointer argument designates, as ctypes would pass it."""
    if a is None:
        return 0
    t = type(a)
    if t is int:
        return int(a)
    if t is _CArg:
        return _addressof(a._obj)
    if isinstance(a, ctypes._Pointer):
        return int(ctypes.cast(a, c_void_p).value or 0)
    if isinstance(a, (ctypes._SimpleCData, Structure, ctypes.Array, ctypes.Union)):
        if isinstance(a, c_void_p):
            return int(a.value or 0)
        return _addressof(a)
    p = getattr(a, "_as_parameter_", None)
    if p is not None:
        return _address(p)
    raise ctypes.ArgumentError(f"cannot pass {type(a).__name__} as a pointer")


def _handle(a: Any) -> int:
    """A map handle (a wasm address) from what the package passes for a `pindrop_map *`."""
    if a is None:
        return 0
    if type(a) is c_void_p:
        return a.value or 0
    if type(a) is int:
        return a
    p = getattr(a, "_as_parameter_", None)
    if p is not None:
        return _handle(p)
    raise ctypes.ArgumentError(f"cannot pass {type(a).__name__} as a map")


class Library:
    """pindrop.wasm instantiated once, with the ctypes library's interface (see the module)."""

    def __init__(self, path: Path):
        self._path = Path(path)
        config = wasmtime.Config()
        config.memory_may_move = False      # the linear memory keeps its address as it grows
        try:
            config.cache = True             # compiled code cached across processes
        except Exception:
            pass
        engine = wasmtime.Engine(config)
        module = wasmtime.Module.from_file(engine, str(self._path))
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        store = wasmtime.Store(engine)
        wasi = wasmtime.WasiConfig()
        wasi.inherit_stdout()
        wasi.inherit_stderr()
        store.set_wasi(wasi)
        instance = linker.instantiate(store, module)
        exports = instance.exports(store)
        self._store = store
        self._exports: Dict[str, Any] = {e.name: exports[e.name] for e in module.exports}
        self._module_exports: Dict[str, Any] = {e.name: e.type for e in module.exports}
        memory = self._exports["memory"]
        self._memory = memory
        self.base = _addressof(memory.data_ptr(store).contents)
        self._table: Any = self._exports.get("__indirect_function_table")
        self._lock = threading.RLock()
        self._broken: Optional[str] = None
        # the per-thread last error (pindrop_last_error): the module holds the latest failure's
        # message; `_owner` is the thread that made it, `_stash` the messages of the threads
        # whose failure a later one on another thread replaced
        self._owner: Optional[int] = None
        self._stash: Dict[int, bytes] = {}
        self._slots: Dict[int, Tuple[Any, int]] = {}   # id(callback) -> (weakref, table slot)
        self._free_slots: Dict[Tuple[Any, ...], List[int]] = {}
        self._host_funcs: List[Any] = []
        # wasmtime's C API from a handle of its own, without argtypes: the arguments are ctypes
        # objects made once per function, which ctypes passes without converting them
        call = ctypes.CDLL(_wt.dll._name).wasmtime_func_call_unchecked
        call.restype = c_void_p
        self._call = call
        self._context = ctypes.cast(store._context(), c_void_p)
        self._trap = c_void_p()
        self._trap_ref = ctypes.byref(self._trap)
        self._malloc = self._raw_function("malloc", "I", "I")
        self._free = self._raw_function("free", "I", "")
        self._error_ptr = self._raw_function("pindrop_last_error", "", "I")
        self._map_error_ptr = self._raw_function("pindrop_map_last_error", "I", "I")
        self._regions: Dict[str, int] = {}
        for name in self._module_exports:
            if name.startswith("pindrop_"):
                self.__dict__[name] = _Function(self, name)

    # -- the calls ---------------------------------------------------------------------------
    def _caller(self, name: str, nvalues: int) -> Tuple[Callable[[], Any], Any]:
        """A call of export `name` with no argument conversion, and its values array."""
        func = self._exports[name]
        values = (ctypes.c_ubyte * (16 * max(nvalues, 1)))()
        return partial(self._call, self._context, c_void_p(_addressof(func._func)), values,
                       c_size_t(max(nvalues, 1)), self._trap_ref), values

    def _raw_function(self, name: str, params: str, result: str) -> Callable[..., Any]:
        """A plain call of an export with wasm32 integer parameters (for the package's own use)."""
        call, values = self._caller(name, max(len(params), len(result)))
        pack = struct.Struct("<" + "".join(p + "12x" for p in params)).pack_into
        unpack = struct.Struct("<" + (result + "12x" if result else "")).unpack_from
        check = self._check
        lock = self._lock

        def f(*args: int) -> Any:
            with lock:  # one store, one thread at a time (the lock is reentrant: calls made inside calls)
                pack(values, 0, *args)
                if call() is not None or self._trap.value:
                    check(name)
                return unpack(values, 0)[0] if result else None
        return f

    def _check(self, name: str) -> None:
        """After a call that reported an error or a trap: raise it, and use the module no more."""
        if self._trap.value:
            trap = wasmtime.Trap._from_ptr(ctypes.cast(self._trap, POINTER(_wt.wasm_trap_t)))
            self._trap.value = None
            message = str(trap.message) if hasattr(trap, "message") else str(trap)
        else:
            message = "wasmtime refused the call"
        self._broken = f"{name}: {message}"
        raise _Trapped(f"pindrop stopped inside {name} ({message}); the wasm module cannot be used again")

    def _region(self, name: str) -> int:
        p = self._regions.get(name)
        if p is None:
            p = self._regions[name] = self.malloc(_REGION)
        return p

    def malloc(self, n: int) -> int:
        p = self._malloc(max(int(n), 1))
        if not p:
            from . import _ffi
            raise _ffi.NoMemory(-7, f"the WebAssembly heap could not give {n} bytes", "malloc")
        return int(p)

    def free(self, p: int) -> None:
        if p:
            self._free(p)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"pindrop.wasm has no export {name}")

    def _refuse(self) -> None:
        raise RuntimeError(f"the pindrop wasm module stopped earlier ({self._broken}) and cannot be used again")

    # -- the per-thread last error -------------------------------------------------------------
    def _before(self, me: int) -> None:
        """Called when a thread other than the last failing one calls: keep that thread's message."""
        owner = self._owner
        if owner is not None and owner != me:
            p = self._error_ptr()
            self._stash[owner] = _string_at(self.base + p) if p else b""
            self._owner = None

    def _failed(self, me: int) -> None:
        self._owner = me
        self._stash.pop(me, None)

    def _thread_last_error(self, me: int) -> bytes:
        if self._owner == me:
            p = self._error_ptr()
            return _string_at(self.base + p) if p else b""
        return self._stash.get(me, b"")

    def _map_failed(self, h: int) -> bool:
        """After a count of 0: whether the map's call failed (its message is set on failure and
        cleared on success)."""
        if not h:
            return True
        p = self._map_error_ptr(h)
        return bool(p) and ctypes.c_char.from_address(self.base + p).value != b"\0"

    # -- callbacks -----------------------------------------------------------------------------
    def _slot(self, cfunc: Any) -> int:
        """The function-table slot of a CFUNCTYPE callback (added as a host function)."""
        if cfunc is None:
            return 0
        if not isinstance(cfunc, _CFuncPtr):
            raise ctypes.ArgumentError(f"cannot pass {type(cfunc).__name__} as a callback")
        known = self._slots.get(id(cfunc))
        if known is not None and known[0]() is cfunc:
            return known[1]
        if self._table is None:
            raise OSError(f"{self._path} exports no function table: rebuild it with wasm/build.sh")
        argtypes = tuple(getattr(cfunc, "_argtypes_"))
        restype = getattr(cfunc, "_restype_")
        kinds = tuple(_callback_kind(t) for t in argtypes)
        params = [wasmtime.ValType.f64() if k == "f64" else wasmtime.ValType.i64() if k == "i64"
                  else wasmtime.ValType.i32() for k in kinds]
        results = [] if restype is None else [wasmtime.ValType.f64() if restype is c_double else wasmtime.ValType.i32()]
        ref = weakref.ref(cfunc)
        base = self.base

        def host(*values: Any) -> Any:
            f = ref()
            if f is None:
                return 1 if results else None
            args = []
            for kind, t, v in zip(kinds, argtypes, values):
                if kind == "ptr":
                    args.append(ctypes.cast(base + v, t) if v else None)
                elif kind == "user":
                    args.append(v or None)
                else:
                    args.append(v)
            return f(*args)

        func = wasmtime.Func(self._store, wasmtime.FuncType(params, results), host)
        signature = (kinds, restype)
        free = self._free_slots.get(signature)
        if free:
            slot = free.pop()
            self._table.set(self._store, slot, func)
        else:
            slot = self._table.grow(self._store, 1, func)
        self._host_funcs.append(func)
        key = id(cfunc)

        def release(_: Any, key: int = key, slot: int = slot) -> None:
            self._slots.pop(key, None)
            self._free_slots.setdefault(signature, []).append(slot)
        self._slots[key] = (weakref.ref(cfunc, release), slot)
        return slot

    # -- raw prototypes --------------------------------------------------------------------------
    def raw(self, name: str) -> Any:
        """A (map, id, double *, double *) function taking its out pointers as addresses and
        returning the status unchecked (the ctypes library's `_ffi.raw`)."""
        return _Function(self, name, restype=c_int, argtypes=[c_void_p, c_int64, POINTER(c_double), POINTER(c_double)])

    def unchecked(self) -> "Functions":
        """Fresh function objects over the same module, without errcheck (a second CDLL)."""
        return Functions(self)


class Functions:
    """Function objects over a Library's module, as a second ctypes.CDLL of the same library."""

    def __init__(self, library: Library):
        self._library = library

    def __getattr__(self, name: str) -> Any:
        if name.startswith("pindrop_") and name in self._library._module_exports:
            f = _Function(self._library, name)
            setattr(self, name, f)
            return f
        raise AttributeError(name)


def _callback_kind(t: Any) -> str:
    if t is c_double:
        return "f64"
    if t in (c_int64, c_uint64):
        return "i64"
    if t is c_void_p:
        return "user"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        return "ptr"
    return "i32"


class _Kept:
    """A buffer in the module's memory kept between calls (a frame's records, every frame)."""

    def __init__(self, library: Library):
        self.library = library
        self.p = 0
        self.size = 0

    def at_least(self, n: int) -> int:
        if n > self.size:
            p = self.library.malloc(n + n // 4)
            self.library.free(self.p)
            self.p, self.size = p, n + n // 4
        return self.p


def _u32(p: int) -> int:
    return ctypes.c_uint32.from_address(p).value


class _Function:
    """One export, called as a ctypes function: restype, argtypes and errcheck are set on it; the
    first call compiles the conversion code for them."""

    def __init__(self, library: Library, name: str, restype: Any = c_int, argtypes: Any = None):
        self._library = library
        self.__name__ = name
        self.restype = restype
        self.argtypes = argtypes
        self.errcheck = None
        self._compiled: Optional[Callable[..., Any]] = None
        self._key: Any = None

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in ("restype", "argtypes", "errcheck"):
            object.__setattr__(self, "_compiled", None)

    def __call__(self, *args: Any) -> Any:
        f = self._compiled
        if f is None:
            f = self._compile()
        return f(*args)

    def __repr__(self) -> str:
        return f"<pindrop.wasm function {self.__name__}>"

    def _compile(self) -> Callable[..., Any]:
        with self._library._lock:  # compiling allocates the function's scratch in the module
            f = _compile(self._library, self.__name__, self.restype, self.argtypes, self.errcheck, self)
        object.__setattr__(self, "_compiled", f)
        # the library's attribute becomes the compiled function itself (one Python call less on
        # the hot paths); it keeps the declarations, and the object stays callable for those
        # who kept it
        library = self._library
        if library.__dict__.get(self.__name__) is self:
            for attribute in ("restype", "argtypes", "errcheck"):
                setattr(f, attribute, getattr(self, attribute))
            library.__dict__[self.__name__] = f
        return f


def _scalar(t: Any, wasm: str) -> Optional[Tuple[str, str]]:
    """(struct format, wasm kind) of a scalar ctypes type, None for pointers. size_t is uint64's
    type in ctypes on 64-bit hosts: the wasm parameter tells them apart (size_t is i32 in wasm32)."""
    if t is c_double:
        return "d", "f64"
    if t is c_int64:
        return "q", "i64"
    if t is c_uint64 and wasm == "i64":
        return "Q", "i64"
    if t in (c_int, c_int32):
        return "i", "i32"
    if t is c_uint32:
        return "I", "i32"
    if t is c_size_t:
        return "I", "i32"
    return None


def _compile(library: Library, name: str, restype: Any, argtypes: Any, errcheck: Any, owner: Any) -> Callable[..., Any]:
    """The Python function that performs one export's call: generated source, one per function,
    with the packing formats and copies of its arguments written out."""
    wtype = library._module_exports[name]
    params = [str(p) for p in wtype.params]
    results = [str(r) for r in wtype.results]
    if argtypes is None:
        raise TypeError(f"{name}: no argtypes declared")
    argtypes = list(argtypes)
    if len(argtypes) != len(params):
        raise TypeError(f"{name}: {len(argtypes)} argtypes for a wasm function of {len(params)} parameters")
    buffers = _BUFFERS.get(name, {})
    call, values = library._caller(name, max(len(params), len(results)))
    region = library._region(name)
    env: Dict[str, Any] = {"call": call, "values": values, "lib": library, "base": library.base,
                           "memmove": _memmove, "string_at": _string_at, "_address": _address,
                           "_handle": _handle, "c_void_p": c_void_p, "CArg": _CArg, "addressof": _addressof,
                           "get_ident": threading.get_ident, "lock": library._lock, "errcheck": errcheck,
                           "owner": owner, "_u32": lambda p: _u32(library.base + p), "u32": ctypes.c_uint32,
                           "name": name, "U32_MAX": _U32_MAX, "trap": library._trap}
    fmt = "<"
    packed: List[str] = []
    pre: List[str] = []
    post: List[str] = []
    frees: List[str] = []
    offset = 0
    sizes: Dict[int, str] = {}
    first_is_map = bool(argtypes) and argtypes[0] is c_void_p and name.startswith("pindrop_map_")
    for k, t in enumerate(argtypes):
        a = f"a{k}"
        s = _scalar(t, params[k])
        if k == 0 and first_is_map:
            fmt += "I12x"
            pre.append(f"h = (a0.value or 0) if a0.__class__ is c_void_p else _handle(a0)")
            packed.append("h")
        elif s is not None:
            code, kind = s
            if kind != params[k]:
                raise TypeError(f"{name}: argument {k} is {t.__name__} but the wasm parameter is {params[k]}")
            if t is c_size_t and kind == "i32":  # wasm32's size_t: a larger count saturates (no buffer holds it)
                pre.append(f"{a} = {a} if {a} <= U32_MAX else U32_MAX")
            fmt += code + ("12x" if kind == "i32" else "8x")
            packed.append(a)
        elif k in buffers:
            direction, item, count = buffers[k]
            fmt += "I12x"
            packed.append(f"p{k}")
            sizes[k] = count
            if direction == "in":
                pre.append(f"n{k} = ({count}) * {item}")
                pre.append(f"h{k} = _address({a})")
                pre.append(f"if not h{k}: p{k} = 0")
                pre.append(f"elif n{k} > 0x7FFFFFFF: p{k} = scratch + {offset}")  # the module refuses the count
                pre.append(f"else:")
                pre.append(f"    p{k} = scratch + {offset} if n{k} <= 64 else lib.malloc(n{k}); memmove(base + p{k}, h{k}, n{k})")
                frees.append(f"if p{k} and p{k} != scratch + {offset}: lib.free(p{k})")
            else:
                # an output aliasing an input (spread's out == src) shares its copy
                alias = [j for j, b in buffers.items() if j < k and b[0] == "in"]
                pre.append(f"h{k} = _address({a})")
                cap = {"pindrop_map_hit_test_many": "a2", "pindrop_map_nearby": "a6", "pindrop_map_frame": "a3",
                       "pindrop_map_frame_clusters": "a3", "pindrop_map_cluster_members": "a3",
                       "pindrop_map_cluster_members_from": "a4", "pindrop_map_cluster_categories": "a4",
                       "pindrop_map_callout": "a4", "pindrop_spread": "a1", "pindrop_spread_spiral": "a1",
                       "pindrop_map_selection": "a2"}[name]
                pre.append(f"c{k} = {cap} * {item}")
                pre.append(f"if not h{k}: p{k} = 0")
                for j in alias:
                    pre.append(f"elif h{k} == h{j} and p{j}: p{k} = p{j}")
                pre.append(f"elif c{k} > 0x7FFFFFFF: p{k} = scratch + {offset}")
                if alias:  # spread: a buffer of its own, given back after the call
                    pre.append(f"else: p{k} = scratch + {offset} if c{k} <= 64 else lib.malloc(c{k})")
                    frees.append(f"if p{k} and p{k} != scratch + {offset}" +
                                 "".join(f" and p{k} != p{j}" for j in alias) + f": lib.free(p{k})")
                else:  # the frames' outputs: one buffer kept per function, grown when short
                    env[f"keep{k}"] = _Kept(library)
                    pre.append(f"else: p{k} = scratch + {offset} if c{k} <= 64 else keep{k}.at_least(c{k})")
                post.append(f"if p{k} and c{k} <= 0x7FFFFFFF:")
                post.append(f"    w{k} = ({count}) * {item}")
                post.append(f"    if w{k} > 0: memmove(h{k}, base + p{k}, min(w{k}, c{k}))")
            offset += 64
        elif t is c_char_p:
            fmt += "I12x"
            packed.append(f"p{k}")
            pre.append(f"if {a} is None: p{k} = 0")
            pre.append(f"else:")
            pre.append(f"    b{k} = bytes({a}) if not isinstance({a}, bytes) else {a}")
            pre.append(f"    p{k} = lib.malloc(len(b{k}) + 1); memmove(base + p{k}, b{k} + b'\\0', len(b{k}) + 1)")
            frees.append(f"if p{k}: lib.free(p{k})")
        elif isinstance(t, type) and issubclass(t, _CFuncPtr):
            fmt += "I12x"
            packed.append(f"lib._slot({a})")
        elif t is c_void_p and name.startswith("pindrop_map_set_projection"):
            fmt += "I12x"   # the callbacks' user pointer: passed through as a number
            packed.append(f"(_address({a}) & U32_MAX)")
        elif isinstance(t, type) and issubclass(t, ctypes._Pointer) or t is c_void_p:
            target: Any = getattr(t, "_type_") if t is not c_void_p else None
            if target is None:
                raise TypeError(f"{name}: argument {k} is a buffer of unknown size (no entry in _BUFFERS)")
            fmt += "I12x"
            packed.append(f"p{k}")
            narrow = target in (c_void_p, c_size_t)   # 8 bytes here, 4 in wasm32
            size = ctypes.sizeof(target)
            pre.append(f"x{k} = addressof({a}._obj) if {a}.__class__ is CArg else _address({a})")
            if narrow:
                kind = "c_void_p" if target is c_void_p else "c_size_t"
                env[kind] = target
                pre.append(f"if x{k}:")
                pre.append(f"    p{k} = scratch + {offset}; v{k} = {kind}.from_address(x{k}).value or 0")
                pre.append(f"    u32.from_address(base + p{k}).value = v{k} & U32_MAX")
                pre.append(f"else: p{k} = 0")
                post.append(f"if x{k}: {kind}.from_address(x{k}).value = u32.from_address(base + p{k}).value")
                sizes[k] = "4"
            else:
                pre.append(f"if x{k}: p{k} = scratch + {offset}; memmove(base + p{k}, x{k}, {size})")
                pre.append(f"else: p{k} = 0")
                post.append(f"if x{k}: memmove(x{k}, base + p{k}, {size})")
            offset += (max(size, 8) + 7) // 8 * 8
        else:
            raise TypeError(f"{name}: argument {k} of type {t!r} has no wasm conversion")
        if offset > _REGION:
            raise TypeError(f"{name}: the scratch region is too small")
    rkind = None
    if restype is None:
        if results:
            raise TypeError(f"{name}: restype None for a function returning {results}")
        rfmt = ""
    elif restype in (c_int, c_int32):
        rfmt, rkind = "i", "status"
    elif restype is c_size_t and results == ["i32"]:
        rfmt, rkind = "I", "count"
    elif restype is c_double:
        rfmt, rkind = "d", "double"
    elif restype is c_char_p:
        rfmt, rkind = "I", "text"
    elif restype is c_void_p:
        rfmt, rkind = "I", "pointer"
    else:
        raise TypeError(f"{name}: restype {restype!r} has no wasm conversion")
    if rfmt and not results:
        raise TypeError(f"{name}: restype {restype!r} for a wasm function returning nothing")
    env["pack"] = struct.Struct(fmt).pack_into
    env["unpack"] = struct.Struct("<" + (rfmt + ("8x" if rfmt == "d" else "12x") if rfmt else "")).unpack_from
    env["scratch"] = region
    nargs = len(argtypes)
    arglist = ", ".join(f"a{k}" for k in range(nargs))
    body: List[str] = []
    body.append(f"def {name}({arglist}):")
    body.append("    with lock:")
    body.append("        if lib._broken: lib._refuse()")
    body.append("        if lib._owner is not None and lib._owner != get_ident(): lib._before(get_ident())")
    ind = "        "
    for line in pre:
        body.append(ind + line)
    if frees:
        body.append(ind + "try:")
        ind2 = ind + "    "
    else:
        ind2 = ind
    body.append(ind2 + f"pack(values, 0{''.join(', ' + p for p in packed)})")
    body.append(ind2 + "if call() is not None or trap.value: lib._check(name)")
    if rfmt:
        body.append(ind2 + "r = unpack(values, 0)[0]")
    else:
        body.append(ind2 + "r = None")
    # the thread's last error: every failure sets it
    if name == "pindrop_last_error":
        body.append(ind2 + "r = lib._thread_last_error(get_ident())")
        rkind = "bytes"
    elif rkind == "status":
        body.append(ind2 + "if r < 0: lib._failed(get_ident())")
    elif rkind == "count" and first_is_map:
        body.append(ind2 + "if r == 0 and lib._map_failed(h): lib._failed(get_ident())")
    elif rkind == "double" and first_is_map:
        body.append(ind2 + "if not h: lib._failed(get_ident())")
    for line in post:
        body.append(ind2 + line)
    if rkind == "text":
        body.append(ind2 + "r = string_at(base + r) if r else None")
    elif rkind == "pointer":
        body.append(ind2 + "r = r or None")
    if frees:
        body.append(ind + "finally:")
        for line in frees:
            body.append(ind2 + line)
    if errcheck is not None:
        body.append(f"    return errcheck(r, owner, ({arglist}{',' if nargs == 1 else ''}))")
    else:
        body.append("    return r")
    source = "\n".join(body) + "\n"
    # argument k's `p5` in a count expression names the size_t out-parameter's scratch copy
    exec(compile(source, f"<pindrop.wasm {name}>", "exec"), env)
    f: Callable[..., Any] = env[name]
    setattr(f, "__wrapped_source__", source)
    return f
