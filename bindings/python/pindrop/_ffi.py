"""Every C function of the library's header (pindrop.h), declared once: argtypes, restype and errcheck.

The library is found through $PINDROP_LIBRARY, then inside this package, then in the build folders
of a source checkout.
"""
from __future__ import annotations

import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64,
                    c_size_t, c_uint32, c_uint64, c_void_p)
from pathlib import Path
from typing import Any, Dict, Iterator, List, NoReturn, Tuple, Type

from . import _backend, _tables

NO_ID = _tables.NO_ID


class PindropError(Exception):
    """A call failed: `status` is the pindrop_status, the message is the map's last error."""

    def __init__(self, status: int, message: str, function: str = ""):
        self.status = status
        self.function = function
        self.message = message  # the map's last error
        super().__init__(f"{function}: {STATUS_NAMES.get(status, status)}: {message}" if function else message)


class InvalidArgument(PindropError, ValueError): pass
class NotFound(PindropError, KeyError):
    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return Exception.__str__(self)
class DuplicateId(PindropError, ValueError): pass
class ParseError(PindropError, ValueError): pass
class StateError(PindropError): pass
class GeosError(PindropError): pass
class NoMemory(PindropError, MemoryError): pass


# The statuses of include/pindrop.h (_tables.STATUSES), under their C names without PINDROP_.
STATUS_NAMES: Dict[int, str] = {value: name for value, name, _ in _tables.STATUSES}
OK: int
STALE: int
ERR_INVALID_ARGUMENT: int
ERR_NOT_FOUND: int
globals().update({name[len("PINDROP_"):]: value for value, name, _ in _tables.STATUSES})  # and ERR_PARSE, ...
#: The exception each error status raises, by the class names the tables give.
_EXCEPTIONS: Dict[int, Type[PindropError]] = {value: globals()[exception] for value, _, exception in _tables.STATUSES if exception}

_C_TYPES: Dict[str, Any] = {"double": c_double, "int32_t": c_int32, "uint32_t": c_uint32, "int64_t": c_int64,
                            "pindrop_id": c_int64, "uint64_t": c_uint64}


def _fields(struct: str) -> List[Tuple[str, Any]]:
    """The ctypes fields of one of the header's structs, from the generated tables."""
    return [(name, _C_TYPES[ctype]) for name, ctype, _ in _tables.STRUCTS[struct][1]]


class Options(Structure):
    _fields_ = _fields("pindrop_options")


class ClusterSummary(Structure):
    _fields_ = _fields("pindrop_cluster_summary")


CATEGORY_MIXED = _tables.CATEGORY_MIXED


class Camera(Structure):
    _fields_ = _fields("pindrop_camera")


class PinView(Structure):
    _fields_ = _fields("pindrop_pin_view")


class ClusterView(Structure):
    _fields_ = _fields("pindrop_cluster_view")


class Event(Structure):
    _fields_ = _fields("pindrop_event")


PROJECT_FN = CFUNCTYPE(c_int, c_void_p, c_double, c_double, POINTER(c_double), POINTER(c_double))
UNPROJECT_FN = CFUNCTYPE(c_int, c_void_p, c_double, c_double, POINTER(c_double), POINTER(c_double))


def _candidates() -> Iterator[Path]:
    env = os.environ.get("PINDROP_LIBRARY")
    if env:
        yield Path(env)
        return
    here = Path(__file__).resolve().parent
    yield here / "libpindrop.so"
    root = here.parents[2]  # bindings/python/pindrop -> the source checkout
    for build in (".build/release", ".build/debug"):
        yield root / build / "libpindrop.so"


def _load() -> Tuple[ctypes.CDLL, Path]:
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.exists():
            return ctypes.CDLL(str(path)), path
    raise OSError("libpindrop.so not found (set PINDROP_LIBRARY); tried: " + ", ".join(tried))


# The native library where it loads, else pindrop.wasm behind the same interface (_backend.py).
lib, library_path, backend = _backend.load(_load)

_map_p = c_void_p


class _buf_p(c_void_p):
    """A caller's data buffer: a distinct type, so errcheck never takes it for a map."""


_d = c_double
_pd = POINTER(c_double)
_pid = POINTER(c_int64)


def _status_check(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """errcheck for functions returning pindrop_status: raise the typed exception."""
    if result < 0:
        if args and func.argtypes and func.argtypes[0] is _map_p and args[0] is not None:
            message = lib.pindrop_map_last_error(args[0]).decode("utf-8", "replace")
        else:  # a call without a map: the calling thread's last error
            message = last_error()
        raise _EXCEPTIONS.get(result, PindropError)(result, message, func.__name__)
    return result


def last_error() -> str:
    """The message of the last failed call on the calling thread (pindrop_last_error)."""
    return str(lib.pindrop_last_error().decode("utf-8", "replace"))


def raise_for(status: int, map_handle: Any, function: str) -> NoReturn:
    """Raises the typed exception for a negative status returned outside errcheck (touch)."""
    message = lib.pindrop_map_last_error(map_handle).decode("utf-8", "replace") if map_handle else last_error()
    raise _EXCEPTIONS.get(status, PindropError)(status, message, function)


# name: (restype, argtypes, checked)
_SIGNATURES = {
    "pindrop_version": (c_char_p, [], False),
    "pindrop_status_string": (c_char_p, [c_int], False),
    "pindrop_options_init": (c_int, [POINTER(Options), c_uint32], False),
    "pindrop_map_create": (c_int, [POINTER(Options), POINTER(c_void_p)], False),
    "pindrop_map_destroy": (None, [_map_p], False),
    "pindrop_map_last_error": (c_char_p, [_map_p], False),
    "pindrop_last_error": (c_char_p, [], False),
    "pindrop_map_set_camera": (c_int, [_map_p, POINTER(Camera)], True),
    "pindrop_map_set_projection": (c_int, [_map_p, PROJECT_FN, UNPROJECT_FN, c_void_p, _d, _d], True),
    "pindrop_map_to_screen": (c_int, [_map_p, _d, _d, _pd, _pd], True),
    "pindrop_map_to_lonlat": (c_int, [_map_p, _d, _d, _pd, _pd], True),
    "pindrop_map_add": (c_int, [_map_p, c_int64, _d, _d], True),
    "pindrop_map_add_many": (c_int, [_map_p, c_void_p, c_void_p, c_size_t], True),
    "pindrop_map_remove": (c_int, [_map_p, c_int64], True),
    "pindrop_map_set_position": (c_int, [_map_p, c_int64, _d, _d], True),
    "pindrop_map_position": (c_int, [_map_p, c_int64, _pd, _pd], True),
    "pindrop_map_display_position": (c_int, [_map_p, c_int64, _pd, _pd], True),
    "pindrop_map_set_draggable": (c_int, [_map_p, c_int64, c_int], True),
    "pindrop_map_count": (c_size_t, [_map_p], False),
    "pindrop_map_hit_test": (c_int, [_map_p, _d, _d, _pid], False),
    "pindrop_map_hit_test_many": (c_int, [_map_p, c_void_p, c_size_t, c_void_p], True),
    "pindrop_map_nearby": (c_size_t, [_map_p, _d, _d, _d, c_void_p, c_void_p, c_size_t], False),
    "pindrop_map_frame": (c_size_t, [_map_p, _d, c_void_p, c_size_t], False),
    "pindrop_map_touch": (c_int, [_map_p, c_int32, c_int, _d, _d, _d], False),
    "pindrop_map_tick": (c_int, [_map_p, _d], True),
    "pindrop_map_next_deadline": (c_double, [_map_p], False),
    "pindrop_map_cancel_gesture": (c_int, [_map_p, _d], True),
    "pindrop_map_poll_event": (c_int, [_map_p, POINTER(Event)], False),
    "pindrop_map_place": (c_int, [_map_p, c_int64, _d, _d, _d], True),
    "pindrop_map_edit": (c_int, [_map_p, c_int64, _d], True),
    "pindrop_map_commit": (c_int, [_map_p, _d], True),
    "pindrop_map_cancel_edit": (c_int, [_map_p, _d], True),
    "pindrop_map_select": (c_int, [_map_p, c_int64], True),
    "pindrop_map_selected": (c_int, [_map_p, _pid], True),
    "pindrop_map_set_title": (c_int, [_map_p, c_int64, c_char_p], True),
    "pindrop_map_answer_geocode": (c_int, [_map_p, c_uint64, c_char_p], True),
    "pindrop_map_callout": (c_int, [_map_p, c_int64, c_int, c_void_p, c_size_t, POINTER(c_size_t)], True),
    "pindrop_map_set_allowed_area": (c_int, [_map_p, c_char_p], True),
    "pindrop_map_undo": (c_int, [_map_p, _d], True),
    "pindrop_map_redo": (c_int, [_map_p, _d], True),
    "pindrop_map_nudge": (c_int, [_map_p, _d, _d, _d], True),
    "pindrop_spread": (c_int, [_buf_p, c_size_t, _d, _buf_p], True),
    "pindrop_spread_spiral": (c_int, [_buf_p, c_size_t, _d, _d, _d, _buf_p], True),
    "pindrop_map_frame_clusters": (c_size_t, [_map_p, _d, c_void_p, c_size_t], False),
    "pindrop_map_cluster_members": (c_size_t, [_map_p, c_uint64, c_void_p, c_size_t], False),
    "pindrop_map_cluster_expansion_zoom": (c_int, [_map_p, c_uint64, _pd], True),
    # since 0.3.0: stacks that open on demand
    "pindrop_map_open_stack": (c_int, [_map_p, c_uint64, _d], True),
    "pindrop_map_close_stack": (c_int, [_map_p, _d], True),
    # since 0.3.0: clusters that say what they hold
    "pindrop_map_set_attributes": (c_int, [_map_p, c_void_p, c_void_p, c_void_p, c_size_t], True),
    "pindrop_map_cluster_summary": (c_int, [_map_p, c_uint64, POINTER(ClusterSummary)], True),
    "pindrop_map_cluster_categories": (c_size_t, [_map_p, c_uint64, c_void_p, c_void_p, c_size_t], False),
    "pindrop_map_cluster_members_from": (c_size_t, [_map_p, c_uint64, c_size_t, c_void_p, c_size_t], False),
}

_missing = [name for name in _SIGNATURES if not hasattr(lib, name)]
if _missing:
    raise OSError(f"{library_path} is not a complete libpindrop: it lacks {', '.join(_missing)}")
for _name, (_restype, _argtypes, _checked) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes
    if _checked:
        _f.errcheck = _status_check

SIGNATURES = _SIGNATURES


# Keyboard focus and the keyboard drag (behaviour 20, since 0.3.0).
class Focus(Structure):
    _fields_ = _fields("pindrop_focus")


_KEYBOARD_SIGNATURES = {
    "pindrop_map_focus_step": (c_int, [_map_p, c_int32, POINTER(Focus)], True),
    "pindrop_map_focused": (c_int, [_map_p, POINTER(Focus)], True),
    "pindrop_map_focus_rank": (c_int, [_map_p, POINTER(c_size_t), POINTER(c_size_t)], True),
    "pindrop_map_key_lift": (c_int, [_map_p, _d], True),
    "pindrop_map_key_drop": (c_int, [_map_p, _d], True),
    "pindrop_distance": (c_int, [_d, _d, _d, _d, _pd, _pd], True),
}
_missing = [name for name in _KEYBOARD_SIGNATURES if not hasattr(lib, name)]
if _missing:
    raise OSError(f"{library_path} is not a complete libpindrop: it lacks {', '.join(_missing)}")
for _name, (_restype, _argtypes, _checked) in _KEYBOARD_SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes
    if _checked:
        _f.errcheck = _status_check
SIGNATURES.update(_KEYBOARD_SIGNATURES)

# Several pins at once (behaviour 23, since 0.4.0).
_SELECTION_SIGNATURES = {
    "pindrop_map_set_modifiers": (c_int, [_map_p, c_uint32], True),
    "pindrop_map_select_many": (c_int, [_map_p, c_void_p, c_size_t, c_int32], True),
    "pindrop_map_select_in_rect": (c_int, [_map_p, _d, _d, _d, _d, c_int32, _d], True),
    "pindrop_map_selection": (c_size_t, [_map_p, c_void_p, c_size_t], False),
}
_missing = [name for name in _SELECTION_SIGNATURES if not hasattr(lib, name)]
if _missing:
    raise OSError(f"{library_path} is not a complete libpindrop: it lacks {', '.join(_missing)}")
for _name, (_restype, _argtypes, _checked) in _SELECTION_SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes
    if _checked:
        _f.errcheck = _status_check
SIGNATURES.update(_SELECTION_SIGNATURES)
# -- since 0.3: exceptions print as pindrop.<Name>; raw prototypes for bulk loops ------------------
for _cls in (PindropError, InvalidArgument, NotFound, DuplicateId, ParseError, StateError, GeosError, NoMemory):
    _cls.__module__ = "pindrop"

_RAW: Dict[str, Any] = {}


def raw(name: str) -> Any:
    """A second prototype of a (map, id, double *, double *) function that takes the out
    pointers as plain integers (addresses into a NumPy array) and returns the status unchecked:
    the loop of `Map.positions` converts no ctypes objects per pin."""
    f = _RAW.get(name)
    if f is None:
        f = _RAW[name] = (lib.raw(name) if backend == "wasm" else
                          ctypes.CFUNCTYPE(c_int, c_void_p, c_int64, c_void_p, c_void_p)((name, lib)))
    return f


# Snapping (behaviour 24, since 0.4.0).
class Snap(Structure):
    _fields_ = _fields("pindrop_snap")


_SNAP_SIGNATURES = {
    "pindrop_map_set_snap_layer": (c_int, [_map_p, c_uint32, c_char_p], True),
    "pindrop_map_snap_target": (c_int, [_map_p, POINTER(Snap)], True),
}
_missing = [name for name in _SNAP_SIGNATURES if not hasattr(lib, name)]
if _missing:
    raise OSError(f"{library_path} is not a complete libpindrop: it lacks {', '.join(_missing)}")
for _name, (_restype, _argtypes, _checked) in _SNAP_SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _restype
    _f.argtypes = _argtypes
    if _checked:
        _f.errcheck = _status_check
SIGNATURES.update(_SNAP_SIGNATURES)
