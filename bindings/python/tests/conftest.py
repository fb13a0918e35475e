"""Fixtures shared by the Python tests: where the real data lives, and the LA trees loaded once."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]      # bindings/python/tests -> the repository root
DATA_DIR = (ROOT / ".." / "shared" / "data").resolve()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared real-data folder, ../shared/data from the repository root."""
    if not DATA_DIR.is_dir():
        pytest.skip(f"the real data folder {DATA_DIR} is missing (expected ../shared/data next to the checkout)")
    return DATA_DIR


@dataclass(frozen=True)
class Trees:
    lon: "numpy.ndarray"
    lat: "numpy.ndarray"
    city: "numpy.ndarray"

    def __len__(self) -> int:
        return self.lon.size


@pytest.fixture(scope="session")
def la_trees(data_dir) -> Trees:
    """The 916k Los Angeles County street trees (la_trees.csv: city,idx,lat,lon), read once."""
    np = pytest.importorskip("numpy")
    path = data_dir / "la_trees.csv"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    rows = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(0, 2, 3),
                      dtype=[("city", "U32"), ("lat", "f8"), ("lon", "f8")])
    return Trees(lon=np.ascontiguousarray(rows["lon"]), lat=np.ascontiguousarray(rows["lat"]),
                 city=rows["city"])


# -- the backend ---------------------------------------------------------------------------------
# The suite runs on both backends (make test-python: native, then PINDROP_BACKEND=wasm). A test
# marked native_only reads libpindrop.so itself (its exported symbols with nm, its dependencies
# with ldd), which has no counterpart in pindrop.wasm: it is skipped on the wasm backend, with the
# reason in the report (-rs). The module's exports are checked by bindings/js/tests instead.
NATIVE_ONLY_REASON = "native-only: inspects libpindrop.so itself (nm, ldd); the wasm backend does not load it"


def pytest_configure(config):
    config.addinivalue_line("markers", f"native_only: {NATIVE_ONLY_REASON}")


def pytest_collection_modifyitems(config, items):
    import pindrop
    if pindrop.backend == "native":
        return
    skip = pytest.mark.skip(reason=f"{NATIVE_ONLY_REASON} (backend: {pindrop.backend})")
    for item in items:
        if item.get_closest_marker("native_only"):
            item.add_marker(skip)
