import CGEOS
import PindropCore

/// A point index over GEOS's STRtree that stays correct while pins move, without pauses.
///
/// GEOS 3.11 builds an STRtree on its first query and must never receive an insert after that
/// (the insert is silently lost and corrupts the tree), and building one tree of the 916k LA
/// trees takes about 0.25 s. So the pins are split by a quadtree over the world into leaves of
/// about `leafCapacity` pins, each with its own small GEOS tree, and every tree is built a slice
/// at a time:
///  - a change (add, move) puts the slot in the `pending` list of the leaf its new position falls
///    in (no search of any sorted structure); a query scans that short list;
///  - a leaf whose tree is missing (after a bulk load or a split), whose pending list outgrew
///    `pendingLimit`, or whose tree holds too many stale entries, is queued for a rebuild;
///  - every call (change or query) does a bounded slice of the queued work: at most
///    `sliceInserts` points inserted into the next tree, or the final GEOS build of a tree of
///    at most `leafCapacity + pendingLimit` points. The old tree and the lists answer queries
///    until the new tree takes over, in one step;
///  - a leaf that has grown beyond `leafCapacity` splits into quadrants when its rebuild starts.
/// Only a bulk load's first query does work in proportion to the number of pins (dealing them out
/// to the leaves, no GEOS work). Each slot records where its current position is indexed
/// (`home`); an entry found anywhere else is stale (a moved or removed pin) and is skipped.
/// See docs/index.md.
///
/// GEOS allocates trees, points and query geometries and returns NULL when it cannot. The index
/// never loses a pin to that: a leaf whose new tree cannot be made or filled keeps its old tree
/// and lists (the rebuild is retried on a later change), and a query without a query geometry
/// reads a tree's entries itself. Answers stay exact; only speed suffers.
public final class GEOSPointIndex: SpatialIndex {
    public static var defaultLeafCapacity = 1024
    public static var defaultPendingLimit = 128
    public static var defaultSliceInserts = 32
    /// Children per node of a leaf's GEOS tree: 1.04 nodes of 48 bytes per point (GEOS's usual 10
    /// gives 1.11, 3.4 bytes per pin more, for no faster query here).
    static let nodeCapacity = 24

    let context: GEOSContext
    var ctx: GEOSContextHandle_t { context.handle }
    /// Positions by slot: the pin store's (shared) or the index's own.
    let coords: SlotCoordinates
    let ownsCoordinates: Bool
    public var leafCapacity = GEOSPointIndex.defaultLeafCapacity
    public var pendingLimit = GEOSPointIndex.defaultPendingLimit
    /// The most points one call inserts into a tree being built.
    public var sliceInserts = GEOSPointIndex.defaultSliceInserts

    /// Per slot: 0 = not indexed; leaf + 1 = in that leaf's tree (or its entry list, before the
    /// tree is built); leaf + 1 with `pendingBit` = in that leaf's pending list. `jobBit` marks the
    /// slots gathered into the tree being built that have not changed since.
    private var home: [UInt32] = []
    private static let pendingBit: UInt32 = 1 << 31
    private static let jobBit: UInt32 = 1 << 30
    private static let placeMask: UInt32 = ~jobBit
    private var live = 0

    /// A quadtree cell: four children (`child` ... `child + 3`: south-west, south-east,
    /// north-west, north-east) or a leaf. Cells on the world's edge reach to infinity in the
    /// intersection test, so no finite position is ever outside the root.
    private struct Node {
        var minX, minY, maxX, maxY: Double
        var child: Int32 = -1
        var leaf: Int32 = -1
        var depth: Int32
    }
    private struct Leaf {
        var node: Int32
        var queued = false
        /// The leaf's GEOS tree: all its built points, or those west of `eastFrom` when `east`
        /// holds the others (see `Job`).
        var tree: OpaquePointer?
        var east: OpaquePointer?
        /// Every point of `tree` has lon <= eastFrom, every point of `east` lon >= eastFrom.
        var eastFrom = 0.0
        /// The slots of a leaf whose tree is not built yet (current when home == leaf + 1).
        var entries: [Int32] = []
        /// Slots whose position changed into this leaf since its tree was built.
        var pending: [Int32] = []
        /// Current slots (home is this leaf, pending or not), and stale entries in tree/entries.
        var count = 0
        var stale = 0
    }
    private var nodes: [Node] = []
    private var leaves: [Leaf] = []
    private var freeLeaves: [Int32] = []
    /// Scratch: the leaves a query needs, and the slots of a leaf being rebuilt.
    private var visit: [Int32] = []
    private var stack: [Int32] = []
    private var gather: [Int32] = []
    /// Leaves waiting for a (re)build, and the tree being built: its leaf, its slots, how many
    /// are inserted, and whether all are (then the next slice makes GEOS build it).
    private var queue: [Int32] = []
    private var queueHead = 0
    private var job: Job?

    /// A leaf's new trees being filled a slice at a time: `slots[..<eastAt]` go into `tree`, the
    /// rest into `east` (`eastAt == slots.count` when there is one tree).
    ///
    /// GEOS 3.11 keeps a tree's nodes (48 bytes each) in one vector that grows by doubling as
    /// points are inserted, and only grows it to the tree's exact size when that is larger: a
    /// tree of n points holds room for max(2^ceil(log2 n), about 1.044 n) nodes, 1.5 times what it
    /// needs on average and up to twice (513 points take the room of 1,024). So a leaf of n points
    /// whose tree would keep that slack gets two: the 2^floor(log2 n) westernmost points in one
    /// (built to its exact size) and the rest in `east`, split at a longitude so that a query
    /// whose box lies on one side reads one tree (docs/index.md, "Bytes per pin").
    private struct Job {
        var leaf: Int
        var tree: OpaquePointer
        var east: OpaquePointer?
        var eastFrom: Double
        var slots: [Int32]
        var eastAt: Int
        var next = 0
        var inserted = 0
    }
    private static let maxDepth: Int32 = 40

    /// How many leaf trees were built (for the tests, benchmarks and docs), and splits made.
    public private(set) var builds = 0
    public private(set) var splits = 0

    /// An index keeping its own copy of the positions it is given.
    init(context: GEOSContext) {
        self.context = context
        self.coords = SlotCoordinates()
        self.ownsCoordinates = true
        resetNodes()
    }

    /// An index reading the positions from `coordinates`, which the owner updates before each call.
    init(context: GEOSContext, sharing coordinates: SlotCoordinates) {
        self.context = context
        self.coords = coordinates
        self.ownsCoordinates = false
        resetNodes()
    }

    deinit {
        for l in leaves { destroyTrees(l) }
        if let job { destroyTrees(job) }
        if let trigger { GEOSGeom_destroy_r(ctx, trigger) }
        for e in envelopes { GEOSGeom_destroy_r(ctx, e.geometry) }
    }

    private func resetNodes() {
        nodes = [Node(minX: -180, minY: -90, maxX: 180, maxY: 90, leaf: 0, depth: 0)]
        leaves = [Leaf(node: 0)]
        freeLeaves = []
        queue = []; queueHead = 0
        if let job { destroyTrees(job) }
        job = nil
    }

    private func destroyTrees(_ l: Leaf) {
        if let t = l.tree { GEOSSTRtree_destroy_r(ctx, t) }
        if let t = l.east { GEOSSTRtree_destroy_r(ctx, t) }
    }

    private func destroyTrees(_ j: Job) {
        GEOSSTRtree_destroy_r(ctx, j.tree)
        if let t = j.east { GEOSSTRtree_destroy_r(ctx, t) }
    }

    // MARK: - Changes

    public func removeAll() {
        for l in leaves { destroyTrees(l) }
        leaves = []
        resetNodes()
        home.removeAll(); live = 0
        if ownsCoordinates { coords.removeAll() }
    }

    public func insert(slots: [Int32], lonlat: UnsafeBufferPointer<Double>) {
        guard let m = slots.max() else { return }
        grow(to: m)
        if loadIntoEmptyRoot(slots, lonlat) { _ = work(build: false); return }
        for i in slots.indices {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            if ownsCoordinates { coords.set(slots[i], lon: x, lat: y) }
            place(slots[i], x, y)
        }
        work(build: false)
    }

    /// A bulk load into an index with no pin and one leaf (a new map's add_many): the slots go
    /// straight into the root leaf's entry list in one pass, without `place`'s bookkeeping per
    /// slot (a pending list searched and appended to, a leaf looked up), and the leaf is queued to
    /// be dealt out as `place` would have left it. About 150 instructions a pin fewer on the 916k
    /// LA trees (benchmarks/load_loop.c). False, with nothing changed, for any other index or a
    /// batch that names a slot twice.
    private func loadIntoEmptyRoot(_ slots: [Int32], _ lonlat: UnsafeBufferPointer<Double>) -> Bool {
        guard live == 0, nodes.count == 1, leaves.count == 1, job == nil, leaves[0].tree == nil,
              leaves[0].east == nil, leaves[0].entries.isEmpty, leaves[0].pending.isEmpty else { return false }
        let repeated = home.withUnsafeMutableBufferPointer { h -> Bool in
            for (i, s) in slots.enumerated() {
                guard h[Int(s)] == 0 else {
                    for t in slots[..<i] { h[Int(t)] = 0 }
                    return true
                }
                h[Int(s)] = 1
            }
            return false
        }
        guard !repeated else { return false }
        if ownsCoordinates {
            for i in slots.indices { coords.set(slots[i], lon: lonlat[2 * i], lat: lonlat[2 * i + 1]) }
        }
        live = slots.count
        leaves[0].count = slots.count
        leaves[0].entries = slots
        enqueueIfNeeded(0)
        return true
    }

    public func set(_ slot: Int32, lon x: Double, lat y: Double) {
        grow(to: slot)
        if ownsCoordinates { coords.set(slot, lon: x, lat: y) }
        place(slot, x, y)
        work(build: false)
    }

    public func remove(_ slot: Int32) {
        let s = Int(slot)
        guard s < home.count, home[s] != 0 else { return }
        leave(home[s])
        home[s] = 0
        live -= 1
        work(build: false)
    }

    private func grow(to slot: Int32) {
        let need = Int(slot) + 1
        if home.count < need { home.append(contentsOf: repeatElement(0, count: need - home.count)) }
    }

    /// The longest lists a query scans: a leaf with more (after a bulk load) is dealt out to
    /// smaller leaves first (`settle`). Pending lists up to this length never hold a slot twice.
    private var scanLimit: Int { 4 * (leafCapacity + pendingLimit) }

    /// Records that a slot's position is now (x, y): it goes into the pending list of that
    /// position's leaf. A list a query may scan is searched first so that it never holds a slot
    /// twice; a longer one may (`settle` drops the repeats before any query reads it).
    @inline(__always)
    private func place(_ slot: Int32, _ x: Double, _ y: Double) {
        let s = Int(slot)
        let h = home[s]
        let l = leafOf(x, y, from: h)
        let want = UInt32(l + 1) | GEOSPointIndex.pendingBit
        if h & GEOSPointIndex.placeMask == want { home[s] = want; return }  // any tree being built has it stale
        if h == 0 { live += 1 } else { leave(h) }
        home[s] = want
        leaves[Int(l)].count += 1
        if leaves[Int(l)].pending.count > scanLimit || !leaves[Int(l)].pending.contains(slot) {
            leaves[Int(l)].pending.append(slot)
        }
        enqueueIfNeeded(Int(l))
    }

    /// The leaf a slot's place `h` (its `home`, not 0) names.
    @inline(__always)
    private static func leaf(of h: UInt32) -> Int { Int((h & ~pendingBit & placeMask) - 1) }

    /// The slot leaves the place `h` says it was in.
    @inline(__always)
    private func leave(_ h: UInt32) {
        let l = GEOSPointIndex.leaf(of: h)
        leaves[l].count -= 1
        if h & GEOSPointIndex.pendingBit == 0 {
            leaves[l].stale += 1
            enqueueIfNeeded(l)
        }
    }

    /// The leaf whose cell holds (x, y), for a slot whose place is `h` (its `home`): the leaf it
    /// is in when that leaf's cell holds the point too (a small move stays in its leaf), without
    /// the walk down from the root, a node a level (about 16 under a county's trees) and most of
    /// them cache misses. The cells are half-open, [min, mid) and [mid, max) of their parent's, as
    /// `quadrant` divides it, so a point inside the leaf's cell is one the walk would bring there.
    @inline(__always)
    private func leafOf(_ x: Double, _ y: Double, from h: UInt32) -> Int32 {
        if h != 0 {
            let l = Int32(GEOSPointIndex.leaf(of: h))
            let node = nodes[Int(leaves[Int(l)].node)]
            if node.child < 0 && node.leaf == l && x >= node.minX && x < node.maxX && y >= node.minY && y < node.maxY {
                return l
            }
        }
        return leafOf(x, y)
    }

    /// The leaf whose cell holds (x, y).
    @inline(__always)
    private func leafOf(_ x: Double, _ y: Double) -> Int32 {
        nodes.withUnsafeBufferPointer { nd in
            var n = 0
            while nd[n].child >= 0 { n = Int(nd[n].child) + quadrant(nd[n], x, y) }
            return nd[n].leaf
        }
    }

    @inline(__always)
    private func quadrant(_ node: Node, _ x: Double, _ y: Double) -> Int {
        (x >= (node.minX + node.maxX) / 2 ? 1 : 0) + (y >= (node.minY + node.maxY) / 2 ? 2 : 0)
    }

    // MARK: - Rebuilding leaves, a slice at a time

    @inline(__always)
    private func needsRebuild(_ l: Int) -> Bool {
        let leaf = leaves[l]
        if leaf.tree == nil { return leaf.count > 0 }
        return leaf.pending.count > pendingLimit || leaf.stale > max(pendingLimit, leaf.count)
    }

    @inline(__always)
    private func enqueueIfNeeded(_ l: Int) {
        guard !leaves[l].queued, needsRebuild(l) else { return }
        leaves[l].queued = true
        queue.append(Int32(l))
    }

    /// Work the host's queries do (frames, hit tests, nearby): up to `inserts` points inserted
    /// into trees being built, and the trees completed on the way are built by GEOS and put in
    /// place. Changes only insert (`work(build: false)`), so that no `set` pays for a GEOS build.
    public func maintain(inserts: Int) {
        var left = inserts
        while left > 0 && (job != nil || queueHead < queue.count) { left -= work(build: true) }
    }

    /// One bounded slice of the queued work: start the next leaf's rebuild (gather its slots, or
    /// split it), insert up to `sliceInserts` points, or (`build`) have GEOS build a complete
    /// tree and put it in place. Returns the points inserted (at least 1, for progress).
    @discardableResult
    private func work(build: Bool) -> Int {
        var done = 1
        if var j = job {
            if j.next >= j.slots.count && !build { return done }
            job = nil
            if j.next < j.slots.count {
                let end = min(j.slots.count, j.next + sliceInserts)
                for i in j.next..<end {
                    let s = j.slots[i]
                    guard home[Int(s)] & GEOSPointIndex.jobBit != 0 else { continue }  // changed since
                    guard insertPoint(i < j.eastAt ? j.tree : j.east!, s) else {
                        job = j
                        abortJob()  // GEOS could not make the point: the old tree and lists stay
                        return done
                    }
                    j.inserted += 1
                }
                done = max(1, end - j.next)
                j.next = end
                job = j
            } else {
                finish(j)
            }
            return done
        }
        while queueHead < queue.count {
            let l = Int(queue[queueHead])
            queueHead += 1
            if queueHead == queue.count || queueHead > 4096 {
                queue.removeFirst(queueHead); queueHead = 0
            }
            leaves[l].queued = false
            guard needsRebuild(l) else { continue }
            start(l)
            return done
        }
        return done
    }

    /// Gathers leaf l's current slots for a new tree, marking them with `jobBit`, or splits the
    /// leaf when they are more than `leafCapacity`.
    private func start(_ l: Int) {
        let mark = UInt32(l + 1)
        gather.removeAll(keepingCapacity: true)
        if let tree = leaves[l].tree { collectCurrent(tree, mark) }
        if let tree = leaves[l].east { collectCurrent(tree, mark) }
        for s in leaves[l].entries where home[Int(s)] == mark { gather.append(s) }
        for s in leaves[l].pending where home[Int(s)] == mark | GEOSPointIndex.pendingBit { gather.append(s) }
        // Repeats in a long pending list: only the first copy of each slot is marked and kept.
        var k = 0
        home.withUnsafeMutableBufferPointer { h in
            gather.withUnsafeMutableBufferPointer { g in
                for i in g.indices {
                    let s = g[i]
                    guard h[Int(s)] & GEOSPointIndex.jobBit == 0 else { continue }
                    h[Int(s)] |= GEOSPointIndex.jobBit
                    g[k] = s; k += 1
                }
            }
        }
        gather.removeLast(gather.count - k)
        let n = Int(leaves[l].node)
        // A leaf that has a tree splits only well beyond the capacity, so that a leaf a bulk load
        // filled near it is not split again by its first rebuilds.
        let most = leaves[l].tree == nil ? leafCapacity : 2 * leafCapacity
        if gather.count > most && nodes[n].depth < GEOSPointIndex.maxDepth && !allOnePosition() {
            destroyTrees(leaves[l])
            leaves[l].tree = nil; leaves[l].east = nil
            _ = split(n)  // re-homes every gathered slot (their job marks go)
            return
        }
        let eastAt = GEOSPointIndex.westCount(gather.count)
        let eastFrom = eastAt < gather.count ? partitionByLongitude(first: eastAt) : 0
        // No tree (GEOS is out of memory): the leaf keeps answering from its old trees and lists.
        guard let tree = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity) else {
            for s in gather { home[Int(s)] &= GEOSPointIndex.placeMask }
            return
        }
        var east: OpaquePointer?
        if eastAt < gather.count {
            east = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity)
            guard east != nil else {
                GEOSSTRtree_destroy_r(ctx, tree)
                for s in gather { home[Int(s)] &= GEOSPointIndex.placeMask }
                return
            }
        }
        job = Job(leaf: l, tree: tree, east: east, eastFrom: eastFrom, slots: gather, eastAt: eastAt)
    }

    /// How many of a leaf's n points go into its west tree (n when one tree holds them all):
    /// the largest power of two below n when its tree and the rest's hold fewer nodes than one
    /// tree of n points would.
    static func westCount(_ n: Int) -> Int {
        guard n > 2 else { return n }
        let west = 1 << (Int.bitWidth - 1 - n.leadingZeroBitCount)  // 2^floor(log2 n)
        return west < n && nodeRoom(west) + nodeRoom(n - west) < nodeRoom(n) ? west : n
    }

    /// The nodes GEOS 3.11 keeps room for in a built tree of n points: its vector's room after
    /// n inserts (doubling from 1: 2^ceil(log2 n)), or the tree's exact node count when that is
    /// larger (it then reserves exactly that).
    static func nodeRoom(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let room = 1 << (Int.bitWidth - (n - 1).leadingZeroBitCount)
        var size = n, level = n
        while level > 1 { level = (level + nodeCapacity - 1) / nodeCapacity; size += level }
        return max(room, size)
    }

    /// Reorders `gather` so that its first k slots are the k westernmost (ties anywhere), and
    /// returns a longitude between them and the rest (a selection: linear time on average).
    private func partitionByLongitude(first k: Int) -> Double {
        coords.withBuffer { ll in
            gather.withUnsafeMutableBufferPointer { g in
                @inline(__always) func x(_ i: Int) -> Double { ll[2 * Int(g[i])] }
                var lo = 0, hi = g.count - 1
                while lo < hi {
                    // Median of three as the pivot, then a three-way partition of lo...hi.
                    let a = x(lo), b = x((lo + hi) / 2), c = x(hi)
                    let pivot = max(min(a, b), min(max(a, b), c))
                    var lt = lo, i = lo, gt = hi
                    while i <= gt {
                        let v = x(i)
                        if v < pivot { g.swapAt(lt, i); lt += 1; i += 1 } else if v > pivot { g.swapAt(i, gt); gt -= 1 } else { i += 1 }
                    }
                    // lo..<lt below the pivot, lt...gt equal, gt+1...hi above.
                    if k < lt { hi = lt - 1 } else if k > gt + 1 { lo = gt + 1 } else { break }
                }
                // The first k are now the k smallest: the boundary lies between the largest of
                // them and the smallest of the rest.
                var west = -Double.infinity
                for i in 0..<k { west = max(west, x(i)) }
                return west
            }
        }
    }

    /// The new tree of leaf l is complete: GEOS builds it now (a query does), and it replaces the
    /// old tree and lists in one step.
    private func finish(_ j: Job) {
        let l = j.leaf, mark = UInt32(l + 1)
        if let t = buildTrigger {
            GEOSSTRtree_query_r(ctx, j.tree, t, { _, _ in }, nil)
            if let east = j.east { GEOSSTRtree_query_r(ctx, east, t, { _, _ in }, nil) }
        }
        destroyTrees(leaves[l])
        // (A tree left with no point inserted, all its slots having changed since, answers
        // nothing; it is kept rather than told apart, and goes at the leaf's next rebuild.)
        if j.inserted > 0 {
            leaves[l].tree = j.tree; leaves[l].east = j.east; leaves[l].eastFrom = j.eastFrom
        } else {
            destroyTrees(j)
            leaves[l].tree = nil; leaves[l].east = nil
        }
        var current = 0
        for s in j.slots where home[Int(s)] & GEOSPointIndex.jobBit != 0 {
            home[Int(s)] = mark
            current += 1
        }
        leaves[l].stale = j.inserted - current
        leaves[l].entries = []
        let p = mark | GEOSPointIndex.pendingBit
        leaves[l].pending.removeAll { home[Int($0)] & GEOSPointIndex.placeMask != p }
        builds += 1
        enqueueIfNeeded(l)
    }

    /// A point far from any pin: querying a finished tree with it makes GEOS build the tree. Nil
    /// when GEOS cannot make it; the tree is then built by the first real query instead.
    private var trigger: OpaquePointer?
    private var buildTrigger: OpaquePointer? {
        if trigger == nil { trigger = GEOSGeom_createPointFromXY_r(ctx, 1e300, 1e300) }
        return trigger
    }

    private func allOnePosition() -> Bool {
        guard let f = gather.first else { return true }
        let p = coords.position(f)
        for s in gather {
            let q = coords.position(s)
            if q.lon != p.lon || q.lat != p.lat { return false }
        }
        return true
    }

    /// Builds the leaves a query needs at once when their lists are too long to scan (after a
    /// bulk load: the pins are dealt out to leaves, and no GEOS work is done here).
    /// Returns false when GEOS could not build the tree (the leaf's slots stay in a scanned list).
    @discardableResult
    private func settle(_ l: Int) -> Bool {
        guard leaves[l].entries.count + leaves[l].pending.count > scanLimit else { return true }
        if let j = job, j.leaf == l { abortJob() }
        let mark = UInt32(l + 1)
        gather.removeAll(keepingCapacity: true)
        if let tree = leaves[l].tree { collectCurrent(tree, mark) }
        if let tree = leaves[l].east { collectCurrent(tree, mark) }
        destroyTrees(leaves[l])
        leaves[l].tree = nil; leaves[l].east = nil
        for s in leaves[l].entries where home[Int(s)] == mark { gather.append(s) }
        for s in leaves[l].pending where home[Int(s)] & GEOSPointIndex.placeMask == mark | GEOSPointIndex.pendingBit {
            home[Int(s)] = mark
            gather.append(s)
        }
        leaves[l].entries = []; leaves[l].pending = []; leaves[l].stale = 0
        leaves[l].count = gather.count
        if split(Int(leaves[l].node)) { return true }
        // All on one position (a stack larger than the lists a query scans): its tree now.
        guard let tree = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity) else {
            leaves[l].entries = gather  // no tree: its slots are scanned
            return false
        }
        for s in gather where !insertPoint(tree, s) {
            GEOSSTRtree_destroy_r(ctx, tree)
            leaves[l].entries = gather
            return false
        }
        if let t = buildTrigger { GEOSSTRtree_query_r(ctx, tree, t, { _, _ in }, nil) }
        leaves[l].tree = tree
        builds += 1
        return true
    }

    private func abortJob() {
        guard let j = job else { return }
        for s in j.slots { home[Int(s)] &= GEOSPointIndex.placeMask }
        destroyTrees(j)
        job = nil
        leaves[j.leaf].queued = false
        enqueueIfNeeded(j.leaf)
    }

    /// Inserts slot s at its position; false when GEOS cannot make the point.
    @inline(__always)
    private func insertPoint(_ tree: OpaquePointer, _ s: Int32) -> Bool {
        let p = coords.position(s)
        guard let g = GEOSGeom_createPointFromXY_r(ctx, p.lon, p.lat) else { return false }
        // The tree copies the envelope; the item is the slot + 1 (never a null pointer).
        GEOSSTRtree_insert_r(ctx, tree, g, UnsafeMutableRawPointer(bitPattern: Int(s) + 1))
        GEOSGeom_destroy_r(ctx, g)
        return true
    }

    /// Appends the tree's current entries (home == mark) to `gather`.
    private func collectCurrent(_ tree: OpaquePointer, _ mark: UInt32) {
        home.withUnsafeBufferPointer { h in
            withUnsafeMutablePointer(to: &gather) { g in
                var c = (h.baseAddress!, mark, g)
                withUnsafeMutablePointer(to: &c) { cp in
                    GEOSSTRtree_iterate_r(ctx, tree, { item, user in
                        guard let item, let user else { return }
                        let c = user.assumingMemoryBound(to: (UnsafePointer<UInt32>, UInt32, UnsafeMutablePointer<[Int32]>).self)
                        let s = Int(bitPattern: item) - 1
                        if c.pointee.0[s] == c.pointee.1 { c.pointee.2.pointee.append(Int32(truncatingIfNeeded: s)) }
                    }, cp)
                }
            }
        }
    }

    /// Turns leaf node n into an inner node and deals the gathered slots out to new leaves, which
    /// are built when a query needs them. It first goes down through the cells that hold all of
    /// them (their other quadrants become empty leaves: a dense city far below the root is reached
    /// without a pass per level), then divides that cell into 4^k leaves at once, k chosen so that
    /// an even spread would fill a leaf to half its capacity (a crowded leaf splits again later).
    /// False (nothing changed) when the slots all share one position.
    private func split(_ n: Int) -> Bool {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for s in gather {
            let p = coords.position(s)
            x0 = min(x0, p.lon); x1 = max(x1, p.lon); y0 = min(y0, p.lat); y1 = max(y1, p.lat)
        }
        guard x0 < x1 || y0 < y1 else { return false }
        freeLeaf(nodes[n].leaf)
        nodes[n].leaf = -1
        var cur = n
        while nodes[cur].depth + 1 < GEOSPointIndex.maxDepth
                && quadrant(nodes[cur], x0, y0) == quadrant(nodes[cur], x1, y1) {
            let c = Int(makeChildren(cur)) + quadrant(nodes[cur], x0, y0)
            freeLeaf(nodes[c].leaf)
            nodes[c].leaf = -1
            cur = c
        }
        var k: Int32 = 1
        while k < 7 && nodes[cur].depth + k + 1 < GEOSPointIndex.maxDepth && gather.count >> (2 * Int(k)) > leafCapacity / 2 { k += 1 }
        makeSubtree(cur, levels: k)
        // Each slot's leaf (kept in `home`, which is where it ends up) and the new leaves'
        // counts (they start at 0), then the leaves' lists.
        nodes.withUnsafeBufferPointer { nd in
            home.withUnsafeMutableBufferPointer { h in
                leaves.withUnsafeMutableBufferPointer { lv in
                    coords.withBuffer { ll in
                        for s in gather {
                            let x = ll[2 * Int(s)], y = ll[2 * Int(s) + 1]
                            var c = cur
                            while nd[c].child >= 0 { c = Int(nd[c].child) + quadrant(nd[c], x, y) }
                            let l = Int(nd[c].leaf)
                            h[Int(s)] = UInt32(l + 1)
                            lv[l].count += 1
                        }
                    }
                }
            }
        }
        // The new leaves in the order the slots first reach them (each leaf's list starts empty).
        var reached: [Int32] = []
        home.withUnsafeBufferPointer { h in
            leaves.withUnsafeMutableBufferPointer { lv in
                for s in gather {
                    let l = Int(h[Int(s)] - 1)
                    if lv[l].entries.isEmpty {
                        lv[l].entries.reserveCapacity(lv[l].count)
                        reached.append(Int32(l))
                    }
                    lv[l].entries.append(s)
                }
            }
        }
        var crowded: [Int32] = []
        for l32 in reached {
            let l = Int(l32)
            if leaves[l].count > leafCapacity && !leaves[l].queued {
                leaves[l].queued = true  // a mark, cleared below
                crowded.append(Int32(l))
            } else {
                enqueueIfNeeded(l)
            }
        }
        splits += 1
        // The scratch of a bulk load's split (4 bytes per pin) goes back to the allocator.
        if gather.capacity > 16 * (leafCapacity + pendingLimit) { gather = [] }
        // A leaf that is still crowded (a dense district) is split again now, so that no leaf
        // left for the slices holds more than about `leafCapacity` distinct positions.
        for l in crowded {
            leaves[Int(l)].queued = false
            swap(&gather, &leaves[Int(l)].entries)
            leaves[Int(l)].entries.removeAll()
            let n = Int(leaves[Int(l)].node)
            if nodes[n].depth + 1 >= GEOSPointIndex.maxDepth || !split(n) {
                swap(&gather, &leaves[Int(l)].entries)
                enqueueIfNeeded(Int(l))
            }
        }
        return true
    }

    /// Node n (with no leaf) gets a complete subtree of `levels` levels of leaf cells.
    private func makeSubtree(_ n: Int, levels: Int32) {
        let first = Int(makeChildren(n))
        guard levels > 1 else { return }
        for c in first..<first + 4 {
            freeLeaf(nodes[c].leaf)
            nodes[c].leaf = -1
            makeSubtree(c, levels: levels - 1)
        }
    }

    /// A leaf record no node uses any more (its tree already destroyed).
    private func freeLeaf(_ l: Int32) {
        leaves[Int(l)] = Leaf(node: -1)
        freeLeaves.append(l)
    }

    /// Gives node n four leaf children; returns the first child's node index.
    private func makeChildren(_ n: Int) -> Int32 {
        let p = nodes[n]
        let mx = (p.minX + p.maxX) / 2, my = (p.minY + p.maxY) / 2
        let first = Int32(nodes.count)
        for q in 0..<4 {
            let west = q & 1 == 0, south = q & 2 == 0
            let l: Int32
            let leaf = Leaf(node: Int32(nodes.count))
            if let f = freeLeaves.popLast() { l = f; leaves[Int(l)] = leaf } else { l = Int32(leaves.count); leaves.append(leaf) }
            nodes.append(Node(minX: west ? p.minX : mx, minY: south ? p.minY : my,
                              maxX: west ? mx : p.maxX, maxY: south ? my : p.maxY,
                              leaf: l, depth: p.depth + 1))
        }
        nodes[n].child = first
        return first
    }

    // MARK: - Queries

    /// The leaves whose cells meet the box, in `visit` (a leaf with lists too long to scan is
    /// dealt out first, and the walk starts again).
    private func leavesMeeting(_ box: GeoBox) {
        if inLastLeaf(box) { return }
        var st = stack
        stack = []
        defer { stack = st }
        // A leaf GEOS could not settle is scanned as it is (no endless retry within one query).
        var scanAll = false
        while true {
            if !visit.isEmpty { visit.removeAll(keepingCapacity: true) }
            if !st.isEmpty { st.removeAll(keepingCapacity: true) }
            var crowded: Int32 = -1
            let limit = scanAll ? Int.max : scanLimit
            nodes.withUnsafeBufferPointer { nd in
                leaves.withUnsafeBufferPointer { lv in
                    // Cells on the world's edge reach to infinity.
                    @inline(__always) func meets(_ node: Node) -> Bool {
                        !(node.minX > -180 && box.maxLon < node.minX) && !(node.maxX < 180 && box.minLon > node.maxX)
                            && !(node.minY > -90 && box.maxLat < node.minY) && !(node.maxY < 90 && box.minLat > node.maxY)
                    }
                    // A small box (a tap's) meets one child of most cells on the way down: the
                    // walk goes straight down while only one does, and the stack takes over
                    // below (the leaves come in the same order as from the root). A child's cell
                    // is its parent's halved at the midpoint (`makeChildren`), and the box meets
                    // the parent: whether it meets a child is a comparison with the midpoint, the
                    // same one `meets` makes on the child's stored edge, so only the parent is read.
                    var top = 0
                    while nd[top].child >= 0 {
                        let p = nd[top]
                        let mx = (p.minX + p.maxX) / 2, my = (p.minY + p.maxY) / 2
                        let west = box.minLon <= mx, east = box.maxLon >= mx
                        let south = box.minLat <= my, north = box.maxLat >= my
                        if (west && east) || (south && north) { break }
                        top = Int(p.child) + (east ? 1 : 0) + (north ? 2 : 0)
                    }
                    if nd[top].child < 0 { lastLeafNode = top }
                    st.append(Int32(top))
                    while let n = st.popLast() {
                        let node = nd[Int(n)]
                        if !meets(node) { continue }
                        if node.child >= 0 {
                            st.append(node.child); st.append(node.child + 1); st.append(node.child + 2); st.append(node.child + 3)
                            continue
                        }
                        // Read in place: a copy of the leaf would retain and release its lists.
                        let leaf = lv.baseAddress! + Int(node.leaf)
                        if leaf.pointee.entries.count + leaf.pointee.pending.count > limit { crowded = node.leaf; return }
                        if leaf.pointee.count > 0 { visit.append(node.leaf) }
                    }
                }
            }
            guard crowded >= 0 else { return }
            if !settle(Int(crowded)) { scanAll = true }
        }
    }

    /// The node of the leaf the last query's box went down to alone (see `inLastLeaf`).
    private var lastLeafNode = 0

    /// Whether the box lies strictly inside the cell of `lastLeafNode`, still a leaf: it then
    /// meets no other cell (a box touching a cell's edge meets the neighbour too), and `visit`
    /// is set to that leaf without a walk down the quadtree. A host's taps on one view mostly
    /// fall in one leaf. False when the leaf's lists need dealing out first (`settle`).
    @inline(__always)
    private func inLastLeaf(_ box: GeoBox) -> Bool {
        guard lastLeafNode < nodes.count else { return false }
        return nodes.withUnsafeBufferPointer { nd in
            let node = nd[lastLeafNode]
            // Cells on the world's edge reach to infinity.
            guard node.child < 0, node.leaf >= 0,
                  node.minX <= -180 || box.minLon > node.minX, node.maxX >= 180 || box.maxLon < node.maxX,
                  node.minY <= -90 || box.minLat > node.minY, node.maxY >= 90 || box.maxLat < node.maxY else { return false }
            return leaves.withUnsafeBufferPointer { lv in
                let leaf = lv.baseAddress! + Int(node.leaf)
                if leaf.pointee.entries.count + leaf.pointee.pending.count > scanLimit { return false }
                if !visit.isEmpty { visit.removeAll(keepingCapacity: true) }
                if leaf.pointee.count > 0 { visit.append(node.leaf) }
                return true
            }
        }
    }

    private struct Query {
        var want: UInt32
        var home: UnsafePointer<UInt32>
        var out: UnsafeMutablePointer<[Int32]>
        /// Whether GEOS was given the box itself; else a larger one, and hits are checked here.
        var exact: Bool
        var box: GeoBox
        var coords: UnsafePointer<Double>
    }

    public func query(_ box: GeoBox, into out: inout [Int32]) {
        guard live > 0 else { return }
        leavesMeeting(box)
        guard !visit.isEmpty else { return }
        var rect: OpaquePointer?
        var exact = true
        home.withUnsafeBufferPointer { h in
            coords.withBuffer { ll in
                withUnsafeMutablePointer(to: &out) { o in
                    leaves.withUnsafeBufferPointer { lv in
                        visit.withUnsafeBufferPointer { visit in
                            for l in visit {
                                // Read in place: a copy of the leaf would retain and release its lists.
                                let leaf = lv.baseAddress! + Int(l)
                                if let tree = leaf.pointee.tree {
                                    if rect == nil { (rect, exact) = envelope(box) }
                                    // Without a query geometry (GEOS out of memory) every entry is checked.
                                    var q = Query(want: UInt32(l + 1), home: h.baseAddress!, out: o, exact: rect != nil && exact,
                                                  box: box, coords: ll.baseAddress!)
                                    // A leaf with two trees: only those on the box's side(s) of their border.
                                    let east = leaf.pointee.east, border = leaf.pointee.eastFrom
                                    if east == nil || box.minLon <= border {
                                        if let rect { queryTree(tree, rect, &q) } else { scanTree(tree, &q) }
                                    }
                                    if let east, box.maxLon >= border {
                                        if let rect { queryTree(east, rect, &q) } else { scanTree(east, &q) }
                                    }
                                }
                                let mask = GEOSPointIndex.placeMask, mark = UInt32(l + 1)
                                // A leaf whose tree is not built yet: its slots are scanned.
                                if !leaf.pointee.entries.isEmpty {
                                    for s in leaf.pointee.entries where h[Int(s)] & mask == mark {
                                        let x = ll[2 * Int(s)], y = ll[2 * Int(s) + 1]
                                        if x >= box.minLon && x <= box.maxLon && y >= box.minLat && y <= box.maxLat { o.pointee.append(s) }
                                    }
                                }
                                let want = mark | GEOSPointIndex.pendingBit
                                if !leaf.pointee.pending.isEmpty {
                                    for s in leaf.pointee.pending where h[Int(s)] & mask == want {
                                        let x = ll[2 * Int(s)], y = ll[2 * Int(s) + 1]
                                        if x >= box.minLon && x <= box.maxLon && y >= box.minLat && y <= box.maxLat { o.pointee.append(s) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// GEOS 3.11 can only be queried with a geometry (its envelope), and making one allocates.
    /// So the last few query geometries are kept. A box wider or taller than `snapAbove` degrees
    /// (a frame's) is snapped outward to a grid of a quarter of its size (a power of two of
    /// degrees): a frame drawn again, or panned a little, reuses the geometry and allocates
    /// nothing, and hits are checked against the box itself. A smaller box (a tap's, nearby's)
    /// is used as it is: snapping would bring GEOS more candidates, each checked here at the
    /// cost of a coordinate read, which costs more than the allocation.
    private struct Envelope { var minX, minY, maxX, maxY: Double; var geometry: OpaquePointer; var used: UInt64 }
    private var envelopes: [Envelope] = []
    private var envelopeClock: UInt64 = 0
    private static let envelopeCacheSize = 8
    private static let snapAbove = 0.002

    private func envelope(_ box: GeoBox) -> (OpaquePointer?, exact: Bool) {
        let snap = box.maxLon - box.minLon > GEOSPointIndex.snapAbove || box.maxLat - box.minLat > GEOSPointIndex.snapAbove
        @inline(__always) func step(_ w: Double) -> Double {
            snap && w > 0 ? Double(sign: .plus, exponent: (w / 4).exponent, significand: 1) : 0
        }
        let sx = step(box.maxLon - box.minLon), sy = step(box.maxLat - box.minLat)
        let x0 = sx > 0 ? (box.minLon / sx).rounded(.down) * sx : box.minLon
        let x1 = sx > 0 ? (box.maxLon / sx).rounded(.up) * sx : box.maxLon
        let y0 = sy > 0 ? (box.minLat / sy).rounded(.down) * sy : box.minLat
        let y1 = sy > 0 ? (box.maxLat / sy).rounded(.up) * sy : box.maxLat
        let exact = x0 == box.minLon && x1 == box.maxLon && y0 == box.minLat && y1 == box.maxLat
        envelopeClock &+= 1
        for i in envelopes.indices where envelopes[i].minX == x0 && envelopes[i].minY == y0
            && envelopes[i].maxX == x1 && envelopes[i].maxY == y1 {
            envelopes[i].used = envelopeClock
            return (envelopes[i].geometry, exact)
        }
        var corners = (x0, y0, x1, y1)
        let seq = withUnsafePointer(to: &corners) {
            $0.withMemoryRebound(to: Double.self, capacity: 4) { GEOSCoordSeq_copyFromBuffer_r(ctx, $0, 2, 0, 0) }
        }
        // A two-point line string from the corners: two allocations fewer than a rectangle.
        guard let seq, let g = GEOSGeom_createLineString_r(ctx, seq) else { return (nil, exact) }
        let e = Envelope(minX: x0, minY: y0, maxX: x1, maxY: y1, geometry: g, used: envelopeClock)
        if envelopes.count < GEOSPointIndex.envelopeCacheSize {
            envelopes.append(e)
        } else {
            var oldest = 0
            for i in envelopes.indices where envelopes[i].used < envelopes[oldest].used { oldest = i }
            GEOSGeom_destroy_r(ctx, envelopes[oldest].geometry)
            envelopes[oldest] = e
        }
        return (g, exact)
    }

    private func queryTree(_ tree: OpaquePointer, _ rect: OpaquePointer, _ q: inout Query) {
        withUnsafeMutablePointer(to: &q) { qp in
            GEOSSTRtree_query_r(ctx, tree, rect, { item, user in
                guard let item, let user else { return }
                let q = user.assumingMemoryBound(to: Query.self)
                let s = Int(bitPattern: item) - 1
                // A tree entry is current exactly when the slot's home is still this leaf's tree:
                // any change since the tree was built moved the slot to a pending list. Its
                // envelope is then the point itself, which GEOS has already tested against the
                // box, so the slot's coordinates need not be read again.
                guard q.pointee.home[s] & GEOSPointIndex.placeMask == q.pointee.want else { return }
                if !q.pointee.exact {
                    let x = q.pointee.coords[2 * s], y = q.pointee.coords[2 * s + 1], b = q.pointee.box
                    guard x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat else { return }
                }
                q.pointee.out.pointee.append(Int32(truncatingIfNeeded: s))
            }, qp)
        }
    }

    /// Every current entry of the tree inside the box, without GEOS's search (no query geometry).
    private func scanTree(_ tree: OpaquePointer, _ q: inout Query) {
        withUnsafeMutablePointer(to: &q) { qp in
            GEOSSTRtree_iterate_r(ctx, tree, { item, user in
                guard let item, let user else { return }
                let q = user.assumingMemoryBound(to: Query.self)
                let s = Int(bitPattern: item) - 1
                guard q.pointee.home[s] & GEOSPointIndex.placeMask == q.pointee.want else { return }
                let x = q.pointee.coords[2 * s], y = q.pointee.coords[2 * s + 1], b = q.pointee.box
                guard x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat else { return }
                q.pointee.out.pointee.append(Int32(truncatingIfNeeded: s))
            }, qp)
        }
    }

    /// Leaves and trees, for the tests and the docs.
    public var leafCount: Int { leaves.count - freeLeaves.count }
    public var builtLeafCount: Int { leaves.reduce(0) { $0 + ($1.tree != nil ? 1 : 0) } }
    /// Leaves whose points are in two trees (see `Job`).
    public var twoTreeLeafCount: Int { leaves.reduce(0) { $0 + ($1.east != nil ? 1 : 0) } }
}
