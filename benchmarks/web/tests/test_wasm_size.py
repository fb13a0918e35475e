"""The docs quote the built module's size (`make test-bench-web`): docs/web.md,
examples/web/README.md and docs/benchmarks.md each carry the sentence benchmarks/wasm_size.py
writes from dist/pindrop.wasm, with the built module's bytes; a size written by hand, or left from
an older build, fails here. `python3 benchmarks/wasm_size.py --write` (run by `make bench` and
`make bench-web`) rewrites it."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

import wasm_size  # noqa: E402


@pytest.mark.parametrize("doc", wasm_size.DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_doc_quotes_the_built_modules_size(doc):
    raw, gz = wasm_size.sizes()
    quoted = wasm_size.quoted(doc.read_text())
    assert quoted, f"{doc.relative_to(ROOT)} does not quote the module's size ({wasm_size.sentence(raw, gz)})"
    for q in quoted:
        assert q == (raw, gz), (f"{doc.relative_to(ROOT)} quotes {q[0]:,} bytes, {q[1]:,} gzipped; the built module is "
                                f"{raw:,}, {gz:,}: python3 benchmarks/wasm_size.py --write")


def test_no_other_size_is_quoted_by_hand():
    """A size of the module in another form (\"NNN KB gzipped\") is one the build does not write."""
    import re
    for doc in wasm_size.DOCS:
        text = wasm_size.SENTENCE.sub("", doc.read_text())
        loose = re.findall(r"[0-9][0-9,.]* ?(?:KB|kB|KiB|MB|bytes) gzipped", text)
        assert not loose, f"{doc.relative_to(ROOT)} quotes {loose} by hand"


def test_the_sentence_round_trips(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(f"Built: {wasm_size.sentence(1, 2)}.\n")
    assert wasm_size.quoted(doc.read_text()) == [(1, 2)]
    assert wasm_size.write(345_678, 123_456, [doc]) == [doc]
    assert wasm_size.quoted(doc.read_text()) == [(345_678, 123_456)]
    assert "(338 KB)" in doc.read_text() and "(121 KB;" in doc.read_text()
