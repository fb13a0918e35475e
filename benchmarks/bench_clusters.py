"""Clusters of the 916k Los Angeles County street trees (docs/clusters.md), with pysupercluster (the
C++ port of supercluster, the index MapLibre uses) measured in the same run on the same points.

Usage: python3 bench_clusters.py DATA_DIR

- build: pindrop's extra cost of a clustered map (add_many with cluster_radius 60 minus add_many
  without, plus the first frame_clusters, which builds the levels) against pysupercluster's index
  build (radius 60 points on 256-point tiles, zooms 0..16: the same levels); each part the best of
  three, pysupercluster's too (the machine may be shared: the best run is the least disturbed);
- per view: pindrop_map_frame + pindrop_map_frame_clusters of a 1200×800 view at zooms 8..16 over
  the inventory's busiest places, called through ctypes into reused buffers (the C time plus a
  microsecond of ctypes), the slowest median of all places per zoom;
- per move: one pindrop_map_set_position of a random tree plus the next frame_clusters (which
  brings the levels the view needs up to date), minus the same frame_clusters with nothing moved,
  taken just before the move (and, as earlier rounds did, minus the mean of 20,000 such frames in
  a row before the moves: both are printed); a chain of multiply-adds and a chase of loads from
  memory after every 1,000 moves tell how fast the machine was beside each block;
  called from a C loop (benchmarks/peer_loops.c) so that no Python is counted; the mean over all
  20,000 moves (the amortised cost; the range of the means of four blocks of 5,000 beside it) and
  the longest single one. With the view at zoom 16 (a drag at street zoom), then the first frame
  at zoom 10 after them, which brings the levels left behind up to date (its time is added to the
  moves, amortised, and counted as a pause), then 20,000 more with the view at zoom 10;
- memory: the live heap of the clustered map minus that of the unclustered one, per pin (both with
  the pins' values and categories set: those are the map's, clustered or not, and are reported on
  their own);
- what clusters hold (behaviour 19): every pin carries a value (a trunk diameter drawn at random,
  5-81 cm) and a category (its city, 44 of them) in every measure above; set_attributes of the
  whole inventory; cluster_summary over the clusters of a view and cluster_categories of a cluster
  whose members were given 64 categories, both from a C loop.

Times are the CPU time of the benchmark's thread (the machine may be shared), except the per-view
medians, which are wall time over calls far shorter than a scheduler slice.
"""
from __future__ import annotations

import ctypes
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bindings" / "python"))
import pindrop  # noqa: E402
from pindrop import _ffi  # noqa: E402

lib = _ffi.lib
# Places where the inventory is dense (Long Beach, Santa Clarita, Glendale, Santa Monica, Lancaster).
# Samples per view and place, for pindrop and pysupercluster alike: both calls are microseconds
# at the lower zooms, where 15 samples left the medians at the mercy of the scheduler.
SAMPLES = 101
PLACES = [(-118.17, 33.80), (-118.53, 34.40), (-118.25, 34.16), (-118.48, 34.02), (-118.14, 34.69)]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def rss() -> int:
    """Bytes the C heap holds in live allocations (glibc's mallinfo2: in-use small blocks plus
    mmapped ones). Unlike the resident set, freed memory kept by the allocator does not count."""
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _Mallinfo2
    m = libc.mallinfo2()
    return m.uordblks + m.hblkhd


def load(data: Path) -> np.ndarray:
    cols = np.loadtxt(data / "la_trees.csv", delimiter=",", skiprows=1, usecols=(2, 3), dtype=np.float64)
    return np.ascontiguousarray(cols[:, ::-1])  # lon, lat


def attributes(data: Path, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each tree's value (a trunk diameter in cm, drawn at random) and category (its city's number,
    in the order the file lists them)."""
    cities = np.loadtxt(data / "la_trees.csv", delimiter=",", skiprows=1, usecols=(0,), dtype=str)
    _, first, inverse = np.unique(cities, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))  # city numbers by first appearance
    values = np.random.default_rng(7).uniform(5, 81, n)
    return values, order[inverse].astype(np.uint32)


def resident_growth(data: Path, radius: float, with_attributes: bool = True) -> int:
    """Heap bytes a map of the inventory holds, loaded, indexed and drawn once, in a fresh process."""
    import subprocess
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
        "from bench_clusters import load, rss, pindrop, np\n"
        f"lonlat = load(__import__('pathlib').Path({str(data)!r}))\n"
        "ids = np.arange(len(lonlat), dtype=np.int64)\n"
        "from bench_clusters import attributes\n"
        f"values, cats = attributes(__import__('pathlib').Path({str(data)!r}), len(lonlat)) if {with_attributes} else (0, 0)\n"
        "before = rss()\n"
        f"m = pindrop.Map(cluster_radius={radius})\n"
        "m.add_many(ids, lonlat)\n"
        f"if {with_attributes}: m.set_attributes(ids, values, cats)\n"
        "m.set_camera(-118.17, 33.80, 10, 1200, 800)\n"
        "m.nearby(-118.17, 33.80, 10); m.clusters(0, array=True)\n"  # builds the index and the levels
        "print(rss() - before)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1])


def timed(f):
    """CPU time of the calling thread (the machine may be shared: wall time would count others)."""
    t = time.thread_time()
    r = f()
    return time.thread_time() - t, r


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "data"
    lonlat = load(data)
    n = len(lonlat)
    ids = np.arange(n, dtype=np.int64)
    values, cats = attributes(data, n)
    print(f"trees; {n} points, {len(np.unique(cats))} cities as categories, a value on every tree")

    import pysupercluster
    reps = 3
    sc_runs = [timed(lambda: pysupercluster.SuperCluster(lonlat, min_zoom=0, max_zoom=16, radius=60,
                                                          extent=256))[0] for _ in range(reps)]
    sc = pysupercluster.SuperCluster(lonlat, min_zoom=0, max_zoom=16, radius=60, extent=256)

    def load_map(radius: float) -> tuple[float, float]:
        """add_many's time, and for a clustered map the first frame_clusters' (the levels' build)."""
        with pindrop.Map(cluster_radius=radius) as scratch:
            t_add = timed(lambda: (scratch.add_many(ids, lonlat), scratch.set_attributes(ids, values, cats)))[0]
            scratch.set_camera(PLACES[0][0], PLACES[0][1], 10, 1200, 800)
            return t_add, timed(lambda: scratch.clusters(0, array=True))[0] if radius else 0.0
    plain, clustered = [], []
    for _ in range(reps):  # interleaved, so that a burst of load hits both kinds
        plain.append(load_map(0)[0])
        clustered.append(load_map(60))
    t_plain, t_add, t_first = min(plain), min(a for a, _ in clustered), min(f for _, f in clustered)
    build, sc_build = max(0.0, t_add - t_plain) + t_first, min(sc_runs)
    print(f"pysupercluster build: {sc_build * 1000:.1f} ms")
    print(f"cluster build: {build * 1000:.1f} ms (target <= {sc_build * 1000:.1f})")
    print(f"cluster build / pysupercluster: {build / sc_build:.2f} x (target <= 1)")
    ms = lambda xs: f"{min(xs) * 1000:.0f}-{max(xs) * 1000:.0f}"  # noqa: E731
    print(f"  build; best of {reps}: add_many {t_add * 1000:.0f} ms with clusters ({ms([a for a, _ in clustered])}), "
          f"{t_plain * 1000:.0f} ms without ({ms(plain)}); first frame_clusters (builds the levels) "
          f"{t_first * 1000:.0f} ms ({ms([f for _, f in clustered])}); pysupercluster {ms(sc_runs)} ms")
    m = pindrop.Map(cluster_radius=60)
    m.add_many(ids, lonlat)
    t_attr = timed(lambda: m.set_attributes(ids, values, cats))[0]
    m.set_camera(PLACES[0][0], PLACES[0][1], 10, 1200, 800)
    m.clusters(0, array=True)
    grown = {radius: resident_growth(data, radius) for radius in (0, 60)}
    bare = resident_growth(data, 0, with_attributes=False)
    print(f"cluster memory: {(grown[60] - grown[0]) / n:.1f} bytes/pin (target <= 48)")
    print(f"  memory; live heap of a loaded, indexed and drawn map {grown[0] / n:.1f} bytes/pin without clusters, "
          f"{grown[60] / n:.1f} with (each in its own process, values and categories set on both); the values "
          f"and categories themselves {(grown[0] - bare) / n:.1f} bytes/pin (the map's, clustered or not)")
    print(f"  attributes; set_attributes of all {n} trees (values and categories) {t_attr * 1000:.0f} ms in a "
          f"clustered map (the next frame's update rebuilds: a change of every pin)")

    # The views are those of a map being browsed: the index's leaf trees, built a slice per
    # query after a load, are built first (bench_peers' warm-up), so that no view's frame also
    # does the load's deferred index work and leaves the next frame_clusters a cold cache.
    from bench_peers import build_loops, probe, warm
    loops = build_loops()
    warm(loops, m, np.ascontiguousarray(lonlat.reshape(-1)))
    pins = (_ffi.PinView * 200_000)()
    clusters = (_ffi.ClusterView * 20_000)()
    t = 1.0
    worst_zoom = 0.0
    for zoom in range(8, 17):
        worst = sc_worst = fc_worst = 0.0
        shown = []
        for lon, lat in PLACES:
            m.set_camera(lon, lat, zoom, 1200, 800)
            samples, fc = [], []
            # The map's handle and the buffers' sizes looked up once, as a host's draw loop would:
            # at zoom 8 the call itself is under a microsecond and Python's attribute lookups
            # were most of the time measured.
            handle, npins, nclusters = m._as_parameter_, len(pins), len(clusters)
            for _ in range(SAMPLES):
                t0 = time.perf_counter()
                a = lib.pindrop_map_frame(handle, t, pins, npins)
                t1 = time.perf_counter()
                b = lib.pindrop_map_frame_clusters(handle, t, clusters, nclusters)
                t2 = time.perf_counter()
                samples.append(t2 - t0)
                fc.append(t2 - t1)
            worst = max(worst, float(np.median(samples)))
            fc_worst = max(fc_worst, float(np.median(fc)))
            shown.append((a, b))
            # The same view for pysupercluster: its lon/lat box (no bearing).
            dlon = 600 / (256 * 2 ** zoom) * 360
            dlat = dlon * np.cos(np.radians(lat)) * 400 / 600
            q = []
            for _ in range(SAMPLES):
                t0 = time.perf_counter()
                sc.getClusters(top_left=(lon - dlon, lat + dlat), bottom_right=(lon + dlon, lat - dlat), zoom=zoom)
                q.append(time.perf_counter() - t0)
            sc_worst = max(sc_worst, float(np.median(q)))
        worst_zoom = max(worst_zoom, worst)
        print(f"frame+clusters zoom {zoom}: {worst * 1000:.3f} ms (target <= 0.2)")
        print(f"  zoom {zoom}; pysupercluster getClusters (Python dicts) {sc_worst * 1000:.3f} ms")
        print(f"frame_clusters / getClusters zoom {zoom}: {fc_worst / sc_worst:.2f} x (target <= 1)")
        print(f"  zoom {zoom}; frame_clusters alone {fc_worst * 1000:.3f} ms (slowest median of the places)")
        print(f"  zoom {zoom}; pins, clusters per place: {shown}")
    print(f"frame+clusters worst zoom 8-16: {worst_zoom * 1000:.3f} ms (target <= 0.2)")

    # Moves, each followed by the next frame's clusters, in C (benchmarks/peer_loops.c): through
    # ctypes each call would add microseconds of Python around the library's own time.
    vp = ctypes.c_void_p
    loops.pl_summaries.restype = ctypes.c_double
    loops.pl_summaries.argtypes = [vp, vp, ctypes.c_size_t, ctypes.c_size_t]
    loops.pl_categories.restype = ctypes.c_double
    loops.pl_categories.argtypes = [vp, ctypes.c_uint64, ctypes.c_size_t, vp, vp, ctypes.c_size_t,
                                    ctypes.POINTER(ctypes.c_size_t)]

    # What clusters hold: the summaries of every cluster of a view at zoom 12, from C.
    m.set_camera(PLACES[0][0], PLACES[0][1], 12, 1200, 800)
    keys = np.ascontiguousarray(m.clusters(t, array=True)["key"])
    per_summary = loops.pl_summaries(m._as_parameter_, keys.ctypes.data, len(keys), 200_000) * 1e-9
    print(f"cluster_summary: {per_summary * 1e6:.2f} us (target <= 1)")
    print(f"  summary; the mean over 200,000 calls on the {len(keys)} clusters of a view at zoom 12 (from C)")
    # A cluster of 64 categories: the members of a large cluster at zoom 12 given 64 categories.
    big = max(m.clusters(t), key=lambda c: c.count)
    members = m.cluster_members(big.key)
    m.set_attributes(members, categories=np.arange(len(members)) % 64 + 1000)
    big = max(m.clusters(t), key=lambda c: c.count)
    cbuf, nbuf, total = np.empty(128, np.uint32), np.empty(128, np.uint32), ctypes.c_size_t()
    per_categories = loops.pl_categories(m._as_parameter_, big.key, 100_000, cbuf.ctypes.data, nbuf.ctypes.data,
                                         128, ctypes.byref(total)) * 1e-9
    print(f"cluster_categories: {per_categories * 1e6:.2f} us (target <= 5)")
    print(f"  categories; a cluster of {big.count} trees in {total.value} categories, the mean over 100,000 calls "
          f"(from C)")
    m.set_attributes(members, categories=cats[members])  # the cities again
    rng = np.random.default_rng(12)
    moves = 20_000
    us = lambda xs: f"{min(xs) * 1e6:.1f}-{max(xs) * 1e6:.1f}"  # noqa: E731

    per_block = 1_000

    def run_moves(zoom: float):
        """Random moves of up to 30 m with a view at `zoom`: per move, set_position's time and the
        next frame_clusters' minus the frame_clusters with nothing moved taken just before the
        move (the levels' update); the baseline the earlier rounds took (20,000 frames in a row
        before the moves); and the processor's speed after each block of moves."""
        m.set_camera(PLACES[0][0], PLACES[0][1], zoom, 1200, 800)
        who = rng.integers(0, n, moves).astype(np.int64)
        jitter = rng.uniform(-30, 30, (moves, 2)) / 111_000.0
        to = np.ascontiguousarray((lonlat[who] + jitter).reshape(-1))
        set_ns, upd_ns, before_ns, base_ns = np.empty(moves), np.empty(moves), np.empty(moves), ctypes.c_double()
        alu_ns, load_ns = np.empty(moves // per_block), np.empty(moves // per_block)
        failed = loops.pl_cluster_moves(m._as_parameter_, who.ctypes.data, to.ctypes.data, moves, t,
                                        ctypes.addressof(clusters), len(clusters), set_ns.ctypes.data,
                                        upd_ns.ctypes.data, ctypes.byref(base_ns), before_ns.ctypes.data,
                                        per_block, alu_ns.ctypes.data, load_ns.ctypes.data)
        if failed:
            raise RuntimeError(f"{failed} set_position calls failed")
        return (set_ns * 1e-9, upd_ns * 1e-9, (upd_ns - before_ns) * 1e-9, before_ns.mean() * 1e-9,
                (upd_ns.mean() - base_ns.value) * 1e-9, base_ns.value * 1e-9, (alu_ns, load_ns))

    def frame_clusters_s() -> float:
        t0 = time.thread_time()
        lib.pindrop_map_frame_clusters(m, t, clusters, len(clusters))
        return time.thread_time() - t0

    # At street zoom, below the max zoom (where a drag happens): the view needs the levels down to
    # its own, and the small coarse levels are left behind until a view asks for them.
    # The machine's memory latency beside the moves, in this process: a run slowed by other
    # tenants of the machine shows it here as well as in the moves.
    machine_before = probe(loops)
    spent_set, spent_update, update, baseline, update_before, baseline_before, machine = run_moves(16)
    machine_after = probe(loops)
    # Then zooming out to the county: the first frame brings the levels left behind up to date.
    m.set_camera(PLACES[0][0], PLACES[0][1], 10, 1200, 800)
    catch_up = frame_clusters_s()
    ordinary = float(np.median([frame_clusters_s() for _ in range(15)]))
    blocks = 4
    upd = [b.mean() for b in np.array_split(update, blocks)]
    both = [b.mean() for b in np.array_split(spent_set + update, blocks)]
    sets = [b.mean() for b in np.array_split(spent_set, blocks)]
    amortised = max(0.0, catch_up - ordinary) / moves
    print(f"move+update mean: {(spent_set + update).mean() * 1e6:.1f} us (target <= 10)")
    print(f"  moves at zoom 16; {moves} from C, the mean over all of them (range of the means of {blocks} blocks): "
          f"set_position {spent_set.mean() * 1e6:.1f} us ({us(sets)}), {spent_set.max() * 1000:.2f} ms longest (the "
          f"spatial index and spreading; with clusters off it is the same call); set_position + update ({us(both)}) us; "
          f"the levels' update {update.mean() * 1e6:.1f} us ({us(upd)}; {baseline * 1e6:.1f} us of frame_clusters "
          f"with nothing moved, the one before each move, subtracted)")
    print(f"  the baseline as earlier rounds took it (the mean of {moves} frame_clusters in a row before the moves, "
          f"{baseline_before * 1e6:.1f} us): the levels' update {update_before * 1e6:.1f} us, move+update "
          f"{(spent_set.mean() + update_before) * 1e6:.1f} us")
    # The blocks of one process against the machine's speed beside each of them: the moves' time
    # fitted (least squares) to the processor's and the memory's at that moment.
    alu, mem = machine
    per = np.array([b.mean() for b in np.array_split(spent_set + update, len(alu))]) * 1e6
    probes = np.column_stack([alu, mem, np.ones_like(alu)])
    fit = np.linalg.lstsq(probes, per, rcond=None)[0]
    explained = 1 - float(np.sum((per - probes @ fit) ** 2)) / max(float(np.sum((per - per.mean()) ** 2)), 1e-30)
    print(f"  within the run; {len(alu)} blocks of {per_block} moves: move+update {per.min():.1f}-{per.max():.1f} us "
          f"a block; after each block a chain of multiply-adds (registers only) {alu.min():.2f}-{alu.max():.2f} ns a "
          f"step and a chase of loads from memory {mem.min():.0f}-{mem.max():.0f} ns a load; the two explain "
          f"{explained:.0%} of the blocks' variance (least squares)")
    print(f"  catch-up; the first frame_clusters at zoom 10 after them {catch_up * 1000:.2f} ms (an ordinary one "
          f"{ordinary * 1000:.3f} ms): {amortised * 1e6:.2f} us a move, "
          f"{(spent_set + update).mean() * 1e6 + amortised * 1e6:.1f} us a move with it")
    print(f"  the machine during the moves (benchmarks/peer_loops.c's probe, before / after them): a load from "
          f"memory {machine_before[0]:.0f} / {machine_after[0]:.0f} ns, a dependent multiply-add "
          f"{machine_before[1]:.2f} / {machine_after[1]:.2f} ns")
    print(f"move+update mean with the catch-up: {(spent_set + update).mean() * 1e6 + amortised * 1e6:.1f} us "
          f"(target <= 10)")
    # At county zoom the view needs nearly every level after every move.
    set10, spent10, update10, baseline10, _, _, _ = run_moves(10)
    print(f"move+update mean at zoom 10: {(set10 + update10).mean() * 1e6:.1f} us (target <= 20)")
    print(f"  moves at zoom 10; set_position {set10.mean() * 1e6:.1f} us, the levels' update {update10.mean() * 1e6:.1f} "
          f"us ({baseline10 * 1e6:.1f} us of frame_clusters with nothing moved, the one before each move, "
          f"subtracted)")
    print(f"cluster update mean: {update.mean() * 1e6:.1f} us (target <= 20)")
    longest = max(spent_update.max(), spent10.max(), catch_up)
    print(f"cluster update longest: {longest * 1000:.3f} ms (target <= 5)")
    print(f"  longest; after a move at zoom 16 {spent_update.max() * 1000:.3f} ms, at zoom 10 "
          f"{spent10.max() * 1000:.3f} ms, the catch-up {catch_up * 1000:.3f} ms")
    print(f"set_position longest: {max(spent_set.max(), set10.max()) * 1000:.3f} ms (target <= 5)")
    m.close()


if __name__ == "__main__":
    main()
