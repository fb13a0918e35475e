#!/usr/bin/env python3
"""Instruction counts of the core's hot paths: runs benchmarks/bench_hot_paths.c under valgrind's
callgrind, where only each figure's loop is instrumented and dumped as a part of its own, and
divides each part's instructions by its number of operations. A count does not drift with the
machine's load: the same binary on the same input executes the same instructions (Swift's hash
seed is fixed, SWIFT_DETERMINISTIC_HASHING=1, so that sets and dictionaries iterate alike).

    python3 benchmarks/instructions.py [--data DIR]             print the counts
    python3 benchmarks/instructions.py --check benchmarks/baseline.json
        compare with the baseline; exit 1 if a count rose more than 5% (make bench-check)
    python3 benchmarks/instructions.py --write benchmarks/baseline.json
        measure and write the baseline (make bench-baseline)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import LIB_DIR, ROOT, compile_c  # noqa: E402

TOLERANCE = 0.05
# The figures, in the order they are printed: key, what one operation is, and the name of the
# timed figure bench_hot_paths prints for the same loop.
FIGURES = [
    ("add_many", "add_many, per pin", "add_many, default options, per pin"),
    ("hit_test", "hit test after a frame, per call", "hit_test from C, after a frame"),
    ("frame", "frame, Long Beach zoom 16", "frame of Long Beach at zoom 16, 1200x800, every tree built"),
    ("frame_clusters", "frame_clusters, Long Beach zoom 16", "frame_clusters of Long Beach at zoom 16, 1200x800, radius 60"),
    ("move_update", "set_position + cluster update, per move", "set_position + cluster update at zoom 16"),
    ("drag_move", "drag move (touch MOVE + poll)", "touch move while dragging, with its DRAGGED polled"),
    ("group_drag_move", "group drag move, 1,000 selected (touch MOVE + poll)",
     "touch move while dragging 1,000 selected trees, with its DRAGGED polled"),
    ("spread", "spread: onto / off the largest stack, per move",
     "spread, re-form after moving a pin onto / off the largest stack"),
]
# The timed figure's name -> the key of its count.
KEY_OF_TIMED = {timed: key for key, _, timed in FIGURES}
PART = re.compile(r"^desc: Trigger: Client Request: hot:(?P<key>\w+):(?P<ops>\d+)\s*$", re.M)
TOTALS = re.compile(r"^totals:\s*(?P<ir>\d+)", re.M)


def default_data() -> Path:
    return (ROOT / ".." / "shared" / "data").resolve()


def measure(data: Path) -> dict[str, float]:
    """Instructions per operation of each figure, from one run under callgrind."""
    if not (LIB_DIR / "libpindrop.so").exists():
        raise SystemExit("build the library first (make build)")
    exe = compile_c(ROOT / "benchmarks" / "bench_hot_paths.c")
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    parts: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-line=no",
               f"--callgrind-out-file={tmp}/cg.out", str(exe), str(data)]
        run = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if run.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{run.stdout}{run.stderr}")
        for f in sorted(Path(tmp).glob("cg.out*")):
            text = f.read_text()
            part, totals = PART.search(text), TOTALS.search(text)
            if part and totals:
                parts[part["key"]] = int(totals["ir"]) / int(part["ops"])
    missing = {"add_many", "hit_test", "frame", "frame_clusters", "move_frame_clusters", "drag_move", "group_drag_move", "spread"} - set(parts)
    if missing:
        raise SystemExit(f"callgrind gave no part for {', '.join(sorted(missing))}")
    # A move's cluster update is what the frame_clusters after it costs beyond one with nothing moved.
    parts["move_update"] = parts.pop("move_frame_clusters") - parts["frame_clusters"]
    return {key: round(parts[key], 1) for key, _, _ in FIGURES}


def check(counts: dict[str, float], baseline: dict[str, float]) -> list[str]:
    """Prints each count against the baseline; returns the figures that rose more than allowed."""
    risen = []
    print(f"instruction counts against the baseline (a rise of more than {TOLERANCE:.0%} fails):")
    for key, label, _ in FIGURES:
        now, then = counts[key], baseline.get(key)
        if then is None:
            print(f"  {label:<48} {now:>14,.1f}   (not in the baseline)")
            continue
        change = now / then - 1
        verdict = "ROSE" if change > TOLERANCE else "ok"
        print(f"  {label:<48} {now:>14,.1f}   baseline {then:>14,.1f}   {change:+7.2%}  {verdict}")
        if change > TOLERANCE:
            risen.append(f"{label}: {then:,.1f} -> {now:,.1f} instructions ({change:+.1%})")
    return risen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=default_data(), help="the folder holding la_trees.csv")
    ap.add_argument("--check", type=Path, metavar="BASELINE", help="compare with this baseline file")
    ap.add_argument("--write", type=Path, metavar="BASELINE", help="write the counts to this baseline file")
    args = ap.parse_args()
    counts = measure(args.data)
    if args.write:
        args.write.write_text(json.dumps({
            "_comment": "Instructions per operation of the core's hot paths (benchmarks/bench_hot_paths.c under "
                        "callgrind, on la_trees.csv). make bench-check fails when one rises more than 5% above "
                        "this. After a change meant to cost more (or one that costs less), update it with "
                        "`make bench-baseline` and commit it with the change.",
            "instructions_per_op": counts,
        }, indent=2) + "\n")
        print(f"wrote {args.write}")
    if args.check:
        baseline = json.loads(args.check.read_text())["instructions_per_op"]
        risen = check(counts, baseline)
        if risen:
            print(f"bench-check FAILED: {len(risen)} instruction count(s) rose more than {TOLERANCE:.0%} above "
                  f"{args.check}:", file=sys.stderr)
            for line in risen:
                print(f"  {line}", file=sys.stderr)
            print("If the rise is intended, update the baseline with `make bench-baseline`.", file=sys.stderr)
            return 1
        print("bench-check passed")
    elif not args.write:
        for key, label, _ in FIGURES:
            print(f"{label}: {counts[key]:,.1f} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
