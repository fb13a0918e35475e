/// The summary of one item of a clustered level, kept as its members come, go, move and change
/// their attributes: 72 bytes, next to the levels' `ClusterSums`.
///
/// - `count`, `valued` and the sum are additive: a member joining adds its own, one leaving
///   subtracts it. The sum is a double-double (`sumHi + sumLo`, each addition exact up to 2^-106
///   of the partial sums), so that values that come and go leave no rounding behind.
/// - `vmin`/`vmax` (±infinity when no member has a value) only grow by adding. When a member that
///   holds the extreme value leaves, the item is marked `dirty` and computed again from its
///   members (the items of the level above: one walk of its cells) once the pass has placed them.
/// - `ONE_SPOT` is kept against an anchor: the point of the item's anchor pin (its seed's anchor
///   pin, down to a pin, whose anchor is its point; for an item kept apart, its one member's).
///   `off` adds up, over the members, a member's own `off` when it has the same anchor and its
///   pin count otherwise: it is 0 exactly when every pin lies on the anchor. Members coming,
///   going and moving add and subtract their part; only the anchor moving (the anchor pin moved,
///   a seed's anchor changed) counts again from the members (`dirtySpot`), where a box had to be
///   computed again whenever a member on its edge moved inward.
/// - `category` is the members' common category or `mixed`; a mixed item's counts per category
///   are in its level's `mixed` table (sorted by category), a uniform item needs none.
struct ItemSummary {
    var count: UInt32 = 0
    var valued: UInt32 = 0
    var category: UInt32 = 0
    /// What happened to the item in the current update pass (`ClusterSummaries.dirty`, ...).
    var mark: UInt32 = 0
    /// The values' sum (a double-double), scaled by `sumScale`.
    var sumHi = 0.0, sumLo = 0.0
    var vmin = Double.infinity, vmax = -Double.infinity
    /// The anchor pin's point (not a number while the item is empty).
    var anchorX = Double.nan, anchorY = Double.nan
    /// 0 when every pin lies on the anchor (see above).
    var off: UInt32 = 0

    static let empty = ItemSummary()

    var isOneSpot: Bool { count > 0 && off == 0 }

    /// Equal in everything but the pass's marks.
    @inline(__always)
    func same(_ o: ItemSummary) -> Bool {
        count == o.count && valued == o.valued && category == o.category && sumHi == o.sumHi && sumLo == o.sumLo
            && vmin == o.vmin && vmax == o.vmax && off == o.off
            && anchorX.bitPattern == o.anchorX.bitPattern && anchorY.bitPattern == o.anchorY.bitPattern
    }

    /// What a member whose summary is s adds to `off` of an item anchored at (ax, ay).
    @inline(__always)
    func offPart(anchoredAt ax: Double, _ ay: Double) -> UInt32 { anchorX == ax && anchorY == ay ? off : count }

    /// Values are added up scaled by 2^-33: a sum of at most 2^32 finite values then never
    /// overflows inside the sum (two values of 1e308 made its error term ∞ − ∞, a NaN that no
    /// later change could take out), and reads as ±∞ only when the true sum is out of range.
    /// Scaling by a power of two is exact down to |v| = 2^-989; below that a value keeps 2^-1041
    /// of absolute precision, far inside the 1e-12 of the sum of the absolute values promised.
    static let sumScale = 0x1p-33

    var summary: ClusterSummary {
        ClusterSummary(count: count, valued: valued, category: category, flags: isOneSpot ? ClusterSummary.oneSpot : 0,
                       valueSum: valued == 0 ? .nan : (sumHi + sumLo) / Self.sumScale,
                       valueMin: valued == 0 ? .nan : vmin, valueMax: valued == 0 ? .nan : vmax)
    }
}

/// A build's summary of one item, added up member by member as the build's walk finds them (in
/// registers; the counts per category only once a second category turns up).
struct SummarySum {
    var s = ItemSummary.empty
    /// Nil while the members share one category.
    var counts: [CategoryCount]?

    @inline(__always)
    mutating func pin(_ v: Double, _ c: UInt32, _ x: Double, _ y: Double) {
        if s.count == 0 {
            s.category = c; s.anchorX = x; s.anchorY = y
        } else {
            if c != s.category || counts != nil { category(c, 1) }
            if x != s.anchorX || y != s.anchorY { s.off &+= 1 }
        }
        s.count &+= 1
        if !v.isNaN {
            s.valued &+= 1
            add(v * ItemSummary.sumScale, 0)
            if v < s.vmin { s.vmin = v }
            if v > s.vmax { s.vmax = v }
        }
    }

    @inline(__always)
    mutating func item(_ m: ItemSummary, _ mixedCounts: () -> [CategoryCount]) {
        if s.count == 0 {
            s.anchorX = m.anchorX; s.anchorY = m.anchorY; s.off = m.off
        } else {
            s.off &+= m.offPart(anchoredAt: s.anchorX, s.anchorY)
        }
        if s.count == 0 {
            s.category = m.category
            if m.category == PinAttributes.mixed { counts = mixedCounts() }
        } else if m.category != s.category || counts != nil {
            if m.category == PinAttributes.mixed {
                for e in mixedCounts() { category(e.category, e.count) }
            } else {
                category(m.category, m.count)
            }
        }
        s.count &+= m.count; s.valued &+= m.valued
        if m.valued > 0 {
            add(m.sumHi, m.sumLo)
            if m.vmin < s.vmin { s.vmin = m.vmin }
            if m.vmax > s.vmax { s.vmax = m.vmax }
        }
    }

    /// Adds n pins of category c to the counts (made from the members so far on the first call).
    private mutating func category(_ c: UInt32, _ n: UInt32) {
        // Taken out of `counts` first, so that the insertion below changes the array in place
        // instead of copying it (a second reference would make every call copy the list).
        var h = counts ?? [CategoryCount(category: s.category, count: s.count)]
        counts = nil
        var lo = 0, hi = h.count
        while lo < hi { let m = (lo + hi) / 2; if h[m].category < c { lo = m + 1 } else { hi = m } }
        if lo < h.count && h[lo].category == c { h[lo].count &+= n } else { h.insert(CategoryCount(category: c, count: n), at: lo) }
        counts = h
        s.category = h.count == 1 ? h[0].category : PinAttributes.mixed
    }

    /// The double-double sum plus (hi, lo) (Dekker's and Knuth's TwoSum, as `ClusterSummaries`).
    @inline(__always)
    private mutating func add(_ hi: Double, _ lo: Double) {
        let a = s.sumHi, t = a + hi, bb = t - a
        var e = (a - (t - bb)) + (hi - bb) + s.sumLo + lo
        let h = t + e
        e = e - (h - t)
        s.sumHi = h; s.sumLo = e
    }
}
