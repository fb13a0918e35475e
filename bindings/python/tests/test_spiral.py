"""Behaviour 17: compact spreading in screen points (PINDROP_SPREAD_SPIRAL), batch form
`pindrop_spread_spiral`, checked against an oracle written from the spiral's rule (docs/spreading.md), with pyproj's Web
Mercator (EPSG:3857) for the projection, on small groups and on Lawndale's 305-tree stack."""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pytest

import pindrop
from test_spread import group_by_rule, load_geojson

pyproj = pytest.importorskip("pyproj")
TO_3857 = pyproj.Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
HALF = math.pi * 6378137.0          # EPSG:3857 spans [-HALF, HALF] metres in x and y

LAWNDALE_STACK = (-118.34600679066747, 33.88355188855412)   # 305 trees (examples/data/README.md)


def oracle_offsets(n, spacing=25.0):
    """The spiral's rule (docs/spreading.md) read literally: (dx, dy) screen points (x right, y down, north up) of pin k of n."""
    if n < 2:
        return np.zeros((max(n, 0), 2))
    bearings, dists = np.empty(n), np.empty(n)
    if n < 9:
        radius = max(spacing, spacing * (n + 2) / (2 * math.pi))
        for k in range(n):
            bearings[k], dists[k] = 2 * math.pi * k / n, radius
    else:
        s = spacing / 25
        L, A = 11 * s, 0.0
        for k in range(n, -1, -1):
            if k < n:
                bearings[k], dists[k] = A, L
            A += 28 * s / L + 0.0005 * k
            L += 5 * s * 2 * math.pi / A
    # A bearing clockwise from north: east is +x, north is -y on the screen.
    return np.column_stack([dists * np.sin(bearings), -dists * np.cos(bearings)])


def to_points(lonlat, zoom):
    """Web Mercator world points (256·2^zoom wide, origin top-left) through pyproj's EPSG:3857."""
    lonlat = np.asarray(lonlat, float).reshape(-1, 2)
    x, y = TO_3857.transform(lonlat[:, 0], lonlat[:, 1])
    world = 256 * 2.0 ** zoom
    return np.column_stack([(np.asarray(x) + HALF) / (2 * HALF) * world, (HALF - np.asarray(y)) / (2 * HALF) * world])


def offsets_seen(out, centre, zoom):
    """The layout as drawn: each output's screen offset from the group's centre."""
    return to_points(out, zoom) - to_points(centre, zoom)


# -- the layout itself -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 8, 9, 10, 50, 305])
@pytest.mark.parametrize("spacing", [25.0, 40.0, 12.5])
def test_a_stack_is_laid_out_by_the_rule(n, spacing):
    pts = np.tile(LAWNDALE_STACK, (n, 1))
    out = pindrop.spread(pts, layout="spiral", spacing=spacing, zoom=17)
    if n == 1:
        assert np.array_equal(out, pts)      # a lone pin stays exactly put
        return
    got = offsets_seen(out, LAWNDALE_STACK, 17)
    want = oracle_offsets(n, spacing)
    assert np.abs(got - want).max() < 1e-6, (n, spacing)


def test_the_oracle_agrees_with_leaflet_where_the_rule_says_so():
    """Hand-checked numbers from the rule's first steps (s = 1): the spiral's innermost pin k = n-1
    sits at L = 11 + 10π/A with A = 28/11 + 0.0005n, at bearing A (pin n is never placed); the
    circle of 8 has radius max(25, 250/2π) = 39.79 points."""
    n = 10
    A = 28 / 11 + 0.0005 * n
    L = 11 + 10 * math.pi / A
    off = oracle_offsets(n)[n - 1]
    assert off == pytest.approx((L * math.sin(A), -L * math.cos(A)), abs=1e-12)
    assert np.hypot(*oracle_offsets(8).T) == pytest.approx(np.full(8, 250 / (2 * math.pi)))
    assert np.hypot(*oracle_offsets(3).T) == pytest.approx(np.full(3, 25.0))
    # Pin 0 of a spiral is the outermost: distances shrink as k grows.
    d = np.hypot(*oracle_offsets(50).T)
    assert np.all(np.diff(d) < 0)


@pytest.mark.parametrize("n", [2, 8, 9, 305])
def test_positions_in_points_are_the_same_at_zooms_15_to_22(n):
    pts = np.tile(LAWNDALE_STACK, (n, 1))
    want = oracle_offsets(n)
    for zoom in range(15, 23):
        out = pindrop.spread(pts, layout="spiral", zoom=zoom)
        got = offsets_seen(out, LAWNDALE_STACK, zoom)
        assert np.abs(got - want).max() < 1e-6, zoom
    # ...which means degrees (nearly: Mercator is not linear in latitude) halve with every zoom step.
    far = [np.abs(pindrop.spread(pts, layout="spiral", zoom=z) - pts).max() for z in (15, 16)]
    assert far[1] == pytest.approx(far[0] / 2, rel=1e-4)


def test_fractional_zoom_and_spacing():
    pts = np.tile(LAWNDALE_STACK, (30, 1))
    out = pindrop.spread(pts, layout="spiral", spacing=31.5, zoom=16.37)
    assert np.abs(offsets_seen(out, LAWNDALE_STACK, 16.37) - oracle_offsets(30, 31.5)).max() < 1e-6


# -- real data: every stack of Lawndale -------------------------------------------------------

def expected_spiral(points, group, zoom, spacing=25.0):
    """Each group of n >= 2 around its members' mean (as the ring rule centres it), by the oracle."""
    out = points.copy()
    members = defaultdict(list)
    for i, g in enumerate(group):
        members[g].append(i)
    for m in members.values():
        if len(m) < 2:
            continue
        centre = points[m].mean(axis=0)      # no group of these data straddles the antimeridian
        c = to_points(centre, zoom)[0]
        p = c + oracle_offsets(len(m), spacing)
        world = 256 * 2.0 ** zoom
        x = p[:, 0] / world * 2 * HALF - HALF
        y = HALF - p[:, 1] / world * 2 * HALF
        lon, lat = TO_3857.transform(x, y, direction="INVERSE")
        out[m] = np.column_stack([lon, lat])
    return out


def test_every_lawndale_stack_at_street_zoom():
    pts = load_geojson("lawndale")
    group = group_by_rule(pts, 0.0)
    sizes = np.bincount(group)
    assert sizes.max() == 305
    got = pindrop.spread(pts, layout="spiral", zoom=18)
    want = expected_spiral(pts, group, 18)
    apart = np.abs(to_points(got, 18) - to_points(want, 18)).max()
    assert apart < 1e-6
    lone = sizes[group] == 1
    assert np.array_equal(got[lone], pts[lone])
    # The 305-tree stack fits in a few hundred points (about a phone screen), not 457.5 m.
    stack = np.nonzero(sizes[group] == 305)[0]
    extent = np.abs(to_points(got[stack], 18) - to_points(LAWNDALE_STACK, 18)).max()
    assert 150 < extent < 400


def test_tolerance_groups_as_the_ring_does():
    """West Hollywood's coordinates are rounded: with a 20 m tolerance near trees group, centred on
    their mean. The spiral's groups are the ring's (grouped by the plain rule of test_spread)."""
    pts = load_geojson("west-hollywood")[:3000]
    group = group_by_rule(pts, 20.0)
    assert (np.bincount(group) >= 9).sum() >= 5    # spirals and circles among them
    got = pindrop.spread(pts, 20.0, layout="spiral", spacing=20, zoom=19)
    want = expected_spiral(pts, group, 19, spacing=20)
    assert np.abs(to_points(got, 19) - to_points(want, 19)).max() < 1e-6


# -- bad input: a clear error, nothing written ------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(spacing=0.0, zoom=17), dict(spacing=-3.0, zoom=17),
                                    dict(spacing=math.nan, zoom=17), dict(spacing=math.inf, zoom=17),
                                    dict(zoom=-0.5), dict(zoom=30.5), dict(zoom=math.nan),
                                    dict(tolerance_m=-1.0, zoom=17)])
def test_bad_parameters_change_nothing(kwargs):
    pts = np.tile(LAWNDALE_STACK, (12, 1))
    before = pts.copy()
    with pytest.raises(pindrop.InvalidArgument):
        pindrop.spread(pts, layout="spiral", **kwargs)
    assert np.array_equal(pts, before)
    # ...also with no points at all: the parameters are still checked.
    with pytest.raises(pindrop.InvalidArgument):
        pindrop.spread(np.empty((0, 2)), layout="spiral", **kwargs)


def test_a_stack_beyond_web_mercator_is_refused_whole_and_in_place():
    """A group at 89°N has no Web Mercator screen point; a lone pin there is fine."""
    pts = np.array([[10.0, 89.0], [10.0, 89.0], [5.0, 50.0], [5.0, 50.0], [0.0, 90.0]])
    before = pts.copy()
    buf = pts.ctypes.data
    with pytest.raises(pindrop.InvalidArgument):
        pindrop.lib.pindrop_spread_spiral(buf, len(pts), 0.0, 25.0, 17.0, buf)   # out aliases in
    assert np.array_equal(pts, before)
    ok = pindrop.spread(pts[2:], layout="spiral", zoom=3)
    assert np.array_equal(ok[2], pts[4]) and np.all(np.isfinite(ok))


def test_the_output_may_alias_the_input():
    pts = np.tile(LAWNDALE_STACK, (40, 1))
    want = pindrop.spread(pts, layout="spiral", zoom=20)
    pindrop.lib.pindrop_spread_spiral(pts.ctypes.data, len(pts), 0.0, 25.0, 20.0, pts.ctypes.data)
    assert np.array_equal(pts, want)


def test_layout_arguments_are_checked_in_python():
    with pytest.raises(ValueError):
        pindrop.spread([[0.0, 0.0]], layout="spiral")             # no zoom
    with pytest.raises(ValueError):
        pindrop.spread([[0.0, 0.0]], layout="ring", zoom=3)       # the ring is in metres
    with pytest.raises(ValueError):
        pindrop.spread([[0.0, 0.0]], layout="star", zoom=3)
