import PindropCore

/// An allowed area in plain Swift: rings tested by the crossing rule (even-odd, boundary inside).
/// The oracle and stand-in for GEOS in Core's tests (areas are built directly; nothing parses text).
public final class PolygonArea: AllowedArea {
    public let rings: AreaRings

    /// `polygons`: for each polygon its exterior ring then its holes, as (lon, lat) points.
    public init(polygons: [[[(lon: Double, lat: Double)]]]) throws(PindropError) {
        var r = AreaRings()
        for polygon in polygons {
            for ring in polygon {
                guard ring.count >= 3 else { throw PindropError(.parse, "a ring needs at least 3 points (got \(ring.count))") }
                for p in ring where !(p.lon >= -180 && p.lon <= 180 && p.lat >= -90 && p.lat <= 90) {
                    throw PindropError(.invalidArgument, "area vertex (\(p.lon), \(p.lat)) is not a coordinate")
                }
                r.appendRing(ring)
            }
        }
        guard r.vertexCount > 0 else { throw PindropError(.parse, "the area is empty") }
        rings = r
    }

    public func contains(lon x: Double, lat y: Double) -> Bool {
        guard rings.boxContains(lon: x, lat: y) else { return false }
        var inside = false
        var start = 0
        let xs = rings.lon, ys = rings.lat
        for end in rings.ringEnd {
            var i = start
            while i + 1 < end {
                let ax = xs[i], ay = ys[i], bx = xs[i + 1], by = ys[i + 1]
                // On the segment: collinear and within its box.
                if (bx - ax) * (y - ay) == (by - ay) * (x - ax),
                   x >= min(ax, bx), x <= max(ax, bx), y >= min(ay, by), y <= max(ay, by) { return true }
                if (ay > y) != (by > y), x < ax + (y - ay) * (bx - ax) / (by - ay) { inside.toggle() }
                i += 1
            }
            start = end
        }
        return inside
    }

    public func nearestInside(lon: Double, lat: Double) -> (lon: Double, lat: Double) {
        rings.nearestInside(lon: lon, lat: lat) { self.contains(lon: $0, lat: $1) }
    }
}
