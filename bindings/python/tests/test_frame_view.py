"""The (lon, lat) of a frame's pins, computed on the Python side from their screen points, are the
library's own `to_lonlat` of those points, to the last bit: on a new map that never had
set_camera (pindrop.h: "The new map has the Web Mercator camera at (0, 0), zoom 0, 256x256
points"), after every way the view changes (set_camera, set_projection, a failed call of either,
the host's pan on AUTOPAN), and at any camera (bearings, fractional zooms, the antimeridian).
The C API has no call that reads the camera back: these tests check that the binding's copy of it
never goes stale."""
import math
from pathlib import Path

import numpy as np
import pytest

import pindrop

ROOT = Path(__file__).resolve().parents[3]
#: A few units in the last place of a coordinate in degrees (at 180: 2.8e-14 each).
ULPS = 1e-13


def assert_frame_is_the_views_inverse(m, f):
    """Every pin's (lon, lat) in frame f is to_lonlat of its screen point, and its anchor's
    to_lonlat of the anchor point, to within a unit or two in the last place (the view f was
    drawn in must be the map's view now)."""
    assert len(f) > 0
    assert not np.isnan(f.lonlat).any() and not np.isnan(f.anchor_lonlat).any()
    for k in range(len(f)):
        assert tuple(f.lonlat[k]) == pytest.approx(m.to_lonlat(f.x[k], f.y[k]), rel=0, abs=ULPS)
        assert tuple(f.anchor_lonlat[k]) == pytest.approx(m.to_lonlat(f.anchor_x[k], f.anchor_y[k]), rel=0, abs=ULPS)


def test_the_header_gives_a_new_map_the_camera_the_binding_assumes():
    header = (ROOT / "include" / "pindrop.h").read_text()
    assert "The new map has the Web Mercator camera at (0, 0), zoom 0, 256x256 points." in header
    with pindrop.Map() as m:
        assert m.to_screen(0.0, 0.0) == (128.0, 128.0)
        assert m.to_lonlat(0.0, 128.0) == (-180.0, 0.0)


def test_a_new_map_without_set_camera_has_the_lon_lat_of_its_pins():
    with pindrop.Map() as m:
        m.add(1, 10, 20)
        f = m.frame()
        assert f.lonlat.tolist() == [[10.0, 20.0]]
        assert tuple(f.lonlat[0]) == m.to_lonlat(f.x[0], f.y[0])
        assert (f[0].lon, f[0].lat) == (10.0, 20.0) and (f.lon[0], f.lat[0]) == (10.0, 20.0)


def test_a_new_map_frame_of_many_pins_is_the_views_inverse():
    rng = np.random.default_rng(7)
    lonlat = np.column_stack([rng.uniform(-179, 179, 300), rng.uniform(-84, 84, 300)])
    lonlat[:20] = lonlat[0]  # a stack: drawn spread, its anchors at the true spot
    with pindrop.Map() as m:
        m.add_many(np.arange(300), lonlat)
        f = m.frame()
        assert len(f) == 300
        assert_frame_is_the_views_inverse(m, f)
        assert np.allclose(f.anchor_lonlat[np.argsort(f.id)], lonlat, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_frame_lon_lat_are_to_lonlat_bit_for_bit_at_any_camera(seed):
    rng = np.random.default_rng(seed)
    with pindrop.Map() as m:
        lon0, lat0 = rng.uniform(-180, 180), rng.uniform(-80, 80)
        zoom = float(rng.uniform(2, 19))
        bearing = float(rng.uniform(-720, 720)) if seed % 2 else 0.0
        w, h = float(rng.uniform(300, 1600)), float(rng.uniform(300, 1200))
        m.set_camera(lon0, lat0, zoom, w, h, bearing_deg=bearing)
        xy = np.column_stack([rng.uniform(0, w, 200), rng.uniform(0, h, 200)])
        m.add_many(np.arange(200), [m.to_lonlat(x, y) for x, y in xy])
        assert_frame_is_the_views_inverse(m, m.frame())


def test_a_view_across_the_antimeridian():
    with pindrop.Map() as m:
        m.set_camera(179.999, 10.0, 14.5, 1000, 800, bearing_deg=30)
        m.add_many(np.arange(50), [m.to_lonlat(x, y) for x, y in zip(np.linspace(5, 995, 50), np.linspace(5, 795, 50))])
        f = m.frame()
        assert (f.lon > 0).any() and (f.lon < 0).any()
        assert_frame_is_the_views_inverse(m, f)


def test_every_change_of_view_reaches_the_frame():
    k = 1e5

    def project(lon, lat):
        return (lon + 118.35) * k + 400, (33.9 - lat) * k + 300

    def unproject(x, y):
        return (x - 400) / k - 118.35, 33.9 - (y - 300) / k

    with pindrop.Map() as m:
        m.add(1, -118.3505, 33.9004)
        assert_frame_is_the_views_inverse(m, m.frame())          # the new map's camera
        m.set_projection(project, unproject, 800, 600)
        f = m.frame()
        assert f.lonlat.tolist() == [list(unproject(f.x[0], f.y[0]))]
        assert f.lonlat[0] == pytest.approx((-118.3505, 33.9004), abs=1e-9)
        with pytest.raises(pindrop.InvalidArgument):
            m.set_camera(0, 89, 3, 100, 100)                      # refused: the projection stays
        f = m.frame()
        assert f.lonlat.tolist() == [list(unproject(f.x[0], f.y[0]))]
        m.set_camera(-118.35, 33.9, 17.5, 800, 600, bearing_deg=12)
        assert_frame_is_the_views_inverse(m, m.frame())
        with pytest.raises(pindrop.InvalidArgument):
            m.set_camera(0, 0, 31, 100, 100)                      # refused: the camera stays
        assert_frame_is_the_views_inverse(m, m.frame())
        with pytest.raises(pindrop.InvalidArgument):
            m.set_projection(project, unproject, 0, 600)          # refused: the camera stays
        assert_frame_is_the_views_inverse(m, m.frame())


def test_a_frame_keeps_the_view_it_was_drawn_in():
    with pindrop.Map() as m:
        m.add(1, 10, 20)
        f = m.frame()                                             # drawn in the new map's camera
        m.set_camera(10, 20, 12, 800, 600)
        assert f.lonlat.tolist() == [[10.0, 20.0]]
        assert m.frame().lonlat[0] == pytest.approx((10.0, 20.0), abs=1e-12)


def test_auto_pan_the_library_asks_for_the_host_moves_and_frames_follow():
    """The library never moves the view itself: AUTOPAN asks the host to, and the host's
    set_camera is the change. Frames stay the view's inverse throughout the drag."""
    w, h, zoom = 1200.0, 800.0, 18.0
    with pindrop.Map(lift_height=0) as m:
        m.set_camera(-118.2, 33.8, zoom, w, h)
        m.add(1, *m.to_lonlat(600, 400))
        m.add(2, *m.to_lonlat(900, 300))
        m.touch(0, "down", 600, 400, 0)
        m.tick(250)
        m.touch(0, "move", 610, 400, 450)
        m.touch(0, "move", 1180, 400, 460)                        # into the auto-pan margin
        centre = m.to_lonlat(w / 2, h / 2)
        t = 460.0
        for step in range(6):
            t += 1000 / 60
            m.tick(t)
            pans = [e for e in m.events() if e.type == "AUTOPAN"]
            assert len(pans) == 1 and pans[0].dx > 0
            assert m.to_lonlat(w / 2, h / 2) == centre            # the library did not pan
            assert_frame_is_the_views_inverse(m, m.frame(t))
            centre = m.to_lonlat(w / 2 + pans[0].dx, h / 2 + pans[0].dy)
            m.set_camera(*centre, zoom, w, h)                     # the host pans
            assert_frame_is_the_views_inverse(m, m.frame(t))
        dragged = m.frame(t)
        assert dragged.id[-1] == 1 and dragged.x[-1] == pytest.approx(1180, abs=1e-6)
        assert tuple(dragged.lonlat[-1]) == pytest.approx(m.to_lonlat(1180, 400), rel=0, abs=ULPS)
        assert not math.isnan(dragged[-1].lon)


def test_the_inverse_agrees_with_the_library_to_the_last_place_or_two():
    """At zoom 0, a column of points down the middle, where NumPy's vectorised sinh/arctan round
    differently from libm's (the library's) for some points: the frame's latitudes stay within a
    few units in the last place of to_lonlat's."""
    with pindrop.Map() as m:
        ys = np.linspace(1, 255, 2000)
        m.add_many(np.arange(ys.size), [m.to_lonlat(128.0, y) for y in ys])
        f = m.frame()
        want = np.array([m.to_lonlat(x, y) for x, y in zip(f.x, f.y)])
        assert np.abs(f.lonlat - want).max() <= ULPS
