/// Builds cluster levels from scratch: supercluster's greedy loop with pindrop's fixed order
/// (docs/clusters.md). The items of level z + 1 are visited by order key; each one not yet
/// placed becomes the seed of a new item of level z and takes in every unplaced item within
/// level z's radius (of its own category, with `byCategory`). Each level is then renumbered by
/// cell, so that a walk of its cells reads a few runs of its arrays.
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

    /// Builds levels `top`...`bottom` again from the items of level `top` + 1, `order` holding
    /// those items' slots by key (`ClusterLevel.unplacedByKey`, which also marks them unplaced).
    func build(_ levels: inout [ClusterLevel], from top: Int, through bottom: Int = 0, order: [UInt32]) {
        var order = order
        var z = top
        while z >= bottom {
            let level = ClusterLevel(reach: ClusterLevels.reach(radius, level: z))
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
        let r = ClusterLevels.radius(radius, level: z)
        LevelBuffers.with(above, z, summaries) { buffers in
            let build = LevelBuild(z: z, r2: r * r, byCategory: byCategory, minPoints: minPoints,
                                   summaries: summaries, level: level, grid: above.grid, above: buffers)
            build.seedInOrder(order)
        }
    }

    /// Renumbers the items of level z, just built, by their cell, row after row, so that the
    /// items a walk of its cells meets lie in a few runs of the level's arrays instead of anywhere
    /// in them; returns each item's new slot by its old one.
    private func arrangeByCell(_ z: Int, _ level: ClusterLevel, above: ClusterLevel) -> [UInt32] {
        let n = level.items.count
        // Points lie in [0, 1], so cell coordinates are small and not negative: a cell is its
        // row's coordinate above its column's, in as few bits as the level's columns need.
        var cx = [UInt64](repeating: 0, count: n), cy = [UInt64](repeating: 0, count: n)
        var widest: UInt64 = 0, tallest: UInt64 = 0
        for i in 0..<n {
            cx[i] = UInt64(truncatingIfNeeded: level.grid.coordinate(level.items[i].x)) & 0xFFFF_FFFF
            cy[i] = UInt64(truncatingIfNeeded: level.grid.coordinate(level.items[i].y)) & 0xFFFF_FFFF
            widest = Swift.max(widest, cx[i]); tallest = Swift.max(tallest, cy[i])
        }
        let columnBits = 64 - widest.leadingZeroBitCount
        var cells = (0..<n).map { cy[$0] << UInt64(columnBits) | cx[$0] }
        var slots = (0..<n).map { UInt32($0) }
        // Stable: the items of a cell stay in their slots' order, the key order they were made in.
        Self.radixSort(&cells, &slots, bits: 0..<(columnBits + 64 - tallest.leadingZeroBitCount))
        var slotOf = [UInt32](repeating: 0, count: n)
        for (new, old) in slots.enumerated() { slotOf[Int(old)] = UInt32(new) }
        level.items = slots.map { level.items[Int($0)] }
        level.sums = slots.map { level.sums[Int($0)] }
        level.seedAt = slots.map { level.seedAt[Int($0)] }
        summaries.renumber(z, slots, slotOf)
        level.grid.refill(&level.items, member: ClusterLevel.unassigned)
        above.items.withUnsafeMutableBufferPointer { aboveItems in
            for i in aboveItems.indices where aboveItems[i].parent < ClusterLevel.excluded {
                aboveItems[i].parent = slotOf[Int(aboveItems[i].parent)]
            }
        }
        return slotOf
    }

    /// Sorts slots by their keys: their top 33 bits by `radixSort`, then each run of equal top
    /// bits (order keys are uniformly spread: a few pairs in a million) by the whole key.
    static func sortByKey(_ slots: inout [UInt32], _ keys: [ClusterItem]) {
        let n = slots.count
        guard n > 1 else { return }
        let bits = 33, low = 64 - bits
        var k = [UInt64](unsafeUninitializedCapacity: n) { buf, c in
            for i in 0..<n { buf[i] = keys[Int(slots[i])].key }
            c = n
        }
        radixSort(&k, &slots, bits: low..<64)
        sortRunsOfEqualTopBits(&k, &slots, low: UInt64(low))
    }

    /// Sorts `values` by their `bits` (the bits above are zero), and `slots` with them, stably:
    /// least significant digit first, up to 11 bits a pass (the 2048 counters of a pass stay in
    /// the first-level cache).
    static func radixSort(_ values: inout [UInt64], _ slots: inout [UInt32], bits: Range<Int>) {
        let n = values.count
        guard n > 1 && !bits.isEmpty else { return }
        // Fewer buckets for fewer values: the counters' prefix sums cost a pass over them.
        let digit = Swift.min(11, Swift.max(4, Int.bitWidth - n.leadingZeroBitCount - 1))
        let passes = (bits.count + digit - 1) / digit, buckets = 1 << digit, mask = UInt64(buckets - 1)
        var counts = [Int](repeating: 0, count: buckets * passes)
        let low = bits.lowerBound
        values.withUnsafeBufferPointer { vs in
            counts.withUnsafeMutableBufferPointer { cnt in
                for p in 0..<passes {
                    let shift = UInt64(low + p * digit), base = p * buckets
                    for v in vs { cnt[base + Int((v >> shift) & mask)] &+= 1 }
                }
            }
        }
        var k2 = [UInt64](repeating: 0, count: n), s2 = [UInt32](repeating: 0, count: n)
        for p in 0..<passes {
            let shift = UInt64(low + p * digit), base = p * buckets
            var sum = 0
            for i in 0..<buckets { let c = counts[base + i]; counts[base + i] = sum; sum += c }
            scatter(values, slots, into: &k2, &s2, counts: &counts, base: base, shift: shift, mask: mask)
            swap(&values, &k2); swap(&slots, &s2)
        }
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

/// What one level's build reads and writes of the level above, obtained once for the whole build
/// of the level (`with`), so that the steps of `LevelBuild` index plain buffers: the items (whose
/// parents the build sets), their sums and summaries (none when the level above is the pins), the
/// pins' values and categories, and two dense copies made for the walks, which read the cells'
/// links and whether each item is placed from them (4 bytes and 1 bit an item, where neighbouring
/// slots share cache lines) and an item itself only when it is still unplaced.
private struct LevelBuffers {
    let pins: Bool
    let items: UnsafeMutableBufferPointer<ClusterItem>
    let sums: UnsafeBufferPointer<ClusterSums>
    let summaries: UnsafeBufferPointer<ItemSummary>
    let values: UnsafeBufferPointer<Double>
    let categories: UnsafeBufferPointer<UInt32>
    let links: UnsafeMutableBufferPointer<UInt32>
    let placed: UnsafeMutableBufferPointer<UInt64>

    /// Calls `body` with the buffers of `above` for a build of level z; they are valid only
    /// during the call. The one place that holds the arrays: nothing else may touch `above`'s
    /// items and sums, or level z + 1's summaries, meanwhile.
    static func with(_ above: ClusterLevel, _ z: Int, _ summaries: ClusterSummaries, _ body: (LevelBuffers) -> Void) {
        let pins = above.isBase
        let aboveSummaries = pins ? [] : summaries.levels[z + 1].items
        let count = above.items.count
        let links = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        let placed = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: (count + 63) >> 6)
        placed.initialize(repeating: 0)
        defer { links.deallocate(); placed.deallocate() }
        above.sums.withUnsafeBufferPointer { sums in
        above.items.withUnsafeMutableBufferPointer { items in
        aboveSummaries.withUnsafeBufferPointer { itemSummaries in
        summaries.attributes.withBuffers { values, categories in
            let buffers = LevelBuffers(pins: pins, items: items, sums: sums, summaries: itemSummaries, values: values,
                                       categories: categories, links: links, placed: placed)
            buffers.copyLinksAndPlaced()
            body(buffers)
        }}}}
    }

    private func copyLinksAndPlaced() {
        for i in 0..<items.count {
            links[i] = items[i].next
            if items[i].parent != ClusterLevel.unassigned { placed[i >> 6] |= 1 << UInt64(i & 63) }
        }
    }

    @inline(__always) func isPlaced(_ i: Int) -> Bool { placed[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    /// Item i goes into item `parent` of the level being built.
    @inline(__always)
    func place(_ i: Int, in parent: UInt32) {
        items[i].parent = parent; placed[i >> 6] |= 1 << UInt64(i & 63)
    }

    /// What item i adds to the sums of the item that takes it (`ClusterLevel.contribution`).
    @inline(__always)
    func contribution(_ i: Int) -> (x: Int64, y: Int64, n: UInt32) {
        pins ? (ClusterLevels.fixed(items[i].x), ClusterLevels.fixed(items[i].y), 1) : (sums[i].sx, sums[i].sy, sums[i].count)
    }
}

/// A group as the walk from its seed gathers it: the members' sums and their summary, added up as
/// the walk finds them; the list of members only where a group may stay apart (minPoints).
private struct Gathered {
    var sx: Int64, sy: Int64, n: UInt32
    var summary = SummarySum()
}

/// The build of one level: supercluster's loop over the items of the level above, in key order,
/// in named steps (seed, gather the neighbours, keep apart or write). Level z grows while the level
/// above is read: each item's sums and summary are added up locally and written once.
private struct LevelBuild {
    let z: Int
    let r2: Double
    let byCategory: Bool
    let minPoints: Int
    let summaries: ClusterSummaries
    let level: ClusterLevel
    /// The level above's grid.
    let grid: ClusterGrid
    let above: LevelBuffers

    /// Each item of `order` still unplaced seeds an item of level z.
    func seedInOrder(_ order: [UInt32]) {
        // The members of the current group, where it may stay apart (minPoints > 2).
        var group: [UInt32] = []
        for seed in order where !above.isPlaced(Int(seed)) { buildItem(seed: seed, &group) }
    }

    /// The item of level z that `seed` starts: it takes the unplaced items near the seed, then is
    /// written, or, too small to be a cluster, kept apart.
    private func buildItem(seed: UInt32, _ group: inout [UInt32]) {
        let si = Int(seed)
        let x = above.items[si].x, y = above.items[si].y
        let q = allocate(seed: seed, key: above.items[si].key, at: x, y)
        above.place(si, in: q)
        let s = above.contribution(si)
        var gathered = Gathered(sx: s.x, sy: s.y, n: s.n)
        count(si, into: &gathered.summary)
        if minPoints > 2 { group.removeAll(keepingCapacity: true); group.append(seed) }
        gatherNeighbours(of: seed, at: x, y, into: q, &gathered, &group)
        if minPoints > 2 && group.count > 1 && Int(gathered.n) < minPoints {
            keepApart(group, seedItem: q)
        } else {
            write(q, gathered, seedAt: x, y)
        }
    }

    /// Every unplaced item within r of the seed at (x, y) (of its category, with `byCategory`)
    /// joins item q.
    private func gatherNeighbours(of seed: UInt32, at x: Double, _ y: Double, into q: UInt32,
                                  _ gathered: inout Gathered, _ group: inout [UInt32]) {
        let category = byCategory ? summaries.category(z + 1, seed, pins: above.pins) : 0
        let links = above.links
        grid.forEachNear(x, y, next: { links[Int($0)] }) { k in
            let ki = Int(k)
            guard !above.isPlaced(ki) else { return }
            let dx = above.items[ki].x - x, dy = above.items[ki].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            if byCategory && summaries.category(z + 1, k, pins: above.pins) != category { return }
            above.place(ki, in: q)
            if minPoints > 2 { group.append(k) }
            count(ki, into: &gathered.summary)
            let (ax, ay, an) = above.contribution(ki)
            gathered.sx &+= ax; gathered.sy &+= ay; gathered.n &+= an
        }
    }

    /// Item k of the level above's part of its group's summary.
    @inline(__always)
    private func count(_ k: Int, into sum: inout SummarySum) {
        if above.pins {
            sum.pin(k < above.values.count ? above.values[k] : .nan, k < above.categories.count ? above.categories[k] : 0,
                    above.items[k].x, above.items[k].y)
        } else {
            let m = above.summaries[k]
            sum.item(m) { summaries.counts(ofLevel: z + 1, UInt32(k), m) }
        }
    }

    /// Item q of level z, its group gathered around the seed at (x, y): its summary, its sums, and
    /// its point in the grid.
    private func write(_ q: UInt32, _ gathered: Gathered, seedAt x: Double, _ y: Double) {
        summaries.store(z, q, gathered.summary)
        let qi = Int(q), n = gathered.n
        level.sums[qi].sx = gathered.sx; level.sums[qi].sy = gathered.sy; level.sums[qi].count = n
        // As `ClusterUpdate.point`: a single pin exactly at its point (an item of one pin is one).
        let p = n == 1 ? (x, y) : (ClusterLevels.mean(gathered.sx, n), ClusterLevels.mean(gathered.sy, n))
        // Into the grid with the whole level, once it is renumbered (`arrangeByCell`).
        level.items[qi].x = p.0; level.items[qi].y = p.1
    }

    /// A group too small for a cluster (supercluster's minPoints): each of its items stays itself
    /// at level z, the seed in `seedItem`, the others in items of their own (they are all single
    /// pins: a group holding a cluster of level z + 1 has at least minPoints pins). Those name the
    /// group's seed as their seed but are not seeds (`ClusterUpdate`: a group kept apart).
    private func keepApart(_ group: [UInt32], seedItem: UInt32) {
        let seed = group[0]
        for k in group {
            let ki = Int(k), x = above.items[ki].x, y = above.items[ki].y
            let kq = k == seed ? seedItem : allocate(seed: seed, key: above.items[ki].key, at: x, y)
            if k != seed { level.seedAt[Int(kq)] = .gone }
            above.items[ki].parent = kq
            let (ax, ay, an) = above.contribution(ki)
            let kqi = Int(kq)
            level.sums[kqi].sx = ax; level.sums[kqi].sy = ay; level.sums[kqi].count = an
            level.items[kqi].x = x; level.items[kqi].y = y
            summaries.build(z, kq, [k], pins: above.pins, above.items, above.values, above.categories)
        }
    }

    @inline(__always)
    private func allocate(seed: UInt32, key: UInt64, at x: Double, _ y: Double) -> UInt32 {
        let slot = level.allocate(seed: seed, key: key, at: x, y)
        summaries.allocate(z, slot)
        return slot
    }
}
