"""The load (add_many + first query, default options) on the 916,114 LA street trees: its
instructions per pin counted by callgrind (benchmarks/load_loop.c; they do not drift with the
machine), and its time against scipy's cKDTree build + first query in this process (issue 34, "The
load fell behind"); then the WebAssembly module's per-map memory (benchmarks/wasm_maps.mjs, when
bindings/js/pindrop.wasm is built). The native per-map memory and the frame peak are
bench_memory.c's.

Usage: python3 bench_load.py DATA_DIR

0.2.0 (ed462ae) counted 1,465 instructions per pin with the same load_loop.c: the target. A 0.2.0
build's library named by PINDROP_V020_LIBRARY is counted beside the current one.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import pindrop  # noqa: E402

V020_INSTRUCTIONS_PER_PIN = 1465
REPS = 7


def build_loop(lib_dir: Path, include: Path, name: str) -> Path:
    out = ROOT / ".build" / "bench" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c99", f"-I{include}", str(ROOT / "benchmarks" / "load_loop.c"),
                    "-o", str(out), f"-L{lib_dir}", "-lpindrop", f"-Wl,-rpath,{lib_dir}", "-lm"], check=True)
    return out


def instructions(exe: Path, data: Path) -> int | None:
    """The load's instructions under callgrind (instrumentation on around the load only)."""
    if not shutil.which("valgrind"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/cg.out",
                            str(exe), str(data)], capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+)", r.stderr)
    return int(m.group(1)) if m else None


def main() -> int:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else (ROOT / ".." / "shared" / "data").resolve()
    try:
        from scipy.spatial import cKDTree
    except ImportError:
        print("bench_load needs scipy (make bench installs it)", file=sys.stderr)
        return 2
    cols = np.loadtxt(data / "la_trees.csv", delimiter=",", skiprows=1, usecols=(2, 3), dtype=np.float64)
    ll = np.ascontiguousarray(cols[:, ::-1])
    n = len(ll)
    ids = np.arange(n, dtype=np.int64)

    # -- instructions per pin (callgrind) ---------------------------------------------------------
    exe = build_loop(ROOT / ".build" / "release", ROOT / "include", "load_loop")
    ins = instructions(exe, data)
    if ins is not None:
        print(f"load instructions: {ins / n:.0f} per pin (target <= {V020_INSTRUCTIONS_PER_PIN}, 0.2.0's)")
    else:
        print("load instructions; valgrind is not installed, not counted")
    old = os.environ.get("PINDROP_V020_LIBRARY")
    if old and ins is not None:
        lib = Path(old).absolute()  # REPO/.build/release/libpindrop.so: the header is REPO/include's
        old_ins = instructions(build_loop(lib.parent, lib.parents[2] / "include", "load_loop_v020"), data)
        if old_ins:
            print(f"load instructions at 0.2.0; {old_ins / n:.0f} per pin (now {ins / old_ins:.3f} x as many)")

    # -- time against cKDTree, alternated in this process ------------------------------------------
    r = 6378137.0
    merc = np.column_stack([np.radians(ll[:, 0]) * r, r * np.log(np.tan(np.pi / 4 + np.radians(ll[:, 1]) / 2))])

    def pindrop_load():
        m = pindrop.Map()
        m.add_many(ids, ll)
        m.nearby(float(ll[0, 0]), float(ll[0, 1]), 1.0)
        return m

    def ck_load():
        t = cKDTree(merc)
        t.query(merc[0])
        return t

    t_pd, t_ck = [], []
    for _ in range(REPS):
        for f, ts in ((pindrop_load, t_pd), (ck_load, t_ck)):
            t0 = time.process_time()
            keep = f()
            ts.append(time.process_time() - t0)
            del keep
    print(f"pindrop load (add_many + first query): {min(t_pd):.3f} s; cKDTree build + first query: {min(t_ck):.3f} s")
    print(f"pindrop load vs cKDTree: {min(t_pd) / min(t_ck):.2f} x (target <= 0.9 x)")

    # -- the WebAssembly module's per-map memory ----------------------------------------------------
    if (ROOT / "bindings" / "js" / "pindrop.wasm").exists() and shutil.which("node"):
        out = subprocess.run(["node", str(ROOT / "benchmarks" / "wasm_maps.mjs")], capture_output=True, text=True, check=True)
        w = json.loads(out.stdout)
        print(f"wasm per-map memory, 1000 one-pin maps: {w['grown_mb']:.1f} MB (target <= 50)")
    else:
        print("wasm per-map memory; bindings/js/pindrop.wasm is not built (make wasm), not measured")
    return 0


if __name__ == "__main__":
    sys.exit(main())
