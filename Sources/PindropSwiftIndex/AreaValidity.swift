import PindropCore

/// The checks GEOSArea makes of a geometry before it becomes an area: only polygons, none empty,
/// each valid under the OGC rules GEOSisValid applies, with GEOSisValidReason's wording.
enum AreaValidity {
    static func checkPolygons(_ g: AreaGeometry) throws(PindropError) {
        switch g {
        case .polygon(let p):
            guard !p.isEmpty else { throw PindropError(.parse, "the area is an empty Polygon") }
            try check([p], "Polygon")
        case .multiPolygon(let ps):
            let nonEmpty = ps.filter { !$0.isEmpty }
            guard !nonEmpty.isEmpty else { throw PindropError(.parse, "the area is an empty MultiPolygon") }
            try check(nonEmpty, "MultiPolygon")
        case .collection(let parts):
            guard !parts.isEmpty else { throw PindropError(.parse, "the area holds no polygon (an empty collection)") }
            for (i, part) in parts.enumerated() {
                do throws(PindropError) {
                    try checkPolygons(part)
                } catch {
                    throw PindropError(error.status, "feature \(i): \(error.message)")
                }
            }
        case .other(let name):
            throw PindropError(.parse, "the area must be a Polygon or MultiPolygon, not a \(name)")
        }
    }

    private static func invalid(_ type: String, _ reason: String, _ x: Double, _ y: Double) -> PindropError {
        PindropError(.parse, "the area's \(type) is invalid: \(reason)[\(x) \(y)]")
    }

    /// Polygons given as rings of interleaved lon, lat, each closed with at least 4 points.
    static func check(_ polygons: [[[Double]]], _ type: String) throws(PindropError) {
        // Coordinates, then rings with too few distinct points.
        for polygon in polygons {
            for ring in polygon {
                var i = 0
                while i + 1 < ring.count {
                    guard ring[i].isFinite, ring[i + 1].isFinite else { throw invalid(type, "Invalid Coordinate", ring[i], ring[i + 1]) }
                    i += 2
                }
            }
        }
        var cleaned: [[[Double]]] = []
        for polygon in polygons {
            var rings: [[Double]] = []
            for ring in polygon {
                let r = withoutRepeats(ring)
                guard r.count / 2 >= 4 else { throw invalid(type, "Too few points", ring[0], ring[1]) }
                rings.append(r)
            }
            cleaned.append(rings)
        }
        try Intersections.check(cleaned, type)
        try Nesting.check(cleaned, type)
    }

    /// The ring without consecutive repeated points.
    static func withoutRepeats(_ ring: [Double]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(ring.count)
        var i = 0
        while i + 1 < ring.count {
            let n = out.count
            if n < 2 || out[n - 2] != ring[i] || out[n - 1] != ring[i + 1] { out.append(ring[i]); out.append(ring[i + 1]) }
            i += 2
        }
        return out
    }
}
