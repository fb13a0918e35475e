"""The page's static server: what it serves, with which type, and nothing outside its folders."""

import json
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

import serve  # noqa: E402


@pytest.fixture(scope="module")
def base():
    httpd = serve.make_server(0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def get(url):
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, None, b""


def test_serves_the_page_the_package_leaflet_and_the_data(base):
    status, kind, body = get(base + "/")
    assert status == 200 and kind == "text/html" and b"app.js" in body
    assert get(base + "/app.js")[1] == "text/javascript"
    status, kind, body = get(base + "/pindrop/pindrop.wasm")
    assert status == 200 and kind == "application/wasm" and body[:4] == b"\0asm"
    assert get(base + "/pindrop/package.json")[0] == 200
    status, kind, body = get(base + "/leaflet/leaflet.js")
    assert status == 200 and kind == "text/javascript" and b"Leaflet" in body[:400]
    status, kind, body = get(base + "/leaflet/leaflet.markercluster.js")
    assert status == 200 and b"markercluster 1.5" in body[:200]
    status, kind, body = get(base + "/data/lawndale_trees.csv")
    assert status == 200 and body.startswith(b"id,lon,lat,species\n") and body.count(b"\n") == 7938
    # the same trees as GeoJSON (the README's page loads them so), written from the CSV
    status, kind, body = get(base + "/data/lawndale_trees.geojson")
    fc = json.loads(body)
    assert status == 200 and kind == "application/geo+json" and fc["type"] == "FeatureCollection"
    assert len(fc["features"]) == 7937
    first = fc["features"][0]
    assert first["properties"] == {"id": 4933, "species": "Platanus racemosa"}
    assert first["geometry"] == {"type": "Point", "coordinates": [-118.35259236902644, 33.900539810736184]}
    assert get(base + "/pindrop/leaflet.global.js")[1] == "text/javascript"


def test_nothing_outside_its_folders(base):
    for path in ["/../Makefile", "/pindrop/../../Makefile", "/leaflet/../../../etc/passwd", "/%2e%2e/Makefile",
                 "/pindrop/%2e%2e/%2e%2e/include/pindrop.h", "/data/../../Makefile", "/nothing-here.js"]:
        assert get(base + path)[0] == 404, path

