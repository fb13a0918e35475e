#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Geodesy on the Web Mercator sphere (radius 6378137 m), the only earth model pindrop uses.
public enum Sphere {
    public static let radius = 6378137.0
    static let degrees = 180.0 / Double.pi
    static let radians = Double.pi / 180.0

    /// Great-circle distance in metres (haversine: accurate at small distances).
    @inline(__always)
    public static func distance(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let p1 = lat1 * radians, p2 = lat2 * radians
        let sdp = sin((p2 - p1) / 2), sdl = sin((lon2 - lon1) * radians / 2)
        let h = sdp * sdp + cos(p1) * cos(p2) * sdl * sdl
        return 2 * radius * asin(min(1, h.squareRoot()))
    }

    /// The initial bearing of the great circle from (lon1, lat1) to (lon2, lat2), in degrees
    /// clockwise from north in [0, 360); 0 for the same point.
    public static func bearing(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let p1 = lat1 * radians, p2 = lat2 * radians, dl = (lon2 - lon1) * radians
        let y = sin(dl) * cos(p2), x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        guard y != 0 || x != 0 else { return 0 }
        let b = atan2(y, x) * degrees
        return b < 0 ? (b + 360 < 360 ? b + 360 : 0) : b
    }

    /// The distance (metres) and initial bearing (degrees) between two checked coordinates
    /// (`pindrop_distance`): the facts a host's announcement of a move is made of.
    public static func measure(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) throws(PindropError)
        -> (metres: Double, bearing: Double) {
        try checkLonLat(lon1, lat1, "from")
        try checkLonLat(lon2, lat2, "to")
        return (distance(lon1, lat1, lon2, lat2), bearing(lon1, lat1, lon2, lat2))
    }

    /// The point `distance` metres from (lon, lat) along the initial `bearing` (radians clockwise
    /// from north): the great-circle destination formula. Longitude is normalised to [-180, 180].
    public static func destination(lon: Double, lat: Double, bearing: Double, distance: Double) -> (lon: Double, lat: Double) {
        let d = distance / radius
        let p1 = lat * radians, l1 = lon * radians
        let sinP2 = sin(p1) * cos(d) + cos(p1) * sin(d) * cos(bearing)
        let p2 = asin(max(-1, min(1, sinP2)))
        let l2 = l1 + atan2(sin(bearing) * sin(d) * cos(p1), cos(d) - sin(p1) * sinP2)
        return (normalizeLon(l2 * degrees), p2 * degrees)
    }

    /// Wraps a longitude into [-180, 180] (180 stays 180).
    @inline(__always)
    public static func normalizeLon(_ lon: Double) -> Double {
        if lon >= -180 && lon <= 180 { return lon }
        var l = fmod(lon + 180, 360)
        if l < 0 { l += 360 }
        return l - 180
    }

    /// A box in degrees that holds every point within `meters` of (lon, lat); the longitude range
    /// may extend past ±180 (callers split it) and covers everything near a pole.
    public static func boundingBox(lon: Double, lat: Double, meters: Double) -> GeoBox {
        let d = meters / radius
        let dLat = d * degrees
        let south = lat - dLat, north = lat + dLat
        if south <= -90 || north >= 90 || d >= Double.pi / 2 {
            return GeoBox(minLon: -180, minLat: max(-90, south), maxLon: 180, maxLat: min(90, north))
        }
        // The widest longitude reached by a spherical cap of angular radius d centred at lat.
        let s = sin(d) / cos(lat * radians)
        if s >= 1 { return GeoBox(minLon: -180, minLat: south, maxLon: 180, maxLat: north) }
        let dLon = asin(s) * degrees * (1 + 1e-12) + 1e-12
        return GeoBox(minLon: lon - dLon, minLat: south, maxLon: lon + dLon, maxLat: north)
    }
}

/// A longitude/latitude rectangle in degrees. minLon may be below -180 or maxLon above 180 for a
/// box that crosses the antimeridian; `split` turns it into at most two boxes inside the world.
public struct GeoBox: Sendable, Equatable {
    public var minLon, minLat, maxLon, maxLat: Double

    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon; self.minLat = minLat; self.maxLon = maxLon; self.maxLat = maxLat
    }

    /// Calls `body` with one or two boxes inside [-180, 180] covering this one.
    @inline(__always)
    public func split(_ body: (GeoBox) -> Void) {
        let lat0 = max(-90, minLat), lat1 = min(90, maxLat)
        guard lat0 <= lat1, minLon <= maxLon else { return }
        if maxLon - minLon >= 360 {
            body(GeoBox(minLon: -180, minLat: lat0, maxLon: 180, maxLat: lat1)); return
        }
        var lo = minLon, hi = maxLon
        if lo < -180 || lo > 180 {  // move the box so that it starts inside the world
            let n = Sphere.normalizeLon(lo); hi += n - lo; lo = n
        }
        if hi <= 180 {
            body(GeoBox(minLon: lo, minLat: lat0, maxLon: hi, maxLat: lat1))
        } else {
            body(GeoBox(minLon: lo, minLat: lat0, maxLon: 180, maxLat: lat1))
            body(GeoBox(minLon: -180, minLat: lat0, maxLon: min(180, hi - 360), maxLat: lat1))
        }
    }
}
