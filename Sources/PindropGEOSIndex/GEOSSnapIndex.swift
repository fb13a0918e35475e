import CGEOS
import PindropCore

/// The snap layers' vertices and segments in a GEOS STRtree (behaviour 24), in the normalised Web
/// Mercator plane. Built once per change of the layers: GEOS 3.11 builds a tree on its first
/// query and must never receive an insert after that (SPEC §4), so `build` replaces the tree. A
/// query returns the items whose envelopes meet the box; Core ranks them (SnapTargets.nearest),
/// as it ranks PindropSwiftIndex's answers in pindrop.wasm.
final class GEOSSnapIndex: SnapIndex {
    private let context: GEOSContext
    private var ctx: GEOSContextHandle_t { context.handle }
    private var tree: OpaquePointer?
    static let nodeCapacity: Int = 10

    init(context: GEOSContext) { self.context = context }

    deinit {
        if let tree { GEOSSTRtree_destroy_r(ctx, tree) }
        if let c = cached { GEOSGeom_destroy_r(ctx, c.geometry) }
    }

    func build(boxes: UnsafeBufferPointer<Double>) {
        if let old = tree { GEOSSTRtree_destroy_r(ctx, old); tree = nil }
        let n = boxes.count / 4
        guard n > 0, let t = GEOSSTRtree_create_r(ctx, GEOSSnapIndex.nodeCapacity) else { return }
        tree = t
        for i in 0..<n {
            guard let g = envelope(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]) else { continue }
            // The tree copies the envelope; the item is the index + 1 (never a null pointer).
            GEOSSTRtree_insert_r(ctx, t, g, UnsafeMutableRawPointer(bitPattern: i + 1))
            GEOSGeom_destroy_r(ctx, g)
        }
        // Build it now, once, rather than in the first drag move.
        if let probe = GEOSGeom_createPointFromXY_r(ctx, -1, -1) {
            GEOSSTRtree_query_r(ctx, t, probe, { _, _ in }, nil)
            GEOSGeom_destroy_r(ctx, probe)
        }
    }

    func query(minX: Double, minY: Double, maxX: Double, maxY: Double, into out: inout [Int32]) {
        guard let tree, let box = queryGeometry(minX, minY, maxX, maxY) else { return }
        withUnsafeMutablePointer(to: &out) { op in
            GEOSSTRtree_query_r(ctx, tree, box, { item, user in
                guard let item, let user else { return }
                user.assumingMemoryBound(to: [Int32].self).pointee.append(Int32(truncatingIfNeeded: Int(bitPattern: item) - 1))
            }, op)
        }
    }

    /// The query geometry of a box, grown outward to a grid of a quarter of its size: the moves of
    /// a drag ask boxes a fraction of a point apart, which then share one geometry (GEOS 3.11 is
    /// queried with a geometry, and making one allocates). The few items of the grown box beyond
    /// the asked one are measured and dropped by the ranking, as any item beyond the tolerance.
    private func queryGeometry(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> OpaquePointer? {
        @inline(__always) func step(_ w: Double) -> Double {
            w > 0 && w.isFinite ? Double(sign: .plus, exponent: (w / 4).exponent, significand: 1) : 0
        }
        let sx = step(x1 - x0), sy = step(y1 - y0)
        let b = (sx > 0 ? (x0 / sx).rounded(.down) * sx : x0, sy > 0 ? (y0 / sy).rounded(.down) * sy : y0,
                 sx > 0 ? (x1 / sx).rounded(.up) * sx : x1, sy > 0 ? (y1 / sy).rounded(.up) * sy : y1)
        if let c = cached, c.box == b { return c.geometry }
        guard let g = envelope(b.0, b.1, b.2, b.3) else { return nil }
        if let c = cached { GEOSGeom_destroy_r(ctx, c.geometry) }
        cached = (b, g)
        return g
    }
    private var cached: (box: (Double, Double, Double, Double), geometry: OpaquePointer)?

    /// A geometry whose envelope is the box: a point when it is one, else its diagonal as a
    /// two-point line string (fewer allocations than a rectangle).
    private func envelope(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> OpaquePointer? {
        if x0 == x1 && y0 == y1 { return GEOSGeom_createPointFromXY_r(ctx, x0, y0) }
        var corners = (x0, y0, x1, y1)
        let seq = withUnsafePointer(to: &corners) {
            $0.withMemoryRebound(to: Double.self, capacity: 4) { GEOSCoordSeq_copyFromBuffer_r(ctx, $0, 2, 0, 0) }
        }
        guard let seq else { return nil }
        return GEOSGeom_createLineString_r(ctx, seq)
    }
}
