"""Packs the QGIS plugin as the zip that QGIS's Plugin Manager installs ("Install from ZIP"):

    pindrop_drag/                 the plugin (metadata.txt, icon, map tool, Processing provider)
    pindrop_drag/ext/pindrop/     the pindrop Python package with libpindrop.so and pindrop.wasm inside
    pindrop_drag/LICENSE          the licence (MIT) of the plugin, the package and the library

The library is stripped; it needs only the C/C++ runtime and GEOS's C library (libgeos_c.so.1),
which every QGIS loads itself. Where it does not load (Windows, macOS, aarch64), the package runs
pindrop.wasm (`make wasm`) through wasmtime, which the plugin installs with the user's consent
(pindrop_drag/runtime.py). Usage: make_zip.py LIBRARY OUT_DIR [WASM] (WASM defaults to
dist/pindrop.wasm; prints the zip's path).
"""
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLUGIN = HERE / "pindrop_drag"
PACKAGE = ROOT / "bindings" / "python" / "pindrop"
STAMP = (2026, 1, 1, 0, 0, 0)  # fixed times: the same sources give the same zip


def version() -> str:
    for line in (PLUGIN / "metadata.txt").read_text().splitlines():
        if line.startswith("version="):
            return line.split("=", 1)[1].strip()
    raise SystemExit("metadata.txt has no version")


def add(zf: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    zf.writestr(info, data)


def main(library: str, out_dir: str, wasm: str = str(ROOT / "dist" / "pindrop.wasm")) -> Path:
    if not Path(wasm).is_file():
        raise SystemExit(f"{wasm} is missing: make wasm")
    out = Path(out_dir) / f"pindrop_drag-{version()}.zip"
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        stripped = Path(tmp) / "libpindrop.so"
        subprocess.run(["strip", "--strip-unneeded", "-o", str(stripped), library], check=True)
        with zipfile.ZipFile(out, "w") as zf:
            for path in sorted(PLUGIN.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                    add(zf, f"pindrop_drag/{path.relative_to(PLUGIN).as_posix()}", path.read_bytes())
            add(zf, "pindrop_drag/README.md", (HERE / "README.md").read_bytes())
            add(zf, "pindrop_drag/LICENSE", (ROOT / "LICENSE").read_bytes())  # the plugin's and the library's
            for module in sorted(PACKAGE.glob("*.py")) + [PACKAGE / "py.typed"]:  # every module of the package
                add(zf, f"pindrop_drag/ext/pindrop/{module.name}", module.read_bytes())
            add(zf, "pindrop_drag/ext/pindrop/libpindrop.so", stripped.read_bytes(), executable=True)
            add(zf, "pindrop_drag/ext/pindrop/pindrop.wasm", Path(wasm).read_bytes())
    print(out)
    return out


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
