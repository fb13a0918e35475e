/// What a cluster holds, as the host reads it (`pindrop_cluster_summary`, SPEC behaviour 19).
public struct ClusterSummary: Sendable, Equatable {
    public var count: UInt32
    /// Members with a value (not NaN).
    public var valued: UInt32
    /// The members' common category, or `PinAttributes.mixed`.
    public var category: UInt32
    /// `ClusterSummary.oneSpot` when every member has the same point.
    public var flags: UInt32
    /// Over the valued members; NaN when none has a value.
    public var valueSum: Double, valueMin: Double, valueMax: Double

    public static let oneSpot: UInt32 = ClusterFlags.oneSpot.rawValue
}

/// A category and how many pins of a cluster have it.
public struct CategoryCount: Sendable, Equatable {
    public var category: UInt32
    public var count: UInt32
}

/// The summary of one item of a clustered level, kept as its members come, go, move and change
/// their attributes: 80 bytes, next to the levels' `ClusterSums`.
///
/// - `count`, `valued` and the sum are additive: a member joining adds its own, one leaving
///   subtracts it. The sum is a double-double (`sumHi + sumLo`, each addition exact up to 2^-106
///   of the partial sums), so that values that come and go leave no rounding behind.
/// - `vmin`/`vmax` (±infinity when no member has a value) and the box of the members' points
///   (`minX`...`maxY`, whose being a point is `ONE_SPOT`) only grow by adding. When a member that
///   lies on the box's edge or holds the extreme value leaves, the item is marked `dirty` and
///   computed again from its members (the items of the level above: one walk of 3×3 cells) once
///   the pass has placed them all.
/// - `category` is the members' common category or `mixed`; a mixed item's counts per category
///   are in its level's `mixed` table (sorted by category), a uniform item needs none.
struct ItemSummary {
    var count: UInt32 = 0
    var valued: UInt32 = 0
    var category: UInt32 = 0
    /// What happened to the item in the current update pass (`ClusterSummaries.dirty`, ...).
    var mark: UInt32 = 0
    var sumHi = 0.0, sumLo = 0.0
    var vmin = Double.infinity, vmax = -Double.infinity
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    static let empty = ItemSummary()

    var isOneSpot: Bool { count > 0 && minX == maxX && minY == maxY }

    /// Equal in everything but the pass's marks.
    @inline(__always)
    func same(_ o: ItemSummary) -> Bool {
        count == o.count && valued == o.valued && category == o.category && sumHi == o.sumHi && sumLo == o.sumLo
            && vmin == o.vmin && vmax == o.vmax && minX == o.minX && minY == o.minY && maxX == o.maxX && maxY == o.maxY
    }

    var summary: ClusterSummary {
        ClusterSummary(count: count, valued: valued, category: category, flags: isOneSpot ? ClusterSummary.oneSpot : 0,
                       valueSum: valued == 0 ? .nan : sumHi + sumLo,
                       valueMin: valued == 0 ? .nan : vmin, valueMax: valued == 0 ? .nan : vmax)
    }
}

/// The summaries of every clustered level's items (`ClusterLevels` calls it where a member joins,
/// leaves or changes, and where it builds), and the generation of each item, which a cluster's key
/// carries so that a key never names another cluster. docs/clusters.md has the costs.
final class ClusterSummaries {
    // `ItemSummary.mark` bits.
    static let dirty: UInt32 = 1    // an extreme or an edge left: compute again from the members
    static let cats: UInt32 = 2     // the counts per category may have changed
    static let members: UInt32 = 4  // a pin joined or left (the item's key goes stale)

    final class Level {
        var items: [ItemSummary] = []
        /// Per slot: bumped whenever the item's pins change, and for each new item.
        var generations: [UInt32] = []
        /// The counts per category of the mixed items, by slot, sorted by category.
        var mixed: [UInt32: [CategoryCount]] = [:]

        var bytes: Int {
            items.capacity * MemoryLayout<ItemSummary>.stride + generations.capacity * 4
                + mixed.capacity * 24 + mixed.values.reduce(0) { $0 + 32 + $1.capacity * 8 }
        }
    }

    let attributes: PinAttributes
    /// Clustered levels 0..<levels.count.
    private(set) var levels: [Level]
    private var nextGeneration: UInt32 = 1
    /// Keys carry 26 bits of an item's generation.
    static let generationBits = 26
    /// The summaries of the items touched by the current pass, as they were (by touched position).
    private var was: [ItemSummary] = []
    private var scratch: [CategoryCount] = []

    init(levels n: Int, attributes: PinAttributes) {
        self.attributes = attributes
        levels = (0..<n).map { _ in Level() }
    }

    // MARK: - Items

    /// A fresh level z (its build follows).
    func resetLevel(_ z: Int) { levels[z] = Level() }

    /// Slot `slot` of level z holds a new, empty item with a new generation.
    @inline(__always)
    func allocate(_ z: Int, _ slot: UInt32) {
        let l = levels[z], i = Int(slot)
        if i == l.items.count {
            l.items.append(.empty); l.generations.append(newGeneration())
        } else {
            l.items[i] = .empty; l.generations[i] = newGeneration()
            l.mixed[slot] = nil
        }
    }

    /// Item `slot` of level z dissolved.
    func free(_ z: Int, _ slot: UInt32) {
        let l = levels[z]
        l.items[Int(slot)] = .empty
        l.generations[Int(slot)] = newGeneration()
        l.mixed[slot] = nil
    }

    @inline(__always)
    private func newGeneration() -> UInt32 {
        let g = nextGeneration
        nextGeneration = (nextGeneration &+ 1) & (1 << UInt32(Self.generationBits) - 1)
        return g
    }

    @inline(__always) func item(_ z: Int, _ slot: UInt32) -> ItemSummary { levels[z].items[Int(slot)] }
    @inline(__always) func generation(_ z: Int, _ slot: UInt32) -> UInt32 { levels[z].generations[Int(slot)] }
    @inline(__always) func category(_ z: Int, _ slot: UInt32) -> UInt32 { levels[z].items[Int(slot)].category }

    /// The summary of a pin at a normalised point.
    @inline(__always)
    func pin(_ slot: UInt32, _ x: Double, _ y: Double) -> ItemSummary {
        pin(value: attributes.value(Int32(bitPattern: slot)), category: attributes.category(Int32(bitPattern: slot)), x, y)
    }

    @inline(__always)
    func pin(value v: Double, category c: UInt32, _ x: Double, _ y: Double) -> ItemSummary {
        var s = ItemSummary()
        s.count = 1; s.category = c
        if !v.isNaN { s.valued = 1; s.sumHi = v; s.vmin = v; s.vmax = v }
        s.minX = x; s.maxX = x; s.minY = y; s.maxY = y
        return s
    }

    /// The counts per category of an item whose summary is `s` (level `z`, the base when past the
    /// last clustered level).
    @inline(__always)
    private func counts(_ z: Int, _ slot: UInt32, _ s: ItemSummary) -> [CategoryCount] {
        if s.category != PinAttributes.mixed { return [CategoryCount(category: s.category, count: s.count)] }
        return levels[z].mixed[slot] ?? []
    }

    /// The categories of item `slot` of level z with their counts, most pins first, ties by lower
    /// category.
    func categories(_ z: Int, _ slot: UInt32, into out: inout [CategoryCount]) {
        let s = levels[z].items[Int(slot)]
        out.removeAll(keepingCapacity: true)
        if s.category != PinAttributes.mixed {
            out.append(CategoryCount(category: s.category, count: s.count)); return
        }
        out.append(contentsOf: levels[z].mixed[slot] ?? [])
        out.sort { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
    }

    // MARK: - Adding up

    @inline(__always)
    private static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let s = a + b, bb = s - a
        return (s, (a - (s - bb)) + (b - bb))
    }

    /// t's sum plus sign·(hi + lo), as a double-double.
    @inline(__always)
    private static func addSum(_ t: inout ItemSummary, _ hi: Double, _ lo: Double, _ sign: Double) {
        let (s, e) = twoSum(t.sumHi, sign * hi)
        let (u, f) = twoSum(t.sumLo, sign * lo)
        var e2 = e + u
        let s2 = s + e2
        e2 = e2 - (s2 - s) + f
        let h = s2 + e2
        t.sumLo = e2 - (h - s2); t.sumHi = h
    }

    /// Adds a category's count (negative: takes away) to counts sorted by category.
    private static func addCount(_ h: inout [CategoryCount], _ c: UInt32, _ n: Int64) {
        var lo = 0, hi = h.count
        while lo < hi { let m = (lo + hi) / 2; if h[m].category < c { lo = m + 1 } else { hi = m } }
        if lo < h.count && h[lo].category == c {
            let v = Int64(h[lo].count) + n
            if v <= 0 { h.remove(at: lo) } else { h[lo].count = UInt32(v) }
        } else if n > 0 {
            h.insert(CategoryCount(category: c, count: UInt32(n)), at: lo)
        }
    }

    /// Adds the counts `add` (sign +1) or takes them away (-1) from an item whose summary is `t`
    /// and whose counts (when mixed) are `h`; t.count must already be the new count. Leaves t
    /// uniform (h nil) when one category remains.
    private static func mergeCounts(_ t: inout ItemSummary, _ h: inout [CategoryCount]?, before: UInt32,
                                    _ add: [CategoryCount], _ sign: Int64) {
        mergeCounts(&t, &h, before: before, add.map { ($0.category, sign * Int64($0.count)) })
    }

    private static func mergeCounts(_ t: inout ItemSummary, _ h: inout [CategoryCount]?, before: UInt32,
                                    _ add: [(UInt32, Int64)]) {
        var list = h ?? (before > 0 ? [CategoryCount(category: t.category, count: before)] : [])
        for (c, n) in add { addCount(&list, c, n) }
        if list.count <= 1 {
            t.category = list.first?.category ?? 0; h = nil
        } else {
            t.category = PinAttributes.mixed; h = list
        }
    }

    /// Item t (counts h) gains a member whose summary is s (counts `sc`, fetched only if needed).
    @inline(__always)
    private static func join(_ t: inout ItemSummary, _ h: inout [CategoryCount]?, _ s: ItemSummary,
                             _ sc: () -> [CategoryCount]) {
        let before = t.count
        t.count &+= s.count; t.valued &+= s.valued
        if s.valued > 0 {
            addSum(&t, s.sumHi, s.sumLo, 1)
            if s.vmin < t.vmin { t.vmin = s.vmin }
            if s.vmax > t.vmax { t.vmax = s.vmax }
        }
        if s.minX < t.minX { t.minX = s.minX }
        if s.minY < t.minY { t.minY = s.minY }
        if s.maxX > t.maxX { t.maxX = s.maxX }
        if s.maxY > t.maxY { t.maxY = s.maxY }
        if before == 0 {
            t.category = s.category
            h = s.category == PinAttributes.mixed ? sc() : nil
        } else if t.category != s.category || t.category == PinAttributes.mixed {
            mergeCounts(&t, &h, before: before, sc(), 1)
        }
    }

    // MARK: - Hooks of an update pass

    /// Item p of level z is touched (its summary as it was goes to `was[t]`).
    @inline(__always)
    func touch(_ z: Int, _ p: UInt32, _ t: Int) {
        let s = levels[z].items[Int(p)]
        if t < was.count { was[t] = s } else { was.append(s) }
    }

    /// The summary item p of level z had when the pass touched it (touched position t).
    @inline(__always) func touched(_ t: Int) -> ItemSummary { was[t] }

    /// Item `child` of level z + 1 (summary s) joins item p of level z.
    @inline(__always)
    func join(_ z: Int, _ p: UInt32, _ s: ItemSummary, child: UInt32) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        t.mark |= Self.members | Self.cats
        if t.mark & Self.dirty != 0 {
            // Computed again from the members after the pass: only the count matters until then.
            t.count &+= s.count
        } else if s.category == t.category && s.category != PinAttributes.mixed && t.count > 0 {
            var none: [CategoryCount]? = nil
            Self.join(&t, &none, s) { [] }
        } else {
            var h = l.mixed[p]
            Self.join(&t, &h, s) { self.counts(z + 1, child, s) }
            l.mixed[p] = h
        }
        l.items[i] = t
    }

    /// Item `child` of level z + 1 (summary s) leaves item p of level z.
    @inline(__always)
    func leave(_ z: Int, _ p: UInt32, _ s: ItemSummary, child: UInt32) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        t.mark |= Self.members | Self.cats
        t.count &-= s.count
        if t.count == 0 {
            let m = t.mark & ~Self.dirty
            t = .empty; t.mark = m
            l.mixed[p] = nil
        } else if t.mark & Self.dirty == 0 {
            t.valued &-= s.valued
            if s.valued > 0 {
                Self.addSum(&t, s.sumHi, s.sumLo, -1)
                if s.vmin == t.vmin || s.vmax == t.vmax { t.mark |= Self.dirty }
            }
            if s.minX == t.minX || s.minY == t.minY || s.maxX == t.maxX || s.maxY == t.maxY { t.mark |= Self.dirty }
            if t.category == PinAttributes.mixed && t.mark & Self.dirty == 0 {
                var h = l.mixed[p]
                Self.mergeCounts(&t, &h, before: t.count &+ s.count, counts(z + 1, child, s), -1)
                l.mixed[p] = h
            }
        }
        l.items[i] = t
    }

    /// A member of item p of level z changed while in it: its summary went from `old` to `new`
    /// (empty when it left the level: removed or kept out). `flags`: `cats` when its counts per
    /// category may have changed, `members` when its pins did.
    func replace(_ z: Int, _ p: UInt32, old w: ItemSummary, new n: ItemSummary, flags: UInt32) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        let before = t.count
        t.mark |= flags
        t.count = UInt32(truncatingIfNeeded: Int64(t.count) - Int64(w.count) + Int64(n.count))
        if t.count == 0 {
            let m = t.mark & ~Self.dirty
            t = .empty; t.mark = m
            l.mixed[p] = nil
            l.items[i] = t
            return
        }
        if t.mark & Self.dirty == 0 {
            t.valued = t.valued &- w.valued &+ n.valued
            if w.valued > 0 { Self.addSum(&t, w.sumHi, w.sumLo, -1) }
            if n.valued > 0 { Self.addSum(&t, n.sumHi, n.sumLo, 1) }
            // An extreme or an edge that shrinks: computed again; one that grows: taken.
            if (w.valued > 0 && ((w.vmin == t.vmin && !(n.vmin <= w.vmin)) || (w.vmax == t.vmax && !(n.vmax >= w.vmax))))
                || (w.minX == t.minX && !(n.minX <= w.minX)) || (w.minY == t.minY && !(n.minY <= w.minY))
                || (w.maxX == t.maxX && !(n.maxX >= w.maxX)) || (w.maxY == t.maxY && !(n.maxY >= w.maxY)) {
                t.mark |= Self.dirty
            } else {
                if n.vmin < t.vmin { t.vmin = n.vmin }
                if n.vmax > t.vmax { t.vmax = n.vmax }
                if n.minX < t.minX { t.minX = n.minX }
                if n.minY < t.minY { t.minY = n.minY }
                if n.maxX > t.maxX { t.maxX = n.maxX }
                if n.maxY > t.maxY { t.maxY = n.maxY }
            }
            if t.mark & Self.dirty == 0 && flags & Self.cats != 0 {
                // Counts per category known on both sides (uniform members, pins): taken
                // directly; a mixed member's earlier counts are not kept: computed again.
                if w.category == PinAttributes.mixed || n.category == PinAttributes.mixed {
                    t.mark |= Self.dirty
                } else if !(t.category != PinAttributes.mixed && w.category == t.category && n.category == t.category) {
                    var h = l.mixed[p]
                    Self.mergeCounts(&t, &h, before: before, [(w.category, -Int64(w.count)), (n.category, Int64(n.count))])
                    l.mixed[p] = h
                }
            }
        }
        l.items[i] = t
    }

    /// At the end of a pass, item p of level z (touched position t): computed again from its
    /// members if marked dirty (`forEachMember` calls its argument with each member's slot and
    /// summary), its generation renewed if its pins changed. Returns whether its summary changed
    /// and the flags to hand to the level below.
    func settle(_ z: Int, _ p: UInt32, _ t: Int,
                _ forEachMember: ((UInt32, ItemSummary) -> Void) -> Void) -> (changed: Bool, flags: UInt32) {
        let l = levels[z], i = Int(p)
        var s = l.items[i]
        let mark = s.mark
        if mark & Self.dirty != 0 {
            s = .empty
            var h: [CategoryCount]? = nil
            forEachMember { c, cs in Self.join(&s, &h, cs) { self.counts(z + 1, c, cs) } }
            l.mixed[p] = h
        }
        s.mark = 0
        l.items[i] = s
        if mark & Self.members != 0 { l.generations[i] = newGeneration() }
        let flags = mark & (Self.cats | Self.members)
        return (!s.same(was[t]) || flags != 0, flags)
    }

    // MARK: - Building

    /// Item p of level z, just allocated by a build, takes the summary of its members (slots of
    /// level z + 1 and their summaries, from `forEachMember`).
    @inline(__always)
    func build(_ z: Int, _ p: UInt32, _ forEachMember: ((UInt32, ItemSummary) -> Void) -> Void) {
        var s = ItemSummary.empty
        var h: [CategoryCount]? = nil
        forEachMember { c, cs in
            if cs.category == s.category && cs.category != PinAttributes.mixed && s.count > 0 {
                var none: [CategoryCount]? = nil
                Self.join(&s, &none, cs) { [] }
            } else {
                Self.join(&s, &h, cs) { self.counts(z + 1, c, cs) }
            }
        }
        let l = levels[z]
        l.items[Int(p)] = s
        if let h { l.mixed[p] = h }
    }

    /// Level z's items renumbered: item `old` is now `slotOf[old]`.
    func renumber(_ z: Int, _ byCell: [(cell: UInt64, slot: UInt32)], _ slotOf: [UInt32]) {
        let l = levels[z]
        l.items = byCell.map { l.items[Int($0.slot)] }
        l.generations = byCell.map { l.generations[Int($0.slot)] }
        if !l.mixed.isEmpty {
            var m: [UInt32: [CategoryCount]] = [:]
            m.reserveCapacity(l.mixed.count)
            for (k, v) in l.mixed { m[slotOf[Int(k)]] = v }
            l.mixed = m
        }
    }

    func trim(_ z: Int) {
        let l = levels[z]
        var a = [ItemSummary](); a.reserveCapacity(l.items.count); a.append(contentsOf: l.items); l.items = a
        var g = [UInt32](); g.reserveCapacity(l.generations.count); g.append(contentsOf: l.generations); l.generations = g
    }

    var bytes: Int { levels.reduce(0) { $0 + $1.bytes } + was.capacity * MemoryLayout<ItemSummary>.stride }
}
