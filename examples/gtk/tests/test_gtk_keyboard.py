"""The GTK app's clusters that say what they hold, its keyboard path of a drag with its
announcements, and stacks that open on demand — under Xvfb, with real X key and pointer events.

The app prints each announcement it makes (to the status line, an accessible "status" label, and
to gtk_accessible_announce where GTK has it) as "ANNOUNCE ...", and with --save writes the trees
users moved (id,lon,lat) after every move: the keyboard test reads the file back."""
from __future__ import annotations

import collections
import csv
import math
import re
import time

import pytest

from test_gtk_app import (HEIGHT, STACK, TREES, WIDTH, App, app, display,  # noqa: F401
                          parse, screen_to_lonlat, screenshot, SCREENSHOT, stack_offsets, assert_layout,
                          assert_fits_the_view, fitted_offsets, empty_spot)

SPECIES = {int(r["id"]): r["species"] for r in csv.DictReader(open(TREES))}
BACKGROUND = (0.93, 0.92, 0.88)
PALETTE = [(0.12, 0.47, 0.71), (1.00, 0.50, 0.05), (0.17, 0.63, 0.17), (0.84, 0.15, 0.16), (0.58, 0.40, 0.74),
           (0.55, 0.34, 0.29), (0.89, 0.47, 0.76), (0.10, 0.55, 0.45), (0.74, 0.74, 0.13), (0.09, 0.75, 0.81),
           (0.35, 0.20, 0.55), (0.65, 0.45, 0.10), (0.40, 0.45, 0.48)]


def codes():
    """Category codes as the app should give them: by how many trees have the species (most
    first), ties by name; trees without one last ("unknown")."""
    counts = collections.Counter(s for s in SPECIES.values() if s)
    order = sorted(counts, key=lambda s: (-counts[s], s))
    return {s: i for i, s in enumerate(order)}, order + ["unknown"]


def summary_oracle(ids):
    code, names = codes()
    cats = collections.Counter(code.get(SPECIES[i], len(names) - 1) if SPECIES[i] else len(names) - 1 for i in ids)
    dominant = min(cats, key=lambda c: (-cats[c], c))
    n = f"{len(ids):,}"
    if len(cats) == 1:
        return dominant, f"{n} trees · all {names[dominant]}"
    return dominant, f"{n} trees · {len(cats)} species · mostly {names[dominant]} ({100 * cats[dominant] / len(ids):.0f} %)"


def members(app):
    app.key("m")
    out = {}
    while True:
        line = app.wait_for("")
        if line == "END":
            return out
        if line.startswith("MEMBERS"):
            key, ids = re.match(r"MEMBERS key=(\d+) ids=([\d,]*)", line).groups()
            out[int(key)] = [int(i) for i in ids.split(",") if i]


def summary_of(cluster_line):
    return re.search(r'summary="(.*)"', cluster_line).group(1)


# -- clusters coloured by their most common species, with their summary ------------------------------

@pytest.mark.parametrize("app", [("--zoom", "14.5", "--center", "-118.352,33.888")], indirect=True)
def test_clusters_are_coloured_by_their_commonest_species_and_say_what_they_hold(app):
    assert "CATEGORIES 85 species" in app.seen
    app.frame()
    lines = [line for line in app.seen if line.startswith("CLUSTER ")][-len(app.clusters):]
    held = members(app)
    rgb = screenshot(app, SCREENSHOT.with_name("gtk-clusters-by-species.png"))
    assert len(app.clusters) >= 5
    for c, line in zip(app.clusters, lines):
        dominant, text = summary_oracle(held[c["key"]])
        assert summary_of(line) == text and c["dominant"] == dominant, (line, text)
        want = [round(255 * (0.9 * p + 0.1 * b)) for p, b in zip(PALETTE[min(dominant, 12)], BACKGROUND)]
        got = rgb(c["x"], c["y"] - 10)
        assert max(abs(g - w) for g, w in zip(got, want)) <= 3, (c, got, want)
    # Hovering the biggest: its summary in the tooltip (and the status line).
    biggest = max(app.clusters, key=lambda c: c["count"])
    app.move(round(biggest["x"]) + 2, round(biggest["y"]) + 2)
    app.move(round(biggest["x"]), round(biggest["y"]))
    tooltip = app.wait_for("TOOLTIP", timeout=5)
    assert f'key={biggest["key"]}' in tooltip and summary_oracle(held[biggest["key"]])[1] in tooltip


# -- the keyboard path of a drag, announced, read back from the saved file ---------------------------

def announcements(lines):
    return [line[len("ANNOUNCE "):] for line in lines if line.startswith("ANNOUNCE ")]


def compass(bearing):
    return ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"][
        int(math.floor(((bearing + 22.5) % 360) / 45)) % 8]


def metres_and_bearing(a, b):
    p1, p2, dl = math.radians(a[1]), math.radians(b[1]), math.radians(b[0] - a[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    m = 2 * 6378137.0 * math.asin(min(1, math.sqrt(h)))
    bearing = math.degrees(math.atan2(math.sin(dl) * math.cos(p2),
                                      math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl))) % 360
    return m, bearing


def saved(path):
    return {int(r["id"]): (float(r["lon"]), float(r["lat"])) for r in csv.DictReader(open(path))}


@pytest.fixture
def keyboard_app(display, tmp_path):
    a = App(display, "--save", str(tmp_path / "moves.csv"))
    a.save_path = tmp_path / "moves.csv"
    yield a
    a.close()


def tab_to_a_tree(app):
    """Tab until the focus is on a tree (not a stack); returns its FOCUS line and how many Tabs."""
    for tabs in range(1, 41):
        app.key("Tab")
        focus = parse(app.wait_for("FOCUS "))
        if focus["kind"] == 1:
            return focus, tabs
    raise AssertionError("Tab never reached a tree")


def in_view(app, pins):
    """How many items focus_step moves through: the pins and clusters drawn inside the map."""
    inside = lambda p: 0 <= p["x"] <= WIDTH and 0 <= p["y"] <= HEIGHT  # noqa: E731
    return sum(map(inside, pins.values())) + sum(map(inside, app.clusters))


def test_the_whole_drag_by_keyboard_is_announced_and_the_saved_coordinate_is_where_it_was_taken(keyboard_app):
    app = keyboard_app
    pins = app.frame()
    focus, tabs = tab_to_a_tree(app)
    tree, x, y = focus["id"], focus["x"], focus["y"]
    said = announcements(app.drain())
    assert said[-1] == f"Tree {tree}, {SPECIES[tree]}, {tabs} of {in_view(app, pins)}"
    # The focus ring, drawn around the tree: blue 10 points to its right.
    r, g, b = screenshot(app, SCREENSHOT.with_name("gtk-focus.png"))(x + 10, y)
    assert b > r + 60 and b > g + 30, (r, g, b)
    # Alt+Space lifts it (selecting it first), arrows move it, Enter drops it.
    app.key("alt+space")
    lines = app.drain()
    assert [e for e in map(parse, lines) if e["kind"] == "LIFTED"][0]["id"] == tree
    assert f"Tree {tree} lifted" in announcements(lines)
    lifted = screen_to_lonlat(x, y, app.centre, app.zoom)
    for key in ("Right", "Right", "Right", "shift+Up"):
        app.key(key)
    lines = app.drain()
    assert not [line for line in lines if line.startswith("EVENT MOVED")]     # nothing saved while held
    target = screen_to_lonlat(x + 3, y - 10, app.centre, app.zoom)
    m, bearing = metres_and_bearing(lifted, target)
    assert announcements(lines)[-1] == f"moved {m:.0f} m {compass(bearing)}"
    app.press(round(x) + 40, round(y) + 40)                # a click while the keyboard holds it: said, ignored
    app.release()
    lines = app.drain()
    assert announcements(lines) == ["a tree is held by the keyboard: Enter drops it, Esc puts it back"]
    assert not [line for line in lines if line.startswith("EVENT ")]
    app.key("Return")
    lines = app.drain(0.5)
    assert "dropped" in announcements(lines)
    moved = [parse(line) for line in lines if line.startswith("EVENT MOVED")]
    assert len(moved) == 1 and moved[0]["id"] == tree and moved[0]["cause"] == "KEYBOARD"
    assert math.hypot(moved[0]["lon"] - target[0], moved[0]["lat"] - target[1]) < 1e-9
    # Read back: the file holds the coordinate pindrop reported, to the last bit.
    assert saved(app.save_path)[tree] == (moved[0]["lon"], moved[0]["lat"])
    # Ctrl+Z: back where it was, saved so.
    app.key("ctrl+z")
    lines = app.drain(0.5)
    assert "back where it was" in announcements(lines)
    assert saved(app.save_path)[tree] == (moved[0]["from_lon"], moved[0]["from_lat"])
    # Alt+Space, an arrow, Esc: back where it was, nothing saved.
    app.key("alt+space")
    app.key("Left")
    app.key("Escape")
    lines = app.drain(0.5)
    kinds = [parse(line)["kind"] for line in lines if line.startswith("EVENT ")]
    assert "DRAG_CANCELLED" in kinds and "MOVED" not in kinds
    assert announcements(lines)[-1] == "back where it was"
    assert saved(app.save_path)[tree] == (moved[0]["from_lon"], moved[0]["from_lat"])
    # L, the lift key no window manager takes (Alt+Space opens the window menu in GNOME, XFCE,
    # Windows), lifts it as Alt+Space does; Esc puts it back.
    app.key("l")
    lines = app.drain()
    assert [e for e in map(parse, lines) if e["kind"] == "LIFTED"][0]["id"] == tree
    assert f"Tree {tree} lifted" in announcements(lines)
    app.key("Right")
    app.key("Escape")
    lines = app.drain(0.5)
    kinds = [parse(line)["kind"] for line in lines if line.startswith("EVENT ")]
    assert "DRAG_CANCELLED" in kinds and "MOVED" not in kinds
    assert saved(app.save_path)[tree] == (moved[0]["from_lon"], moved[0]["from_lat"])


def test_tab_reaches_a_cluster_and_says_how_many_trees_it_holds(display):
    app = App(display, "--zoom", "14.5", "--center", "-118.352,33.888")
    try:
        pins = app.frame()
        counts = {c["key"]: c["count"] for c in app.clusters}
        app.key("Tab")
        focus = parse(app.wait_for("FOCUS "))
        assert focus["kind"] == 2 and focus["key"] in counts
        said = announcements(app.drain())[-1]
        assert said.startswith(f"cluster of {counts[focus['key']]:,} trees · "), said
        assert said.endswith(f", 1 of {in_view(app, pins)}"), said
        app.frame()
        assert app.focused["key"] == focus["key"]              # the frames keep drawing it: it keeps the focus
        app.key("Return")                                       # Enter on a cluster zooms in to where it comes apart
        assert float(app.wait_for("ZOOM").split()[1]) > app.zoom
    finally:
        app.close()


# -- stacks that open on demand ------------------------------------------------------------------------

def test_stacks_open_on_demand_by_default_and_a_click_opens_the_305(app):
    """spread_on_tap is the app's default: Lawndale's 305 trees on one spot are one marker with
    their count until clicked; then they spread fitted to the view (docs/spreading.md: the
    triangular lattice, nearest first), and Esc closes them again."""
    assert "spread=spiral spread_on_tap=1" in " ".join(app.seen)
    pins = app.frame()
    stack = next(c for c in app.clusters if c["count"] == 305)
    assert stack["flags"] & 2 and math.hypot(stack["x"] - WIDTH / 2, stack["y"] - HEIGHT / 2) < 1e-6
    assert not stack_offsets(pins, (WIDTH / 2, HEIGHT / 2))[1]          # none of its trees drawn
    app.press(round(stack["x"]), round(stack["y"]))
    app.release()
    lines = app.drain(0.5)
    assert [parse(line)["kind"] for line in lines if line.startswith("EVENT ")][-1] == "STACK_OPENED"
    assert "stack of 305 trees opened" in announcements(lines)
    pins = app.frame()
    got, ids = stack_offsets(pins, (WIDTH / 2, HEIGHT / 2))
    assert len(ids) == 305
    assert_layout(got, fitted_offsets(305))
    assert_fits_the_view(got, (WIDTH / 2, HEIGHT / 2), ids)
    screenshot(app, SCREENSHOT.with_name("gtk-stack-open.png"))
    app.key("Escape")
    assert "STACK_CLOSED" in [e["kind"] for e in app.events()]
    app.frame()
    assert any(c["count"] == 305 and c["flags"] & 2 for c in app.clusters)


def test_no_closed_badge_is_drawn_or_clicked_over_the_opened_305(app):
    """The 305 opened at zoom 18 covers the spots of the 261, 78 and 58 near it (docs/clusters.md,
    "Badges under an open stack"): while it is open the app draws no badge within hit_radius (22
    points) of one of its trees, and a click on the 261's spot touches the tree drawn there
    instead of opening the 261; closed, the badges are back."""
    app.frame()
    before = {c["key"]: c for c in app.clusters}
    stack = next(c for c in before.values() if c["count"] == 305)
    app.press(round(stack["x"]), round(stack["y"]))
    app.release()
    assert "STACK_OPENED" in [e["kind"] for e in app.events()]
    pins = app.frame()
    opened = [p for p in pins.values() if p["flags"] & 8]
    assert len(opened) == 305

    def covered(c):
        return any(math.hypot(p["x"] - c["x"], p["y"] - c["y"]) <= 22 for p in opened)
    hidden = [c for c in before.values() if c["key"] != stack["key"] and covered(c)]
    assert {261, 78, 58} <= {c["count"] for c in hidden}
    assert app.clusters, "badges away from the opened grid are still drawn"
    assert not [c for c in app.clusters if covered(c)]
    big = next(c for c in hidden if c["count"] == 261)
    app.press(round(big["x"]), round(big["y"]))
    app.release()
    got = [e["kind"] for e in app.events()]
    assert "STACK_OPENED" not in got and "STACK_CLOSED" not in got, got
    pins = app.frame()
    x, y = empty_spot(pins, clusters=app.clusters)          # a click off every tree: all closed
    app.press(x, y)
    app.release()
    app.events()
    app.frame()
    assert {c["key"] for c in hidden} <= {c["key"] for c in app.clusters}


@pytest.mark.parametrize("app", [("--spread-on-tap", "0",)], indirect=True)
def test_with_spread_on_tap_off_stacks_are_spread_at_once(app):
    pins = app.frame()
    assert "spread_on_tap=0" in " ".join(app.seen)
    assert not [c for c in app.clusters if c["flags"] & 2]
    assert len(stack_offsets(pins, (WIDTH / 2, HEIGHT / 2))[1]) == 305


def test_tab_reaches_the_collapsed_305_stack_which_keeps_the_focus_and_enter_opens_it(app):
    """The keyboard path of a stack: Tab to Lawndale's 305 trees on one spot (announced as a stack,
    with its place), the frames drawn after it keep the focus there, Enter opens it onto its spiral
    and Esc closes it again."""
    pins = app.frame()
    stack = next(c for c in app.clusters if c["count"] == 305 and c["flags"] & 2)
    for tabs in range(1, 41):
        app.key("Tab")
        focus = parse(app.wait_for("FOCUS "))
        if focus["kind"] == 2 and focus["key"] == stack["key"]:
            break
    else:
        raise AssertionError("Tab never reached the 305-tree stack")
    said = announcements(app.drain())[-1]                   # (and the app has painted since: a frame)
    assert said.startswith("stack of 305 trees on one spot · "), said
    assert said.endswith(f", {tabs} of {in_view(app, pins)}"), said
    app.frame()
    assert app.focused["kind"] == 2 and app.focused["key"] == stack["key"], app.focused   # it keeps the focus
    app.key("Return")
    lines = app.drain(0.5)
    assert "STACK_OPENED" in [parse(line)["kind"] for line in lines if line.startswith("EVENT ")], lines
    assert "stack of 305 trees opened" in announcements(lines)
    assert len(stack_offsets(app.frame(), (stack["x"], stack["y"]))[1]) == 305      # spread: its trees drawn
    app.key("Escape")
    assert "STACK_CLOSED" in [e["kind"] for e in app.events()]
    pins = app.frame()
    assert not stack_offsets(pins, (stack["x"], stack["y"]))[1]
    assert any(c["key"] == stack["key"] and c["count"] == 305 and c["flags"] & 2 for c in app.clusters)
