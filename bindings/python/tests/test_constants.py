"""Every constant of include/pindrop.h's enums (statuses, event types, causes, pin flags, spread
modes, outside policies, touch phases, callout parts) agrees with the Python package. The header is
read with pycparser-free means: comments stripped, each enum's enumerators counted as C does.
(Tests/PindropCoreTests/HeaderConstantsTests.swift checks the same header against Swift.)"""
from __future__ import annotations

import re

import pindrop
from pindrop import _ffi


def header_constants(text: str) -> dict[str, int]:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    values: dict[str, int] = {}
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", text):
        value = 0
        for item in filter(None, (i.strip() for i in body.split(","))):
            name, _, explicit = (p.strip() for p in item.partition("="))
            if explicit:
                value = int(explicit)
            values[name] = value
            value += 1
    return values


def with_prefix(values: dict[str, int], prefix: str) -> dict[str, int]:
    return {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}


def test_every_header_constant_matches_python(repo_root):
    c = header_constants((repo_root / "include" / "pindrop.h").read_text())
    assert c["PINDROP_OK"] == 0 and c["PINDROP_EVENT_DESELECTED"] == 1  # implicit values are counted

    statuses = {k: v for k, v in c.items() if k in ("PINDROP_OK", "PINDROP_STALE") or k.startswith("PINDROP_ERR_")}
    assert statuses == {name: code for code, name in _ffi.STATUS_NAMES.items()}
    for name, code in statuses.items():
        assert getattr(_ffi, name[len("PINDROP_"):]) == code, name

    assert with_prefix(c, "PINDROP_EVENT_") == {name: i for i, name in enumerate(pindrop.EVENT_TYPES)}
    assert with_prefix(c, "PINDROP_CAUSE_") == {name: i for i, name in enumerate(pindrop.CAUSES)}
    for prefix in ("PIN_", "SPREAD_", "OUTSIDE_", "TOUCH_", "FOCUS_", "CLUSTER_"):
        group = with_prefix(c, "PINDROP_" + prefix)
        assert group, prefix
        python = {k[len(prefix):]: getattr(pindrop, k) for k in dir(pindrop) if k.startswith(prefix) and k.isupper() and not k.endswith("_DTYPE")}
        assert python == group, prefix
    assert (pindrop.TITLE, pindrop.SUBTITLE) == (c["PINDROP_TITLE"], c["PINDROP_SUBTITLE"])
    assert pindrop.PHASES == {k.lower(): v for k, v in with_prefix(c, "PINDROP_TOUCH_").items()}


def test_category_mixed_is_uint32_max(repo_root):
    text = (repo_root / "include" / "pindrop.h").read_text()
    assert "#define PINDROP_CATEGORY_MIXED UINT32_MAX" in text
    assert pindrop.CATEGORY_MIXED == _ffi.CATEGORY_MIXED == 2**32 - 1
