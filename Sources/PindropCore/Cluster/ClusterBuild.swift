/// Builds cluster levels from scratch: supercluster's greedy loop with pindrop's fixed order
/// (docs/clusters.md). The items of level z + 1 are visited by order key; each one not yet
/// placed becomes the seed of a new item of level z and takes in every unplaced item within
/// level z's radius (of its own category, with `byCategory`). Each level is then renumbered by
/// cell, so that a walk of 3×3 cells reads three runs of its arrays.
///
/// It reads only the level above the one it builds and writes only that one (and its
/// summaries), so it can be run, and tested, on levels made by hand.
struct ClusterBuild {
    /// The radius in points (`ClusterLevels.radius`).
    let radius: Double
    let byCategory: Bool
    /// The fewest pins a cluster may hold; smaller groups stay apart (supercluster's minPoints).
    let minPoints: Int
    let summaries: ClusterSummaries

    /// Builds levels `top`...0 again from the items of level `top` + 1, `order` holding those
    /// items' slots by key (`ClusterLevel.unplacedByKey`, which also marks them unplaced).
    func build(_ levels: inout [ClusterLevel], from top: Int, order: [UInt32]) {
        var order = order
        var z = top
        while z >= 0 {
            let level = ClusterLevel(cell: ClusterLevels.cellSide(radius, level: z))
            levels[z] = level
            summaries.resetLevel(z)
            buildLevel(z, above: levels[z + 1], into: level, order)
            // Allocated in key order, renumbered by cell: the key order is where they came from.
            order = arrangeByCell(z, level, above: levels[z + 1])
            // Items that stayed themselves in a group too small for a cluster were allocated
            // after their group's seed, out of key order.
            if minPoints > 2 { Self.sortByKey(&order, level.items) }
            level.trim()
            summaries.trim(z)
            z -= 1
        }
    }

    /// Level z from the items of `above`, visited in `order` (all unplaced).
    private func buildLevel(_ z: Int, above: ClusterLevel, into level: ClusterLevel, _ order: [UInt32]) {
        let r = ClusterLevels.radius(radius, level: z), r2 = r * r
        let pins = above.isBase
        let grid = above.grid
        var group: [UInt32] = []
        // Level z grows while the level above is read: the item of each seed is summed up
        // locally and appended once.
        above.sums.withUnsafeBufferPointer { aboveSums in
        above.items.withUnsafeMutableBufferPointer { aboveItems in
            // The walks read the cells' links and whether each item is placed from dense copies
            // (4 bytes and 1 bit an item, where neighbouring slots share cache lines), and an
            // item itself only when it is still unplaced.
            let count = aboveItems.count
            var links = [UInt32](unsafeUninitializedCapacity: count) { l, c in
                for i in 0..<count { l[i] = aboveItems[i].next }
                c = count
            }
            var placedBits = [UInt64](repeating: 0, count: (count + 63) >> 6)
            for i in 0..<count where aboveItems[i].parent != ClusterLevel.unassigned {
                placedBits[i >> 6] |= 1 << UInt64(i & 63)
            }
            links.withUnsafeMutableBufferPointer { links in
            placedBits.withUnsafeMutableBufferPointer { placed in
            summaries.attributes.withBuffers { values, categories in
            // The summaries of the level above's items (none when it is the pins).
            let aboveSummaries = pins ? [] : summaries.levels[z + 1].items
            @inline(__always) func sums(_ i: Int) -> (Int64, Int64, UInt32) {
                pins ? (ClusterLevels.fixed(aboveItems[i].x), ClusterLevels.fixed(aboveItems[i].y), 1)
                    : (aboveSums[i].sx, aboveSums[i].sy, aboveSums[i].count)
            }
            @inline(__always) func isPlaced(_ i: Int) -> Bool { placed[i >> 6] & (1 << UInt64(i & 63)) != 0 }
            @inline(__always) func place(_ i: Int, _ q: UInt32) {
                aboveItems[i].parent = q; placed[i >> 6] |= 1 << UInt64(i & 63)
            }
            for seed in order where !isPlaced(Int(seed)) {
                let si = Int(seed)
                let sx0 = aboveItems[si].x, sy0 = aboveItems[si].y
                let q = allocate(z, level, seed: seed, key: aboveItems[si].key, at: sx0, sy0)
                place(si, q)
                var (sx, sy, n) = sums(si)
                let cat = byCategory ? summaries.category(z + 1, seed, pins: pins) : 0
                // The group's summary, added up as the walk finds its members; the list of them
                // only where a group may stay apart (minPoints).
                var sum = SummarySum()
                @inline(__always) func count(_ k: Int) {
                    if pins {
                        sum.pin(k < values.count ? values[k] : .nan, k < categories.count ? categories[k] : 0,
                                aboveItems[k].x, aboveItems[k].y)
                    } else {
                        let m = aboveSummaries[k]
                        sum.item(m) { summaries.counts(ofLevel: z + 1, UInt32(k), m) }
                    }
                }
                count(si)
                if minPoints > 2 { group.removeAll(keepingCapacity: true); group.append(seed) }
                grid.forEachNear(sx0, sy0, next: { links[Int($0)] }) { k in
                    let ki = Int(k)
                    guard !isPlaced(ki) else { return }
                    let dx = aboveItems[ki].x - sx0, dy = aboveItems[ki].y - sy0
                    guard dx * dx + dy * dy <= r2 else { return }
                    if byCategory && summaries.category(z + 1, k, pins: pins) != cat { return }
                    place(ki, q)
                    if minPoints > 2 { group.append(k) }
                    count(ki)
                    let (ax, ay, an) = sums(ki)
                    sx &+= ax; sy &+= ay; n &+= an
                }
                if minPoints > 2 && group.count > 1 && Int(n) < minPoints {
                    keepApart(z, group, seedItem: q, into: level, pins: pins, aboveItems, values, categories, sums)
                    continue
                }
                summaries.store(z, q, sum)
                let qi = Int(q)
                level.sums[qi].sx = sx; level.sums[qi].sy = sy; level.sums[qi].count = n
                // As `ClusterUpdate.point`: a single pin exactly at its point (an item of one pin is one).
                let p = n == 1 ? (sx0, sy0) : (ClusterLevels.mean(sx, n), ClusterLevels.mean(sy, n))
                level.place(q, at: p.0, p.1, placed: false)
            }
            }}}
        }}
    }

    /// A group too small for a cluster (supercluster's minPoints): each of its items stays itself
    /// at level z, the seed in `seedItem`, the others in items of their own (they are all single
    /// pins: a group holding a cluster of level z + 1 has at least minPoints pins). Those name the
    /// group's seed as their seed but are not seeds (`ClusterUpdate`: a group kept apart).
    private func keepApart(_ z: Int, _ group: [UInt32], seedItem: UInt32, into level: ClusterLevel, pins: Bool,
                           _ aboveItems: UnsafeMutableBufferPointer<ClusterItem>, _ values: UnsafeBufferPointer<Double>,
                           _ categories: UnsafeBufferPointer<UInt32>, _ sums: (Int) -> (Int64, Int64, UInt32)) {
        for k in group {
            let ki = Int(k)
            let kq = k == group[0] ? seedItem
                : allocate(z, level, seed: group[0], key: aboveItems[ki].key, at: aboveItems[ki].x, aboveItems[ki].y)
            if k != group[0] { level.seedAt[Int(kq)] = .gone }
            aboveItems[ki].parent = kq
            let (ax, ay, an) = sums(ki)
            let kqi = Int(kq)
            level.sums[kqi].sx = ax; level.sums[kqi].sy = ay; level.sums[kqi].count = an
            level.place(kq, at: aboveItems[ki].x, aboveItems[ki].y, placed: false)
            summaries.build(z, kq, [k], pins: pins, aboveItems, values, categories)
        }
    }

    @inline(__always)
    private func allocate(_ z: Int, _ level: ClusterLevel, seed: UInt32, key: UInt64, at x: Double, _ y: Double) -> UInt32 {
        let slot = level.allocate(seed: seed, key: key, at: x, y)
        summaries.allocate(z, slot)
        return slot
    }

    /// Renumbers the items of level z, just built, by their cell, row after row, so that the
    /// items a walk of 3×3 cells meets lie in three runs of the level's arrays instead of anywhere
    /// in them; returns each item's new slot by its old one.
    private func arrangeByCell(_ z: Int, _ level: ClusterLevel, above: ClusterLevel) -> [UInt32] {
        let n = level.items.count
        var byCell = [(cell: UInt64, slot: UInt32)]()
        byCell.reserveCapacity(n)
        for i in 0..<n {
            // Points lie in [0, 1], so cell coordinates are small and not negative.
            let cx = UInt64(truncatingIfNeeded: level.grid.coordinate(level.items[i].x)) & 0xFFFF_FFFF
            let cy = UInt64(truncatingIfNeeded: level.grid.coordinate(level.items[i].y)) & 0xFFFF_FFFF
            byCell.append((cy << 32 | cx, UInt32(i)))
        }
        byCell.sort { ($0.cell, $0.slot) < ($1.cell, $1.slot) }
        var slotOf = [UInt32](repeating: 0, count: n)
        for (new, e) in byCell.enumerated() { slotOf[Int(e.slot)] = UInt32(new) }
        level.items = byCell.map { level.items[Int($0.slot)] }
        level.sums = byCell.map { level.sums[Int($0.slot)] }
        level.seedAt = byCell.map { level.seedAt[Int($0.slot)] }
        summaries.renumber(z, byCell, slotOf)
        level.grid.refill(&level.items, member: ClusterLevel.unassigned)
        above.items.withUnsafeMutableBufferPointer { aboveItems in
            for i in aboveItems.indices where aboveItems[i].parent < ClusterLevel.excluded {
                aboveItems[i].parent = slotOf[Int(aboveItems[i].parent)]
            }
        }
        return slotOf
    }

    /// Sorts slots by their keys: least significant digit radix sort of the keys' top 33 bits,
    /// 11 bits a pass (the 2048 counters of a pass stay in the first-level cache; all histograms
    /// in one read), then each run of equal top bits (order keys are uniformly spread: a few pairs
    /// in a million) sorted by the whole key.
    static func sortByKey(_ slots: inout [UInt32], _ keys: [ClusterItem]) {
        let n = slots.count
        guard n > 1 else { return }
        let bits = 11, passes = 3, low = 64 - bits * passes, buckets = 1 << bits, mask = UInt64(buckets - 1)
        var k = [UInt64](unsafeUninitializedCapacity: n) { buf, c in
            for i in 0..<n { buf[i] = keys[Int(slots[i])].key }
            c = n
        }
        var counts = [Int](repeating: 0, count: buckets * passes)
        counts.withUnsafeMutableBufferPointer { cnt in
            for v in k {
                for p in 0..<passes { cnt[p * buckets + Int((v >> UInt64(low + p * bits)) & mask)] += 1 }
            }
        }
        var k2 = [UInt64](repeating: 0, count: n), s2 = [UInt32](repeating: 0, count: n)
        for p in 0..<passes {
            let shift = UInt64(low + p * bits), base = p * buckets
            var sum = 0
            for i in 0..<buckets { let c = counts[base + i]; counts[base + i] = sum; sum += c }
            scatter(k, slots, into: &k2, &s2, counts: &counts, base: base, shift: shift, mask: mask)
            swap(&k, &k2); swap(&slots, &s2)
        }
        sortRunsOfEqualTopBits(&k, &slots, low: UInt64(low))
    }

    /// One pass of the radix sort: each key and its slot to its bucket's next place.
    private static func scatter(_ keys: [UInt64], _ slots: [UInt32], into keysOut: inout [UInt64],
                                _ slotsOut: inout [UInt32], counts: inout [Int], base: Int, shift: UInt64, mask: UInt64) {
        keys.withUnsafeBufferPointer { src in
        slots.withUnsafeBufferPointer { srcSlots in
        keysOut.withUnsafeMutableBufferPointer { dst in
        slotsOut.withUnsafeMutableBufferPointer { dstSlots in
        counts.withUnsafeMutableBufferPointer { cnt in
            for i in 0..<src.count {
                let d = base + Int((src[i] >> shift) & mask)
                let o = cnt[d]; cnt[d] = o + 1
                dst[o] = src[i]; dstSlots[o] = srcSlots[i]
            }
        }}}}}
    }

    /// Keys sorted by their bits from `low` up: each run whose bits agree there, by the whole key.
    private static func sortRunsOfEqualTopBits(_ k: inout [UInt64], _ slots: inout [UInt32], low: UInt64) {
        let n = k.count
        var i = 0
        while i < n - 1 {
            guard k[i] >> low == k[i + 1] >> low else { i += 1; continue }
            var j = i + 1
            while j + 1 < n && k[j + 1] >> low == k[i] >> low { j += 1 }
            var run = (i...j).map { (k[$0], slots[$0]) }
            run.sort { $0.0 < $1.0 }
            for (o, e) in run.enumerated() { k[i + o] = e.0; slots[i + o] = e.1 }
            i = j + 1
        }
    }
}
