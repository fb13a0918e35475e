import Foundation

/// Web Mercator with a turned camera, written out from the textbook formulas and nothing of the
/// library's (Snyder's forward and inverse in world points of a 256·2^zoom square, then a plain
/// rotation of the screen offset): the oracle of the tests on rotated maps, host-less nudges and
/// spread rings. Bearing is the camera's, clockwise in degrees: the map turns the other way, so a
/// point due north of the centre is drawn up and to the left at bearing 30.
enum TurnedMercator {
    /// World points of (lon, lat) at `zoom`: x east from the antimeridian, y south from the top.
    static func world(_ lon: Double, _ lat: Double, zoom: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, zoom)
        let phi = lat * .pi / 180
        return ((lon + 180) / 360 * size, (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * size)
    }

    /// The inverse of `world`: φ = 2·atan(e^(π(1 − 2y))) − π/2.
    static func lonLat(worldX x: Double, worldY y: Double, zoom: Double) -> (lon: Double, lat: Double) {
        let size = 256 * pow(2, zoom)
        return (x / size * 360 - 180, (2 * atan(exp(.pi * (1 - 2 * y / size))) - .pi / 2) * 180 / .pi)
    }

    /// A screen offset (dx right, dy down) on a view turned by `bearingDeg`, as a world offset.
    static func worldOffset(dx: Double, dy: Double, bearingDeg: Double) -> (x: Double, y: Double) {
        let b = bearingDeg * .pi / 180
        return (dx * cos(b) - dy * sin(b), dx * sin(b) + dy * cos(b))
    }

    /// The screen point of (lon, lat) for a camera centred on (cLon, cLat).
    static func screen(_ lon: Double, _ lat: Double, cLon: Double, cLat: Double, zoom: Double, bearingDeg: Double,
                       width: Double, height: Double) -> (x: Double, y: Double) {
        let p = world(lon, lat, zoom: zoom), c = world(cLon, cLat, zoom: zoom)
        let wx = p.x - c.x, wy = p.y - c.y, b = bearingDeg * .pi / 180
        // The inverse rotation of worldOffset.
        return (width / 2 + wx * cos(b) + wy * sin(b), height / 2 - wx * sin(b) + wy * cos(b))
    }

    /// The lon/lat under a screen point for a camera centred on (cLon, cLat).
    static func lonLat(x: Double, y: Double, cLon: Double, cLat: Double, zoom: Double, bearingDeg: Double,
                       width: Double, height: Double) -> (lon: Double, lat: Double) {
        let c = world(cLon, cLat, zoom: zoom)
        let o = worldOffset(dx: x - width / 2, dy: y - height / 2, bearingDeg: bearingDeg)
        return lonLat(worldX: c.x + o.x, worldY: c.y + o.y, zoom: zoom)
    }

    /// Where (lon, lat) goes when moved by (dx, dy) screen points on a view turned by `bearingDeg`.
    static func moved(_ lon: Double, _ lat: Double, dx: Double, dy: Double, zoom: Double,
                      bearingDeg: Double = 0) -> (lon: Double, lat: Double) {
        let p = world(lon, lat, zoom: zoom), o = worldOffset(dx: dx, dy: dy, bearingDeg: bearingDeg)
        return lonLat(worldX: p.x + o.x, worldY: p.y + o.y, zoom: zoom)
    }

    /// How far apart two coordinates are in world points at `zoom`.
    static func worldDistance(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double), zoom: Double) -> Double {
        let p = world(a.lon, a.lat, zoom: zoom), q = world(b.lon, b.lat, zoom: zoom)
        return hypot(p.x - q.x, p.y - q.y)
    }
}

/// The sphere of radius 6378137 m by its textbook formulas (haversine distance, great-circle
/// destination), apart from the library's `Sphere`.
enum TextbookSphere {
    static let radius = 6378137.0

    static func haversine(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
        let p1 = a.lat * .pi / 180, p2 = b.lat * .pi / 180, dl = (b.lon - a.lon) * .pi / 180
        let h = pow(sin((p2 - p1) / 2), 2) + cos(p1) * cos(p2) * pow(sin(dl / 2), 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// The point `metres` from (lon, lat) along the great circle leaving at `bearing` radians
    /// clockwise from north.
    static func destination(_ lon: Double, _ lat: Double, bearing: Double, metres: Double) -> (lon: Double, lat: Double) {
        let d = metres / radius, p1 = lat * .pi / 180, l1 = lon * .pi / 180
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(bearing))
        let l2 = l1 + atan2(sin(bearing) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        return (l2 * 180 / .pi, p2 * 180 / .pi)
    }
}
