#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The compact spreading rule (`PINDROP_SPREAD_SPIRAL`, docs/spreading.md): a group is laid out in
/// screen points around its centre, so it keeps its size at every zoom.
///
/// With s = spacing / 25, pin k of n (in id order) is placed:
/// - n < 9: on a circle of radius max(spacing, spacing·(n+2)/(2π)) at bearing 2πk/n;
/// - n >= 9: on Leaflet.markercluster's spiral: L = 11s, A = 0; for k = n down to 0: if k < n,
///   pin k at distance L, bearing A; then A += 28s/L + 0.0005k; L += 5s·2π/A.
///
/// Bearings are radians clockwise from north. Offsets are returned for a north-up screen (x right,
/// y down): dx = d·sin(bearing), dy = -d·cos(bearing). A group of one is not spread.
public enum SpiralRule {
    /// `spread_spacing`'s default, in points.
    public static let defaultSpacing = 25.0
    /// Groups of this many pins or more are laid out on the spiral, smaller ones on a circle.
    public static let spiralFrom = 9
    /// Spacings above this many points (2^40: wider than the world at zoom 30, 2^38 points) lay
    /// out as this one: the layout already wraps round the world many times over, and a larger
    /// spacing (up to the largest double) would overflow the offsets to infinities.
    public static let maxSpacing = 1_099_511_627_776.0

    /// Calls `body(k, dx, dy)` with the offset in points of every pin k of a group of n >= 2.
    /// The spiral is generated from the outside in order of k = n-1 down to 0, as the rule reads.
    @inline(__always)
    public static func forEachOffset(n: Int, spacing: Double, _ body: (Int, Double, Double) -> Void) {
        guard n >= 2 else { return }
        let spacing = min(spacing, maxSpacing)
        if n < spiralFrom {
            let r = max(spacing, spacing * Double(n + 2) / (2 * Double.pi))
            for k in 0..<n {
                let a = 2 * Double.pi * Double(k) / Double(n)
                body(k, r * sin(a), -r * cos(a))
            }
            return
        }
        let s = spacing / 25
        var length = 11 * s, angle = 0.0
        for k in stride(from: n, through: 0, by: -1) {
            if k < n { body(k, length * sin(angle), -length * cos(angle)) }
            angle += 28 * s / length + 0.0005 * Double(k)
            length += 5 * s * 2 * Double.pi / angle
        }
    }

    /// The offsets of a group of n as an array of (dx, dy) in id order; (0, 0) for n = 1.
    public static func offsets(n: Int, spacing: Double) -> [(dx: Double, dy: Double)] {
        var out = [(dx: Double, dy: Double)](repeating: (0, 0), count: max(0, n))
        forEachOffset(n: n, spacing: spacing) { k, dx, dy in out[k] = (dx, dy) }
        return out
    }

    /// Checks a spacing as `spread_spacing` takes it: finite and > 0.
    static func checkSpacing(_ spacing: Double) throws(PindropError) {
        guard spacing.isFinite, spacing > 0 else { throw .invalid("spread spacing \(spacing) must be finite and > 0") }
    }

    // MARK: - Batch

    /// `pindrop_spread_spiral`: groups n points as `SpreadRule.spread` does (tolerance, index order
    /// as id order, centre = the members' mean) and lays every group of two or more out by the rule
    /// in Web Mercator screen points at `zoom` (256-point tiles), written back as lon/lat. `out` may
    /// be the same memory as `lonlat`. All or nothing: bad input throws before anything is written.
    public static func spread(lonlat: UnsafeBufferPointer<Double>, tolerance: Double, spacing: Double, zoom: Double,
                              into out: UnsafeMutableBufferPointer<Double>) throws(PindropError) {
        try checkSpacing(spacing)
        guard zoom.isFinite, zoom >= 0, zoom <= 30 else { throw .invalid("zoom \(zoom) is outside [0, 30]") }
        let world = WebMercator.worldSize(zoom: zoom)
        try SpreadRule.spread(lonlat: lonlat, tolerance: tolerance, into: out) { lon, lat, n, place throws(PindropError) in
            guard abs(lat) <= WebMercator.maxLatitude else {
                throw .invalid("a group of \(n) at latitude \(lat) is beyond Web Mercator's ±\(WebMercator.maxLatitude)°")
            }
            let c = WebMercator.project(lon: lon, lat: lat, worldSize: world)
            forEachOffset(n: n, spacing: spacing) { k, dx, dy in
                let p = WebMercator.unproject(x: c.x + dx, y: c.y + dy, worldSize: world)
                place(k, Sphere.normalizeLon(p.lon), p.lat)
            }
        }
    }
}
