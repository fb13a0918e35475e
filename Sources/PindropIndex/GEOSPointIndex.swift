import CGEOS
import PindropCore

/// A point index over GEOS's STRtree that stays correct while pins move.
///
/// GEOS 3.11 builds an STRtree on its first query and must never receive an insert after that
/// (the insert is silently lost and corrupts the tree). So the index keeps three tiers:
///  - `main`: a tree of (almost) every pin, bulk-loaded and built once;
///  - `small`: a tree of the pins changed since `main` was built, rebuilt from scratch when the
///    tail overflows;
///  - `tail`: the latest changes with their coordinates inline, sorted by longitude (one entry
///    per slot, always current): a query binary-searches its longitude range and reads only that.
/// Each slot records which tier holds its current position; hits from any other tier are stale
/// entries (moved or removed pins) and are dropped. `main` is rebuilt when `small` outgrows
/// `smallLimit`. See docs/index.md for the measurements behind the limits.
public final class GEOSPointIndex: SpatialIndex {
    enum Tier: UInt8 { case none = 0, main, small, tail }

    public static var defaultTailLimit = 4096
    public static var defaultSmallLimit = 65536

    let context: GEOSContext
    var ctx: GEOSContextHandle_t { context.handle }
    public var tailLimit = GEOSPointIndex.defaultTailLimit
    public var smallLimit = GEOSPointIndex.defaultSmallLimit

    private var tier: [UInt8] = []
    /// Whether the main tree holds an entry (current or stale) for the slot: a slot may be put
    /// straight into an unqueried main tree only once, or a query would report it twice.
    private var hasMainEntry: [Bool] = []
    private var lon: [Double] = []
    private var lat: [Double] = []
    private var live = 0

    private var main: OpaquePointer?
    private var mainEntries = 0
    private var mainBuilt = false
    private var small: OpaquePointer?
    private var smallSlots: [Int32] = []
    private struct TailEntry { var slot: Int32; var lon, lat: Double }
    private var tail: [TailEntry] = []

    /// How often each tier was rebuilt (for the benchmarks and docs).
    public private(set) var mainRebuilds = 0
    public private(set) var smallRebuilds = 0

    init(context: GEOSContext) {
        self.context = context
    }

    deinit {
        if let main { GEOSSTRtree_destroy_r(ctx, main) }
        if let small { GEOSSTRtree_destroy_r(ctx, small) }
    }

    // MARK: - Changes

    public func removeAll() {
        if let main { GEOSSTRtree_destroy_r(ctx, main) }
        if let small { GEOSSTRtree_destroy_r(ctx, small) }
        main = nil; small = nil; mainBuilt = false; mainEntries = 0
        smallSlots.removeAll(); tail.removeAll()
        tier.removeAll(); hasMainEntry.removeAll(); lon.removeAll(); lat.removeAll(); live = 0
    }

    private func grow(to slot: Int32) {
        let need = Int(slot) + 1
        if tier.count < need {
            let extra = need - tier.count
            tier.append(contentsOf: repeatElement(0, count: extra))
            hasMainEntry.append(contentsOf: repeatElement(false, count: extra))
            lon.append(contentsOf: repeatElement(0, count: extra))
            lat.append(contentsOf: repeatElement(0, count: extra))
        }
    }

    public func insert(slots: [Int32], lonlat: UnsafeBufferPointer<Double>) {
        guard !slots.isEmpty else { return }
        if let m = slots.max() { grow(to: m) }
        for i in slots.indices { place(slots[i], lonlat[2 * i], lonlat[2 * i + 1]) }
        compactIfNeeded()
    }

    public func set(_ slot: Int32, lon x: Double, lat y: Double) {
        grow(to: slot)
        place(slot, x, y)
        compactIfNeeded()
    }

    /// Records a slot's position. Until the main tree is first queried GEOS accepts inserts, so a
    /// slot goes straight into it (once: a second entry for the slot would be reported twice);
    /// after that, changes go to the tail.
    @inline(__always)
    private func place(_ slot: Int32, _ x: Double, _ y: Double) {
        let s = Int(slot)
        if tier[s] == Tier.none.rawValue { live += 1 }
        lon[s] = x; lat[s] = y
        if !mainBuilt && !hasMainEntry[s] {
            if main == nil { main = GEOSSTRtree_create_r(ctx, 10) }
            if tier[s] == Tier.tail.rawValue { dropFromTail(slot) }
            hasMainEntry[s] = true
            insertPoint(main!, slot, x, y)
            mainEntries += 1
            tier[s] = Tier.main.rawValue
        } else {
            putInTail(slot, x, y)
        }
    }

    public func remove(_ slot: Int32) {
        let s = Int(slot)
        guard s < tier.count, tier[s] != Tier.none.rawValue else { return }
        if tier[s] == Tier.tail.rawValue { dropFromTail(slot) }
        tier[s] = Tier.none.rawValue
        live -= 1
    }

    /// Records the slot's new position in the tail, which stays sorted by longitude.
    private func putInTail(_ slot: Int32, _ x: Double, _ y: Double) {
        if tier[Int(slot)] == Tier.tail.rawValue { dropFromTail(slot) }
        tier[Int(slot)] = Tier.tail.rawValue
        tail.insert(TailEntry(slot: slot, lon: x, lat: y), at: tailLowerBound(x))
    }

    private func dropFromTail(_ slot: Int32) {
        if let i = tail.firstIndex(where: { $0.slot == slot }) { tail.remove(at: i) }
    }

    /// The first tail position whose longitude is >= lon.
    @inline(__always)
    private func tailLowerBound(_ lon: Double) -> Int {
        var lo = 0, hi = tail.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tail[mid].lon < lon { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private func compactIfNeeded() {
        guard tail.count > tailLimit else { return }
        // Everything changed since main was built, still current: rebuild the small tree.
        var moved: [Int32] = []
        moved.reserveCapacity(smallSlots.count + tail.count)
        for s in smallSlots where tier[Int(s)] == Tier.small.rawValue { moved.append(s) }
        for e in tail {
            tier[Int(e.slot)] = Tier.small.rawValue
            moved.append(e.slot)
        }
        tail.removeAll(keepingCapacity: true)
        if moved.count > smallLimit || main == nil {
            rebuildMain()
            return
        }
        if let small { GEOSSTRtree_destroy_r(ctx, small) }
        small = GEOSSTRtree_create_r(ctx, 10)
        for s in moved { insertPoint(small!, s, lon[Int(s)], lat[Int(s)]) }
        smallSlots = moved
        smallRebuilds += 1
    }

    /// Builds the main tree anew from every live slot.
    private func rebuildMain() {
        if let main { GEOSSTRtree_destroy_r(ctx, main) }
        if let small { GEOSSTRtree_destroy_r(ctx, small) }
        small = nil; smallSlots.removeAll(); tail.removeAll()
        let tree = GEOSSTRtree_create_r(ctx, 10)!
        var n = 0
        for s in 0..<tier.count {
            hasMainEntry[s] = tier[s] != Tier.none.rawValue
            guard hasMainEntry[s] else { continue }
            insertPoint(tree, Int32(s), lon[s], lat[s])
            tier[s] = Tier.main.rawValue
            n += 1
        }
        main = tree; mainEntries = n; mainBuilt = false
        mainRebuilds += 1
    }

    @inline(__always)
    private func insertPoint(_ tree: OpaquePointer, _ slot: Int32, _ x: Double, _ y: Double) {
        let g = GEOSGeom_createPointFromXY_r(ctx, x, y)
        // The tree copies the envelope; the item is the slot + 1 (never a null pointer).
        GEOSSTRtree_insert_r(ctx, tree, g, UnsafeMutableRawPointer(bitPattern: Int(slot) + 1))
        GEOSGeom_destroy_r(ctx, g)
    }

    // MARK: - Queries

    private struct Query {
        var minX, minY, maxX, maxY: Double
        var want: UInt8
        var tier: UnsafePointer<UInt8>
        var lon: UnsafePointer<Double>
        var lat: UnsafePointer<Double>
        var out: UnsafeMutablePointer<[Int32]>
    }

    public func query(_ box: GeoBox, into out: inout [Int32]) {
        guard live > 0 else { return }
        tier.withUnsafeBufferPointer { t in
            lon.withUnsafeBufferPointer { xs in
                lat.withUnsafeBufferPointer { ys in
                    withUnsafeMutablePointer(to: &out) { o in
                        var q = Query(minX: box.minLon, minY: box.minLat, maxX: box.maxLon, maxY: box.maxLat,
                                      want: 0, tier: t.baseAddress!, lon: xs.baseAddress!, lat: ys.baseAddress!, out: o)
                        if main != nil || small != nil, let rect = queryEnvelope(box) {
                            if let main {
                                q.want = Tier.main.rawValue
                                queryTree(main, rect, &q)
                                mainBuilt = true
                            }
                            if let small {
                                q.want = Tier.small.rawValue
                                queryTree(small, rect, &q)
                            }
                            GEOSGeom_destroy_r(ctx, rect)
                        }
                        var i = tailLowerBound(box.minLon)
                        while i < tail.count && tail[i].lon <= box.maxLon {
                            if tail[i].lat >= box.minLat && tail[i].lat <= box.maxLat { o.pointee.append(tail[i].slot) }
                            i += 1
                        }
                    }
                }
            }
        }
    }

    /// A geometry whose envelope is the box, as cheap as GEOS allows: a two-point line string
    /// from the corners (two allocations fewer than a rectangle polygon).
    @inline(__always)
    private func queryEnvelope(_ box: GeoBox) -> OpaquePointer? {
        var corners = (box.minLon, box.minLat, box.maxLon, box.maxLat)
        let seq = withUnsafePointer(to: &corners) {
            $0.withMemoryRebound(to: Double.self, capacity: 4) { GEOSCoordSeq_copyFromBuffer_r(ctx, $0, 2, 0, 0) }
        }
        guard let seq else { return nil }
        return GEOSGeom_createLineString_r(ctx, seq)
    }

    private func queryTree(_ tree: OpaquePointer, _ rect: OpaquePointer, _ q: inout Query) {
        withUnsafeMutablePointer(to: &q) { qp in
            GEOSSTRtree_query_r(ctx, tree, rect, { item, user in
                guard let item, let user else { return }
                let q = user.assumingMemoryBound(to: Query.self)
                let s = Int(bitPattern: item) - 1
                // A tree entry is current exactly when the slot's tier is still this tree's: any
                // change since the tree was built moved the slot to the tail. Its envelope is then
                // the point itself, which GEOS has already tested against the box, so the slot's
                // coordinates need not be read again (they would cost a cache miss per hit).
                if q.pointee.tier[s] == q.pointee.want {
                    q.pointee.out.pointee.append(Int32(truncatingIfNeeded: s))
                }
            }, qp)
        }
    }
}
