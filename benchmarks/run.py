#!/usr/bin/env python3
"""Runs every benchmark: compiles and runs each benchmarks/bench_*.c against the release library,
runs each benchmarks/bench_*.py, both with the shared data folder as argv[1], and prints a summary
of the `name: value unit (target ...)` lines they print.

    python3 benchmarks/run.py [DATA_DIR]     (default: ../shared/data from the repository root)
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIB_DIR = ROOT / ".build" / "release"
# "name: value unit (target ...)"; lines with ';' are descriptions, not measurements.
LINE = re.compile(r"^(?P<name>[^:;]+):\s*(?P<value>[-+0-9.eE]+)\s*(?P<unit>[^(;]*?)\s*(\(target (?P<target>[^)]*)\))?\s*$")


def compile_c(src: Path) -> Path:
    exe = ROOT / ".build" / "bench" / src.stem
    exe.parent.mkdir(parents=True, exist_ok=True)
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{ROOT / 'include'}", str(src),
           "-o", str(exe), f"-L{LIB_DIR}", "-lpindrop", f"-Wl,-rpath,{LIB_DIR}", "-lm"]
    subprocess.run(cmd, check=True)
    return exe


def met(value: float, target: str | None) -> str:
    """'ok' / 'MISSED' for targets written as '<= N' or '>= N'; '' when there is none."""
    if not target:
        return ""
    m = re.match(r"\s*(<=|>=)\s*([-+0-9.eE]+)", target)
    if not m:
        return ""
    limit = float(m.group(2))
    return "ok" if (value <= limit if m.group(1) == "<=" else value >= limit) else "MISSED"


def main() -> int:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else (ROOT / ".." / "shared" / "data").resolve()
    if not data.is_dir():
        print(f"the data folder {data} is missing", file=sys.stderr)
        return 2
    if not (LIB_DIR / "libpindrop.so").exists():
        print("build the library first (make build)", file=sys.stderr)
        return 2
    env = dict(os.environ, PINDROP_LIBRARY=str(LIB_DIR / "libpindrop.so"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "bindings" / "python"), os.environ.get("PYTHONPATH")])))
    summary, failed = [], []
    benches = sorted((ROOT / "benchmarks").glob("bench_*.c")) + sorted((ROOT / "benchmarks").glob("bench_*.py"))
    for src in benches:
        print(f"== {src.name}", flush=True)
        try:
            cmd = [str(compile_c(src))] if src.suffix == ".c" else [sys.executable, str(src)]
            out = subprocess.run(cmd + [str(data)], check=True, capture_output=True, text=True, env=env).stdout
        except subprocess.CalledProcessError as e:
            print(e.stdout or "", e.stderr or "", sep="", end="")
            failed.append(src.name)
            continue
        print(out, end="")
        for line in out.splitlines():
            m = LINE.match(line)
            if m:
                summary.append((src.stem, m.group("name").strip(), float(m.group("value")), m.group("unit").strip(),
                                m.group("target")))
    print("\n== summary")
    for bench, name, value, unit, target in summary:
        verdict = met(value, target)
        print(f"{bench:>14}  {name:<32} {value:>12.6g} {unit:<14} {('target ' + target) if target else '':<18} {verdict}")
    if failed:
        print("failed:", ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
