import CGEOS
import PindropCore

extension GEOSPointIndex {
    /// GEOS 3.11 can only be queried with a geometry (its envelope), and making one allocates.
    /// So the last few query geometries are kept. A box wider or taller than `snapAbove` degrees
    /// (a frame's) is snapped outward to a grid of a quarter of its size (a power of two of
    /// degrees): a frame drawn again, or panned a little, reuses the geometry and allocates
    /// nothing, and hits are checked against the box itself. A smaller box (a tap's, nearby's)
    /// is used as it is: snapping would bring GEOS more candidates, each checked here at the
    /// cost of a coordinate read, which costs more than the allocation.
    struct Envelope { var minX, minY, maxX, maxY: Double; var geometry: OpaquePointer; var used: UInt64 }
    private static let envelopeCacheSize = 8
    private static let snapAbove = 0.002

    func envelope(_ box: GeoBox) -> (OpaquePointer?, exact: Bool) {
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
}
