"""Which library the package runs on: the native libpindrop.so through ctypes where it loads, the
WebAssembly module pindrop.wasm through wasmtime elsewhere (Windows, macOS, aarch64, older
glibc). Both give the same answers, errors and messages (docs/web.md: the module is built from the
same sources); the native library is faster.

``PINDROP_BACKEND=native`` or ``PINDROP_BACKEND=wasm`` forces one; `pindrop.backend` names the
one in use.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Tuple

BACKENDS = ("native", "wasm")


def _wasm() -> Tuple[Any, Path]:
    try:
        from . import _wasm
    except ImportError as e:  # wasmtime is not installed
        raise OSError(f"the wasm backend needs wasmtime ({e}): pip install wasmtime") from e
    return _wasm.load()


def load(native: Callable[[], Tuple[Any, Path]]) -> Tuple[Any, Path, str]:
    """(library, its path, "native" or "wasm"): the backend $PINDROP_BACKEND asks for, else the
    native library when it loads, else the module."""
    forced = os.environ.get("PINDROP_BACKEND", "").strip().lower()
    if forced and forced not in BACKENDS:
        raise OSError(f"PINDROP_BACKEND must be 'native' or 'wasm', not {forced!r}")
    if forced == "wasm":
        try:
            return (*_wasm(), "wasm")
        except OSError as e:
            raise OSError(f"PINDROP_BACKEND=wasm, but pindrop.wasm cannot be loaded: {e}") from e
    try:
        return (*native(), "native")
    except OSError as e:
        if forced == "native":
            raise OSError(f"PINDROP_BACKEND=native, but libpindrop.so cannot be loaded: {e}") from e
        native_error = e
    try:
        return (*_wasm(), "wasm")
    except OSError as e:
        raise OSError(f"pindrop can load neither libpindrop.so ({native_error}) nor pindrop.wasm ({e})") from e
