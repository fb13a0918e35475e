import PindropCore

/// An allowed area in plain Swift, read from WKT or GeoJSON: the WebAssembly module's GEOSArea.
///
/// The same text is accepted and refused as GEOSArea does (AreaText reads it, AreaValidity checks
/// the OGC rules GEOSisValid checks), and a point tests as inside by GEOS's own rule for a
/// prepared polygon and a point: a ray-crossing count over the rings' edges (IndexedPointInArea-
/// Locator with RayCrossingCounter), with GEOS's orientation predicate, so points on an edge or a
/// vertex are inside and a point a hair away is decided alike. Snapping is AreaRings'
/// nearest-boundary search, shared with GEOSArea. Features of a collection are not united as
/// GEOS unites them: a point is inside when a feature holds it, and snapping looks at every
/// feature's rings (the same answers but where features overlap: see docs/web.md).
public final class SwiftArea: AllowedArea {
    public let rings: AreaRings
    /// One part per feature (a single Polygon or MultiPolygon is one part).
    private let parts: [Part]

    /// The edges of one part's rings, found by latitude band for the crossing count.
    private struct Part {
        var xs: [Double] = [], ys: [Double] = []
        /// Edge e joins vertices e and e + 1.
        var edges: [Int32] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var bandStart: [Int32] = []
        var bandEdges: [Int32] = []
        var bandHeight = 1.0

        init(_ polygons: [[[Double]]]) {
            for polygon in polygons {
                for ring in polygon {
                    let first = xs.count
                    let n = ring.count / 2
                    for i in 0..<n {
                        let x = ring[2 * i], y = ring[2 * i + 1]
                        xs.append(x); ys.append(y)
                        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    }
                    if n >= 2 { for e in first..<(first + n - 1) { edges.append(Int32(e)) } }
                }
            }
            let bands = max(1, min(4096, edges.count / 4))
            bandHeight = maxY > minY ? (maxY - minY) / Double(bands) : 1
            var counts = [Int32](repeating: 0, count: bands + 1)
            for e in edges {
                let (b0, b1) = range(e, bands)
                for b in b0...b1 { counts[b + 1] += 1 }
            }
            for b in 0..<bands { counts[b + 1] += counts[b] }
            bandStart = counts
            var fill = counts
            bandEdges = [Int32](repeating: 0, count: Int(counts[bands]))
            for e in edges {
                let (b0, b1) = range(e, bands)
                for b in b0...b1 { bandEdges[Int(fill[b])] = e; fill[b] += 1 }
            }
        }

        private func range(_ e: Int32, _ bands: Int) -> (Int, Int) {
            let y0 = ys[Int(e)], y1 = ys[Int(e) + 1]
            return (band(min(y0, y1), bands), band(max(y0, y1), bands))
        }

        @inline(__always)
        func band(_ y: Double, _ bands: Int) -> Int {
            let b = ((y - minY) / bandHeight).rounded(.down)
            return b <= 0 ? 0 : (b >= Double(bands - 1) ? bands - 1 : Int(b))
        }

        /// GEOS's RayCrossingCounter over the edges whose latitude band holds y: interior or
        /// boundary.
        func contains(_ x: Double, _ y: Double) -> Bool {
            guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return false }
            let b = band(y, bandStart.count - 1)
            var crossings = 0
            for k in Int(bandStart[b])..<Int(bandStart[b + 1]) {
                let e = Int(bandEdges[k])
                let p1x = xs[e], p1y = ys[e], p2x = xs[e + 1], p2y = ys[e + 1]
                if p1x < x && p2x < x { continue }
                if x == p2x && y == p2y { return true }
                if p1y == y && p2y == y {
                    if x >= min(p1x, p2x) && x <= max(p1x, p2x) { return true }
                    continue
                }
                if (p1y > y && p2y <= y) || (p2y > y && p1y <= y) {
                    var o = Orientation.index(p1x, p1y, p2x, p2y, x, y)
                    if o == 0 { return true }
                    if p2y < p1y { o = -o }
                    if o == 1 { crossings += 1 }
                }
            }
            return crossings & 1 == 1
        }
    }

    /// Reads WKT or GeoJSON (see GEOSArea for what is accepted).
    public convenience init(text: String) throws(PindropError) {
        let geometry = try AreaText.read(text)
        try self.init(geometry: geometry)
    }

    init(geometry: AreaGeometry) throws(PindropError) {
        try AreaValidity.checkPolygons(geometry)
        let features: [[[[Double]]]]
        switch geometry {
        case .polygon(let p): features = [[p]]
        case .multiPolygon(let ps): features = [ps]
        case .collection:
            var all: [[[[Double]]]] = []
            func flatten(_ g: AreaGeometry) {
                switch g {
                case .polygon(let p): all.append([p])
                case .multiPolygon(let ps): all.append(ps)
                case .collection(let parts): for q in parts { flatten(q) }
                case .other: break  // refused by checkPolygons
                }
            }
            flatten(geometry)
            features = all
        case .other(let name):
            throw PindropError(.parse, "the area must be a Polygon or MultiPolygon, not a \(name)")
        }
        var r = AreaRings()
        for f in features {
            for polygon in f {
                for ring in polygon {
                    var i = 0
                    while i + 1 < ring.count {
                        let x = ring[i], y = ring[i + 1]
                        guard x.isFinite, y.isFinite, x >= -180, x <= 180, y >= -90, y <= 90 else {
                            throw PindropError(.parse, "area vertex (\(x), \(y)) is not a lon/lat coordinate")
                        }
                        i += 2
                    }
                    ring.withUnsafeBufferPointer { r.appendRing($0) }
                }
            }
        }
        guard r.vertexCount > 0 else { throw PindropError(.parse, "the area has no vertices") }
        rings = r
        parts = features.map { Part($0) }
    }

    public func contains(lon: Double, lat: Double) -> Bool {
        guard rings.boxContains(lon: lon, lat: lat) else { return false }
        for p in parts where p.contains(lon, lat) { return true }
        return false
    }

    public func nearestInside(lon: Double, lat: Double) -> (lon: Double, lat: Double) {
        rings.nearestInside(lon: lon, lat: lat) { self.contains(lon: $0, lat: $1) }
    }
}
