#!/usr/bin/env python3
"""The size of the built dist/pindrop.wasm, raw and gzipped, and the one sentence the docs quote it
in, written from the build (`make bench`, `make bench-web`, or this script) and never by hand:

    python3 benchmarks/wasm_size.py           # prints the sentence for the built module
    python3 benchmarks/wasm_size.py --write   # rewrites it in every doc that quotes it (DOCS)

benchmarks/web/tests/test_wasm_size.py fails when a doc quotes a size other than the built module's.
"""
from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "dist" / "pindrop.wasm"
BUDGET_KB = 400
# The docs that quote the size, each in one sentence of SENTENCE's form.
DOCS = [ROOT / "docs" / "web.md", ROOT / "examples" / "web" / "README.md", ROOT / "docs" / "benchmarks.md"]
SENTENCE = re.compile(r"`pindrop\.wasm` is (?P<raw>[0-9,]+) bytes \((?P<kb>[0-9]+) KB\), (?P<gz>[0-9,]+) bytes gzipped "
                      r"\((?P<gzkb>[0-9]+) KB; its budget is [0-9]+ KB\)")


def sizes(path: Path = WASM) -> tuple[int, int]:
    """(raw bytes, gzip -9 bytes) of the module (gzip without a name or a time: the same bytes every run)."""
    raw = path.read_bytes()
    return len(raw), len(gzip.compress(raw, 9, mtime=0))


def sentence(raw: int, gz: int) -> str:
    return (f"`pindrop.wasm` is {raw:,} bytes ({round(raw / 1024)} KB), {gz:,} bytes gzipped "
            f"({round(gz / 1024)} KB; its budget is {BUDGET_KB} KB)")


def quoted(text: str) -> list[tuple[int, int]]:
    """The (raw, gzipped) sizes a text quotes."""
    return [(int(m["raw"].replace(",", "")), int(m["gz"].replace(",", ""))) for m in SENTENCE.finditer(text)]


def write(raw: int, gz: int, docs=DOCS) -> list[Path]:
    """Rewrites the sentence in each doc that has it; returns the docs changed."""
    changed = []
    for doc in docs:
        if not doc.exists():
            continue
        text = doc.read_text()
        new = SENTENCE.sub(sentence(raw, gz), text)
        if new != text:
            doc.write_text(new)
            changed.append(doc)
    return changed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite the sentence in the docs")
    args = ap.parse_args()
    if not WASM.exists():
        print("dist/pindrop.wasm is missing: make wasm", file=sys.stderr)
        return 2
    raw, gz = sizes()
    print(sentence(raw, gz))
    if args.write:
        for doc in write(raw, gz):
            print(f"wrote the size into {doc.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
