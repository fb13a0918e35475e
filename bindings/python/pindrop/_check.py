"""Checks at the Python edge: what a call accepts, refused in pindrop's words before C sees it.

Every public method of `pindrop.Map` runs its arguments through these plain functions, so that a
misread value (a float id truncated, a 2**64 id wrapped, an (n, 3) array re-cut into pairs) never
reaches the library: wrong types are `TypeError`, values `InvalidArgument` (a `ValueError`), an
integer outside its C type's range `OutOfRange` (an `InvalidArgument` that is also an
`OverflowError`), and every message names the argument, the value and what to pass instead.
"""
from __future__ import annotations

import numbers
import operator
from enum import Enum
from typing import TYPE_CHECKING, Any, Optional, Tuple, Type, TypeVar, cast

from ._ffi import NO_ID, InvalidArgument

if TYPE_CHECKING:
    import numpy

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
UINT64_MAX = 2 ** 64 - 1
SIZE_MAX = 2 ** 63 - 1  # SPEC: a count of 2**63 and above is no buffer's

#: The range of each C integer type an argument or an options field is passed as: ctypes wraps
#: a Python int that does not fit (an int32 of 2**32 + 5 reaches C as 5), so none may reach it.
C_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1),
            "int64": (INT64_MIN, INT64_MAX), "uint64": (0, UINT64_MAX), "size_t": (0, SIZE_MAX)}

CLOSED = "operation on a closed Map"


class OutOfRange(InvalidArgument, OverflowError):
    """An integer that does not fit the C type it is passed as. An `OverflowError`, as Python's
    own refusal of such a number, and an `InvalidArgument`, so that ``except
    pindrop.InvalidArgument`` catches every value pindrop refuses."""

E = TypeVar("E", bound=Enum)


def plain(value: object) -> object:
    """`value` with NumPy scalars made Python's own (np.float64(40.5) is 40.5), inside tuples and
    lists too: what a message shows, since NumPy 2's repr of a scalar names its type
    ("np.float64(40.5)") and a message says the type apart when it matters."""
    import numpy as np
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple) and type(value) is tuple and len(value) <= 100:  # not a namedtuple
        return tuple(plain(v) for v in value)
    if isinstance(value, list) and len(value) <= 100:  # a long list is cut short in a message anyway
        return [plain(v) for v in value]
    return value


def cut(text: str, limit: int = 60) -> str:
    """Text as a message shows it: at most `limit` characters, "..." where it was cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown(value: object, limit: int = 60) -> str:
    """The repr of a value as a message shows it: NumPy scalars as plain numbers (`plain`), cut
    to `limit` characters."""
    return cut(repr(plain(value)), limit)


def _show(value: object) -> str:
    """A value as a message shows it: its type's name and a short repr (a NumPy scalar's value
    as a plain number: "float64 40.5")."""
    return f"{type(value).__name__} {shown(value)}"


def invalid(message: str) -> InvalidArgument:
    """The error for a value Python refuses before the library sees it: an `InvalidArgument`
    (a ValueError, status -1, as the library's own refusals), so one ``except`` catches both."""
    return InvalidArgument(-1, message)


def out_of_range(message: str) -> OutOfRange:
    """The error for an integer outside its C type's range (see `OutOfRange`)."""
    return OutOfRange(-1, message)


def fits(value: int, name: str, ctype: str, what: str = "") -> int:
    """`value` if it lies in the range of the C integer type `ctype` (a key of `C_RANGES`),
    else OutOfRange naming `name`, the value and the range."""
    low, high = C_RANGES[ctype]
    if not low <= value <= high:
        kind = {"int32": "a 32-bit signed integer", "uint32": "a 32-bit unsigned integer",
                "int64": "a 64-bit signed integer", "uint64": "a 64-bit unsigned integer",
                "size_t": "a count (at most 2**63 - 1)"}[ctype]
        raise out_of_range(f"{name} {value} does not fit {kind} [{low}, {high}]{what}")
    return value


def open_handle(m: Any) -> Any:
    """The map's C handle, or InvalidArgument("operation on a closed Map") (a ValueError)."""
    handle = m._handle
    if not handle:
        raise invalid(CLOSED)
    return handle


def integer(value: object, name: str) -> int:
    """`value` as a Python int: ints and NumPy integers pass; bools, floats, strings are TypeError."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise TypeError(f"{name} must be an integer, not {_show(value)}")
    try:
        return operator.index(cast(Any, value))
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {_show(value)}") from None


def pin_id(value: object, name: str = "id") -> int:
    """A pin id: an integer that fits int64. NO_ID fits and goes on to the library, which refuses
    it as a new pin's id (InvalidArgument) and finds no pin by it (NotFound), as for any host."""
    return fits(integer(value, name), name, "int64", " (ids are int64)")


def optional_pin_id(value: object, name: str = "id") -> int:
    """A pin id or None (None is NO_ID)."""
    return NO_ID if value is None else pin_id(value, name)


def key(value: object, name: str = "key") -> int:
    """A cluster or stack key: an integer in [0, 2**64)."""
    return fits(integer(value, name), name, "uint64", " (keys are uint64)")


def count(value: object, name: str, minimum: int = 0) -> int:
    """A limit, capacity, offset or step count: an integer >= minimum that a buffer could hold."""
    v = integer(value, name)
    if v < minimum:
        raise invalid(f"{name} must be >= {minimum}, not {v}")
    return fits(v, name, "size_t", ": more than any buffer holds")


def real(value: object, name: str) -> float:
    """A number as a float: ints, floats and NumPy numbers pass; strings, None and bools do not.
    (Whether it is finite and in range is the library's to say.)"""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {_show(value)}")
    return float(value)


def time(value: object, name: str = "time_ms") -> float:
    return real(value, name)


def flag(value: object, name: str) -> bool:
    """A yes/no argument: bools and the integers 0 and 1."""
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False, not {_show(value)}")


def text(value: object, name: str) -> bytes:
    """A str as UTF-8 (no NUL: C would cut it there). A str that UTF-8 cannot encode (a lone
    surrogate, such as os.fsdecode leaves for undecodable bytes) is an InvalidArgument naming
    where it is, not Python's UnicodeEncodeError."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {_show(value)}")
    if "\0" in value:
        raise invalid(f"{name} contains a NUL character")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = value[e.start:e.end]
        what = "a lone surrogate" if all(0xD800 <= ord(c) <= 0xDFFF for c in bad) else "a character"
        raise invalid(f"{name} is not valid Unicode text: it holds {what} ({bad[:8]!r}) at index "
                      f"{e.start} that UTF-8 cannot encode; pass text of real characters (bytes "
                      f"decoded with errors='replace', or the surrogates removed)") from None


def enum(cls: Type[E], value: object, name: str) -> E:
    """An enum member from a member, its integer value or its name (any case): "spiral",
    "SPIRAL", SpreadMode.SPIRAL and 2 are all SpreadMode.SPIRAL."""
    if isinstance(value, cls):
        return value
    names = ", ".join(m.name.lower() for m in cls)
    if isinstance(value, str):
        member = cls.__members__.get(value.upper())
        if member is None:
            raise invalid(f"{name} {shown(value)} is not one of {names}")
        return member
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a {cls.__name__} or one of the names {names}, not {_show(value)}")
    try:
        return cls(int(value))
    except ValueError:
        raise invalid(f"{name} {shown(value)} is not a {cls.__name__} ({names})") from None


def ids_array(values: object, name: str = "ids") -> "numpy.ndarray":
    """A 1-D C-contiguous int64 array of pin ids: integers only (not floats or bools), each one
    fitting int64 (NO_ID is the library's to refuse, as in `pin_id`)."""
    import numpy as np
    if values is None or isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence or array of integers, not {_show(values)}")
    values = unmasked(values, name)
    if isinstance(values, np.ndarray):
        a = values
    else:
        try:
            a = np.asarray(values)
        except (TypeError, ValueError, OverflowError) as e:
            raise TypeError(f"{name} must be a sequence or array of integers ({e})") from None
        if a.dtype == object:  # Python ints beyond int64, or a mixture
            for v in a.reshape(-1):
                pin_id(v, f"{name} value")
            raise TypeError(f"{name} must hold integers only")
    if a.ndim != 1:
        raise invalid(f"{name} must be 1-D (n,), not of shape {a.shape}")
    if a.dtype.kind == "b":
        raise TypeError(f"{name} must hold integers, not bool values")
    if a.dtype.kind == "u":
        if a.size and int(a.max()) > INT64_MAX:
            fits(int(a.max()), f"{name} value", "int64")
    elif a.dtype.kind != "i":
        if a.size == 0 and a.dtype.kind == "f":  # [] is read as float64 by NumPy
            return np.empty(0, dtype=np.int64)
        bad = a.reshape(-1)[0] if a.size else a.dtype
        raise TypeError(f"{name} must hold integers, not {a.dtype} values (the first is {shown(bad)})")
    return np.ascontiguousarray(a, dtype=np.int64)


def floats(values: object, name: str, n: Optional[int] = None) -> "numpy.ndarray":
    """A 1-D C-contiguous float64 array of numbers (not bools or strings), of length n if given.
    (NaN and infinities are the library's to judge.)"""
    import numpy as np
    a = _floats(values, name, "numbers", "one number each")
    if a.ndim != 1 or (n is not None and a.shape[0] != n):
        want = f"({n},)" if n is not None else "(n,)"
        raise invalid(f"{name} must be of shape {want}, not {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float64)


def uint32s(values: object, name: str, n: Optional[int] = None) -> "numpy.ndarray":
    """A 1-D C-contiguous uint32 array of integers in [0, 2**32) (not floats or bools), of
    length n if given."""
    import numpy as np
    if values is None or isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence or array of integers, not {_show(values)}")
    values = unmasked(values, name)
    try:
        a = np.asarray(values)
    except (TypeError, ValueError, OverflowError) as e:
        raise TypeError(f"{name} must be a sequence or array of integers ({e})") from None
    if a.dtype == object:
        for v in a.reshape(-1):
            fits(integer(v, f"{name} value"), f"{name} value", "uint32")
        a = a.astype(np.int64)
    if a.size == 0 and a.dtype.kind == "f":
        a = a.astype(np.int64)
    if a.dtype.kind == "b" or a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, not {a.dtype} values")
    if a.ndim != 1 or (n is not None and a.shape[0] != n):
        want = f"({n},)" if n is not None else "(n,)"
        raise invalid(f"{name} must be of shape {want}, not {a.shape}")
    if a.size and (int(a.min()) < 0 or int(a.max()) >= 2 ** 32):
        fits(int(a.min()) if int(a.min()) < 0 else int(a.max()), f"{name} value", "uint32")
    return np.ascontiguousarray(a, dtype=np.uint32)


def pairs(values: object, second: object = None, name: str = "lonlat", what: str = "coordinates",
          columns: str = "lon, lat") -> "numpy.ndarray":
    """An (n, 2) C-contiguous float64 array from an (n, 2) array, or from two 1-D arrays (the
    first and second column). Any other shape is a ValueError naming it."""
    import numpy as np
    if values is None:
        raise TypeError(f"{name} must be {what}: an (n, 2) array of ({columns}) rows, not None")
    if second is None and is_data_frame(values):
        names = LONLAT_NAMES if columns == "lon, lat" else (cast(Any, tuple(columns.split(", "))),)
        values, second = named_columns(values, name, columns, names)
    a = _floats(values, name, what, columns)
    if second is not None:
        b = _floats(second, name, what, columns)
        if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
            raise invalid(f"two arrays of {what} must be 1-D and of one length, not of shapes "
                             f"{a.shape} and {b.shape}")
        out = np.empty((a.size, 2), dtype=np.float64)
        out[:, 0], out[:, 1] = a, b
        return out
    if a.ndim == 1 and a.size == 0:
        return np.empty((0, 2), dtype=np.float64)
    if a.ndim != 2 or a.shape[1] != 2:
        hint = " (a single point is [[x, y]])" if a.shape == (2,) else ""
        if a.ndim == 2 and a.shape[1] == 3 and what == "coordinates":
            hint = f" (a z is not taken from any input: drop it first, {name}[:, :2])"
        raise invalid(f"{name} must be of shape (n, 2), ({columns}) rows, not {a.shape}: pass an "
                         f"(n, 2) array, or the two columns as two 1-D arrays{hint}")
    return np.ascontiguousarray(a, dtype=np.float64)


def unmasked(values: object, name: str) -> object:
    """`values` itself, or the data of a NumPy masked array that masks nothing. NumPy reads a
    masked array as the data under its mask, so a masked entry would reach the library as
    whatever number the array happens to hold there: an array that masks anything is refused."""
    import numpy as np
    if not isinstance(values, np.ma.MaskedArray):
        return values
    masked = int(np.count_nonzero(np.ma.getmaskarray(values)))
    if masked:
        entries = "entry" if masked == 1 else "entries"
        raise invalid(f"{name} is a masked array with {masked} masked {entries} (of {values.size}): "
                      f"pindrop has no value to use for them; drop those entries or fill them first "
                      f"(a.filled(...))")
    return np.ma.getdata(values)


def as_array(values: object, name: str, what: str, columns: str) -> "numpy.ndarray":
    """`values` as a NumPy array (of any dtype), a masked array only if nothing is masked. Rows
    of different lengths, which NumPy refuses in its own words ("inhomogeneous shape"), are an
    InvalidArgument naming the first row whose length differs."""
    import numpy as np
    values = unmasked(values, name)
    try:
        return np.asarray(values)
    except ValueError:  # NumPy's only ValueError here: nested sequences of different lengths
        raise _ragged(values, name, what, columns) from None
    except TypeError as e:
        raise TypeError(f"{name} must be {what}, ({columns}) rows ({e})") from None


def _ragged(values: Any, name: str, what: str, columns: str) -> InvalidArgument:
    def size(item: object) -> str:
        if isinstance(item, (str, bytes)) or not hasattr(item, "__len__"):
            return "one value"
        n = len(cast(Any, item))
        return f"{n} value" + ("" if n == 1 else "s")
    try:
        items = list(values)
    except TypeError:
        items = []
    sizes = [size(v) for v in items]
    bad = next((i for i, k in enumerate(sizes) if k != sizes[0]), None)
    if bad is None:  # the rows agree: the difference is deeper inside them
        return invalid(f"{name} must be {what}, ({columns}) rows of one shape, but its rows hold "
                       f"sequences of different lengths")
    return invalid(f"{name} must be {what}, ({columns}) rows of one length, but row 0 has "
                   f"{sizes[0]} and row {bad} has {sizes[bad]}")


#: The column names a DataFrame of coordinates may give its longitude and latitude (any case).
LONLAT_NAMES = (("lon", "lat"), ("longitude", "latitude"), ("x", "y"))


def is_data_frame(value: object) -> bool:
    """A pandas DataFrame (pandas is not imported to tell)."""
    return type(value).__module__.split(".")[0] == "pandas" and type(value).__name__ == "DataFrame"


def named_columns(frame: Any, name: str, columns: str, names: Any) -> Tuple[Any, Any]:
    """The two columns of a DataFrame of coordinates, found by name (one pair of `names`, any
    case, in any order; other columns are left alone). A DataFrame is never read by position:
    ``DataFrame({"lat": ..., "lon": ...})`` would put every point at (lat, lon)."""
    labels = [c.lower() if isinstance(c, str) else None for c in frame.columns]
    found = [pair for pair in names if pair[0] in labels and pair[1] in labels]
    listed = ", ".join(shown(c) for c in list(frame.columns)[:6]) + (", ..." if len(frame.columns) > 6 else "")
    if not found:
        wanted = ", ".join(f"{a}/{b}" for a, b in names)
        first, second = names[0]
        raise invalid(f"{name} is a DataFrame with columns {listed}, none of them named as its "
                      f"{columns} ({wanted}, any case), and a DataFrame's columns are not read by "
                      f"position: pass df[[\"{first}\", \"{second}\"]] with the columns so named")
    if len(found) > 1:
        both = " and ".join(f"{a}/{b}" for a, b in found)
        raise invalid(f"{name} is a DataFrame with columns {listed}: both {both} could be its "
                      f"{columns}; pass the two columns it means, df[[...]]")
    first, second = found[0]
    for label in (first, second):
        if labels.count(label) > 1:
            raise invalid(f"{name} is a DataFrame with {labels.count(label)} columns named {label} "
                          f"(in some case): keep one")
    return frame.iloc[:, labels.index(first)], frame.iloc[:, labels.index(second)]


def _floats(values: object, name: str, what: str, columns: str) -> "numpy.ndarray":
    import numpy as np
    a = as_array(values, name, what, columns)
    if a.dtype.kind not in "fiu":
        if a.dtype.kind == "b":
            raise TypeError(f"{name} must hold numbers, not bool values")
        raise TypeError(f"{name} must be {what}, ({columns}) numbers, not an array of {a.dtype} "
                        f"({_show(values)})")
    return a.astype(np.float64, copy=False)


def optional(value: Optional[object], check: Any, name: str) -> Any:
    return None if value is None else check(value, name)
