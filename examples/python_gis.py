"""Python for GIS with pindrop: the LA street trees from a CSV and from a GeoPackage to a spread map
and a clustered view (docs/python-gis.md shows and explains each step; its code blocks are this
file's, checked by examples/tests/test_python_gis.py).

    python3 examples/python_gis.py --data ../shared/data --out out

Needs pandas, GeoPandas (with pyogrio) and matplotlib; writes into --out: lawndale.gpkg (the
city's inventory), lawndale_spread.gpkg (the drawn points, their legs and the true points),
python_gis_spread.png and python_gis_clusters.png.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bindings" / "python"))  # a source checkout needs no install


def main(DATA: Path, OUT: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    # -- 1. the county from a CSV ------------------------------------------------------------------
    import pandas as pd
    import pindrop

    trees = pd.read_csv(DATA / "la_trees.csv")                  # city, idx, lat, lon: 916,114 rows
    drawn = pindrop.spread(trees[["lon", "lat"]])               # every stack spread on its ring
    print(f"{drawn.moved.sum():,} of {len(trees):,} trees drawn away from a shared spot, "
          f"in {drawn.sizes[drawn.sizes > 1].size:,} stacks of up to {drawn.sizes.max()}")
    # -- 2. a city from a GeoPackage ---------------------------------------------------------------
    import geopandas as gpd
    import pindrop.geo

    city = gpd.read_file(DATA / "la_trees_geojson" / "lawndale.geojson")
    city.to_file(OUT / "lawndale.gpkg", layer="trees")          # what a city hands out
    city = gpd.read_file(OUT / "lawndale.gpkg", layer="trees")  # (EPSG:4326, 7,937 points)
    spread = pindrop.geo.spread(city)                           # QGIS's points displacement
    spread.drop(columns=["true_geometry", "leg"]).to_file(OUT / "lawndale_spread.gpkg", layer="drawn")
    spread[["group", "leg"]].dropna().set_geometry("leg").to_file(OUT / "lawndale_spread.gpkg", layer="legs")
    biggest = spread[spread["group_size"] == spread["group_size"].max()]
    print(f"Lawndale: {int(spread['moved'].sum()):,} trees spread, the biggest stack holds {len(biggest)}")
    # -- 3. the spread map -------------------------------------------------------------------------
    import matplotlib.pyplot as plt

    metres = spread.to_crs(3857)
    true = metres["true_geometry"].to_crs(3857)
    near = metres[true.distance(true[biggest.index[0]]) < 60]   # the trees within 60 m of it
    fig, (before, after) = plt.subplots(1, 2, figsize=(11, 5.6), sharex=True, sharey=True)
    near.set_geometry("true_geometry").to_crs(3857).plot(ax=before, markersize=14, color="#2e7d32")
    spots = near["true_geometry"].to_crs(3857).drop_duplicates().size
    before.set_title(f"as stored: {len(near)} trees on {spots} spots, {len(biggest)} on one")
    near.set_geometry("leg").to_crs(3857).plot(ax=after, linewidth=0.4, color="#9e9e9e")
    near.plot(ax=after, markersize=6, color="#2e7d32")
    after.set_title("pindrop.geo.spread: on rings of 3n/2 m, legs to the spot")
    for ax in (before, after):
        ax.set_aspect("equal")
        ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(OUT / "python_gis_spread.png", dpi=110)
    # -- 4. the clustered view ---------------------------------------------------------------------
    import numpy as np

    fig, panels = plt.subplots(1, 2, figsize=(12, 6.2))
    with pindrop.Map(cluster_radius=60) as county:
        county.add_many(np.arange(len(trees)), trees[["lon", "lat"]])
        for ax, zoom in zip(panels, (11, 16)):
            county.set_camera(-118.3560, 33.8870, zoom=zoom, width=800, height=800)
            clusters, pins = county.clusters(), county.frame()   # drawn at the map's time
            print(f"zoom {zoom}: {len(clusters)} clusters of {int(clusters.counts.sum()):,} trees, "
                  f"{len(pins)} single trees")
            ax.scatter(pins.lon, pins.lat, s=3, color="#2e7d32")
            ax.scatter(clusters.lon, clusters.lat, s=30 + 4 * np.sqrt(clusters.counts), color="#81c784",
                       edgecolor="#1b5e20", linewidth=0.8)
            for c in clusters:
                label = f"{c.count / 1000:.0f}k" if c.count >= 1000 else str(c.count)
                ax.annotate(label, (c.lon, c.lat), ha="center", va="center", fontsize=6)
            (west, north), (east, south) = county.to_lonlat(0, 0), county.to_lonlat(800, 800)
            ax.set_xlim(west, east)
            ax.set_ylim(south, north)
            ax.set_aspect(1 / np.cos(np.radians(33.887)))
            ax.ticklabel_format(useOffset=False)
            ax.locator_params(axis="x", nbins=4)
            ax.set_title(f"zoom {zoom}: {len(clusters)} clusters, {len(pins)} single trees")
    fig.suptitle("LA county's 916,114 street trees, clustered (cluster_radius=60), around Lawndale")
    fig.tight_layout()
    fig.savefig(OUT / "python_gis_clusters.png", dpi=90)

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=Path("out"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    main(args.data, args.out)
