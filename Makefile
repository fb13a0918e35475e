# pindrop — `make demo` runs the demo on bundled real data, `make test` runs every test.
# Both install what is missing first (Debian packages, Python packages) and are idempotent.

PREFIX ?= /usr/local
PYTHON ?= python3
SWIFT ?= swift
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib
LIB = .build/release/libpindrop.so
CC ?= cc
CXX ?= c++
CWARN = -Wall -Wextra -Werror -pedantic
OUT ?= out
export PYTHONPATH := $(CURDIR)/bindings/python$(if $(PYTHONPATH),:$(PYTHONPATH))
export PINDROP_LIBRARY ?= $(CURDIR)/$(LIB)

APT_PACKAGES = libgeos-dev pkg-config
PIP_PACKAGES = numpy pytest pyproj matplotlib

.PHONY: all deps build test test-swift test-c test-python test-install demo bench install clean

all: build

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
	@missing=""; for p in $(PIP_PACKAGES); do $(PYTHON) -c "import $$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; $(PYTHON) -m pip install -q $$missing; fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

test: build test-swift test-c test-python test-install
	@echo "all tests passed"

test-swift: deps
	$(SWIFT) test --disable-swift-testing

# Every Tests/c/test_*.c is built against include/ (as C99 and as C++) and linked with the .so.
test-c: build
	@mkdir -p .build/ctests
	@set -e; for t in Tests/c/test_*.c; do \
	  n=$$(basename $$t .c); \
	  $(CC) -std=c99 $(CWARN) -Iinclude $$t -o .build/ctests/$$n -L.build/release -lpindrop -Wl,-rpath,$(CURDIR)/.build/release -lm; \
	  $(CXX) -x c++ -std=c++11 $(CWARN) -Iinclude -fsyntax-only $$t; \
	  echo "== $$n"; .build/ctests/$$n; \
	done

test-python: build
	$(PYTHON) -m pytest -q bindings/python/tests

# Installs into a scratch prefix and builds a program the way a user would, with pkg-config.
INSTALL_TEST = $(CURDIR)/.build/install-test
test-install: build
	@rm -rf $(INSTALL_TEST)
	@$(MAKE) --no-print-directory install PREFIX=$(INSTALL_TEST) >/dev/null
	$(CC) -std=c99 $(CWARN) Tests/install/app.c -o $(INSTALL_TEST)/app \
	  $$(PKG_CONFIG_PATH=$(INSTALL_TEST)/lib/pkgconfig pkg-config --cflags --libs pindrop)
	$(INSTALL_TEST)/app

demo: build
	$(PYTHON) examples/demo.py --out $(OUT)

bench: build
	$(PYTHON) benchmarks/run.py

# The peers benchmarks/bench_peers.py measures pindrop against, in the same run.
BENCH_PIP_PACKAGES = scipy shapely
.PHONY: bench-deps
bench: bench-deps
bench-deps: deps
	@missing=""; for p in $(BENCH_PIP_PACKAGES); do $(PYTHON) -c "import $$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; $(PYTHON) -m pip install -q $$missing; fi

# The C example as a user builds it: `make install` (here into a prefix inside .build), then
# pkg-config. It replays a recorded touch script; examples/tests check its output and the demo.
.PHONY: test-examples test-qgis
test: test-examples test-qgis
EXAMPLES_PREFIX = $(CURDIR)/.build/prefix
test-examples: build
	@$(MAKE) --no-print-directory install PREFIX=$(EXAMPLES_PREFIX) >/dev/null
	@mkdir -p .build/examples
	PKG_CONFIG_PATH=$(EXAMPLES_PREFIX)/lib/pkgconfig; export PKG_CONFIG_PATH; \
	  $(CC) -std=c99 $(CWARN) examples/c/replay.c $$(pkg-config --cflags --libs pindrop) -lm -o .build/examples/replay
	.build/examples/replay examples/data/lawndale_trees.csv examples/c/drag.touch
	$(PYTHON) -m pytest -q examples/tests

# The QGIS plugin's headless test, with Debian's python3 (python3-qgis; .ci/run installs it).
QGIS_PYTHON ?= /usr/bin/python3
test-qgis: build
	@if $(QGIS_PYTHON) -c "import qgis.core" >/dev/null 2>&1; then \
	  QT_QPA_PLATFORM=offscreen $(QGIS_PYTHON) -m unittest discover -v -s examples/qgis/tests -t examples/qgis; \
	else echo "test-qgis: skipped: python3-qgis is not installed for $(QGIS_PYTHON) (apt-get install python3-qgis)"; fi

install: build
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/pindrop.h $(DESTDIR)$(PREFIX)/include/pindrop.h
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libpindrop.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e "s|@VERSION@|$$(sed -n 's/#define PINDROP_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' include/pindrop.h | paste -sd.)|" \
	  pindrop.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pindrop.pc
	-ldconfig 2>/dev/null

clean:
	rm -rf .build $(OUT)

# The GTK 4 + libshumate app (examples/gtk), built as a user builds it (make install, pkg-config),
# run under Xvfb and driven with real X events (xdotool). deps-gtk installs what it needs.
.PHONY: deps-gtk test-gtk
test: test-gtk
GTK_APT_PACKAGES = libgtk-4-dev libshumate-dev xvfb xdotool x11-apps netpbm
deps-gtk:
	@missing=""; for p in $(GTK_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi
test-gtk: build deps-gtk
	@$(MAKE) --no-print-directory install PREFIX=$(EXAMPLES_PREFIX) >/dev/null
	@mkdir -p .build/examples
	PKG_CONFIG_PATH=$(EXAMPLES_PREFIX)/lib/pkgconfig; export PKG_CONFIG_PATH; \
	  $(CC) -std=c99 -Wall -Wextra -Werror examples/gtk/pindrop_gtk.c \
	  $$(pkg-config --cflags --libs pindrop shumate-1.0 gtk4) -lm -o .build/examples/pindrop-gtk
	PINDROP_GTK_APP=$(CURDIR)/.build/examples/pindrop-gtk GTK_SCREENSHOT=$(CURDIR)/.build/examples/gtk-screenshot.png \
	  $(PYTHON) -m pytest -q examples/gtk/tests
# pysupercluster, the peer of benchmarks/bench_clusters.py. Its setup.py predates build isolation
# (it sets __builtins__.__NUMPY_SETUP__), so it is built the legacy way, against the NumPy here.
.PHONY: bench-deps
bench: bench-deps
bench-deps: deps
	@$(PYTHON) -c "import pysupercluster" >/dev/null 2>&1 || { \
	  $(PYTHON) -m pip install -q setuptools wheel && \
	  $(PYTHON) -m pip install -q --no-build-isolation --no-use-pep517 pysupercluster; }
