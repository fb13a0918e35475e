"""Behaviour 17 on a map (spread_mode = SPREAD_SPIRAL): stacks drawn in screen points around their
true spot, the same at every zoom, found by hit tests, dragged out to where they are dropped while
the rest re-form. Checked against the oracle of test_spiral (the spiral's rule in docs/spreading.md), through the C ABI."""
import math

import numpy as np
import pytest

import pindrop
from test_spiral import LAWNDALE_STACK, load_geojson, oracle_offsets

W, H = 1200, 1000


def stack_map(n, zoom=19, spacing=25.0, bearing=0.0, **options):
    m = pindrop.Map(spread_mode=pindrop.SPREAD_SPIRAL, spread_spacing=spacing, lift_delay_ms=0, lift_height=0,
                    **options)
    m.set_camera(*LAWNDALE_STACK, zoom, W, H, bearing_deg=bearing)
    ids = np.arange(100, 100 + n, dtype=np.int64)
    m.add_many(ids[::-1].copy(), np.tile(LAWNDALE_STACK, (n, 1)))    # handed in reverse: ids order the layout
    return m, ids


def offsets_drawn(m, ids, t=0.0):
    """(x - anchor_x, y - anchor_y) of each pin in `ids` order, from the frame."""
    views = {v.id: v for v in m.frame(t)}
    return np.array([(views[i].x - views[i].anchor_x, views[i].y - views[i].anchor_y) for i in ids]), views


def turned(offsets, bearing_deg):
    """North-up offsets as drawn on a view whose top faces bearing_deg (the map turns the other way)."""
    b = math.radians(bearing_deg)
    x, y = offsets[:, 0], offsets[:, 1]
    return np.column_stack([x * math.cos(b) + y * math.sin(b), -x * math.sin(b) + y * math.cos(b)])


@pytest.mark.parametrize("n", [2, 8, 9, 10, 50, 305])
def test_the_stack_is_drawn_by_the_rule_in_points(n):
    m, ids = stack_map(n)
    with m:
        got, views = offsets_drawn(m, ids)
        assert np.abs(got - oracle_offsets(n)).max() < 1e-6
        assert all(views[i].flags & pindrop.PIN_SPREAD for i in ids)
        for i in ids:
            assert m.position(int(i)) == LAWNDALE_STACK          # true coordinates never change


def test_positions_in_points_are_identical_at_zooms_15_to_22():
    m, ids = stack_map(305, zoom=15)
    with m:
        want = oracle_offsets(305)
        for zoom in range(15, 23):
            m.set_camera(*LAWNDALE_STACK, zoom, W, H)
            got, _ = offsets_drawn(m, ids, t=zoom)
            assert np.abs(got - want).max() < 1e-6, zoom
            # The drawn lon/lat is the batch call's at the same zoom.
            batch = pindrop.spread(np.tile(LAWNDALE_STACK, (305, 1)), layout="spiral", zoom=zoom)
            drawn = np.array([m.display_position(int(i)) for i in ids])
            assert np.abs(drawn - batch).max() < 1e-9


@pytest.mark.parametrize("bearing", [30.0, -100.0])
def test_on_a_turned_map_the_spiral_turns_with_it(bearing):
    m, ids = stack_map(40, bearing=bearing)
    with m:
        got, _ = offsets_drawn(m, ids)
        assert np.abs(got - turned(oracle_offsets(40), bearing)).max() < 1e-6


def test_spacing_scales_the_layout():
    m, ids = stack_map(30, spacing=40)
    with m:
        got, _ = offsets_drawn(m, ids)
        assert np.abs(got - oracle_offsets(30, 40)).max() < 1e-6


def test_a_tap_finds_each_pin_where_it_is_drawn():
    m, ids = stack_map(60, zoom=20)
    with m:
        _, views = offsets_drawn(m, ids)
        for i in ids:
            assert m.hit_test(views[i].x, views[i].y) == i


def test_a_pin_dragged_out_lands_where_dropped_and_the_rest_re_form():
    m, ids = stack_map(305, zoom=19)
    with m:
        _, views = offsets_drawn(m, ids)
        pick = int(ids[7])
        v = views[pick]
        press = (v.x + 0.4, v.y - 0.3)                  # a little off its centre: the grab offset
        drop = (v.x + 300.0, v.y + 250.0)
        m.touch(0, "down", *press, 100)
        m.touch(0, "move", press[0] + 40, press[1] + 30, 120)
        m.touch(0, "move", *drop, 160)
        m.touch(0, "up", *drop, 200)
        moved = [e for e in m.events() if e.type == "MOVED"]
        assert len(moved) == 1 and moved[0].id == pick and moved[0].cause == "DRAG"
        landed = m.to_screen(moved[0].lon, moved[0].lat)
        assert math.hypot(landed[0] - (drop[0] - 0.4), landed[1] - (drop[1] + 0.3)) < 1e-6
        rest = [i for i in ids if i != pick]
        m.advance(1000)
        got, views = offsets_drawn(m, rest, t=1000)
        assert np.abs(got - oracle_offsets(304)).max() < 1e-6
        assert not views[pick].flags & pindrop.PIN_SPREAD
        assert (views[pick].x, views[pick].y) == (views[pick].anchor_x, views[pick].anchor_y)


def test_every_lawndale_stack_is_spread_on_the_map_as_by_the_batch_call():
    pts = load_geojson("lawndale")
    with pindrop.Map(spread_mode=pindrop.SPREAD_SPIRAL) as m:
        m.set_camera(*LAWNDALE_STACK, 18, W, H)
        m.add_many(np.arange(len(pts), dtype=np.int64), pts)
        batch = pindrop.spread(pts, layout="spiral", zoom=18)
        drawn = np.array([m.display_position(i) for i in range(len(pts))])
        assert np.abs(drawn - batch).max() < 1e-9
