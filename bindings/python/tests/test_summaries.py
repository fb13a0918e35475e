"""What clusters hold, from Python (behaviour 19): `Map.set_attributes` with NumPy arrays and
scalars, `ClusterSummary`, `cluster_categories` as a structured array and as a dict,
`cluster_members` pages, the 0.3 options by name, and keys that go stale. Expected figures come
from a brute-force recomputation over each cluster's members (NumPy over the attributes the test
set), not from the library."""
from __future__ import annotations

import math

import numpy as np
import pytest

import pindrop

LAWNDALE = (-118.3535, 33.8871)


def clustered_map(n=400, seed=3, **options):
    rng = np.random.default_rng(seed)
    ids = rng.permutation(np.arange(1000, 1000 + n)).astype(np.int64)
    # Pins within about 1 km, a few stacked on one spot.
    lonlat = np.column_stack([LAWNDALE[0] + rng.uniform(-0.006, 0.006, n), LAWNDALE[1] + rng.uniform(-0.005, 0.005, n)])
    lonlat[:7] = lonlat[0]
    m = pindrop.Map(cluster_radius=60, **options)
    m.add_many(ids, lonlat)
    m.set_camera(LAWNDALE[0], LAWNDALE[1], 16, 1200, 800)
    return m, ids, lonlat


def expected(members, value_of, category_of):
    vals = np.array([value_of[i] for i in members])
    valued = vals[~np.isnan(vals)]
    cats = {}
    for i in members:
        cats[category_of[i]] = cats.get(category_of[i], 0) + 1
    order = sorted(cats.items(), key=lambda kv: (-kv[1], kv[0]))
    return valued, order


def test_summaries_match_the_members():
    m, ids, lonlat = clustered_map()
    rng = np.random.default_rng(5)
    values = rng.normal(30, 10, len(ids))
    values[rng.random(len(ids)) < 0.2] = np.nan
    cats = rng.integers(0, 6, len(ids)).astype(np.uint32)
    m.set_attributes(ids, values, cats)
    value_of = dict(zip(ids.tolist(), values.tolist()))
    category_of = dict(zip(ids.tolist(), cats.tolist()))
    position = {i: tuple(p) for i, p in zip(ids.tolist(), lonlat.tolist())}
    clusters = m.clusters(0)
    assert len(clusters) > 5
    for c in clusters:
        s = m.cluster_summary(c.key)
        assert isinstance(s, pindrop.ClusterSummary)
        members = m.cluster_members(c.key)
        assert list(members) == sorted(members) and len(members) == s.count == c.count
        valued, order = expected(members.tolist(), value_of, category_of)
        assert s.valued == len(valued)
        if len(valued):
            assert s.value_min == valued.min() and s.value_max == valued.max()
            assert abs(s.value_sum - valued.sum()) <= 1e-12 * np.abs(valued).sum()
            assert s.value_mean == pytest.approx(valued.mean())
        else:
            assert math.isnan(s.value_sum) and math.isnan(s.value_min) and math.isnan(s.value_max)
        assert s.category == (order[0][0] if len(order) == 1 else pindrop.CATEGORY_MIXED)
        assert s.mixed == (len(order) > 1)
        a = m.cluster_categories(c.key)
        assert a.dtype.names == ("category", "count")
        assert [(int(x), int(y)) for x, y in a] == order
        assert list(m.cluster_categories(c.key, as_dict=True).items()) == order
        spots = {position[i] for i in members.tolist()}
        assert s.one_spot == (len(spots) == 1) == bool(c.flags & pindrop.CLUSTER_ONE_SPOT)


def test_member_pages():
    m, ids, _ = clustered_map()
    c = max(m.clusters(0), key=lambda c: c.count)
    everything = m.cluster_members(c.key)
    assert len(everything) == c.count
    pages = [m.cluster_members(c.key, offset=o, limit=7) for o in range(0, c.count, 7)]
    assert np.array_equal(np.concatenate(pages), everything)
    assert len(m.cluster_members(c.key, offset=c.count)) == 0
    assert len(m.cluster_members(c.key, offset=c.count + 10, limit=3)) == 0
    assert np.array_equal(m.cluster_members(c.key, offset=2), everything[2:])
    with pytest.raises(pindrop.InvalidArgument):
        m.cluster_members(c.key, offset=-1)


def test_scalars_none_and_all_or_nothing():
    m, ids, _ = clustered_map(n=50)
    c = m.clusters(0)[0]
    members = m.cluster_members(c.key)
    m.set_attributes(members, values=2.5)          # a scalar for every id; categories left as they are
    s = m.cluster_summary(c.key)
    assert s.valued == s.count and s.value_sum == 2.5 * s.count and s.category == 0
    m.set_attributes(members, categories=4)
    assert m.cluster_summary(c.key).category == 4 and m.cluster_summary(c.key).valued == s.count
    with pytest.raises(pindrop.NotFound):
        m.set_attributes([members[0], 999_999], values=[1.0, 2.0])
    with pytest.raises(pindrop.InvalidArgument):
        m.set_attributes(members[:2], values=[1.0, np.inf])
    with pytest.raises(pindrop.InvalidArgument):
        m.set_attributes(members[:2], categories=[1, pindrop.CATEGORY_MIXED])
    with pytest.raises(OverflowError, match="categories value -3"):
        m.set_attributes(members[:2], categories=[1, -3])
    with pytest.raises(ValueError):
        m.set_attributes(members[:2], values=[1.0, 2.0, 3.0])
    s2 = m.cluster_summary(c.key)                   # nothing changed
    assert (s2.valued, s2.value_sum, s2.category) == (s.count, 2.5 * s.count, 4)


def test_keys_go_stale_with_their_members():
    m, ids, _ = clustered_map(n=60)
    c = max(m.clusters(0), key=lambda c: c.count)
    members = m.cluster_members(c.key)
    m.set_attributes(members[:1], values=[7.0])     # attributes do not change members
    assert m.cluster_summary(c.key).count == c.count
    m.remove(int(members[0]))
    for call in (m.cluster_summary, m.cluster_categories, m.cluster_members):
        with pytest.raises(pindrop.NotFound):
            call(c.key)


def test_options_by_name():
    assert pindrop.Options().cluster_min_points == 2 and pindrop.Options().cluster_by_category is False
    m = pindrop.Map(cluster_radius=60, cluster_by_category=True)
    m.add_many([1, 2, 3], [(LAWNDALE[0], LAWNDALE[1])] * 3)
    m.set_camera(LAWNDALE[0], LAWNDALE[1], 12, 800, 600)
    m.set_attributes([1, 2, 3], categories=[5, 5, 6])
    (c,) = m.clusters(0)
    assert c.count == 2 and m.cluster_summary(c.key).category == 5
    assert [p.id for p in m.frame(0)] == [3]
    with pytest.raises(pindrop.InvalidArgument):
        pindrop.Map(cluster_radius=60, cluster_min_points=1)
