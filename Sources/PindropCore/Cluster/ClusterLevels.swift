import Glibc

/// The cluster levels (docs/clusters.md), kept up to date as pins come, go and move.
///
/// Level `levelCount` is the pins themselves (the base); level z < `levelCount` holds the items
/// drawn at integer zoom z, each made of whole items of level z + 1. Positions are normalised Web
/// Mercator points (the world is 1 wide); `radius` is in points, so at level z two items are
/// "near" when they are within `radius / (256·2^z)` of each other.
///
/// The rule is supercluster's greedy one, with a fixed order: every item carries an order key
/// (a pin's is a bijective mix of its id; a cluster's is its seed's, which is also its members'
/// smallest), and level z is what this produces when the items of level z + 1 are visited in key
/// order, each one not yet absorbed absorbing the not-yet-absorbed items within the radius. That
/// is the same as the local definition used for updates:
///
///     j is a seed  ⇔  no seed k with key(k) < key(j) lies within the radius of j
///     a non-seed j belongs to the near seed with the smallest key
///
/// so a change can alter only items within the radius of where something was or is, and from
/// there only through seeds that flip; `update()` re-decides exactly those, in key order, level by
/// level, and passes the items that changed to the level below. docs/clusters.md has the argument
/// and the costs.
///
/// Slots: a base slot is the caller's (the map's pin slot); other levels allocate their own and
/// reuse freed ones. Nothing here knows ids beyond the order key.
public final class ClusterLevels {
    /// `parent` values that are not a slot.
    static let dead = UInt32.max          // no item in this slot
    static let unassigned = UInt32.max - 1 // alive, not yet placed in the level below (or level 0)
    static let excluded = UInt32.max - 2  // base only: a pin kept out of every cluster

    public let radius: Double
    public let maxZoom: Double
    /// Levels 0..<levelCount are clustered; `levelCount` is the base.
    public let levelCount: Int
    /// What each clustered item holds (values, categories, the box of its points) and its
    /// generation, kept by the same passes (`ClusterSummaries`).
    let summaries: ClusterSummaries
    /// Only items of one category are clustered together (`cluster_by_category`).
    public let byCategory: Bool
    /// The fewest pins a cluster may hold (`cluster_min_points`, supercluster's minPoints). Above
    /// 2 the levels are rebuilt after changes instead of kept (docs/clusters.md).
    public let minPoints: Int

    final class Level {
        /// Per slot: point, order key, parent and grid link side by side (`ClusterItem`, 32 bytes,
        /// two to a cache line), the fields a walk of the 3×3 cells reads for every item it meets.
        var items: [ClusterItem] = []
        /// Per slot: the members' sums, count and seed (`ClusterSums`), read and written together
        /// when a member joins, leaves or moves. Not kept for the base.
        var sums: [ClusterSums] = []
        /// Per slot: its seed's point, copied here so that the search for the earliest seed near a
        /// point reads this level only, not the level above (for the level above the pins, a
        /// scattered read of the pins' array per candidate). Not a number while the seed is gone
        /// or demoted in the current pass (the item then has no seed to offer). Not kept for the base.
        var seedAt: [SeedPoint] = []
        var free: [UInt32] = []
        var alive = 0
        var grid: ClusterGrid
        init(cell: Double) { grid = ClusterGrid(cell: cell) }

        /// Calls `body` with every item in the 3×3 cells around (x, y) (`body` must not write
        /// `items`).
        @inline(__always)
        func forEachNear(_ x: Double, _ y: Double, _ body: (UInt32) -> Void) {
            items.withUnsafeBufferPointer { grid.forEachNear(x, y, $0, body) }
        }

        /// Gives back the growth slack of a level just built (a rebuilt level grew by appending).
        func trim() {
            // A little room stays (1/32): the first items made after a build would otherwise
            // copy the whole level (megabytes, for the level above the pins) in a drag.
            func tight<T>(_ a: [T]) -> [T] {
                var b = [T]()
                b.reserveCapacity(a.count + a.count / 32 + 8)
                b.append(contentsOf: a)
                return b
            }
            items = tight(items); sums = tight(sums); seedAt = tight(seedAt)
        }

        var bytes: Int {
            items.capacity * MemoryLayout<ClusterItem>.stride + sums.capacity * MemoryLayout<ClusterSums>.stride
                + seedAt.capacity * MemoryLayout<SeedPoint>.stride + free.capacity * 4 + grid.bytes
        }
    }

    /// One item of a level that changed: its slot, where it was, which item below held it, and
    /// how its sums changed while it was there (what that item must add).
    struct Change {
        var slot: UInt32; var x: Double; var y: Double; var parent: UInt32
        var dx: Int64 = 0, dy: Int64 = 0, dn: Int64 = 0
        /// Its summary before and after, and `ClusterSummaries.cats`/`.members` when its counts per
        /// category or its pins changed (not for a new item: it joins whole).
        var was = ItemSummary.empty, now = ItemSummary.empty, flags: UInt32 = 0
    }

    /// Fixed point of a normalised coordinate: units of 2^-32 of the world (under 1 cm). Sums of
    /// integers do not depend on the order they are taken in, so a level kept up to date and one
    /// built from scratch agree bit for bit.
    @inline(__always)
    static func fixed(_ v: Double) -> Int64 {
        let w = v * 4_294_967_296
        // w.rounded() (halves away from zero) without a libm call, for the world's [0, 2^32]:
        // w + 0.5 is exact for w >= 1 (its ulp is at most 2^-21), and [0.5, 1) gives 1.
        guard w >= 0, w <= 4_294_967_296 else { return Int64(w.rounded()) }
        return w < 0.5 ? 0 : Int64(w + 0.5)
    }

    /// The mean point of a sum of `n` fixed points.
    @inline(__always)
    static func mean(_ s: Int64, _ n: UInt32) -> Double { Double(s) / Double(n) / 4_294_967_296 }

    var levels: [Level]
    /// Base changes since the last `update()`; past `rebuildThreshold` the next update rebuilds.
    var pending: [Change] = []
    var needsRebuild = false
    /// Per level z below the last clustered one: the changes of level z + 1's items that level z
    /// has not taken yet. An update brings the levels only as far down as the view needs (a drag
    /// at street zoom does not pay for the county's clusters); the coarser levels take what they
    /// missed when a view, a member list or an expansion zoom asks for them.
    private var deferred: [[Change]] = []
    /// Levels 0...`staleFrom` are rebuilt from level `staleFrom` + 1 when next asked for (more
    /// changes were deferred to them than a rebuild costs); -1 when none is.
    private var staleFrom = -1
    /// A level made of at most this many items (level z + 1's) is left behind while no one asks
    /// for it: rebuilding it and the levels below costs about two milliseconds. Larger ones are
    /// kept up to date with every update, so that no view waits for them.
    var lazyItems = 8192
    /// How many times levels were rebuilt from a level above the pins (tests).
    private(set) var partialRebuilds = 0
    /// The pins' grid is left unkept after a bulk load (`insertMany`): the rebuild that load
    /// implies fills it in one pass.
    private var baseGridStale = false
    // Scratch of `update`, kept to avoid allocating per call.
    private var heap: [(key: UInt64, slot: UInt32)] = []
    private var lastPopped = UInt64.max
    private var changesIn: [Change] = [], changesOut: [Change] = []
    private var touched = SlotSet()
    /// The sums of each touched item when the pass first touched it.
    private var touchedWas: [(x: Int64, y: Int64, n: UInt32)] = []
    // Seeds that are new or moved in the current pass, hashed by level z's cells.
    private var extras = SlotSet()
    private var extraCells: [UInt64: [UInt32]] = [:]

    /// `radius` > 0 points; levels for the integer zooms below `maxZoom` (at most 30).
    public init(radius: Double, maxZoom: Double, attributes: PinAttributes = PinAttributes(), byCategory: Bool = false,
                minPoints: Int = 2) {
        precondition(radius > 0 && radius.isFinite, "cluster radius must be > 0")
        self.radius = radius
        self.maxZoom = maxZoom
        self.byCategory = byCategory
        self.minPoints = Swift.max(2, minPoints)
        levelCount = Swift.max(0, Swift.min(30, Int(maxZoom.rounded(.up))))
        summaries = ClusterSummaries(levels: levelCount, attributes: attributes)
        levels = []
        for z in 0...levelCount { levels.append(Level(cell: cellSide(z))) }
        deferred = Array(repeating: [], count: Swift.max(0, levelCount - 1))
    }

    /// The radius at level z in normalised units.
    @inline(__always)
    public func levelRadius(_ z: Int) -> Double { radius / (256 * exp2(Double(z))) }
    /// The cell side of level z's grid: the radius of the level below (the one its items are
    /// clustered at), which is twice level z's, plus `meanSlack`. The walk of 3×3 cells around a
    /// point finds the clusters whose seed is within level z's radius of it: a cluster's point,
    /// the mean of its members in fixed point, lies within the radius of its seed plus that
    /// rounding. At street zooms the slack is nothing; at zoom 26 and beyond a small radius is
    /// finer than the fixed point's unit, and without it those walks missed seeds.
    private func cellSide(_ z: Int) -> Double { levelRadius(z - 1) + Self.meanSlack }
    /// More than the distance between a mean of fixed points and the true mean (half a unit, 2^-33,
    /// along each axis).
    static let meanSlack = 1.0 / 2_147_483_648

    /// The order key of a pin id: splitmix64's finaliser, a bijection, so that the order is fixed
    /// per pin, total, and unrelated to where ids were handed out (ids that grow along a street
    /// would otherwise let one change ripple down the whole street).
    @inline(__always)
    public static func orderKey(id: Int64) -> UInt64 {
        var z = UInt64(bitPattern: id) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: - Pins (the base level)

    private var base: Level { levels[levelCount] }

    @inline(__always)
    private static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(1, Swift.max(0, v)) }

    private func reserveBase(_ n: Int) {
        let b = base
        guard n > b.items.count else { return }
        let extra = n - b.items.count
        let empty = ClusterItem(x: 0, y: 0, key: 0, parent: Self.dead, next: ClusterGrid.end)
        if extra == 1 { b.items.append(empty); return }
        b.items.append(contentsOf: repeatElement(empty, count: extra))
    }

    /// Base slots 0..<n, empty until inserted: a bulk load extends the arrays once instead of per pin.
    public func reserve(slots n: Int) {
        let b = base
        b.items.reserveCapacity(n)
        reserveBase(n)
    }

    public var pinCount: Int { base.alive }

    @inline(__always)
    public func contains(slot: Int32) -> Bool {
        Int(slot) < base.items.count && base.items[Int(slot)].parent != Self.dead
    }

    public func isExcluded(slot: Int32) -> Bool {
        contains(slot: slot) && base.items[Int(slot)].parent == Self.excluded
    }

    /// More pin changes than this between two updates rebuild every level instead.
    private var rebuildThreshold: Int { Swift.max(4096, base.alive / 32) }

    private func record(_ c: Change) {
        if needsRebuild { return }
        if pending.count >= rebuildThreshold || minPoints > 2 {
            needsRebuild = true
            pending = []
            return
        }
        pending.append(c)
    }

    /// Adds a pin at a normalised point (clamped to the world) under a slot that holds nothing.
    public func insert(slot: Int32, key: UInt64, x: Double, y: Double, excluded: Bool = false) {
        let i = Int(slot)
        reserveBase(i + 1)
        let b = base
        precondition(b.items[i].parent == Self.dead, "cluster slot \(slot) is taken")
        let cx = Self.clamp(x), cy = Self.clamp(y)
        b.items[i].x = cx; b.items[i].y = cy; b.items[i].key = key
        b.alive += 1
        if excluded { b.items[i].parent = Self.excluded; return }
        b.items[i].parent = Self.unassigned
        if !baseGridStale { b.grid.insert(UInt32(i), x: cx, y: cy, &b.items) }
        record(Change(slot: UInt32(i), x: cx, y: cy, parent: Self.unassigned))
    }

    /// Adds pins under slots that hold nothing; `pin(slot)` gives a pin's order key and
    /// normalised point. A batch too large for a local update is written straight into the pins'
    /// arrays and leaves the levels, the pins' grid included, to the rebuild it implies.
    public func insertMany(_ slots: [Int32], _ pin: (Int32) -> (key: UInt64, x: Double, y: Double)) {
        let n = slots.count
        guard let top = slots.max() else { return }
        if !needsRebuild && pending.count + n <= Swift.max(4096, (base.alive + n) / 32) {
            for s in slots { let p = pin(s); insert(slot: s, key: p.key, x: p.x, y: p.y) }
            return
        }
        reserveBase(Int(top) + 1)
        let b = base
        b.items.withUnsafeMutableBufferPointer { bi in
            for s in slots {
                let p = pin(s), i = Int(s)
                precondition(bi[i].parent == Self.dead, "cluster slot \(s) is taken")
                bi[i].x = Self.clamp(p.x); bi[i].y = Self.clamp(p.y); bi[i].key = p.key
                bi[i].parent = Self.unassigned
            }
        }
        b.alive += n
        needsRebuild = true
        pending = []
        baseGridStale = true
    }

    public func remove(slot: Int32) {
        guard contains(slot: slot) else { return }
        let i = Int(slot), b = base
        let p = b.items[i].parent
        b.items[i].parent = Self.dead
        b.alive -= 1
        if p == Self.excluded { return }
        if !baseGridStale { b.grid.remove(UInt32(i), x: b.items[i].x, y: b.items[i].y, &b.items) }
        record(Change(slot: UInt32(i), x: b.items[i].x, y: b.items[i].y, parent: p,
                      dx: -Self.fixed(b.items[i].x), dy: -Self.fixed(b.items[i].y), dn: -1,
                      was: summaries.pin(UInt32(i), b.items[i].x, b.items[i].y), flags: Self.left))
    }

    /// `ClusterSummaries.cats | .members`: what a pin leaving or a cluster dissolving changes.
    static let left = ClusterSummaries.cats | ClusterSummaries.members

    /// A pin's value or category is about to change (the attributes still hold the old ones).
    /// With `byCategory`, a pin that changes category leaves its hierarchy and joins another.
    public func attributesWillChange(slot: Int32, value: Double, category: UInt32) {
        // A rebuild to come reads the new attributes.
        guard !needsRebuild, contains(slot: slot) else { return }
        let i = Int(slot), b = base
        let p = b.items[i].parent
        guard p != Self.excluded else { return }
        let old = summaries.pin(UInt32(i), b.items[i].x, b.items[i].y)
        if byCategory && category != old.category {
            let key = b.items[i].key, x = b.items[i].x, y = b.items[i].y
            remove(slot: slot)
            insert(slot: slot, key: key, x: x, y: y)
            return
        }
        guard p != Self.unassigned else { return }
        let new = summaries.pin(value: value, category: category, b.items[i].x, b.items[i].y)
        if new.same(old) { return }
        record(Change(slot: UInt32(i), x: b.items[i].x, y: b.items[i].y, parent: p, was: old, now: new,
                      flags: category != old.category ? ClusterSummaries.cats : 0))
    }

    public func move(slot: Int32, x: Double, y: Double) {
        guard contains(slot: slot) else { return }
        let i = Int(slot), b = base
        let nx = Self.clamp(x), ny = Self.clamp(y)
        let ox = b.items[i].x, oy = b.items[i].y
        if nx == ox && ny == oy { return }
        b.items[i].x = nx; b.items[i].y = ny
        let p = b.items[i].parent
        if p == Self.excluded { return }
        if !baseGridStale && !b.grid.sameCell(ox, oy, nx, ny) {
            b.grid.remove(UInt32(i), x: ox, y: oy, &b.items)
            b.grid.insert(UInt32(i), x: nx, y: ny, &b.items)
        }
        record(Change(slot: UInt32(i), x: ox, y: oy, parent: p,
                      dx: Self.fixed(nx) - Self.fixed(ox), dy: Self.fixed(ny) - Self.fixed(oy), dn: 0,
                      was: summaries.box(ox, oy), now: summaries.box(nx, ny), flags: ClusterSummaries.moved))
    }

    /// Keeps a pin out of every cluster (selected, edited, held) or lets it back in.
    public func setExcluded(slot: Int32, _ excluded: Bool) {
        guard contains(slot: slot) else { return }
        let i = Int(slot), b = base
        let was = b.items[i].parent == Self.excluded
        if was == excluded { return }
        if excluded {
            let p = b.items[i].parent
            if !baseGridStale { b.grid.remove(UInt32(i), x: b.items[i].x, y: b.items[i].y, &b.items) }
            b.items[i].parent = Self.excluded
            record(Change(slot: UInt32(i), x: b.items[i].x, y: b.items[i].y, parent: p,
                          dx: -Self.fixed(b.items[i].x), dy: -Self.fixed(b.items[i].y), dn: -1,
                          was: summaries.pin(UInt32(i), b.items[i].x, b.items[i].y), flags: Self.left))
        } else {
            b.items[i].parent = Self.unassigned
            if !baseGridStale { b.grid.insert(UInt32(i), x: b.items[i].x, y: b.items[i].y, &b.items) }
            record(Change(slot: UInt32(i), x: b.items[i].x, y: b.items[i].y, parent: Self.unassigned))
        }
    }

    // MARK: - Keeping the levels

    /// Brings levels `level`...`levelCount - 1` (by default every level) up to date with the
    /// pins: locally when few pins changed, by a rebuild when many did. The levels below `level`
    /// keep what they missed for a later call.
    public func update(level target: Int = 0) {
        if needsRebuild { rebuild(); return }
        var z = levelCount - 1
        while z >= 0 && (z >= target || levels[z + 1].alive > lazyItems) {
            if z <= staleFrom { rebuildLevels(from: z); return }
            if z == levelCount - 1 {
                swap(&pending, &changesIn)
                pending.removeAll(keepingCapacity: true)
            } else {
                swap(&deferred[z], &changesIn)
                deferred[z].removeAll(keepingCapacity: true)
            }
            if !changesIn.isEmpty {
                changesOut.removeAll(keepingCapacity: true)
                updateLevel(z, changesIn, into: &changesOut)
                changesIn.removeAll(keepingCapacity: true)
                if z > 0 && !changesOut.isEmpty { keep(changesOut, for: z - 1) }
            }
            z -= 1
        }
    }

    /// Hands level z the changes of level z + 1's items it has not taken; past what a rebuild of
    /// levels z...0 costs, marks them for one instead.
    private func keep(_ changes: [Change], for z: Int) {
        if z <= staleFrom { return }
        if deferred[z].count + changes.count > Swift.max(16, levels[z + 1].alive / 8) {
            staleFrom = z
            for l in 0...z { deferred[l] = [] }
            return
        }
        deferred[z].append(contentsOf: changes)
    }

    /// Builds levels z...0 again from the items of level z + 1.
    private func rebuildLevels(from z: Int) {
        buildLevels(from: z, unplacedByKey(levels[z + 1]))
        partialRebuilds += 1
    }

    /// Marks every item of `l` that takes part in clustering unplaced (alive, and for the pins not
    /// kept out) and returns their slots by key, the order a build visits them in.
    private func unplacedByKey(_ l: Level) -> [UInt32] {
        var order = [UInt32](unsafeUninitializedCapacity: l.items.count) { o, c in
            c = l.items.withUnsafeMutableBufferPointer { it in
                var m = 0
                for i in it.indices where it[i].parent != Self.dead && it[i].parent != Self.excluded {
                    it[i].parent = Self.unassigned
                    o[m] = UInt32(i); m += 1
                }
                return m
            }
        }
        Self.sortByKey(&order, l.items)
        return order
    }

    @inline(__always)
    private func isAlive(_ l: Level, _ i: UInt32) -> Bool {
        let p = l.items[Int(i)].parent
        return p != Self.dead && p != Self.excluded
    }

    /// Whether item k of `up` is the seed of its item in `lv` (the level below).
    @inline(__always)
    private func isSeed(_ up: Level, _ lv: Level, _ k: UInt32) -> Bool {
        let p = up.items[Int(k)].parent
        return p < Self.excluded && lv.sums[Int(p)].seed == k
    }

    private func push(_ k: UInt32, _ key: UInt64) {
        heap.append((key, k))
        var c = heap.count - 1
        while c > 0 {
            let p = (c - 1) / 2
            if heap[p].key <= heap[c].key { break }
            heap.swapAt(p, c); c = p
        }
    }

    private func popMin() -> UInt32? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var p = 0
            while true {
                let l = 2 * p + 1, r = l + 1
                var m = p
                if l < heap.count && heap[l].key < heap[m].key { m = l }
                if r < heap.count && heap[r].key < heap[m].key { m = r }
                if m == p { break }
                heap.swapAt(p, m); p = m
            }
        }
        return top.slot
    }

    /// Marks the items of `up` within the radius of (x, y) that belong to item p of the level below.
    private func pushMembers(_ up: Level, of p: UInt32, near x: Double, _ y: Double, _ r2: Double) {
        up.forEachNear(x, y) { k in
            let i = Int(k)
            guard up.items[i].parent == p else { return }
            let dx = up.items[i].x - x, dy = up.items[i].y - y
            if dx * dx + dy * dy <= r2 { push(k, up.items[i].key) }
        }
    }

    /// For the seed of item p of the level below, moved from (x0, y0) to (x1, y1): marks the
    /// members it no longer reaches, and the later items it now reaches that it would win
    /// (`pushCapturable`). Members it still reaches keep it: it is still the earliest seed near
    /// them unless it is demoted, which re-decides them from its new point. One walk of the 3×3
    /// cells when both points are in the same cell, as a small move nearly always is.
    private func pushAroundMovedSeed(_ z: Int, _ up: Level, _ lv: Level, of p: UInt32, from x0: Double, _ y0: Double,
                                     to x1: Double, _ y1: Double, key: UInt64, _ r2: Double) {
        let cat = byCategory ? category(z + 1, lv.sums[Int(p)].seed) : 0
        @inline(__always) func visit(_ k: UInt32, left: Bool, captured: Bool) {
            let i = Int(k)
            let ix = up.items[i].x, iy = up.items[i].y
            let ex = ix - x1, ey = iy - y1
            let reaches = ex * ex + ey * ey <= r2
            let q = up.items[i].parent
            if q == p {
                guard left && !reaches else { return }
                let dx = ix - x0, dy = iy - y0
                if dx * dx + dy * dy <= r2 { push(k, up.items[i].key) }
            } else if captured && reaches {
                let kk = up.items[i].key
                if kk > key && (q >= Self.excluded || lv.items[Int(q)].key > key)
                    && (!byCategory || category(z + 1, k) == cat) { push(k, kk) }
            }
        }
        if up.grid.sameCell(x0, y0, x1, y1) {
            up.forEachNear(x1, y1) { visit($0, left: true, captured: true) }
        } else {
            up.forEachNear(x0, y0) { visit($0, left: true, captured: false) }
            up.forEachNear(x1, y1) { visit($0, left: false, captured: true) }
        }
    }

    /// Marks the items of `up` within the radius of a seed at (x, y) with key `key` that it would
    /// win: later than it, and unplaced or held by a later seed.
    private func pushCapturable(_ z: Int, _ up: Level, _ lv: Level, near x: Double, _ y: Double, key: UInt64,
                                category cat: UInt32, _ r2: Double) {
        up.forEachNear(x, y) { k in
            let i = Int(k)
            let kk = up.items[i].key
            guard kk > key else { return }
            let p = up.items[i].parent
            guard p >= Self.excluded || lv.items[Int(p)].key > key else { return }
            let dx = up.items[i].x - x, dy = up.items[i].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            if byCategory && category(z + 1, k) != cat { return }
            push(k, kk)
        }
    }

    /// The seed (an item of `up`) with the smallest key below `before` within the radius of
    /// (x, y), or `ClusterGrid.end`. Seeds that kept their place are found through the items of
    /// level z they seed (a cluster lies within the radius of its seed, give or take the fixed
    /// point's rounding, so within twice the radius of (x, y) and that: the 3×3 cells of level z's
    /// grid, `cellSide`); seeds that are new or moved in this pass are in
    /// `extras`. `held` is the item of level z that holds the asker (or a non-slot): its seed,
    /// usually the answer, is tried first, so that the walk rejects most items by their key alone.
    private func earliestSeed(_ up: Level, _ lv: Level, _ z: Int, near x: Double, _ y: Double,
                              before: UInt64, held: UInt32, category cat: UInt32, _ r2: Double) -> UInt32 {
        var best = ClusterGrid.end, bestKey = before
        if held < Self.excluded && lv.items[Int(held)].parent != Self.dead {
            let h = Int(held), kk = lv.items[h].key
            let dx = lv.seedAt[h].x - x, dy = lv.seedAt[h].y - y
            if kk < bestKey && dx * dx + dy * dy <= r2 { best = lv.sums[h].seed; bestKey = kk }
        }
        @inline(__always) func consider(_ k: UInt32) {
            let i = Int(k)
            let kk = up.items[i].key
            guard kk < bestKey else { return }
            let dx = up.items[i].x - x, dy = up.items[i].y - y
            guard dx * dx + dy * dy <= r2, isSeed(up, lv, k) else { return }
            if byCategory && category(z + 1, k) != cat { return }
            best = k; bestKey = kk
        }
        lv.forEachNear(x, y) { p in
            // Only live items are in the grid; an item's key is its seed's.
            let i = Int(p), kk = lv.items[i].key
            guard kk < bestKey else { return }
            // Not a number (a seed gone or demoted in this pass) fails the test.
            let dx = lv.seedAt[i].x - x, dy = lv.seedAt[i].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            if byCategory && summaries.category(z, p) != cat { return }
            best = lv.sums[i].seed; bestKey = kk
        }
        if extras.count <= SlotSet.small {
            for k in extras.items { consider(k) }
        } else {
            let cx = lv.grid.coordinate(x), cy = lv.grid.coordinate(y)
            for dy: Int64 in -1...1 {
                for dx: Int64 in -1...1 {
                    if let list = extraCells[ClusterGrid.hash(cx &+ dx, cy &+ dy)] { for k in list { consider(k) } }
                }
            }
        }
        return best
    }

    private func addExtra(_ up: Level, _ lv: Level, _ k: UInt32) {
        guard extras.insert(k) else { return }
        if extras.count <= SlotSet.small { return }
        if extras.count == SlotSet.small + 1 {
            for e in extras.items where e != k {
                extraCells[ClusterGrid.hash(lv.grid.coordinate(up.items[Int(e)].x), lv.grid.coordinate(up.items[Int(e)].y)), default: []].append(e)
            }
        }
        let i = Int(k)
        extraCells[ClusterGrid.hash(lv.grid.coordinate(up.items[i].x), lv.grid.coordinate(up.items[i].y)), default: []].append(k)
    }

    private func allocate(_ z: Int, _ lv: Level, seed: UInt32, key: UInt64, at x: Double, _ y: Double) -> UInt32 {
        lv.alive += 1
        if let f = lv.free.popLast() {
            summaries.allocate(z, f)
            let i = Int(f)
            lv.sums[i] = ClusterSums(sx: 0, sy: 0, count: 0, seed: seed)
            lv.seedAt[i] = SeedPoint(x: x, y: y)
            lv.items[i].key = key; lv.items[i].parent = Self.unassigned
            return f
        }
        lv.items.append(ClusterItem(x: 0, y: 0, key: key, parent: Self.unassigned, next: ClusterGrid.end))
        lv.sums.append(ClusterSums(sx: 0, sy: 0, count: 0, seed: seed))
        lv.seedAt.append(SeedPoint(x: x, y: y))
        summaries.allocate(z, UInt32(lv.items.count - 1))
        return UInt32(lv.items.count - 1)
    }

    /// The category of item i of level z (`byCategory`: an item's pins all share one).
    @inline(__always)
    func category(_ z: Int, _ i: UInt32) -> UInt32 {
        z == levelCount ? summaries.attributes.category(Int32(bitPattern: i)) : summaries.category(z, i)
    }

    /// The summary of item i of level z: for a pin, made from its attributes and point.
    @inline(__always)
    func childSummary(_ z: Int, _ i: UInt32) -> ItemSummary {
        z == levelCount ? summaries.pin(i, base.items[Int(i)].x, base.items[Int(i)].y) : summaries.item(z, i)
    }

    @inline(__always)
    private func weight(_ z: Int, _ l: Level, _ i: Int) -> UInt32 { z == levelCount ? 1 : l.sums[i].count }

    /// The sums an item of level z adds to its item below: a pin's fixed point, or its own sums.
    @inline(__always)
    private func contribution(_ z: Int, _ l: Level, _ i: Int) -> (x: Int64, y: Int64, n: UInt32) {
        z == levelCount ? (Self.fixed(l.items[i].x), Self.fixed(l.items[i].y), 1) : (l.sums[i].sx, l.sums[i].sy, l.sums[i].count)
    }

    /// Notes that item p of `lv` is about to change in this pass (first time: its sums as they were).
    @inline(__always)
    private func touch(_ z: Int, _ lv: Level, _ p: UInt32) {
        if touched.insert(p) {
            let i = Int(p), t = touched.count - 1
            // Entries past `touched.count` are stale (kept to avoid clearing the array).
            if t < touchedWas.count { touchedWas[t] = (lv.sums[i].sx, lv.sums[i].sy, lv.sums[i].count) } else {
                touchedWas.append((lv.sums[i].sx, lv.sums[i].sy, lv.sums[i].count))
            }
        }
    }

    @inline(__always)
    private func add(_ lv: Level, _ p: UInt32, _ c: (x: Int64, y: Int64, n: UInt32), _ sign: Int64) {
        let i = Int(p)
        lv.sums[i].sx &+= sign &* c.x; lv.sums[i].sy &+= sign &* c.y
        lv.sums[i].count = UInt32(truncatingIfNeeded: Int64(lv.sums[i].count) + sign * Int64(c.n))
    }

    /// Re-decides level z after the items of level z + 1 in `changes` changed; returns the items
    /// of level z that changed in turn.
    private func updateLevel(_ z: Int, _ changes: [Change], into out: inout [Change]) {
        let up = levels[z + 1], lv = levels[z]
        let r = levelRadius(z), r2 = r * r
        // (The heap is empty: the previous pass popped it.)
        touched.removeAll()
        summaries.beginPass()
        extras.removeAll()
        if !extraCells.isEmpty { extraCells.removeAll(keepingCapacity: true) }

        // Who may decide differently now: each changed item itself, and the members of a changed
        // item that was a seed (they were absorbed for where it was). What a changed item did to
        // the sums of the item that held it is settled first.
        for c in changes {
            let p = c.parent
            let si = Int(c.slot)
            // In the same place, with the same weight and the same parent: only what it holds
            // changed (its values or categories, or pins that left and came at the same point),
            // which decides nothing.
            let inPlace = c.dn == 0 && p < Self.excluded && isAlive(up, c.slot) && up.items[si].parent == p
                && up.items[si].x == c.x && up.items[si].y == c.y
            if p < Self.excluded {
                touch(z, lv, p)
                let i = Int(p)
                lv.sums[i].sx &+= c.dx; lv.sums[i].sy &+= c.dy
                lv.sums[i].count = UInt32(truncatingIfNeeded: Int64(lv.sums[i].count) + c.dn)
                summaries.replace(z, p, old: c.was, new: c.now, flags: c.flags)
                if inPlace { continue }
                if lv.sums[i].seed == c.slot {
                    // Still the seed of p (alive and held by p): it moved. Otherwise it went, or
                    // its slot was emptied and filled again between two updates.
                    if isAlive(up, c.slot) && up.items[si].parent == p {
                        lv.seedAt[i] = SeedPoint(x: up.items[si].x, y: up.items[si].y)
                        // The only item of its level: alone, it stays the seed and nothing is
                        // re-decided; only the sums change (the coarsest levels hold one item each).
                        if up.alive == 1 { continue }
                        pushAroundMovedSeed(z, up, lv, of: p, from: c.x, c.y, to: up.items[si].x, up.items[si].y,
                                            key: up.items[si].key, r2)
                    } else {
                        lv.seedAt[i] = .gone
                        pushMembers(up, of: p, near: c.x, c.y, r2)
                    }
                }
            }
            if isAlive(up, c.slot) { push(c.slot, up.items[Int(c.slot)].key); addExtra(up, lv, c.slot) }
        }

        // Re-decide in key order: when j comes out, every item before it is final.
        lastPopped = .max
        while let j = popMin() {
            let ji = Int(j)
            // An item marked twice comes out twice in a row (keys are unique in a level).
            if up.items[ji].key == lastPopped { continue }
            lastPopped = up.items[ji].key
            let jx = up.items[ji].x, jy = up.items[ji].y, jk = up.items[ji].key
            let old = up.items[ji].parent
            let cat = byCategory ? category(z + 1, j) : 0
            let best = earliestSeed(up, lv, z, near: jx, jy, before: jk, held: old, category: cat, r2)
            let wasSeed = isSeed(up, lv, j)
            let mine = contribution(z + 1, up, ji)
            var target: UInt32
            if best == ClusterGrid.end {
                if wasSeed {
                    target = old
                } else {
                    target = allocate(z, lv, seed: j, key: jk, at: jx, jy)
                    addExtra(up, lv, j)
                }
                // A new seed may capture later items from later seeds (a seed that moved has
                // marked those already, with the members it left: `pushAroundMovedSeed`).
                if !wasSeed { pushCapturable(z, up, lv, near: jx, jy, key: jk, category: cat, r2) }
            } else {
                target = up.items[Int(best)].parent
                // A demoted seed's members must find new seeds.
                if wasSeed { lv.seedAt[Int(old)] = .gone; pushMembers(up, of: old, near: jx, jy, r2) }
            }
            if target != old {
                let summary = childSummary(z + 1, j)
                if old < Self.excluded { touch(z, lv, old); add(lv, old, mine, -1); summaries.leave(z, old, summary, child: j) }
                touch(z, lv, target); add(lv, target, mine, 1); summaries.join(z, target, summary, child: j)
                up.items[ji].parent = target
            }
        }

        // Settle the touched items of level z: dissolve the seedless, place the rest at their mean.
        let below = z > 0
        for (t, p) in touched.items.enumerated() {
            let pi = Int(p)
            guard lv.items[pi].parent != Self.dead else { continue }
            let was = touchedWas[t]
            let isNew = was.n == 0
            let s = lv.sums[pi].seed
            if up.items[Int(s)].parent != p {
                // Seedless: every member has left (its sums are back to zero).
                if !isNew {
                    lv.grid.remove(p, x: lv.items[pi].x, y: lv.items[pi].y, &lv.items)
                    if below {
                        out.append(Change(slot: p, x: lv.items[pi].x, y: lv.items[pi].y, parent: lv.items[pi].parent,
                                          dx: -was.x, dy: -was.y, dn: -Int64(was.n),
                                          was: summaries.was(p) ?? summaries.item(z, p), flags: Self.left))
                    }
                }
                lv.items[pi].parent = Self.dead; lv.sums[pi].count = 0; lv.sums[pi].sx = 0; lv.sums[pi].sy = 0
                lv.free.append(p); lv.alive -= 1
                summaries.free(z, p)
                continue
            }
            let n = lv.sums[pi].count
            let (summaryChanged, flags) = summaries.settle(z, p, { visit in
                forEachChild(level: z, slot: p) { c in visit(c, childSummary(z + 1, c)) }
            }, { visit in
                let pins = z + 1 == levelCount
                forEachChild(level: z, slot: p) { c in
                    if pins {
                        let x = up.items[Int(c)].x, y = up.items[Int(c)].y
                        visit(x, y, x, y)
                    } else {
                        let b = summaries.item(z + 1, c)
                        visit(b.minX, b.minY, b.maxX, b.maxY)
                    }
                }
            })
            if !isNew && n == was.n && lv.sums[pi].sx == was.x && lv.sums[pi].sy == was.y {
                if summaryChanged && below {
                    out.append(Change(slot: p, x: lv.items[pi].x, y: lv.items[pi].y, parent: lv.items[pi].parent,
                                      was: summaries.was(p)!, now: summaries.item(z, p), flags: flags))
                }
                continue
            }
            let (nx, ny) = point(z, pi)
            if isNew {
                lv.items[pi].x = nx; lv.items[pi].y = ny
                lv.grid.insert(p, x: nx, y: ny, &lv.items)
                if below { out.append(Change(slot: p, x: nx, y: ny, parent: Self.unassigned)) }
            } else {
                let ox = lv.items[pi].x, oy = lv.items[pi].y
                if below {
                    var c = Change(slot: p, x: ox, y: oy, parent: lv.items[pi].parent, dx: lv.sums[pi].sx &- was.x,
                                   dy: lv.sums[pi].sy &- was.y, dn: Int64(n) - Int64(was.n), flags: ClusterSummaries.same)
                    if summaryChanged { c.was = summaries.was(p)!; c.now = summaries.item(z, p); c.flags = flags }
                    out.append(c)
                }
                if !lv.grid.sameCell(ox, oy, nx, ny) {
                    lv.grid.remove(p, x: ox, y: oy, &lv.items)
                    lv.grid.insert(p, x: nx, y: ny, &lv.items)
                }
                lv.items[pi].x = nx; lv.items[pi].y = ny
            }
        }
    }

    /// The point of item i of level z < levelCount: its pins' mean, or for a single pin exactly
    /// the pin's point.
    @inline(__always)
    private func point(_ z: Int, _ i: Int) -> (Double, Double) {
        let lv = levels[z]
        let n = lv.sums[i].count
        if n == 1 {
            let leaf = Int(UInt32(bitPattern: leaf(level: z, slot: UInt32(i))))
            return (base.items[leaf].x, base.items[leaf].y)
        }
        return (Self.mean(lv.sums[i].sx, n), Self.mean(lv.sums[i].sy, n))
    }

    // MARK: - Building from scratch

    /// Builds every level from the pins: the greedy rule itself, visiting items in key order.
    public func rebuild() {
        pending = []
        needsRebuild = false
        guard levelCount > 0 else { return }
        let b = base
        let order = unplacedByKey(b)
        if baseGridStale {
            b.grid.refill(&b.items, member: Self.unassigned)
            baseGridStale = false
        }
        buildLevels(from: levelCount - 1, order)
    }

    /// Builds levels z...0 from the items of level z + 1, `order` holding them by key.
    private func buildLevels(from top: Int, _ order: [UInt32]) {
        var order = order
        var z = top
        while z >= 0 {
            let lv = Level(cell: cellSide(z))
            levels[z] = lv
            summaries.resetLevel(z)
            buildLevel(z, order)
            // Allocated in key order, renumbered by cell: the key order is where they came from.
            order = arrangeByCell(z)
            // Items that stayed themselves in a group too small for a cluster were allocated
            // after their group's seed, out of key order.
            if minPoints > 2 { Self.sortByKey(&order, lv.items) }
            lv.trim()
            summaries.trim(z)
            z -= 1
        }
        for l in 0...top where l < deferred.count { deferred[l] = [] }
        staleFrom = -1
    }

    /// Renumbers the items of level z, just built, by their cell, row after row, so that the
    /// items a walk of 3×3 cells meets lie in three runs of the level's arrays instead of anywhere
    /// in them; returns each item's new slot by its old one.
    private func arrangeByCell(_ z: Int) -> [UInt32] {
        let lv = levels[z], up = levels[z + 1]
        let n = lv.items.count
        var byCell = [(cell: UInt64, slot: UInt32)]()
        byCell.reserveCapacity(n)
        for i in 0..<n {
            // Points lie in [0, 1], so cell coordinates are small and not negative.
            let cx = UInt64(truncatingIfNeeded: lv.grid.coordinate(lv.items[i].x)) & 0xFFFF_FFFF
            let cy = UInt64(truncatingIfNeeded: lv.grid.coordinate(lv.items[i].y)) & 0xFFFF_FFFF
            byCell.append((cy << 32 | cx, UInt32(i)))
        }
        byCell.sort { ($0.cell, $0.slot) < ($1.cell, $1.slot) }
        var slotOf = [UInt32](repeating: 0, count: n)
        for (new, e) in byCell.enumerated() { slotOf[Int(e.slot)] = UInt32(new) }
        lv.items = byCell.map { lv.items[Int($0.slot)] }
        lv.sums = byCell.map { lv.sums[Int($0.slot)] }
        lv.seedAt = byCell.map { lv.seedAt[Int($0.slot)] }
        summaries.renumber(z, byCell, slotOf)
        lv.grid.refill(&lv.items, member: Self.unassigned)
        up.items.withUnsafeMutableBufferPointer { ui in
            for i in ui.indices where ui[i].parent < Self.excluded { ui[i].parent = slotOf[Int(ui[i].parent)] }
        }
        return slotOf
    }

    private func buildLevel(_ z: Int, _ order: [UInt32]) {
        let up = levels[z + 1], lv = levels[z]
        let r = levelRadius(z), r2 = r * r
        let pins = z + 1 == levelCount
        let grid = up.grid
        var group: [UInt32] = []
        // Level z grows while level z + 1 is read: the item of each seed is summed up locally
        // and appended once.
        up.sums.withUnsafeBufferPointer { us in
        up.items.withUnsafeMutableBufferPointer { ui in
            // The walks read the cells' links and whether each item is placed from dense copies
            // (4 bytes and 1 bit an item, where neighbouring slots share cache lines), and an
            // item itself only when it is still unplaced.
            let count = ui.count
            var links = [UInt32](unsafeUninitializedCapacity: count) { l, c in
                for i in 0..<count { l[i] = ui[i].next }
                c = count
            }
            var placed = [UInt64](repeating: 0, count: (count + 63) >> 6)
            for i in 0..<count where ui[i].parent != Self.unassigned { placed[i >> 6] |= 1 << UInt64(i & 63) }
            links.withUnsafeMutableBufferPointer { lk in
            placed.withUnsafeMutableBufferPointer { pl in
            summaries.attributes.withBuffers { vals, cats in
            // The summaries of level z + 1's items (none when it is the pins).
            let upSummaries = pins ? [] : summaries.levels[z + 1].items
            @inline(__always) func sums(_ i: Int) -> (Int64, Int64, UInt32) {
                pins ? (Self.fixed(ui[i].x), Self.fixed(ui[i].y), 1) : (us[i].sx, us[i].sy, us[i].count)
            }
            @inline(__always) func place(_ i: Int, _ q: UInt32) {
                ui[i].parent = q; pl[i >> 6] |= 1 << UInt64(i & 63)
            }
            for j in order where pl[Int(j) >> 6] & (1 << UInt64(Int(j) & 63)) == 0 {
                let ji = Int(j)
                let jx = ui[ji].x, jy = ui[ji].y
                let q = allocate(z, lv, seed: j, key: ui[ji].key, at: jx, jy)
                place(ji, q)
                var (sx, sy, n) = sums(ji)
                let cat = byCategory ? category(z + 1, j) : 0
                // The group's summary, added up as the walk finds its members; the list of them
                // only where a group may stay apart (minPoints).
                var sum = SummarySum()
                @inline(__always) func count(_ k: Int) {
                    if pins {
                        sum.pin(k < vals.count ? vals[k] : .nan, k < cats.count ? cats[k] : 0, ui[k].x, ui[k].y)
                    } else {
                        let m = upSummaries[k]
                        sum.item(m) { summaries.counts(ofLevel: z + 1, UInt32(k), m) }
                    }
                }
                count(ji)
                if minPoints > 2 { group.removeAll(keepingCapacity: true); group.append(j) }
                grid.forEachNear(jx, jy, next: { lk[Int($0)] }) { k in
                    let ki = Int(k)
                    guard pl[ki >> 6] & (1 << UInt64(ki & 63)) == 0 else { return }
                    let dx = ui[ki].x - jx, dy = ui[ki].y - jy
                    guard dx * dx + dy * dy <= r2 else { return }
                    if byCategory && category(z + 1, k) != cat { return }
                    place(ki, q)
                    if minPoints > 2 { group.append(k) }
                    count(ki)
                    let (ax, ay, an) = sums(ki)
                    sx &+= ax; sy &+= ay; n &+= an
                }
                if minPoints > 2 && group.count > 1 && Int(n) < minPoints {
                    // Too few pins for a cluster (supercluster's minPoints): each item of the
                    // group stays itself at this level (they are all single pins: a group
                    // holding a cluster of level z + 1 has at least minPoints pins).
                    for k in group {
                        let ki = Int(k)
                        let kq = k == j ? q : allocate(z, lv, seed: k, key: ui[ki].key, at: ui[ki].x, ui[ki].y)
                        ui[ki].parent = kq
                        let (ax, ay, an) = sums(ki)
                        let kqi = Int(kq)
                        lv.sums[kqi].sx = ax; lv.sums[kqi].sy = ay; lv.sums[kqi].count = an
                        lv.items[kqi].x = ui[ki].x; lv.items[kqi].y = ui[ki].y
                        lv.grid.insert(kq, x: ui[ki].x, y: ui[ki].y, &lv.items)
                        summaries.build(z, kq, [k], pins: pins, ui, vals, cats)
                    }
                    continue
                }
                summaries.store(z, q, sum)
                let qi = Int(q)
                lv.sums[qi].sx = sx; lv.sums[qi].sy = sy; lv.sums[qi].count = n
                // As `point`: a single pin exactly at its point (an item of one pin is one).
                let p = n == 1 ? (ui[ji].x, ui[ji].y) : (Self.mean(sx, n), Self.mean(sy, n))
                lv.items[qi].x = p.0; lv.items[qi].y = p.1
                lv.grid.insert(q, x: p.0, y: p.1, &lv.items)
            }
            }}}
        }}
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
            k.withUnsafeBufferPointer { src in
                slots.withUnsafeBufferPointer { srcSlots in
                    k2.withUnsafeMutableBufferPointer { dst in
                        s2.withUnsafeMutableBufferPointer { dstSlots in
                            counts.withUnsafeMutableBufferPointer { cnt in
                                for i in 0..<n {
                                    let d = base + Int((src[i] >> shift) & mask)
                                    let o = cnt[d]; cnt[d] = o + 1
                                    dst[o] = src[i]; dstSlots[o] = srcSlots[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&k, &k2); swap(&slots, &s2)
        }
        // Runs of equal top bits, by the whole key.
        var i = 0
        while i < n - 1 {
            guard k[i] >> UInt64(low) == k[i + 1] >> UInt64(low) else { i += 1; continue }
            var j = i + 1
            while j + 1 < n && k[j + 1] >> UInt64(low) == k[i] >> UInt64(low) { j += 1 }
            var run = (i...j).map { (k[$0], slots[$0]) }
            run.sort { $0.0 < $1.0 }
            for (o, e) in run.enumerated() { k[i + o] = e.0; slots[i + o] = e.1 }
            i = j + 1
        }
    }

    // MARK: - Queries (call `update()` first)

    /// The level a view at `zoom` draws, or nil when nothing is clustered at that zoom.
    public func level(forZoom zoom: Double) -> Int? {
        guard levelCount > 0, zoom < maxZoom else { return nil }
        return Swift.min(levelCount - 1, Swift.max(0, Int(zoom.rounded(.down))))
    }

    /// The slots of level z's items whose point lies in the box (normalised units), appended.
    public func items(level z: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
                      into out: inout [UInt32]) {
        let lv = levels[z]
        @inline(__always) func consider(_ k: UInt32) {
            let i = Int(k)
            guard isAlive(lv, k) else { return }
            let x = lv.items[i].x, y = lv.items[i].y
            if x >= minX && x <= maxX && y >= minY && y <= maxY { out.append(k) }
        }
        let scanned = lv.items.withUnsafeBufferPointer { it in
            lv.grid.forEachInBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                 maxCells: Swift.max(64, lv.alive / 4), it) { consider($0) }
        }
        if !scanned { for k in 0..<UInt32(lv.items.count) { consider(k) } }
    }

    public func isItem(level z: Int, slot: UInt32) -> Bool {
        z >= 0 && z <= levelCount && Int(slot) < levels[z].items.count && isAlive(levels[z], slot)
    }

    @inline(__always)
    public func point(level z: Int, slot: UInt32) -> (x: Double, y: Double) {
        (levels[z].items[Int(slot)].x, levels[z].items[Int(slot)].y)
    }

    @inline(__always)
    public func count(level z: Int, slot: UInt32) -> UInt32 { weight(z, levels[z], Int(slot)) }

    /// The item's order key: the smallest of its pins' keys.
    public func key(level z: Int, slot: UInt32) -> UInt64 { levels[z].items[Int(slot)].key }

    /// The base slot at the bottom of an item's chain of seeds (for a single pin: the pin).
    @inline(__always)
    public func leaf(level z: Int, slot: UInt32) -> Int32 {
        var s = slot
        for l in z..<levelCount { s = levels[l].sums[Int(s)].seed }
        return Int32(bitPattern: s)
    }

    /// The item of level z that holds base slot `slot`, or nil when the pin is kept out or absent.
    public func item(holding slot: Int32, level z: Int) -> UInt32? {
        guard contains(slot: slot), !isExcluded(slot: slot) else { return nil }
        var s = UInt32(bitPattern: slot)
        var l = levelCount
        while l > z {
            let p = levels[l].items[Int(s)].parent
            guard p < Self.excluded else { return nil }
            s = p; l -= 1
        }
        return s
    }

    /// Calls `body` with every item of level z + 1 that item p of level z is made of.
    public func forEachChild(level z: Int, slot p: UInt32, _ body: (UInt32) -> Void) {
        let up = levels[z + 1]
        let s = Int(levels[z].sums[Int(p)].seed)
        let r = levelRadius(z), r2 = r * r
        up.forEachNear(up.items[s].x, up.items[s].y) { k in
            let ki = Int(k)
            guard up.items[ki].parent == p else { return }
            let dx = up.items[ki].x - up.items[s].x, dy = up.items[ki].y - up.items[s].y
            if dx * dx + dy * dy <= r2 { body(k) }
        }
    }

    /// The base slots of an item's pins, appended.
    public func members(level z: Int, slot: UInt32, into out: inout [Int32]) {
        if z == levelCount { out.append(Int32(bitPattern: slot)); return }
        var stack: [(Int, UInt32)] = [(z, slot)]
        while let (l, p) = stack.popLast() {
            forEachChild(level: l, slot: p) { c in
                if l + 1 == levelCount { out.append(Int32(bitPattern: c)) } else { stack.append((l + 1, c)) }
            }
        }
    }

    /// The first level below z (a higher zoom) at which item p's pins are no longer one item;
    /// `levelCount` when they stay together down to the last clustered level.
    public func expansionLevel(level z: Int, slot p: UInt32) -> Int {
        var l = z, s = p
        while l + 1 < levelCount {
            var children = 0, only: UInt32 = 0
            forEachChild(level: l, slot: s) { c in children += 1; only = c }
            if children != 1 { return l + 1 }
            l += 1; s = only
        }
        return levelCount
    }

    /// Items alive at level z.
    public func itemCount(level z: Int) -> Int { levels[z].alive }

    /// Bytes held by every level (base included), by capacity.
    public var bytes: Int {
        levels.reduce(0) { $0 + $1.bytes }
            + (deferred.reduce(0) { $0 + $1.capacity } + pending.capacity) * MemoryLayout<Change>.stride
            + summaries.bytes
    }
}

/// What an item of a clustered level (not the pins) knows of its members: their pins' points summed
/// in fixed point (`ClusterLevels.fixed`, kept current as members come, go and move: the item's
/// point is their mean), how many pins they hold, and which of them absorbed the others (its seed,
/// an item of the level above).
struct ClusterSums {
    var sx: Int64, sy: Int64
    var count: UInt32
    var seed: UInt32
}

/// The point of a clustered item's seed (`ClusterLevels.Level.seedAt`).
struct SeedPoint {
    var x: Double, y: Double
    /// A seed that is no longer one: no distance to it is within any radius.
    static let gone = SeedPoint(x: .nan, y: .nan)
}

/// A set of slots that stays a short array (linear search, no hashing) while it is small, as the
/// sets of one update pass nearly always are. Emptying it keeps its storage (and costs nothing
/// when it is already empty).
struct SlotSet {
    static let small = 24
    private var store: [UInt32] = []
    private(set) var count = 0
    private var big = Set<UInt32>()

    /// The slots in the order they were inserted.
    var items: ArraySlice<UInt32> { store[0..<count] }

    /// True when k was not in the set.
    @discardableResult
    @inline(__always)
    mutating func insert(_ k: UInt32) -> Bool {
        if count < Self.small {
            if items.contains(k) { return false }
        } else {
            if big.isEmpty { big = Set(items) }
            guard big.insert(k).inserted else { return false }
        }
        if count < store.count { store[count] = k } else { store.append(k) }
        count += 1
        return true
    }

    @inline(__always)
    mutating func removeAll() {
        if !big.isEmpty { big.removeAll(keepingCapacity: true) }
        count = 0
    }
}
