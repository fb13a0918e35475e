#!/usr/bin/env python3
"""The static server of the Leaflet host page: no CDN, nothing fetched from the network.

    python3 examples/web/serve.py [--port 8019] [--bind 127.0.0.1]

then open http://127.0.0.1:8019/ (add ?data=la for the 916k LA trees, ?tiles=URL for a tile
server, ?input=touch|mouse to choose the input profile).

What it serves:

    /                 examples/web/ (the page and its modules)
    /pindrop/...      bindings/js/ (the ES module package); a pindrop.wasm it lacks comes from
                      dist/pindrop.wasm (`make wasm`)
    /leaflet/...      Debian's Leaflet 1.7 and Leaflet.markercluster 1.5.3
                      (/usr/share/javascript/leaflet/, packages libjs-leaflet and
                      libjs-leaflet.markercluster)
    /data/lawndale_trees.csv   examples/data/lawndale_trees.csv (bundled)
    /data/lawndale_trees.geojson    the same trees as a GeoJSON FeatureCollection (each Point
                               with properties {id, species}), written from the CSV on request
    /data/la_trees.csv         the 916,114 LA trees, ../shared/data/la_trees.csv next to the
                               repository or $PINDROP_LA_TREES (404 when absent: the page says so)
"""

import argparse
import http.server
import json
import mimetypes
import os
import posixpath
import sys
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LEAFLET = Path(os.environ.get("PINDROP_LEAFLET_DIR", "/usr/share/javascript/leaflet"))
LA_TREES = Path(os.environ.get("PINDROP_LA_TREES", ROOT.parent / "shared" / "data" / "la_trees.csv"))

MOUNTS = [
    ("/pindrop/", ROOT / "bindings" / "js"),
    ("/leaflet/", LEAFLET),
    ("/dist/", ROOT / "dist"),
    ("/", HERE),
]
FILES = {
    "/data/lawndale_trees.csv": ROOT / "examples" / "data" / "lawndale_trees.csv",
    "/data/la_trees.csv": LA_TREES,
}

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/csv", ".csv")


def csv_as_geojson(path: Path) -> bytes:
    """The bundled trees' CSV (id,lon,lat,species) as a FeatureCollection of Points."""
    features = []
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split(",", 3)
            if len(parts) < 3:
                continue
            features.append({"type": "Feature", "properties": {"id": int(parts[0]), "species": parts[3] if len(parts) > 3 and parts[3] else None},
                             "geometry": {"type": "Point", "coordinates": [float(parts[1]), float(parts[2])]}})
    return json.dumps({"type": "FeatureCollection", "features": features}, separators=(",", ":")).encode()


GENERATED = {"/data/lawndale_trees.geojson": lambda: csv_as_geojson(ROOT / "examples" / "data" / "lawndale_trees.csv")}


def resolve(url_path: str):
    """The file a URL path names, or None. Never leaves the mounted folders."""
    path = posixpath.normpath(urllib.parse.unquote(url_path))
    if url_path.endswith("/") and not path.endswith("/"):
        path += "/"
    if path in FILES:
        return FILES[path]
    for prefix, folder in MOUNTS:
        if path == prefix.rstrip("/") or path.startswith(prefix):
            rest = path[len(prefix):] if path.startswith(prefix) else ""
            target = (folder / rest).resolve()
            if target != folder.resolve() and folder.resolve() not in target.parents:
                return None
            if target.is_dir():
                target = target / "index.html"
            if not target.exists() and prefix == "/pindrop/" and target.name == "pindrop.wasm":
                target = ROOT / "dist" / "pindrop.wasm"
            return target
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "pindrop-web"

    def do_GET(self):
        self.send(head_only=False)

    def do_HEAD(self):
        self.send(head_only=True)

    def send(self, head_only):
        path = urllib.parse.urlsplit(self.path).path
        if path in GENERATED:
            body = GENERATED[path]()
            self.send_response(200)
            self.send_header("Content-Type", "application/geo+json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if not head_only:
                self.wfile.write(body)
            return
        target = resolve(path)
        if target is None or not target.is_file():
            self.send_error(404, "not found")
            return
        size = target.stat().st_size
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(size))
        self.send_header("Cache-Control", "no-store")
        if self.path.startswith("/bench"):
            # cross-origin isolation: performance.now() at 5 us instead of 100 us
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.end_headers()
        if head_only:
            return
        with open(target, "rb") as f:
            while chunk := f.read(1 << 20):
                self.wfile.write(chunk)

    def log_message(self, fmt, *args):
        if os.environ.get("PINDROP_SERVE_LOG"):
            sys.stderr.write("serve: " + fmt % args + "\n")


def make_server(port=0, bind="127.0.0.1"):
    """A threading server on bind:port (0 = any free port); its port is server.server_address[1]."""
    return http.server.ThreadingHTTPServer((bind, port), Handler)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=8019)
    ap.add_argument("--bind", default="127.0.0.1")
    args = ap.parse_args()
    server = make_server(args.port, args.bind)
    print(f"serving the pindrop Leaflet page on http://{args.bind}:{server.server_address[1]}/", flush=True)
    if not (ROOT / "bindings" / "js").exists():
        print("  bindings/js is missing: the page needs the JS package", flush=True)
    if not LA_TREES.exists():
        print(f"  {LA_TREES} is missing: ?data=la will say so", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
