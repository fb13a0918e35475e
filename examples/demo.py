"""pindrop on real data: Lawndale's 7,937 street trees, a scripted session on a phone-sized screen.

    make demo                      # or: python3 examples/demo.py --out out

1. Lift and drag a tree: hold on it (the lift delay), drag it along a curve, let go.
2. Tap to move: while a tree is being edited, a double tap on the map moves nothing (it is the
   host's zoom), a single tap moves the tree there once the double-tap window has passed.
3. Spreading: 305 trees of the inventory share one coordinate (and 261 another, 30 m away).
   pindrop draws them on rings, with legs to the true spot; one is then dragged out of its ring.
4. Clusters: the whole LA county inventory (916,114 trees, ../shared/data/la_trees.csv next to the
   checkout) on a 1200×800 screen at zoom 10 and at zoom 15 over Long Beach.

It prints the events pindrop reports and writes pictures (PNG) into the output folder:
drag_path.png, stack_before.png, stack_after.png, and clusters_la.png when the county file is there.
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bindings" / "python"))  # a source checkout needs no install

import numpy as np  # noqa: E402

import pindrop  # noqa: E402

TREES = HERE / "data" / "lawndale_trees.csv"
PHONE = (390, 844)                      # points
DRAG_TREE = 5603                        # a Cassia leptophylla in the middle of Lawndale
EARTH = 6378137.0


def load_trees(path: Path = TREES):
    """ids (int64), lonlat (n×2 float64) and species of the bundled inventory."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    ids = np.array([int(r["id"]) for r in rows], dtype=np.int64)
    lonlat = np.array([[float(r["lon"]), float(r["lat"])] for r in rows])
    species = {int(r["id"]): r["species"] for r in rows}
    return ids, lonlat, species


def metres(a, b) -> float:
    """Great-circle distance between two (lon, lat), haversine on the 6378137 m sphere."""
    (lon1, lat1), (lon2, lat2) = (map(math.radians, a)), (map(math.radians, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(math.sqrt(h))


def show(events, quiet_drags: bool = True) -> list:
    """Prints events; a run of DRAGGED events is shortened to its first and last."""
    events = list(events)
    i = 0
    while i < len(events):
        e = events[i]
        j = i
        while quiet_drags and e.type == "DRAGGED" and j + 1 < len(events) and events[j + 1].type == "DRAGGED":
            j += 1
        print("   ", e)
        if j > i:
            if j > i + 1:
                print(f"    {'':8}     ... {j - i - 1} more DRAGGED")
            print("   ", events[j])
        i = j + 1
    return events


class Session:
    """A map plus the host's clock and event log: touches at explicit times, timers run when due."""

    def __init__(self, m: pindrop.Map):
        self.m = m
        self.log: list = []

    def at(self, t: float):
        self.m.advance(t)  # the host's timer: ticks at every deadline up to t
        return self

    def touch(self, phase: str, x: float, y: float, t: float, pointer: int = 0) -> bool:
        self.at(t)
        owned = self.m.touch(pointer, phase, x, y, t)
        return owned

    def drain(self) -> list:
        events = show(self.m.events())
        self.log.extend(events)
        return events


# -- 1. lift and drag ------------------------------------------------------------------------------

def scene_drag(ids, lonlat, species):
    print(f"\n1. Lift and drag: tree {DRAG_TREE} ({species[DRAG_TREE]}) on a {PHONE[0]}x{PHONE[1]} screen, zoom 19")
    m = pindrop.Map()  # touch-screen defaults: 250 ms to lift, 40 points above the finger
    m.add_many(ids, lonlat)
    start = m.position(DRAG_TREE)
    m.set_camera(start[0], start[1], zoom=19, width=PHONE[0], height=PHONE[1])
    s = Session(m)
    x0, y0 = m.to_screen(*start)
    trees_before = m.frame(0)

    print(f"    t=0: finger down on the tree at ({x0:.0f}, {y0:.0f}); it is held still")
    s.touch("down", x0, y0, 0)
    s.at(300)
    s.drain()
    # Drag along a quarter circle, up and to the right, one move per 60 Hz frame.
    finger, pin_screen = [(x0, y0)], []
    steps = 45
    for k in range(1, steps + 1):
        a = k / steps * math.pi / 2
        fx, fy = x0 + 130 * (1 - math.cos(a)), y0 - 230 * math.sin(a)
        t = 300 + 16 * k
        s.touch("move", fx, fy, t)
        finger.append((fx, fy))
        for e in m.events():
            s.log.append(e)
            if e.type == "DRAGGED":
                pin_screen.append(m.to_screen(e.lon, e.lat))
    t_up = 300 + 16 * steps + 50
    print(f"    moved the finger {len(finger) - 1} times along a curve ({len(pin_screen)} DRAGGED events)")
    s.touch("up", *finger[-1], t_up)
    show(m.events())
    end = m.position(DRAG_TREE)
    print(f"    tree {DRAG_TREE} moved {metres(start, end):.1f} m, to ({end[0]:.7f}, {end[1]:.7f})")
    trees_after = m.frame(t_up + 1000)
    return dict(m=m, start=start, end=end, finger=finger, pin=pin_screen, before=trees_before,
                after=trees_after, origin=(x0, y0))


# -- 2. tap to move --------------------------------------------------------------------------------

def scene_tap(drag):
    m: pindrop.Map = drag["m"]
    s = Session(m)
    t = 3000.0
    tree = DRAG_TREE
    print(f"\n2. Tap to move: edit tree {tree}, double-tap the map (moves nothing), then tap once")
    m.edit(tree, t)
    s.drain()
    x, y = 120.0, 600.0
    while m.hit_test(x, y) is not None:  # a spot on the map, not on a tree
        x += 10
    before = m.position(tree)
    print(f"    double tap at ({x:.0f}, {y:.0f})")
    for t0 in (t + 100, t + 250):
        s.touch("down", x, y, t0)
        s.touch("up", x, y, t0 + 60)
    s.at(t + 1000)
    s.drain()
    assert m.position(tree) == before, "a double tap must not move the tree"
    print(f"    single tap at ({x:.0f}, {y:.0f}); the move waits for the double-tap window "
          f"({m.options.double_tap_ms:.0f} ms)")
    s.touch("down", x, y, t + 2000)
    s.touch("up", x, y, t + 2060)
    s.drain()
    s.at(t + 2060 + m.options.double_tap_ms + 1)
    s.drain()
    m.commit(t + 3000)
    s.drain()
    after = m.position(tree)
    print(f"    tree {tree} moved {metres(before, after):.1f} m to the tapped point")
    return dict(tap=(x, y), before=before, after=after)


# -- 3. spreading ----------------------------------------------------------------------------------

def biggest_stacks(lonlat, k=2):
    counts = Counter(map(tuple, lonlat))
    return counts.most_common(k)


def scene_spread(ids, lonlat):
    (spot, n), (spot2, n2) = biggest_stacks(lonlat)
    print(f"\n3. Spreading: {n} trees share ({spot[0]:.7f}, {spot[1]:.7f}); "
          f"{n2} share a spot {metres(spot, spot2):.0f} m away")
    view = dict(zoom=16, width=800, height=800)
    flat = pindrop.Map(spread_mode=pindrop.SPREAD_OFF)
    flat.add_many(ids, lonlat)
    flat.set_camera(spot[0], spot[1], **view)
    before = flat.frame(0)

    m = pindrop.Map()  # spreading is on by default (SPREAD_RING)
    m.add_many(ids, lonlat)
    m.set_camera(spot[0], spot[1], **view)
    after = m.frame(0)
    spread = [v for v in after if v.flags & pindrop.PIN_SPREAD]
    print(f"    {len(spread)} of the {len(after)} trees in view are drawn spread, each with a leg to its true spot")
    stack = sorted(int(i) for i, p in zip(ids, map(tuple, lonlat)) if p == spot)
    for rank in (0, n // 4):
        d = m.display_position(stack[rank])
        print(f"    tree {stack[rank]} (#{rank} of {n} by id) is drawn {metres(spot, d):.1f} m from the spot "
              f"(3n/2 = {1.5 * n:.1f} m), true coordinate unchanged: {m.position(stack[rank]) == spot}")
    batch = pindrop.spread(lonlat)
    moved = int(np.count_nonzero(np.any(batch != lonlat, axis=1)))
    print(f"    pindrop.spread() over the whole inventory: {moved} of {len(lonlat)} trees drawn away from "
          f"their coordinate")

    # Drag one tree out of the ring: hold on it, drag it 120 points east, let go.
    s = Session(m)
    target = next(v for v in after if v.id == stack[n // 4])
    print(f"    drag tree {target.id} out of the ring, from its place on the ring ({target.x:.0f}, {target.y:.0f})")
    s.touch("down", target.x, target.y, 1000)
    s.at(1300)
    for k in range(1, 11):
        s.touch("move", target.x + 12 * k, target.y, 1300 + 16 * k)
    s.touch("up", target.x + 120, target.y, 1500)
    s.drain()
    rest = stack[0] if stack[0] != target.id else stack[1]
    print(f"    the ring re-forms around the {n - 1} trees left: tree {rest} now drawn "
          f"{metres(spot, m.display_position(rest)):.1f} m from the spot (3(n-1)/2 = {1.5 * (n - 1):.1f} m)")
    return dict(before=before, after=after, spot_xy=m.to_screen(*spot), n=n, n2=n2, gap_m=metres(spot, spot2),
                spot2_xy=m.to_screen(*spot2), view=view)


# -- pictures --------------------------------------------------------------------------------------

def _axes(plt, width, height, title, inches=8.0):
    fig = plt.figure(figsize=(inches, inches * height / width), dpi=100)
    ax = fig.add_axes([0.0, 0.0, 1.0, 0.94])
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # screen points: y down
    ax.set_aspect("equal")
    ax.set_facecolor("#eef2ea")
    ax.set_xticks([])
    ax.set_yticks([])
    fig.suptitle(title, fontsize=11 if "\n" not in title else 10, y=0.99, va="top")
    return fig, ax


def _scale_bar(ax, metres_per_point, width, height, length_m):
    pts = length_m / metres_per_point
    x, y = width - 20 - pts, height - 20
    ax.plot([x, x + pts], [y, y], color="black", lw=2)
    ax.text(x + pts / 2, y - 6, f"{length_m:g} m", ha="center", va="bottom", fontsize=8)


def metres_per_point(lat, zoom):
    return 2 * math.pi * EARTH * math.cos(math.radians(lat)) / (256 * 2 ** zoom)


def draw_drag(plt, drag, path: Path):
    w, h = PHONE
    fig, ax = _axes(plt, w, h, f"Lift and drag tree {DRAG_TREE}:\nthe pin rides 40 points above the finger", 4.6)
    others = [v for v in drag["after"] if v.id != DRAG_TREE]
    ax.scatter([v.x for v in others], [v.y for v in others], s=36, color="#5a8f4e", alpha=0.8,
               label="street trees", zorder=2)
    x0, y0 = drag["origin"]
    ax.scatter([x0], [y0], s=90, facecolors="none", edgecolors="#b03a2e", lw=1.5, zorder=3,
               label="where the tree was")
    fx, fy = zip(*drag["finger"])
    ax.plot(fx, fy, ls="--", color="#555555", lw=1.2, label="finger", zorder=3)
    px, py = zip(*drag["pin"])
    ax.plot(px, py, color="#b03a2e", lw=2, label="pin (DRAGGED)", zorder=4)
    end = next(v for v in drag["after"] if v.id == DRAG_TREE)
    ax.scatter([end.x], [end.y], s=90, color="#b03a2e", zorder=5, label="dropped (MOVED)")
    ax.scatter([fx[-1]], [fy[-1]], s=140, color="#f0c27b", edgecolors="#555555", zorder=4, label="finger lifted")
    ax.annotate("", xy=(end.x, end.y + 6), xytext=(fx[-1], fy[-1] - 8),
                arrowprops=dict(arrowstyle="->", color="#555555"))
    _scale_bar(ax, metres_per_point(drag["start"][1], 19), w, h, 20)
    ax.legend(loc="lower left", fontsize=7, framealpha=0.9)
    fig.savefig(path)
    plt.close(fig)


def draw_stack(plt, spread, views, path: Path, after: bool):
    w = spread["view"]["width"]
    h = spread["view"]["height"]
    n, n2 = spread["n"], spread["n2"]
    title = (f"After: pindrop spreads the stacks on rings (radius 3n/2 m), legs to the true spot" if after else
             f"Before: {n} trees on one spot, {n2} on another {spread['gap_m']:.0f} m away; red: stacked trees")
    fig, ax = _axes(plt, w, h, title)
    plain = [v for v in views if not v.flags & pindrop.PIN_SPREAD]
    ax.scatter([v.x for v in plain], [v.y for v in plain], s=6, color="#5a8f4e", alpha=0.7, zorder=2)
    if after:
        spread_views = [v for v in views if v.flags & pindrop.PIN_SPREAD]
        segs = [[(v.anchor_x, v.anchor_y), (v.x, v.y)] for v in spread_views]
        from matplotlib.collections import LineCollection
        ax.add_collection(LineCollection(segs, colors="#b03a2e", linewidths=0.4, alpha=0.35, zorder=3))
        ax.scatter([v.x for v in spread_views], [v.y for v in spread_views], s=10, color="#b03a2e", zorder=4)
    else:  # stacks: one marker per shared spot, its area growing with the number of trees
        stacks = Counter((round(v.x, 6), round(v.y, 6)) for v in views)
        stacked = [(p, k) for p, k in stacks.items() if k > 1]
        ax.scatter([p[0] for p, _ in stacked], [p[1] for p, _ in stacked], s=[8 + 1.2 * k for _, k in stacked],
                   color="#b03a2e", alpha=0.75, zorder=4)
        x, y = spread["spot_xy"]
        ax.annotate(f"{n} trees here", xy=(x, y), xytext=(x + 60, y - 80), fontsize=10,
                    arrowprops=dict(arrowstyle="->", color="#b03a2e"), color="#b03a2e")
        x, y = spread["spot2_xy"]
        ax.annotate(f"{n2} trees here", xy=(x, y), xytext=(x + 60, y + 80), fontsize=10,
                    arrowprops=dict(arrowstyle="->", color="#b03a2e"), color="#b03a2e")
    lat = 33.8835519
    _scale_bar(ax, metres_per_point(lat, spread["view"]["zoom"]), w, h, 200)
    fig.savefig(path)
    plt.close(fig)


COUNTY = HERE.parent.parent / "shared" / "data" / "la_trees.csv"
COUNTY_VIEW = (-118.25, 34.05)          # zoom 10: most of the county on the screen


def scene_clusters(path: Path = COUNTY):
    """The county inventory, clustered with a 60-point radius, at zoom 10 and zoom 15."""
    lonlat = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(3, 2))
    ids = np.arange(len(lonlat), dtype=np.int64)
    views = []
    with pindrop.Map(cluster_radius=60) as m:
        m.add_many(ids, lonlat)
        print(f"\n4. Clusters: {len(m)} street trees of LA county, cluster_radius 60 points")
        # Zoom 15: the middle of Long Beach's trees (the median of those within ~5 km of downtown).
        near = lonlat[(np.abs(lonlat[:, 0] + 118.17) < 0.05) & (np.abs(lonlat[:, 1] - 33.80) < 0.05)]
        street = tuple(np.median(near, axis=0))
        for zoom, centre in ((10, COUNTY_VIEW), (15, street)):
            m.set_camera(*centre, zoom, 1200, 800)
            pins = m.frame(0, array=True)
            clusters = m.clusters(0, array=True)
            biggest = clusters[np.argmax(clusters["count"])] if len(clusters) else None
            print(f"   zoom {zoom}: {len(clusters)} clusters holding {int(clusters['count'].sum())} trees, "
                  f"{len(pins)} single trees in view" +
                  (f"; the biggest: {int(biggest['count'])} trees, comes apart at zoom "
                   f"{m.cluster_expansion_zoom(int(biggest['key'])):g}" if biggest is not None else ""))
            views.append((zoom, centre, pins, clusters))
    return views


def draw_clusters(plt, views, path: Path):
    fig = plt.figure(figsize=(12, 4.6), dpi=100)
    for i, (zoom, centre, pins, clusters) in enumerate(views):
        ax = fig.add_axes([0.005 + 0.5 * i, 0.0, 0.49, 0.86])
        ax.set_xlim(0, 1200)
        ax.set_ylim(800, 0)
        ax.set_aspect("equal")
        ax.set_facecolor("#eef2ea")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.scatter(pins["x"], pins["y"], s=8, color="#5a8f4e", zorder=2)
        sizes = 120 + 90 * np.log10(clusters["count"])
        ax.scatter(clusters["x"], clusters["y"], s=sizes, color="#b03a2e", alpha=0.85, zorder=3,
                   edgecolors="white", linewidths=0.8)
        for c in clusters:
            label = f"{c['count'] / 1000:.0f}k" if c["count"] >= 10000 else f"{int(c['count'])}"
            ax.text(c["x"], c["y"], label, ha="center", va="center", fontsize=6.5, color="white", zorder=4,
                    clip_on=True)
        ax.set_title(f"zoom {zoom} at ({centre[0]:.3f}, {centre[1]:.3f}): {len(clusters)} clusters, "
                     f"{len(pins)} single trees", fontsize=9.5)
        _scale_bar(ax, metres_per_point(centre[1], zoom), 1200, 800, 10000 if zoom == 10 else 200)
    fig.suptitle("The 916,114 street trees of LA county, clustered (60 points), on a 1200×800 screen",
                 fontsize=11, y=0.995, va="top")
    fig.savefig(path)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="out", help="folder for the pictures (default: out)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ids, lonlat, species = load_trees()
    print(f"pindrop {pindrop.version()} — {len(ids)} street trees of Lawndale, CA ({TREES.name})")

    drag = scene_drag(ids, lonlat, species)
    scene_tap(drag)
    spread = scene_spread(ids, lonlat)
    county = scene_clusters() if COUNTY.exists() else None
    if county is None:
        print(f"\n4. Clusters: skipped, the county inventory is not at {COUNTY}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pictures = [out / "drag_path.png", out / "stack_before.png", out / "stack_after.png"]
    draw_drag(plt, drag, pictures[0])
    draw_stack(plt, spread, spread["before"], pictures[1], after=False)
    draw_stack(plt, spread, spread["after"], pictures[2], after=True)
    if county is not None:
        pictures.append(out / "clusters_la.png")
        draw_clusters(plt, county, pictures[-1])
    print("\npictures:")
    for p in pictures:
        print(f"    {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
