"""Every constant of include/pindrop.h that the package exposes (statuses, event types, causes, pin
and cluster flags, spread modes, outside policies, touch phases, callout parts, focus kinds) agrees
with the header, both ways: each header name has its Python counterpart with its value, and each
Python constant or enum member has a header name. The header's values come through the generated
pindrop._tables (Tests/tables checks they are fresh and agree with the C compiler), so no test
reads the header itself."""
from __future__ import annotations

import pindrop
from pindrop import _constants, _ffi, _tables


def test_every_header_constant_matches_python():
    statuses = {name: value for value, name, _ in _tables.STATUSES}
    assert statuses["PINDROP_OK"] == 0 and _tables.EVENT_TYPES["DESELECTED"] == 1
    assert statuses == {name: code for code, name in _ffi.STATUS_NAMES.items()}
    for name, code in statuses.items():
        assert getattr(_ffi, name[len("PINDROP_"):]) == code, name
    for value, name, exception in _tables.STATUSES:
        assert (_ffi._EXCEPTIONS.get(value).__name__ if value < 0 else None) == exception, name

    assert _tables.EVENT_TYPES == {name: i for i, name in enumerate(pindrop.EVENT_TYPES)}
    assert _tables.CAUSES == {name: i for i, name in enumerate(pindrop.CAUSES)}
    for prefix, group in (("PIN_", _tables.PIN_FLAGS), ("SPREAD_", _tables.SPREAD_MODES),
                          ("OUTSIDE_", _tables.OUTSIDE_POLICIES), ("TOUCH_", _tables.TOUCH_PHASES),
                          ("FOCUS_", _tables.FOCUS_KINDS), ("CLUSTER_", _tables.CLUSTER_FLAGS)):
        assert group, prefix
        python = {k[len(prefix):]: getattr(pindrop, k) for k in dir(pindrop) if k.startswith(prefix) and k.isupper() and not k.endswith("_DTYPE")}
        assert python == group, prefix
    assert {"TITLE": pindrop.TITLE, "SUBTITLE": pindrop.SUBTITLE} == _tables.CALLOUT_PARTS
    assert pindrop.PHASES == {k.lower(): v for k, v in _tables.TOUCH_PHASES.items()}


def test_every_enum_has_exactly_the_header_members():
    """The enums name their members for type checkers; their values are the tables'."""
    for enum, table in ((_constants.SpreadMode, _tables.SPREAD_MODES), (_constants.OutsidePolicy, _tables.OUTSIDE_POLICIES),
                        (_constants.TouchPhase, _tables.TOUCH_PHASES), (_constants.PinFlag, _tables.PIN_FLAGS),
                        (_constants.ClusterFlag, _tables.CLUSTER_FLAGS), (_constants.Callout, _tables.CALLOUT_PARTS),
                        (_constants.EventType, _tables.EVENT_TYPES), (_constants.Cause, _tables.CAUSES)):
        assert {m.name: int(m) for m in enum} == table, enum.__name__
        assert [m.name for m in enum] == list(table), enum.__name__


def test_category_mixed_is_uint32_max():
    assert _tables.CATEGORY_MIXED == 2**32 - 1
    assert pindrop.CATEGORY_MIXED == _ffi.CATEGORY_MIXED == 2**32 - 1
