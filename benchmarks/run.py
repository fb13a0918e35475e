#!/usr/bin/env python3
"""Runs every benchmark (`make bench`): compiles and runs each benchmarks/bench_*.c against the
release library, runs each benchmarks/bench_*.py, both with the shared data folder as argv[1];
counts the instructions of the core's hot paths under callgrind (benchmarks/instructions.py);
prints a summary of the `name: value unit (target ...)` lines the benchmarks print, each hot path
with its instruction count beside its time, and writes them to docs/benchmarks.md.

    python3 benchmarks/run.py [DATA_DIR] [--only bench_core,bench_spread] [--no-docs]

DATA_DIR defaults to ../shared/data from the repository root. With --only, only those benchmarks
run (and docs/benchmarks.md is left alone).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIB_DIR = ROOT / ".build" / "release"
DOC = ROOT / "docs" / "benchmarks.md"
# "name: value unit (target ...)"; lines with ';' are descriptions, not measurements.
LINE = re.compile(r"^(?P<name>[^:;]+):\s*(?P<value>[-+0-9.eE]+)(?![0-9,])\s*(?P<unit>[^(;]*?)\s*(\(target (?P<target>[^)]*)\))?\s*$")


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


def command(bench: str) -> str:
    """The command that reproduces one benchmark's figures."""
    return f"python3 benchmarks/run.py --only {bench}"


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores{', ' + model if model else ''}, {platform.system()} {platform.machine()}"


def revision() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fmt(value: float) -> str:
    return f"{value:.6g}"


def write_doc(summary, counts, data: Path) -> None:
    """docs/benchmarks.md: the hot paths (time and instructions), the figures with a target, the
    ratios against peers, then every figure."""
    from instructions import FIGURES, KEY_OF_TIMED
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    hot = {name: (value, unit, target) for bench, name, value, unit, target in summary if bench == "bench_hot_paths"}
    out = [
        "# Benchmarks",
        "",
        "Written by `make bench` (benchmarks/run.py); do not edit by hand. Run `make bench` to measure",
        "again and rewrite this page.",
        "",
        f"- date: {now}",
        f"- machine: {machine()}",
        f"- library: commit {revision()}, `.build/release/libpindrop.so`",
        f"- module: {wasm_size_sentence()}, `dist/pindrop.wasm`",
        "- data: la_trees.csv, the Los Angeles County street-tree inventory (916,114 pins), from the data",
        "  folder (../shared/data beside the repository by default)",
        "",
        "Times are CPU time, each the best of several runs; they vary with the machine and with what",
        "else it runs. Instruction counts (valgrind's callgrind, only the measured loop instrumented) do",
        "not: the same binary on the same input executes the same instructions. `make bench-check`",
        "compares them with benchmarks/baseline.json and fails on a rise of more than 5%.",
        "",
        "## The core's hot paths",
        "",
        "Timed by `python3 benchmarks/run.py --only bench_hot_paths`, counted by",
        "`python3 benchmarks/instructions.py` (the same loops: benchmarks/bench_hot_paths.c).",
        "",
        "| figure | target | value | met | instructions per operation | command |",
        "|---|---|---|---|---|---|",
    ]
    for key, label, timed in FIGURES:
        value, unit, target = hot.get(timed, (None, "", None))
        shown = f"{fmt(value)} {unit}" if value is not None else "not measured"
        count = f"{counts[key]:,.1f}" if counts else "not counted"
        verdict = met(value, target) if value is not None else ""
        out.append(f"| {label} | {target or '-'} | {shown} | {verdict} | {count} | `{command('bench_hot_paths')}`; "
                   "`python3 benchmarks/instructions.py` |")
    ratios = [row for row in summary if row[3] == "x"]
    out += ["", "## Against peers, measured in the same run", "",
            "Each ratio divides pindrop's time by the peer's, both measured in the same process and run.", "",
            "| figure | target | value | met | command |", "|---|---|---|---|---|"]
    for bench, name, value, unit, target in ratios:
        out.append(f"| {name} | {target or '-'} | {fmt(value)} x | {met(value, target)} | `{command(bench)}` |")
    targeted = [row for row in summary if row[4] and row[3] != "x" and row[0] != "bench_hot_paths"]
    out += ["", "## Every other figure with a target", "",
            "| figure | target | value | met | command |", "|---|---|---|---|---|"]
    for bench, name, value, unit, target in targeted:
        out.append(f"| {name} | {target} | {fmt(value)} {unit} | {met(value, target)} | `{command(bench)}` |")
    out += ["", "## Every figure", "", "| benchmark | figure | value |", "|---|---|---|"]
    for bench, name, value, unit, target in summary:
        out.append(f"| {bench} | {name} | {fmt(value)} {unit} |")
    # The browser's figures: written by `make bench-web` (write_web_section), kept as they are.
    web = web_section(DOC.read_text()) if DOC.exists() else ""
    DOC.write_text("\n".join(out) + "\n" + (("\n" + web) if web else ""))
    print(f"wrote {DOC.relative_to(ROOT)}")


WEB_HEADING = "## In the browser"


def wasm_size_sentence() -> str:
    """The module's size sentence (benchmarks/wasm_size.py), or why there is none."""
    import wasm_size
    if not wasm_size.WASM.exists():
        return "not built (make wasm)"
    return wasm_size.sentence(*wasm_size.sizes())


def web_section(text: str) -> str:
    """The browser's section of docs/benchmarks.md (from its heading to the end), or ""."""
    i = text.find("\n" + WEB_HEADING + "\n")
    return text[i + 1:] if i >= 0 else ""


def write_web_section(rows, chromium: str, command_line: str) -> None:
    """docs/benchmarks.md's browser section, from `make bench-web` (benchmarks/web/bench_web.py):
    rows (name, value, unit, target) in the tables of the rest of the page; the rest is kept."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [WEB_HEADING, "",
           f"Written by `{command_line}` (benchmarks/web/bench_web.py); do not edit by hand. {chromium}, headless, one run: "
           "each ratio divides pindrop.wasm's time (or memory) by the peer's, both from the same run.", "",
           f"- date: {now}, commit {revision()}",
           f"- module: {wasm_size_sentence()}", "",
           "| figure | target | value | met | command |", "|---|---|---|---|---|"]
    for name, value, unit, target in rows:
        shown = f"{fmt(value)} {unit}".rstrip()
        out.append(f"| {name} | {target or '-'} | {shown} | {met(value, target)} | `{command_line}` |")
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    i = text.find("\n" + WEB_HEADING + "\n")
    head = text[:i + 1] if i >= 0 else text
    DOC.write_text(head.rstrip("\n") + "\n\n" + "\n".join(out) + "\n")
    import wasm_size
    if wasm_size.WASM.exists():
        wasm_size.write(*wasm_size.sizes())
    print(f"wrote the browser's figures into {DOC.relative_to(ROOT)}")


def main() -> int:
    ap = argparse.ArgumentParser(description="Runs the benchmarks.")
    ap.add_argument("data", nargs="?", type=Path, default=(ROOT / ".." / "shared" / "data").resolve())
    ap.add_argument("--only", help="comma-separated benchmark names (bench_core, bench_peers, ...)")
    ap.add_argument("--no-docs", action="store_true", help="leave docs/benchmarks.md alone")
    args = ap.parse_args()
    data = args.data
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
    if args.only:
        wanted = set(args.only.split(","))
        benches = [b for b in benches if b.stem in wanted]
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
    counts = {}
    if any(b.stem == "bench_hot_paths" for b in benches):
        print("== instruction counts of the hot paths (callgrind)", flush=True)
        import instructions
        counts = instructions.measure(data)
    from instructions import KEY_OF_TIMED
    print("\n== summary")
    for bench, name, value, unit, target in summary:
        verdict = met(value, target)
        key = KEY_OF_TIMED.get(name) if bench == "bench_hot_paths" else None
        count = f"{counts[key]:>14,.1f} instructions" if key and key in counts else ""
        print(f"{bench:>15}  {name:<32} {value:>12.6g} {unit:<14} {('target ' + target) if target else '':<18} "
              f"{verdict:<6} {count}".rstrip())
    if failed:
        print("failed:", ", ".join(failed))
        return 1
    if not args.only and not args.no_docs:
        write_doc(summary, counts, data)
        import wasm_size
        if wasm_size.WASM.exists():
            wasm_size.write(*wasm_size.sizes())
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
