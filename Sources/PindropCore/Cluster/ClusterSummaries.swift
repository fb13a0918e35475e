/// The summaries of every clustered level's items (`ClusterLevels` calls it where a member joins,
/// leaves or changes, and where it builds), and the generation of each item, which a cluster's key
/// carries so that a key never names another cluster. docs/clusters.md has the costs.
final class ClusterSummaries {
    // `ItemSummary.mark` bits.
    static let dirty: UInt32 = 1    // an extreme value left: compute again from the members
    static let cats: UInt32 = 2     // the counts per category may have changed
    static let members: UInt32 = 4  // a pin joined or left (the item's key goes stale)
    static let dirtySpot: UInt32 = 8 // the anchor moved: `off` counted again from the members
    static let kept: UInt32 = 64    // its summary before the pass is kept (`was`)
    /// A change's flag (`replace`): only the item's point moved, its summaries hold only the box.
    static let moved: UInt32 = 16
    /// A change's flag: the item's summary did not change (its summaries are not filled in).
    static let same: UInt32 = 32

    final class Level {
        var items: [ItemSummary] = []
        /// Per slot: bumped whenever the item's pins change, and for each new item.
        var generations: [UInt32] = []
        /// The counts per category of the mixed items, by slot, sorted by category.
        var mixed: [UInt32: [CategoryCount]] = [:]

        /// `ClusterSummary.oneSpot` when item i's pins share one point.
        @inline(__always)
        func flags(_ i: UInt32) -> UInt32 {
            items.withUnsafeBufferPointer { b in
                let s = b[Int(i)]
                return s.off == 0 && s.count > 0 ? ClusterSummary.oneSpot : 0
            }
        }

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
    /// The summaries of the items of the current pass's level that changed, as they were before
    /// their first change (the items whose summary did not change are not read at all).
    private var was: [(slot: UInt32, summary: ItemSummary)] = []
    private var wasIndex: [UInt32: Int] = [:]
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
        if !v.isNaN { s.valued = 1; s.sumHi = v * ItemSummary.sumScale; s.vmin = v; s.vmax = v }
        s.anchorX = x; s.anchorY = y
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
        if before == 0 {
            t.anchorX = s.anchorX; t.anchorY = s.anchorY; t.off = s.off
        } else {
            t.off &+= s.offPart(anchoredAt: t.anchorX, t.anchorY)
        }
        if before == 0 {
            t.category = s.category
            h = s.category == PinAttributes.mixed ? sc() : nil
        } else if t.category != s.category || t.category == PinAttributes.mixed {
            mergeCounts(&t, &h, before: before, sc(), 1)
        }
    }

    // MARK: - Hooks of an update pass

    /// A pass over a level begins.
    @inline(__always)
    func beginPass() {
        if !was.isEmpty { was.removeAll(keepingCapacity: true) }
        if !wasIndex.isEmpty { wasIndex.removeAll(keepingCapacity: true) }
    }

    /// Item p's summary before its first change in this pass (`t`, read anyway), kept.
    @inline(__always)
    private func keep(_ p: UInt32, _ t: ItemSummary) {
        guard t.mark & Self.kept == 0 else { return }
        was.append((p, t))
        if was.count > 16 {
            if wasIndex.isEmpty { for (i, e) in was.enumerated() { wasIndex[e.slot] = i } } else { wasIndex[p] = was.count - 1 }
        }
    }

    /// The summary item p had before the pass changed it, or nil when the pass left it alone.
    @inline(__always)
    func was(_ p: UInt32) -> ItemSummary? {
        if was.count > 16 { return wasIndex[p].map { was[$0].summary } }
        for e in was where e.slot == p { return e.summary }
        return nil
    }

    /// A pin's point alone (what a moved pin's change carries: `moved`).
    @inline(__always)
    func box(_ x: Double, _ y: Double) -> ItemSummary {
        var s = ItemSummary()
        s.anchorX = x; s.anchorY = y
        return s
    }

    /// Item `child` of level z + 1 (summary s) joins item p of level z.
    @inline(__always)
    func join(_ z: Int, _ p: UInt32, _ s: ItemSummary, child: UInt32) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        keep(p, t)
        t.mark |= Self.members | Self.cats | Self.kept
        if t.mark & Self.dirty != 0 {
            // Computed again from the members after the pass (its anchor and `off` too).
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
        keep(p, t)
        t.mark |= Self.members | Self.cats | Self.kept
        t.count &-= s.count
        if t.count == 0 {
            emptied(&t, l, p)
            l.items[i] = t
            return
        }
        if t.mark & (Self.dirty | Self.dirtySpot) == 0 { t.off &-= s.offPart(anchoredAt: t.anchorX, t.anchorY) }
        if t.mark & Self.dirty == 0 {
            t.valued &-= s.valued
            if s.valued > 0 {
                Self.addSum(&t, s.sumHi, s.sumLo, -1)
                if s.vmin == t.vmin || s.vmax == t.vmax { t.mark |= Self.dirty }
            }
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
    /// category may have changed, `members` when its pins did, `moved` when only its point did
    /// (a pin's move: old and new then hold only its point). `isSeed`: the member is the item's
    /// seed (its anchor is the item's).
    @inline(__always)
    func replace(_ z: Int, _ p: UInt32, old w: ItemSummary, new n: ItemSummary, flags: UInt32, isSeed: Bool) {
        if flags & Self.same != 0 { return }
        if flags & Self.moved != 0 {
            memberPinMoved(z, p, from: w, to: n, isSeed: isSeed)
        } else {
            memberChanged(z, p, from: w, to: n, flags: flags, isSeed: isSeed)
        }
    }

    /// `replace` for a member pin whose point alone moved (w and n hold only its point): `off`
    /// alone, and only if it changes. An item of one pin is where the pin is; the anchor pin
    /// moving moves the anchor.
    @inline(__always)
    private func memberPinMoved(_ z: Int, _ p: UInt32, from w: ItemSummary, to n: ItemSummary, isSeed: Bool) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        if t.count == 1 {
            keep(p, t)
            t.mark |= Self.kept
            t.anchorX = n.anchorX; t.anchorY = n.anchorY; t.off = 0
            l.items[i] = t
            return
        }
        if t.mark & (Self.dirty | Self.dirtySpot) != 0 { return }
        if isSeed {
            keep(p, t)
            t.mark |= Self.kept | Self.dirtySpot
            l.items[i] = t
            return
        }
        let wasOff: UInt32 = w.anchorX == t.anchorX && w.anchorY == t.anchorY ? 0 : 1
        let isOff: UInt32 = n.anchorX == t.anchorX && n.anchorY == t.anchorY ? 0 : 1
        guard wasOff != isOff else { return }
        keep(p, t)
        t.mark |= Self.kept
        t.off = t.off &- wasOff &+ isOff
        l.items[i] = t
    }

    /// `replace` for a member whose summary changed (not only its point): the count, the values
    /// and counts per category (unless the item is computed again anyway), then the anchor.
    @inline(__always)
    private func memberChanged(_ z: Int, _ p: UInt32, from w: ItemSummary, to n: ItemSummary, flags: UInt32,
                               isSeed: Bool) {
        let l = levels[z], i = Int(p)
        var t = l.items[i]
        keep(p, t)
        t.mark |= Self.kept | flags
        let before = t.count
        t.count = UInt32(truncatingIfNeeded: Int64(t.count) - Int64(w.count) + Int64(n.count))
        if t.count == 0 {
            emptied(&t, l, p)
        } else {
            if t.mark & Self.dirty == 0 { replaceValues(&t, l, p, before, w, n, flags) }
            replaceAnchor(&t, from: w, to: n, isSeed: isSeed)
        }
        l.items[i] = t
    }

    /// Item t (slot p of level l) lost its last member: empty, the pass's marks but the ones that
    /// ask for it to be computed again kept.
    @inline(__always)
    private func emptied(_ t: inout ItemSummary, _ l: Level, _ p: UInt32) {
        let m = t.mark & ~(Self.dirty | Self.dirtySpot)
        t = .empty; t.mark = m
        l.mixed[p] = nil
    }

    /// `replace` for the anchor: a member that is the whole item gives it its own; the anchor's
    /// member moving its anchor has `off` counted again; any other member's part is taken out and
    /// put back.
    @inline(__always)
    private func replaceAnchor(_ t: inout ItemSummary, from w: ItemSummary, to n: ItemSummary, isSeed: Bool) {
        if n.count == t.count {
            t.anchorX = n.anchorX; t.anchorY = n.anchorY; t.off = n.off
            t.mark &= ~Self.dirtySpot
        } else if t.mark & (Self.dirty | Self.dirtySpot) == 0 {
            if isSeed && (w.anchorX != n.anchorX || w.anchorY != n.anchorY) {
                t.mark |= Self.dirtySpot
            } else {
                t.off = t.off &- w.offPart(anchoredAt: t.anchorX, t.anchorY) &+ n.offPart(anchoredAt: t.anchorX, t.anchorY)
            }
        }
    }

    /// `replace` for the values and the counts per category.
    private func replaceValues(_ t: inout ItemSummary, _ l: Level, _ p: UInt32, _ before: UInt32,
                               _ w: ItemSummary, _ n: ItemSummary, _ flags: UInt32) {
        t.valued = t.valued &- w.valued &+ n.valued
        if w.valued > 0 { Self.addSum(&t, w.sumHi, w.sumLo, -1) }
        if n.valued > 0 { Self.addSum(&t, n.sumHi, n.sumLo, 1) }
        if w.valued > 0 && ((w.vmin == t.vmin && !(n.vmin <= w.vmin)) || (w.vmax == t.vmax && !(n.vmax >= w.vmax))) {
            t.mark |= Self.dirty
            return
        }
        if n.vmin < t.vmin { t.vmin = n.vmin }
        if n.vmax > t.vmax { t.vmax = n.vmax }
        guard flags & Self.cats != 0 else { return }
        // Counts per category known on both sides (uniform members, pins): taken directly; a
        // mixed member's earlier counts are not kept: computed again.
        if w.category == PinAttributes.mixed || n.category == PinAttributes.mixed {
            t.mark |= Self.dirty
        } else if !(t.category != PinAttributes.mixed && w.category == t.category && n.category == t.category) {
            var h = l.mixed[p]
            Self.mergeCounts(&t, &h, before: before, [(w.category, -Int64(w.count)), (n.category, Int64(n.count))])
            l.mixed[p] = h
        }
    }

    /// At the end of a pass, item p of level z (touched position t): computed again from its
    /// members if marked dirty (`forEachMember` calls its argument with each member's slot and
    /// summary), or only its `off` if its anchor moved (against `anchor()`: the anchor of its seed,
    /// or of its one member when it is kept apart), its generation renewed if its pins changed.
    /// Returns whether its summary changed and the flags to hand to the level below.
    @inline(__always)
    func settle(_ z: Int, _ p: UInt32, anchor: () -> (x: Double, y: Double),
                _ forEachMember: ((UInt32, ItemSummary) -> Void) -> Void) -> (changed: Bool, flags: UInt32) {
        guard let before = was(p) else { return (false, 0) }
        let l = levels[z], i = Int(p)
        var s = l.items[i]
        let mark = s.mark
        if mark & Self.dirty != 0 {
            s = .empty
            var h: [CategoryCount]? = nil
            let a = anchor()
            var off: UInt32 = 0
            forEachMember { c, cs in
                Self.join(&s, &h, cs) { self.counts(z + 1, c, cs) }
                off &+= cs.offPart(anchoredAt: a.x, a.y)
            }
            s.anchorX = a.x; s.anchorY = a.y; s.off = off
            l.mixed[p] = h
        } else if mark & Self.dirtySpot != 0 {
            let a = anchor()
            var off: UInt32 = 0
            forEachMember { _, cs in off &+= cs.offPart(anchoredAt: a.x, a.y) }
            s.anchorX = a.x; s.anchorY = a.y; s.off = off
        }
        s.mark = 0
        l.items[i] = s
        if mark & Self.members != 0 { l.generations[i] = newGeneration() }
        let flags = mark & (Self.cats | Self.members)
        return (flags != 0 || !s.same(before), flags)
    }

    // MARK: - Building

    /// Item p of level z, just allocated by a build, takes the summary of its members `group`:
    /// pins (slots of the base, their points in `points`) when level z + 1 is the base, else items
    /// of level z + 1. The common case, members of one category, adds up in registers.
    func build(_ z: Int, _ p: UInt32, _ group: [UInt32], pins: Bool, _ points: UnsafeMutableBufferPointer<ClusterItem>,
               _ values: UnsafeBufferPointer<Double>, _ categories: UnsafeBufferPointer<UInt32>) {
        var (s, uniform) = pins ? Self.sumPins(group, points, values, categories) : sumItems(ofLevel: z + 1, group)
        let l = levels[z]
        if uniform { l.items[Int(p)] = s; return }
        let h = countsPerCategory(group, ofLevel: z + 1, pins: pins, categories)
        s.category = h.count == 1 ? h[0].category : PinAttributes.mixed
        l.items[Int(p)] = s
        if h.count > 1 { l.mixed[p] = h }
    }

    /// The summary of the pins `group` (their points in `points`), and whether they share one
    /// category (the summary's then).
    private static func sumPins(_ group: [UInt32], _ points: UnsafeMutableBufferPointer<ClusterItem>,
                                _ values: UnsafeBufferPointer<Double>,
                                _ categories: UnsafeBufferPointer<UInt32>) -> (ItemSummary, uniform: Bool) {
        var s = ItemSummary.empty
        var uniform = true
        let c0 = Int(group[0]) < categories.count ? categories[Int(group[0])] : 0
        s.count = UInt32(group.count); s.category = c0
        for k in group {
            let i = Int(k)
            let v = i < values.count ? values[i] : .nan
            if !v.isNaN {
                s.valued &+= 1
                addSum(&s, v * ItemSummary.sumScale, 0, 1)
                if v < s.vmin { s.vmin = v }
                if v > s.vmax { s.vmax = v }
            }
            let x = points[i].x, y = points[i].y
            if k == group[0] { s.anchorX = x; s.anchorY = y } else if x != s.anchorX || y != s.anchorY { s.off &+= 1 }
            if (i < categories.count ? categories[i] : 0) != c0 { uniform = false }
        }
        return (s, uniform)
    }

    /// The summary of the items `group` of level z, and whether they share one category that is
    /// not `mixed` (the summary's then).
    private func sumItems(ofLevel z: Int, _ group: [UInt32]) -> (ItemSummary, uniform: Bool) {
        var s = ItemSummary.empty
        var uniform = true
        levels[z].items.withUnsafeBufferPointer { items in
            let c0 = items[Int(group[0])].category
            s.category = c0
            s.anchorX = items[Int(group[0])].anchorX; s.anchorY = items[Int(group[0])].anchorY
            for k in group {
                let m = items[Int(k)]
                s.off &+= m.offPart(anchoredAt: s.anchorX, s.anchorY)
                s.count &+= m.count; s.valued &+= m.valued
                if m.valued > 0 {
                    Self.addSum(&s, m.sumHi, m.sumLo, 1)
                    if m.vmin < s.vmin { s.vmin = m.vmin }
                    if m.vmax > s.vmax { s.vmax = m.vmax }
                }
                if m.category != c0 || c0 == PinAttributes.mixed { uniform = false }
            }
        }
        return (s, uniform)
    }

    /// The counts per category of `group`, pins or items of level z, member by member (sorted by
    /// category).
    private func countsPerCategory(_ group: [UInt32], ofLevel z: Int, pins: Bool,
                                   _ categories: UnsafeBufferPointer<UInt32>) -> [CategoryCount] {
        var h: [CategoryCount] = []
        for k in group {
            let i = Int(k)
            if pins {
                Self.addCount(&h, i < categories.count ? categories[i] : 0, 1)
            } else {
                for e in counts(z, k, levels[z].items[i]) { Self.addCount(&h, e.category, Int64(e.count)) }
            }
        }
        return h
    }

    /// Item p of level z, just built, takes the summary its members added up to (`SummarySum`).
    @inline(__always)
    func store(_ z: Int, _ p: UInt32, _ sum: SummarySum) {
        let l = levels[z]
        l.items[Int(p)] = sum.s
        if let h = sum.counts { l.mixed[p] = h }
    }

    /// The counts per category of item i of level z (summary s), for `SummarySum.item`.
    @inline(__always)
    func counts(ofLevel z: Int, _ i: UInt32, _ s: ItemSummary) -> [CategoryCount] { counts(z, i, s) }

    /// Level z's items renumbered: item `old` is now `slotOf[old]`, and `slots[new]` was `new`.
    func renumber(_ z: Int, _ slots: [UInt32], _ slotOf: [UInt32]) {
        let l = levels[z]
        l.items = slots.map { l.items[Int($0)] }
        l.generations = slots.map { l.generations[Int($0)] }
        if !l.mixed.isEmpty {
            var m: [UInt32: [CategoryCount]] = [:]
            m.reserveCapacity(l.mixed.count)
            for (k, v) in l.mixed { m[slotOf[Int(k)]] = v }
            l.mixed = m
        }
    }

    func trim(_ z: Int) {
        let l = levels[z]
        // With the levels' room to grow (`ClusterLevel.trim`).
        let room = l.items.count + l.items.count / 32 + 8
        var a = [ItemSummary](); a.reserveCapacity(room); a.append(contentsOf: l.items); l.items = a
        var g = [UInt32](); g.reserveCapacity(room); g.append(contentsOf: l.generations); l.generations = g
    }

    var bytes: Int {
        levels.reduce(0) { $0 + $1.bytes } + was.capacity * MemoryLayout<(slot: UInt32, summary: ItemSummary)>.stride
    }
}
