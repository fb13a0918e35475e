"""The tables generated from include/pindrop.h (tools/gen_tables.py, `make tables`) are fresh and say
what the C compiler says.

- Each generated file is what the generator writes from the header now ("run make tables" if not).
  The generator also refuses a header whose options comments state another default than the
  PINDROP_DEFAULT_* macros (what test_surface.py once read from the comments).
- The Python tables (bindings/python/pindrop/_tables.py) and the JS tables (bindings/js/src/tables.js,
  read by Node) are turned into a C file of _Static_assert lines against the header, compiled with
  cc: every enumerator, status, option default, struct size and field offset, the fields each
  event type fills, and every function named. This reads the generated files, not the header, so a
  generator that misread the header fails here as well as a stale file.
- The names the JS package exports today (bindings/js/index.js) hold the tables' values.

No network; a second or two (one generator run, two compilations, one Node process).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import gen_tables  # noqa: E402

CC = os.environ.get("CC", "cc")
NODE = os.environ.get("NODE", "node")


def python_tables():
    spec = importlib.util.spec_from_file_location("generated_tables", ROOT / gen_tables.PYTHON_OUT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def js_tables() -> dict:
    if shutil.which(NODE) is None:
        pytest.skip(f"{NODE} is not installed (make wasm-deps installs it)")
    script = ("const t = await import(process.argv[1]);"
              "console.log(JSON.stringify(t, (k, v) => typeof v === 'bigint' ? v.toString() : v));")
    out = subprocess.run([NODE, "--input-type=module", "-e", script, (ROOT / gen_tables.JS_OUT).as_uri()],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return json.loads(out)


def compile_assertions(lines: List[str], tmp_path: Path) -> None:
    """Compiles `lines` (statements of a function body and file-scope _Static_asserts) against the
    header; a false assertion fails the compilation with its message."""
    source = tmp_path / "check.c"
    source.write_text("\n".join(["#include <stddef.h>", "#include <stdint.h>", '#include "pindrop.h"',
                                 *[l for l in lines if l.startswith("_Static_assert")],
                                 "void named(void);", "void named(void) {",
                                 *[l for l in lines if not l.startswith("_Static_assert")], "}", ""]))
    r = subprocess.run([CC, "-std=c11", "-Wall", "-Werror", "-fsyntax-only", f"-I{ROOT / 'include'}", str(source)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def equal(c: str, value: object, what: str) -> str:
    literal = repr(value) if isinstance(value, float) else f"{value}LL" if value >= -2**63 else str(value)
    if isinstance(value, int) and value == -2**63:
        literal = "INT64_MIN"
    elif isinstance(value, int) and value > 2**63 - 1:
        literal = f"{value}ULL"
    return f'_Static_assert(({c}) == ({literal}), "{what}");'


# -- freshness ------------------------------------------------------------------------------------

def test_the_generated_files_are_fresh(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_tables.py"), "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    stale = [str(rel) for rel in gen_tables.OUTPUTS
             if (tmp_path / rel).read_text() != (ROOT / rel).read_text()]
    assert not stale, f"{', '.join(stale)} differ from what include/pindrop.h gives: run make tables"


# -- the Python tables against the compiler --------------------------------------------------------

PREFIXES = {"SPREAD_MODES": "SPREAD_", "OUTSIDE_POLICIES": "OUTSIDE_", "TOUCH_PHASES": "TOUCH_",
            "PIN_FLAGS": "PIN_", "CLUSTER_FLAGS": "CLUSTER_", "CALLOUT_PARTS": "", "FOCUS_KINDS": "FOCUS_",
            "EVENT_TYPES": "EVENT_", "CAUSES": "CAUSE_"}


def test_the_python_tables_say_what_the_compiler_says(tmp_path):
    t = python_tables()
    lines = [equal("PINDROP_NO_ID", t.NO_ID, "NO_ID"), equal("PINDROP_EVENT_QUEUE_LIMIT", t.EVENT_QUEUE_LIMIT, "QLIMIT"), equal("PINDROP_CATEGORY_MIXED", t.CATEGORY_MIXED, "MIXED")]
    lines += [equal(f"PINDROP_VERSION_{p}", v, p) for p, v in zip(("MAJOR", "MINOR", "PATCH"), t.VERSION)]
    lines += [equal(name, value, name) for value, name, _ in t.STATUSES]
    for table, prefix in PREFIXES.items():
        group: Dict[str, int] = getattr(t, table)
        assert group, table
        lines += [equal(f"PINDROP_{prefix}{name}", value, table) for name, value in group.items()]
    for field, ctype, offset, default, _ in t.OPTIONS:
        lines.append(equal(f"PINDROP_DEFAULT_{field.upper()}", default, f"default of {field}"))
        lines.append(equal(f"offsetof(pindrop_options, {field})", offset, f"offset of {field}"))
    lines.append(equal("sizeof(pindrop_options)", t.OPTIONS_SIZE, "options size"))
    for struct, (size, fields) in t.STRUCTS.items():
        lines.append(equal(f"sizeof({struct})", size, f"sizeof {struct}"))
        for field, ctype, offset in fields:
            lines.append(equal(f"offsetof({struct}, {field})", offset, f"{struct}.{field}"))
            c_type = "int64_t" if ctype == "pindrop_id" else ctype
            lines.append(f'_Static_assert(sizeof((({struct} *)0)->{field}) == sizeof({c_type}), "{struct}.{field} type");')
    assert set(t.EVENT_FIELDS) == set(t.EVENT_TYPES)
    for kind, fields in t.EVENT_FIELDS.items():
        mask = " | ".join([f"PINDROP_EVENT_FIELD_{f.upper()}" for f in fields]
                          + (["PINDROP_EVENT_REQUEST_IS_KEY"] if kind in t.EVENT_REQUEST_IS_KEY else []))
        lines.append(f'_Static_assert(PINDROP_EVENT_FIELDS_{kind} == ({mask}), "fields of {kind}");')
    lines += [f"(void){name};" for name in t.FUNCTIONS]
    assert len(t.FUNCTIONS) >= 58
    compile_assertions(lines, tmp_path)


# -- the JS tables against the compiler, and against what index.js exports today --------------------

def test_the_js_tables_say_what_the_compiler_says(tmp_path):
    js = js_tables()
    t = python_tables()
    lines = [equal("PINDROP_CATEGORY_MIXED", js["CATEGORY_MIXED"], "MIXED"),
             equal("PINDROP_NO_ID", int(js["NO_ID"]), "NO_ID"), equal("PINDROP_EVENT_QUEUE_LIMIT", js["EVENT_QUEUE_LIMIT"], "QLIMIT"), equal("PINDROP_ERR_STATE", js["STATUS_STATE"], "STATE")]
    lines += [equal(f"PINDROP_PIN_{k[4:]}", v, k) for k, v in js.items() if k.startswith("PIN_") and k != "PIN_VIEW_SIZE"]
    lines += [equal(f"PINDROP_CLUSTER_{k[8:]}", v, k) for k, v in js.items()
              if k.startswith("CLUSTER_") and k not in ("CLUSTER_VIEW_SIZE",)]
    lines += [equal(f"PINDROP_EVENT_{name}", i, name) for i, name in enumerate(js["EVENT_TYPES"])]
    lines += [equal(f"PINDROP_CAUSE_{name}", i, name) for i, name in enumerate(js["CAUSES"])]
    lines += [equal(f"PINDROP_FOCUS_{name.upper()}", i, name) for i, name in enumerate(js["FOCUS_KINDS"])]
    for table, prefix in (("PHASES", "TOUCH_"), ("SPREAD_MODES", "SPREAD_"), ("OUTSIDE_POLICIES", "OUTSIDE_"),
                          ("CALLOUT_PARTS", "")):
        lines += [equal(f"PINDROP_{prefix}{k.upper()}", v, table) for k, v in js[table].items()]
    lines += [equal(name, int(value), name) for value, name in js["STATUS_NAMES"].items()]
    assert {int(v): n for v, n in js["ERROR_NAMES"].items()} == {v: e for v, _, e in t.STATUSES if e}
    for name, offset, kind in js["OPTION_FIELDS"]:
        field = "".join("_" + c.lower() if c.isupper() else c for c in name)
        lines.append(equal(f"offsetof(pindrop_options, {field})", offset, f"offset of {field}"))
        lines.append(equal(f"PINDROP_DEFAULT_{field.upper()}", js["OPTION_DEFAULTS"][name], f"default of {field}"))
    assert len(js["OPTION_FIELDS"]) == len(t.OPTIONS)
    sizes = {"OPTIONS_SIZE": "pindrop_options", "PIN_VIEW_SIZE": "pindrop_pin_view", "EVENT_SIZE": "pindrop_event",
             "CLUSTER_VIEW_SIZE": "pindrop_cluster_view", "SUMMARY_SIZE": "pindrop_cluster_summary",
             "FOCUS_SIZE": "pindrop_focus", "CAMERA_SIZE": "pindrop_camera"}
    lines += [equal(f"sizeof({struct})", js[k], k) for k, struct in sizes.items()]
    for struct, fields in js["OFFSETS"].items():
        lines += [equal(f"offsetof({struct}, {f})", o, f"{struct}.{f}") for f, o in fields.items()]
    bits = {"AT": ("LON", "LAT"), "FROM": ("FROM_LON", "FROM_LAT"), "OTHER": ("OTHER",), "DIST": ("DISTANCE_M",),
            "DXY": ("DX", "DY"), "REQ": ("REQUEST",), "CAUSE": ("CAUSE",), "ID": ("ID",)}
    for kind, mask in zip(js["EVENT_TYPES"], js["EVENT_FIELDS"]):
        fields = [f"PINDROP_EVENT_FIELD_{f}" for b, fs in bits.items() if mask & js[b] for f in fs]
        if mask & js["KEY"]:
            fields.append("PINDROP_EVENT_REQUEST_IS_KEY")
        lines.append(f'_Static_assert(PINDROP_EVENT_FIELDS_{kind} == ({" | ".join(fields) or "0"}), "JS {kind}");')
    assert len(js["EVENT_FIELDS"]) == len(js["EVENT_TYPES"])
    lines += [f"(void){name};" for name in js["FUNCTIONS"]]
    assert js["FUNCTIONS"] == t.FUNCTIONS
    compile_assertions(lines, tmp_path)


def test_what_index_js_exports_holds_the_tables_values():
    """Until index.js takes its constants from src/tables.js, the values it exports are the
    tables' (after, this holds by construction)."""
    js = js_tables()
    script = ("const p = await import(process.argv[1]);"
              "console.log(JSON.stringify(Object.fromEntries(Object.entries(p).filter(([k, v]) => "
              "typeof v !== 'function'))));")
    out = subprocess.run([NODE, "--input-type=module", "-e", script, (ROOT / "bindings/js/index.js").as_uri()],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    exported = json.loads(out)
    shared = sorted(set(exported) & set(js))
    assert {"PIN_SELECTED", "CLUSTER_STACK", "EVENT_TYPES", "CAUSES", "CATEGORY_MIXED"} <= set(shared)
    for name in shared:
        assert exported[name] == js[name], name
