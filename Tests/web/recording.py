"""A recording for the same-behaviour test: the Lawndale trees (stacks included), cameras,
touches with explicit times (mouse drags, touch holds, taps, a cancel), host adds, moves and
removals, spreading (ring and spiral maps), clusters, nudges, a placement and undo / redo.

`make_recording(seed)` returns the recording as JSON-ready data; `replay(recording, pindrop)` runs it
through the Python package and returns the log that Tests/web/replay.mjs writes for the wasm
module: every event (drained after each step), frames, clusters with their members, positions.
"""
from __future__ import annotations

import csv
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def lawndale() -> tuple[list[int], list[float]]:
    ids, lonlat = [], []
    with open(ROOT / "examples" / "data" / "lawndale_trees.csv") as f:
        for row in csv.DictReader(f):
            ids.append(int(row["id"]))
            lonlat += [float(row["lon"]), float(row["lat"])]
    return ids, lonlat


# An allowed area around Lawndale with a hole (a park pins may not be dropped in), for the
# recording with snapping.
AREA = ("POLYGON((-118.3700 33.8750, -118.3350 33.8750, -118.3350 33.8990, -118.3700 33.8990, -118.3700 33.8750),"
        " (-118.3560 33.8850, -118.3500 33.8850, -118.3530 33.8900, -118.3560 33.8850))")


def make_recording(seed: int, spread_mode: str, area: bool = False, v03: bool = False) -> dict:
    """v03: the 0.3 calls as well: collapsed stacks (spread_on_tap) opened by a tap or by key,
    values and categories with every cluster's summary and categories logged, members paged,
    keyboard focus steps and keyboard drags (lift, nudges, drop or Esc)."""
    rng = random.Random(seed)
    ids, lonlat = lawndale()
    steps: list[list] = []
    t = 0.0

    def step(*s):
        steps.append(list(s))

    step("add_many", ids, lonlat)
    if v03:
        # Values (a diameter, none for every seventh tree) and categories (five species).
        step("attributes", ids, [None if i % 7 == 0 else (i % 97) * 0.5 for i in ids], [i % 5 for i in ids])
    centre = (-118.3526, 33.8870)
    step("camera", centre[0], centre[1], 15.0, 800.0, 600.0)
    step("frame", t)
    step("clusters", t)
    for k in range(120):
        t += 100.0
        kind = k % 8
        if kind == 0:
            z = rng.choice([12.0, 13.5, 15.0, 17.0, 18.0, 19.5])
            step("camera", centre[0] + rng.uniform(-0.01, 0.01), centre[1] + rng.uniform(-0.01, 0.01), z, 800.0, 600.0)
        elif kind in (1, 2):
            # A drag from a pin's drawn position (found through a frame) to a random point.
            step("drag_from_frame", rng.randrange(1 << 30), rng.uniform(50, 750), rng.uniform(50, 550), t)
            t += 400.0
        elif kind == 3:
            # A touch hold that lifts after the delay, a move, then Esc or a drop.
            step("hold_from_frame", rng.randrange(1 << 30), rng.uniform(50, 750), rng.uniform(50, 550), t,
                 rng.random() < 0.5)
            t += 1200.0
        elif kind == 4:
            k2 = rng.randrange(len(ids))
            step("set_position", ids[k2], lonlat[2 * k2] + rng.uniform(-0.001, 0.001), lonlat[2 * k2 + 1] + rng.uniform(-0.001, 0.001))
            new_id = 10_000_000 + k
            step("add", new_id, lonlat[2 * k2], lonlat[2 * k2 + 1])   # onto a tree: a new stack
            if rng.random() < 0.5:
                step("remove", ids[rng.randrange(len(ids))])
        elif kind == 5 and v03 and k % 16 == 5:
            # Tab a few times (Shift+Tab once), select the focused pin, Alt+Space, arrows, then
            # Space or Esc.
            step("focus", [rng.choice([1, 1, 1, -1]) for _ in range(rng.randrange(1, 8))])
            step("key_drag", [[rng.choice([-10.0, 1.0, 10.0]), rng.choice([-1.0, 0.0, 10.0])] for _ in range(3)],
                 rng.random() < 0.75, t)
            t += 400.0
        elif kind == 5:
            step("tap", rng.uniform(0, 800), rng.uniform(0, 600), t)
            t += 400.0
            step("nudge_selected", rng.choice([-10.0, 1.0, 10.0]), rng.choice([-1.0, 0.0, 10.0]), t)
        elif kind == 6 and v03 and k % 16 == 14:
            # Open a collapsed stack by key (or tap one), then page through a cluster's members.
            step("open_stack", rng.randrange(1 << 30), rng.random() < 0.5, t)
            t += 400.0
            step("members_paged", rng.randrange(1 << 30), rng.randrange(1, 40), t)
        elif kind == 6:
            step("undo", t)
            if rng.random() < 0.5:
                t += 50.0
                step("redo", t)
        else:
            step("place", 20_000_000 + k, centre[0] + rng.uniform(-0.002, 0.002), centre[1] + rng.uniform(-0.002, 0.002), t)
            step("tap", rng.uniform(100, 700), rng.uniform(100, 500), t + 100)
            step("commit", t + 600)
            t += 700.0
        t += 10.0
        step("frame", t)
        step("clusters", t)
        if k % 10 == 9:
            step("positions", ids[::50])
    options = {"cluster_radius": 60.0, "spread_mode": spread_mode}
    if v03:
        options.update(spread_on_tap=1, cluster_min_points=3, v03=True)
    if area:
        options.update(outside_policy="snap", min_spacing_m=3.0)
        steps.insert(1, ["area", AREA])
    return {"options": options, "steps": steps}


def replay(recording: dict, pindrop) -> list:
    """The log of a recording replayed through the Python package (the native library)."""
    o = recording["options"]
    m = pindrop.Map(cluster_radius=o["cluster_radius"],
                    spread_mode={"ring": pindrop.SPREAD_RING, "spiral": pindrop.SPREAD_SPIRAL}[o["spread_mode"]],
                    outside_policy={"revert": pindrop.OUTSIDE_REVERT, "snap": pindrop.OUTSIDE_SNAP}[o.get("outside_policy", "revert")],
                    min_spacing_m=o.get("min_spacing_m", 0.0), spread_on_tap=o.get("spread_on_tap", 0),
                    cluster_min_points=o.get("cluster_min_points", 2))
    v03 = o.get("v03", False)
    last_t = [0.0]

    def nan_none(v):
        return None if v != v else v
    log: list = []

    def ev():
        # The fields an event type does not fill are None in the package (since 0.3): logged as
        # replay.mjs logs the JS package's nulls (cause NONE, ids NO_ID, numbers 0).
        def z(v):
            return 0 if v is None else v
        out = []
        for e in m.events():
            out.append([e.type, "NONE" if e.cause is None else e.cause, pindrop.NO_ID if e.id is None else e.id,
                        pindrop.NO_ID if e.other is None else e.other, z(e.lon), z(e.lat), z(e.from_lon),
                        z(e.from_lat), z(e.dx), z(e.dy), z(e.distance_m), e.time_ms, z(e.request)])
        return out

    def call(f, *a):
        try:
            return f(*a)
        except pindrop.PindropError as e:
            log.append(["error", type(e).__name__])
            return None

    def pick(seed, t):
        views = m.frame(t)
        if not views:
            return None
        v = views[seed % len(views)]
        return v.x, v.y

    for s in recording["steps"]:
        op, a = s[0], s[1:]
        if op == "area":
            call(m.set_allowed_area, a[0])
        elif op == "add_many":
            call(m.add_many, a[0], list(zip(a[1][::2], a[1][1::2])))   # (lon, lat) rows
        elif op == "camera":
            call(m.set_camera, *a)
        elif op == "frame":
            views = m.frame(a[0])
            log.append(["frame", [[v.id, v.x, v.y, v.anchor_x, v.anchor_y, v.lift, v.flags] for v in views]])
        elif op == "clusters":
            cs = m.clusters(a[0])
            last_t[0] = a[0]
            rows = []
            for c in cs:
                row = [c.key, c.x, c.y, c.lon, c.lat, c.count, sorted(int(i) for i in m.cluster_members(c.key))]
                if v03:
                    s_ = m.cluster_summary(c.key)
                    row += [c.flags, [s_.count, s_.valued, s_.category, s_.flags, nan_none(s_.value_sum),
                                      nan_none(s_.value_min), nan_none(s_.value_max)],
                            [[int(r["category"]), int(r["count"])] for r in m.cluster_categories(c.key)]]
                rows.append(row)
            log.append(["clusters", rows])
        elif op == "attributes":
            call(m.set_attributes, a[0], [float("nan") if v is None else v for v in a[1]], a[2])
        elif op == "focus":
            out = []
            for d in a[0]:
                f = call(m.focus_step, d)
                out.append(None if f is None else [f.kind, f.id, f.key, f.x, f.y])
            r = m.focus_rank
            log.append(["focus", out, [r[0], r[1]]])
        elif op == "key_drag":
            t = a[2]
            f = m.focus
            if f.kind == "pin":
                call(m.select, f.id)
                call(m.key_lift, t)
                for i, (dx, dy) in enumerate(a[0]):
                    call(m.nudge, dx, dy, t + 10 * (i + 1))
                call(m.key_drop if a[1] else m.cancel_gesture, t + 100)
        elif op == "open_stack":
            t = a[2]
            items = [c for c in m.clusters(last_t[0]) if c.flags & pindrop.CLUSTER_STACK]
            if items:
                c = items[a[0] % len(items)]
                if a[1]:
                    call(m.open_stack, c.key, t)
                else:
                    call(m.touch, 2, "down", c.x, c.y, t)
                    call(m.touch, 2, "up", c.x, c.y, t + 50)
                    m.advance(t + 400)
        elif op == "members_paged":
            cs = m.clusters(a[2])
            if len(cs):
                key = cs[a[0] % len(cs)].key
                pages, offset = [], 0
                while offset <= cs[a[0] % len(cs)].count:
                    pages.append([int(i) for i in m.cluster_members(key, offset, a[1])])
                    offset += a[1]
                log.append(["pages", pages])
        elif op == "drag_from_frame":
            p = pick(a[0], a[3])
            if p is not None:
                t = a[3]
                log.append(["owned", call(m.touch, 0, "down", p[0], p[1], t + 1)])
                call(m.touch, 0, "move", (p[0] + a[1]) / 2, (p[1] + a[2]) / 2, t + 20)
                call(m.touch, 0, "move", a[1], a[2], t + 40)
                call(m.touch, 0, "up", a[1], a[2], t + 60)
                m.advance(t + 400)
        elif op == "hold_from_frame":
            p = pick(a[0], a[3])
            if p is not None:
                t = a[3]
                call(m.touch, 1, "down", p[0], p[1], t + 1)
                m.advance(t + 300)
                call(m.touch, 1, "move", a[1], a[2], t + 500)
                if a[4]:
                    call(m.cancel_gesture, t + 600)
                call(m.touch, 1, "up", a[1], a[2], t + 700)
                m.advance(t + 1200)
        elif op == "tap":
            call(m.touch, 2, "down", a[0], a[1], a[2])
            call(m.touch, 2, "up", a[0], a[1], a[2] + 50)
            m.advance(a[2] + 400)
        elif op == "nudge_selected":
            call(m.nudge, a[0], a[1], a[2])
        elif op in ("undo", "redo", "commit"):
            call(getattr(m, op), a[0])
        elif op == "place":
            call(m.place, *a)
        elif op == "set_position":
            call(m.set_position, *a)
        elif op == "add":
            call(m.add, *a)
        elif op == "remove":
            call(m.remove, *a)
        elif op == "positions":
            out = []
            for i in a[0]:
                try:
                    out.append([i, *m.position(i), *m.display_position(i)])
                except pindrop.NotFound:
                    out.append([i, None])
            log.append(["positions", out])
        else:
            raise ValueError(op)
        log.append(["events", ev()])
    m.close()
    return log
