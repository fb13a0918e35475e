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
/// See docs/spatial-index.md. Each mechanism has a file of its own: the quadtree (Quadtree.swift), the
/// sliced rebuild (SlicedRebuild.swift), a leaf's two trees (TwoTreeSplit.swift) and the kept
/// query geometries (QueryGeometryCache.swift).
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
    var home: [UInt32] = []
    static let pendingBit: UInt32 = 1 << 31
    static let jobBit: UInt32 = 1 << 30
    static let placeMask: UInt32 = ~jobBit
    private var live = 0

    // The quadtree (Quadtree.swift): its cells and their leaves.
    var nodes: [Node] = []
    var leaves: [Leaf] = []
    var freeLeaves: [Int32] = []
    /// Scratch: the leaves a query needs, and the slots of a leaf being rebuilt.
    var visit: [Int32] = []
    var stack: [Int32] = []
    var gather: [Int32] = []
    /// Leaves waiting for a (re)build, and the tree being built: its leaf, its slots, how many
    /// are inserted, and whether all are (then the next slice makes GEOS build it). SlicedRebuild.swift.
    var queue: [Int32] = []
    var queueHead = 0
    var job: Job?
    /// The query geometries kept (QueryGeometryCache.swift), and the clock that dates their use.
    var envelopes: [Envelope] = []
    var envelopeClock: UInt64 = 0

    /// The node of the leaf the last query's box went down to alone (see `inLastLeaf`).
    var lastLeafNode = 0

    /// A point far from any pin: querying a finished tree with it makes GEOS build the tree. Nil
    /// when GEOS cannot make it; the tree is then built by the first real query instead.
    var trigger: OpaquePointer?

    /// How many leaf trees were built (for the tests, benchmarks and docs), and splits made.
    public internal(set) var builds = 0
    public internal(set) var splits = 0

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

    func destroyTrees(_ l: Leaf) {
        if let t = l.tree { GEOSSTRtree_destroy_r(ctx, t) }
        if let t = l.east { GEOSSTRtree_destroy_r(ctx, t) }
    }

    func destroyTrees(_ j: Job) {
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
        let fresh = home.count
        grow(to: m)
        if loadIntoEmptyRoot(slots, lonlat) { _ = work(build: false); return }
        for i in slots.indices {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            if ownsCoordinates { coords.set(slots[i], lon: x, lat: y) }
            place(slots[i], x, y, fresh: fresh)
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
        let fresh = home.count
        grow(to: slot)
        if ownsCoordinates { coords.set(slot, lon: x, lat: y) }
        place(slot, x, y, fresh: fresh)
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
    var scanLimit: Int { 4 * (leafCapacity + pendingLimit) }

    /// Records that a slot's position is now (x, y): it goes into the pending list of that
    /// position's leaf. A list a query may scan is searched first so that it never holds a slot
    /// twice; a longer one may (`settle` drops the repeats before any query reads it). A slot at
    /// or past `fresh` (`home.count` before the call grew it) that is not indexed has never been
    /// in any list: it needs no search. Without that, each add of a load in chunks searched
    /// lists that grew with the map (rebuilds run a slice per call), a few thousand
    /// instructions a pin at 900k pins.
    @inline(__always)
    private func place(_ slot: Int32, _ x: Double, _ y: Double, fresh: Int = Int.max) {
        let s = Int(slot)
        let h = home[s]
        let l = leafOf(x, y, from: h)
        let want = UInt32(l + 1) | GEOSPointIndex.pendingBit
        if h & GEOSPointIndex.placeMask == want { home[s] = want; return }  // any tree being built has it stale
        if h == 0 { live += 1 } else { leave(h) }
        home[s] = want
        leaves[Int(l)].count += 1
        if (h == 0 && s >= fresh) || leaves[Int(l)].pending.count > scanLimit || !leaves[Int(l)].pending.contains(slot) {
            leaves[Int(l)].pending.append(slot)
        }
        enqueueIfNeeded(Int(l))
    }

    /// The leaf a slot's place `h` (its `home`, not 0) names.
    @inline(__always)
    static func leaf(of h: UInt32) -> Int { Int((h & ~pendingBit & placeMask) - 1) }

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

    // MARK: - Queries

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