/// One level of the cluster hierarchy (`ClusterLevels`): its items, what each holds, the free
/// slots, and the grid that finds the items near a point.
///
/// The level above the clustered levels is the pins themselves (`isBase`): its slots are the
/// map's pin slots, its items have no sums or seeds, and each weighs one pin. A clustered level
/// allocates its own slots and reuses freed ones. Which level is which, and the radius at each,
/// are `ClusterLevels`' to know; a level knows only its own items and, where a question needs
/// it, the level next to it that the caller passes in.
final class ClusterLevel {
    /// `parent` values that are not a slot.
    static let dead = UInt32.max          // no item in this slot
    static let unassigned = UInt32.max - 1 // alive, not yet placed in the level below (or level 0)
    static let excluded = UInt32.max - 2  // base only: a pin kept out of every cluster

    /// The pins (the level above every clustered one): no sums, no seeds, a weight of one each.
    let isBase: Bool
    /// Per slot: point, order key, parent and grid link side by side (`ClusterItem`, 32 bytes,
    /// two to a cache line), the fields a walk of the cells reads for every item it meets.
    var items: [ClusterItem] = []
    /// Per slot: the members' sums, count and seed (`ClusterSums`), read and written together
    /// when a member joins, leaves or moves. Not kept for the base.
    var sums: [ClusterSums] = []
    /// Per slot: its seed's point, copied here so that the search for the earliest seed near a
    /// point reads this level only, not the level above (for the level above the pins, a
    /// scattered read of the pins' array per candidate). Not a number while the seed is gone
    /// or demoted in the current pass (the item then has no seed to offer). Not kept for the base.
    var seedAt: [SeedPoint] = []
    /// Slots freed by dissolved items, reused before the arrays grow.
    var free: [UInt32] = []
    /// Items alive (for the base: pins, kept out or not).
    var alive = 0
    var grid: ClusterGrid

    /// A level whose walks (`forEachNear`) find every item within `reach` of a point.
    init(reach: Double, isBase: Bool = false) {
        // The pins' cells are the dense ones, their lists in the host's order: linked both ways,
        // as large as the reach (3×3 cells a walk). A clustered level's lists are by key, for the
        // search of the earliest seed near a point, in cells twice the reach (2×2 cells a walk).
        grid = isBase ? ClusterGrid(cell: reach, lists: .linkedBothWays)
            : ClusterGrid(cell: 2 * reach, lists: .byKey, walk: .twoByTwo)
        self.isBase = isBase
    }

    // MARK: - Reading items

    /// Whether slot i holds an item that takes part in clustering (alive, and for the pins not
    /// kept out).
    @inline(__always)
    func isAlive(_ i: UInt32) -> Bool {
        let p = items[Int(i)].parent
        return p != Self.dead && p != Self.excluded
    }

    /// Whether item k of this level is the seed of the item of `below` that holds it.
    @inline(__always)
    func isSeed(_ k: UInt32, of below: ClusterLevel) -> Bool {
        let p = items[Int(k)].parent
        return p < Self.excluded && below.sums[Int(p)].seed == k
    }

    /// How many pins item i holds.
    @inline(__always)
    func weight(_ i: Int) -> UInt32 { isBase ? 1 : sums[i].count }

    /// The sums item i adds to the item below that holds it: a pin's fixed point, or its own sums.
    @inline(__always)
    func contribution(_ i: Int) -> (x: Int64, y: Int64, n: UInt32) {
        isBase ? (ClusterLevels.fixed(items[i].x), ClusterLevels.fixed(items[i].y), 1)
            : (sums[i].sx, sums[i].sy, sums[i].count)
    }

    /// Calls `body` with every item in the cells a walk around (x, y) reads (`ClusterGrid.Walk`):
    /// every item within the level's reach of it, and others (`body` must not write `items`).
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, _ body: (UInt32) -> Void) {
        items.withUnsafeBufferPointer { grid.forEachNear(x, y, $0, body) }
    }

    /// `forEachNear` for the items whose keys are below `bound()` (read after every item): a
    /// clustered level's lists are by key, so a list is left at its first item past the bound.
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, whileKeyBelow bound: () -> UInt64, _ body: (UInt32) -> Void) {
        items.withUnsafeBufferPointer { grid.forEachNear(x, y, $0, whileKeyBelow: bound, body) }
    }

    /// Calls `body` with every item held by item `holder` of the level below that lies within
    /// √`r2` of (x, y).
    @inline(__always)
    func forEachItem(heldBy holder: UInt32, near x: Double, _ y: Double, within r2: Double,
                     _ body: (UInt32) -> Void) {
        forEachNear(x, y) { k in
            let i = Int(k)
            guard items[i].parent == holder else { return }
            let dx = items[i].x - x, dy = items[i].y - y
            if dx * dx + dy * dy <= r2 { body(k) }
        }
    }

    // MARK: - Writing items (clustered levels)

    /// A new item seeded by item `seed` of the level above (order key `key`, at (x, y)), with
    /// empty sums and no parent yet; a freed slot if there is one. The caller gives the summaries
    /// the slot too (`ClusterSummaries.allocate`).
    @inline(__always)
    func allocate(seed: UInt32, key: UInt64, at x: Double, _ y: Double) -> UInt32 {
        alive += 1
        if let f = free.popLast() {
            let i = Int(f)
            sums[i] = ClusterSums(sx: 0, sy: 0, count: 0, seed: seed)
            seedAt[i] = SeedPoint(x: x, y: y)
            items[i].key = key; items[i].parent = Self.unassigned
            return f
        }
        items.append(ClusterItem(x: 0, y: 0, key: key, parent: Self.unassigned, next: ClusterGrid.end))
        sums.append(ClusterSums(sx: 0, sy: 0, count: 0, seed: seed))
        seedAt.append(SeedPoint(x: x, y: y))
        return UInt32(items.count - 1)
    }

    /// Frees item p, whose members have all left (its sums are back to zero); the caller has
    /// taken it out of the grid if it was ever placed there.
    func release(_ p: UInt32) {
        let i = Int(p)
        items[i].parent = Self.dead
        sums[i].count = 0; sums[i].sx = 0; sums[i].sy = 0
        free.append(p)
        alive -= 1
    }

    /// Adds (`sign` 1) or takes away (-1) a member's contribution to item p's sums.
    @inline(__always)
    func add(_ c: (x: Int64, y: Int64, n: UInt32), to p: UInt32, sign: Int64) {
        let i = Int(p)
        sums[i].sx &+= sign &* c.x; sums[i].sy &+= sign &* c.y
        sums[i].count = UInt32(truncatingIfNeeded: Int64(sums[i].count) + sign * Int64(c.n))
    }

    /// Moves item p to (x, y), in the grid too (`placed`: it is in the grid already).
    @inline(__always)
    func place(_ p: UInt32, at x: Double, _ y: Double, placed: Bool) {
        let i = Int(p)
        if !placed {
            items[i].x = x; items[i].y = y
            grid.insert(p, x: x, y: y, &items)
            return
        }
        let ox = items[i].x, oy = items[i].y
        if !grid.sameCell(ox, oy, x, y) {
            grid.remove(p, x: ox, y: oy, &items)
            grid.insert(p, x: x, y: y, &items)
        }
        items[i].x = x; items[i].y = y
    }

    // MARK: - The base

    /// Base slots up to n - 1, empty until a pin is inserted.
    func reserveSlots(_ n: Int) {
        guard n > items.count else { return }
        let extra = n - items.count
        let empty = ClusterItem(x: 0, y: 0, key: 0, parent: Self.dead, next: ClusterGrid.end)
        if extra == 1 { items.append(empty); return }
        items.append(contentsOf: repeatElement(empty, count: extra))
    }

    // MARK: - Builds

    /// Marks every item that takes part in clustering unplaced and returns their slots by key,
    /// the order a build visits them in.
    func unplacedByKey() -> [UInt32] {
        var order = [UInt32](unsafeUninitializedCapacity: items.count) { o, c in
            c = items.withUnsafeMutableBufferPointer { it in
                var m = 0
                for i in it.indices where it[i].parent != Self.dead && it[i].parent != Self.excluded {
                    it[i].parent = Self.unassigned
                    o[m] = UInt32(i); m += 1
                }
                return m
            }
        }
        ClusterBuild.sortByKey(&order, items)
        return order
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

/// What an item of a clustered level (not the pins) knows of its members: their pins' points summed
/// in fixed point (`ClusterLevels.fixed`, kept current as members come, go and move: the item's
/// point is their mean), how many pins they hold, and which of them absorbed the others (its seed,
/// an item of the level above).
struct ClusterSums {
    var sx: Int64, sy: Int64
    var count: UInt32
    var seed: UInt32
}

/// The point of a clustered item's seed (`ClusterLevel.seedAt`).
struct SeedPoint {
    var x: Double, y: Double
    /// A seed that is no longer one: no distance to it is within any radius.
    static let gone = SeedPoint(x: .nan, y: .nan)
}

extension ClusterSummaries {
    /// The category of item i of level z, or of pin i when `pins` (with `byCategory`, an item's
    /// pins all share one).
    @inline(__always)
    func category(_ z: Int, _ i: UInt32, pins: Bool) -> UInt32 {
        pins ? attributes.category(Int32(bitPattern: i)) : category(z, i)
    }
}
