# The Leaflet host page (examples/web) in real headless Chromium: `make test-web` (part of
# `make test`), `make serve-web` (the page on http://127.0.0.1:8019/), `make bench-web` (benchmarks/web: pindrop.wasm
# against Leaflet.markercluster and against the native library on the 916k LA trees; not a test).
# The MapLibre page beside it (maplibre.html, examples/web/tests/test_maplibre.py) is tested and served the same way.
# Included at the end of the Makefile; needs `make wasm` (dist/pindrop.wasm) and bindings/js.

WEB_APT_PACKAGES = chromium chromium-driver libjs-leaflet libjs-leaflet.markercluster
WEB_PIP_PACKAGES = websocket-client
# MapLibre GL JS 5.3 for the MapLibre page: maplibre-gl.js and its CSS in maplibre/srcjs/, served at /maplibre/
WEB_PIP_MAPLIBRE = maplibre
WEB_PORT ?= 8019

.PHONY: web-deps test-web serve-web bench-web
test: test-web

web-deps: deps
	@missing=""; for p in $(WEB_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; fi
	@$(PYTHON) -c "import websocket" >/dev/null 2>&1 || { echo "installing $(WEB_PIP_PACKAGES)"; $(PYTHON) -m pip install -q $(WEB_PIP_PACKAGES); }
	@$(PYTHON) -c "import importlib.util as u, sys; sys.exit(u.find_spec('maplibre') is None)" || { echo "installing $(WEB_PIP_MAPLIBRE)"; $(PYTHON) -m pip install -q $(WEB_PIP_MAPLIBRE); }

test-web: build wasm web-deps
	$(PYTHON) -m pytest -q -p no:cacheprovider examples/web/tests

serve-web: wasm web-deps
	$(PYTHON) examples/web/serve.py --port $(WEB_PORT)

# The benchmark page's harness lives in benchmarks/web (served with this page's server); its test
# checks that the native, package and raw-export paths do the same work.
.PHONY: test-bench-web
test: test-bench-web
test-bench-web: build wasm web-deps
	$(PYTHON) -m pytest -q -p no:cacheprovider benchmarks/web/tests

bench-web: build wasm web-deps bench-deps
	$(PYTHON) benchmarks/web/bench_web.py
