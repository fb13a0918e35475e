#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// `parent` values that are not a slot (`ClusterLevel`).
    static let dead = ClusterLevel.dead
    static let unassigned = ClusterLevel.unassigned
    static let excluded = ClusterLevel.excluded

    public let radius: Double
    public let maxZoom: Double
    /// Levels 0..<levelCount are clustered; `levelCount` is the base.
    public let levelCount: Int
    /// What each clustered item holds (values, categories, the box of its points) and its
    /// generation, kept by the same passes (`ClusterSummaries`).
    let summaries: ClusterSummaries
    /// Only items of one category are clustered together (`cluster_by_category`).
    public let byCategory: Bool
    /// The fewest pins a cluster may hold (`cluster_min_points`, supercluster's minPoints): a
    /// seed's group of fewer pins is kept apart, one item per member (`ClusterUpdate`).
    public let minPoints: Int
    /// Builds levels from scratch (`rebuild`, and the levels left too far behind).
    private let builder: ClusterBuild
    /// Brings one level up to date with the changes of the level above (`update`).
    private let updater: ClusterUpdate

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

    /// Levels 0..<levelCount are clustered, level `levelCount` holds the pins.
    var levels: [ClusterLevel]
    /// Base changes since the last `update()`; past `rebuildThreshold` the next update rebuilds.
    var pending: [Change] = []
    var needsRebuild = false
    /// Per level z below the last clustered one: the changes of level z + 1's items that level z
    /// has not taken yet. An update brings the levels only as far down as the view needs (a drag
    /// at street zoom does not pay for the county's clusters); the coarser levels take what they
    /// missed when a view, a member list or an expansion zoom asks for them.
    private var deferred: [[Change]] = []
    /// The finest level that is stale: levels 0...`staleThrough` are rebuilt from level
    /// `staleThrough` + 1 when next asked for (more changes were deferred to them than a rebuild
    /// costs); -1 when none is.
    private var staleThrough = -1
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
    private var changesIn: [Change] = [], changesOut: [Change] = []

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
        builder = ClusterBuild(radius: radius, byCategory: byCategory, minPoints: self.minPoints, summaries: summaries)
        updater = ClusterUpdate(radius: radius, byCategory: byCategory, minPoints: self.minPoints, summaries: summaries)
        levels = []
        for z in 0...levelCount {
            levels.append(ClusterLevel(reach: Self.reach(radius, level: z), isBase: z == levelCount))
        }
        deferred = Array(repeating: [], count: Swift.max(0, levelCount - 1))
    }

    /// The radius at level z in normalised units.
    @inline(__always)
    public func levelRadius(_ z: Int) -> Double { Self.radius(radius, level: z) }
    /// The radius at level z in normalised units, of a radius of `points` points.
    @inline(__always)
    static func radius(_ points: Double, level z: Int) -> Double { points / (256 * exp2(Double(z))) }
    /// How far the walks of level z's grid reach: the radius of the level below (the one its
    /// items are clustered at), which is twice level z's, plus `meanSlack`. A walk around a point
    /// then finds the clusters whose seed is within level z's radius of it: a cluster's point,
    /// the mean of its members in fixed point, lies within the radius of its seed plus that
    /// rounding. At street zooms the slack is nothing; at zoom 26 and beyond a small radius is
    /// finer than the fixed point's unit, and without it those walks missed seeds.
    static func reach(_ points: Double, level z: Int) -> Double { radius(points, level: z - 1) + meanSlack }
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

    private var base: ClusterLevel { levels[levelCount] }

    @inline(__always)
    private static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(1, Swift.max(0, v)) }

    /// Base slots 0..<n, empty until inserted: a bulk load extends the arrays once instead of per pin.
    public func reserve(slots n: Int) {
        // Geometric after the first batch: an exact size copied every item on each call of a
        // load in chunks. By half as much again, not twice: the pin store doubles from the same
        // first batch, and both copies at once made one call of a load in chunks three times
        // as long as the others.
        let capacity = base.items.capacity, empty = base.items.isEmpty
        if n > capacity { base.items.reserveCapacity(empty ? n : Swift.max(n, capacity + capacity / 2)) }
        base.reserveSlots(n)
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
        if pending.count >= rebuildThreshold {
            needsRebuild = true
            pending = []
            return
        }
        pending.append(c)
    }

    /// Adds a pin at a normalised point (clamped to the world) under a slot that holds nothing.
    public func insert(slot: Int32, key: UInt64, x: Double, y: Double, excluded: Bool = false) {
        let i = Int(slot)
        base.reserveSlots(i + 1)
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
        base.reserveSlots(Int(top) + 1)
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
            if z <= staleThrough {
                // Only as far down as asked for: the levels below stay stale until asked for.
                let bottom = Swift.min(z, Swift.max(target, 0))
                rebuildLevels(from: z, through: bottom)
                z = bottom - 1
                continue
            }
            if z == levelCount - 1 {
                swap(&pending, &changesIn)
                pending.removeAll(keepingCapacity: true)
            } else {
                swap(&deferred[z], &changesIn)
                deferred[z].removeAll(keepingCapacity: true)
            }
            if !changesIn.isEmpty {
                changesOut.removeAll(keepingCapacity: true)
                updater.pass(z, of: levels, changesIn, into: &changesOut)
                changesIn.removeAll(keepingCapacity: true)
                if z > 0 && !changesOut.isEmpty { keep(changesOut, for: z - 1) }
            }
            z -= 1
        }
    }

    /// Hands level z the changes of level z + 1's items it has not taken; past what a rebuild of
    /// levels z...0 costs, marks them for one instead.
    private func keep(_ changes: [Change], for z: Int) {
        if z <= staleThrough { return }
        if deferred[z].count + changes.count > Swift.max(16, levels[z + 1].alive / 8) {
            staleThrough = z
            for l in 0...z { deferred[l] = [] }
            return
        }
        deferred[z].append(contentsOf: changes)
    }

    /// Builds levels z...`bottom` again from the items of level z + 1; the levels below stay stale.
    private func rebuildLevels(from z: Int, through bottom: Int) {
        buildLevels(from: z, through: bottom, levels[z + 1].unplacedByKey())
        partialRebuilds += 1
    }

    // MARK: - Building from scratch

    /// Builds every level from the pins: the greedy rule itself, visiting items in key order.
    public func rebuild() {
        pending = []
        needsRebuild = false
        guard levelCount > 0 else { return }
        let b = base
        let order = b.unplacedByKey()
        if baseGridStale {
            b.grid.refill(&b.items, member: Self.unassigned)
            baseGridStale = false
        }
        buildLevels(from: levelCount - 1, order)
    }

    /// Builds levels `top`...`bottom` from the items of level `top` + 1, `order` holding them by
    /// key; the levels below `bottom` are left stale (rebuilt when next asked for).
    private func buildLevels(from top: Int, through bottom: Int = 0, _ order: [UInt32]) {
        builder.build(&levels, from: top, through: bottom, order: order)
        for l in 0...top where l < deferred.count { deferred[l] = [] }
        staleThrough = bottom - 1
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
        let level = levels[z]
        @inline(__always) func consider(_ k: UInt32) {
            let i = Int(k)
            guard level.isAlive(k) else { return }
            let x = level.items[i].x, y = level.items[i].y
            if x >= minX && x <= maxX && y >= minY && y <= maxY { out.append(k) }
        }
        let scanned = level.items.withUnsafeBufferPointer { it in
            level.grid.forEachInBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                    maxCells: Swift.max(64, level.alive / 4), it) { consider($0) }
        }
        if !scanned { for k in 0..<UInt32(level.items.count) { consider(k) } }
    }

    public func isItem(level z: Int, slot: UInt32) -> Bool {
        z >= 0 && z <= levelCount && Int(slot) < levels[z].items.count && levels[z].isAlive(slot)
    }

    @inline(__always)
    public func point(level z: Int, slot: UInt32) -> (x: Double, y: Double) {
        (levels[z].items[Int(slot)].x, levels[z].items[Int(slot)].y)
    }

    @inline(__always)
    public func count(level z: Int, slot: UInt32) -> UInt32 { levels[z].weight(Int(slot)) }

    /// The item's order key: the smallest of its pins' keys.
    public func key(level z: Int, slot: UInt32) -> UInt64 { levels[z].items[Int(slot)].key }

    /// The base slot at the bottom of an item's chain of seeds (for a single pin: the pin).
    @inline(__always)
    public func leaf(level z: Int, slot: UInt32) -> Int32 {
        var s = slot
        for l in z..<levelCount {
            let seed = levels[l].sums[Int(s)].seed
            // An item kept apart (`minPoints`) is one pin: its only member, not its group's seed.
            if minPoints > 2 && levels[l + 1].items[Int(seed)].parent != s {
                var only = seed
                forEachChild(level: l, slot: s) { only = $0 }
                s = only
            } else {
                s = seed
            }
        }
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
        let above = levels[z + 1]
        let s = Int(levels[z].sums[Int(p)].seed)
        let r = levelRadius(z)
        above.forEachItem(heldBy: p, near: above.items[s].x, above.items[s].y, within: r * r, body)
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
