#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spherical Web Mercator in "world points": the world is 256·2^zoom points wide, x east from the
/// antimeridian, y south from the top (85.0511°N). Unrounded, as the mapping libraries define it.
public enum WebMercator {
    public static let maxLatitude = 85.0511287798066

    @inline(__always)
    public static func worldSize(zoom: Double) -> Double { 256 * exp2(zoom) }

    /// World point of (lon, lat) at a world size; lon is used as given (not wrapped).
    @inline(__always)
    public static func project(lon: Double, lat: Double, worldSize: Double) -> (x: Double, y: Double) {
        scale(normalized(lon: lon, lat: lat), worldSize: worldSize)
    }

    /// The world point of (lon, lat) in a world of size 1 (x, y in [0, 1]). A pin's
    /// is computed once and kept (`PinStore.mercator`): scaled by `scale`, it gives exactly the
    /// numbers `project` gives, with no sine or atanh per projection.
    ///
    /// A latitude beyond ±maxLatitude (valid data: Web Mercator has no place for it) lies on the
    /// world's edge, y = 0 or 1, at its own longitude, as Leaflet and supercluster place it: it is
    /// drawn, hit, clustered and spread there (docs/robustness.md, "Beyond ±85.0511°"). A pole
    /// (±90°, where every longitude is one point) keeps its infinite y: no view can place it.
    @inline(__always)
    public static func normalized(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let m = unclamped(lon: lon, lat: lat)
        return (m.x, m.y.isFinite ? min(1, max(0, m.y)) : m.y)
    }

    /// The formula itself, for a point that is not a pin's coordinate but where a screen point
    /// lands (a finger's drag, a spread layout laid out on the screen): beyond ±maxLatitude it
    /// lies past the world's edge, where that screen point is.
    @inline(__always)
    public static func unclamped(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let s = sin(lat * Sphere.radians)
        // y = 0.5 - ln(tan(π/4 + φ/2)) / 2π, written with atanh for accuracy.
        return ((lon + 180) / 360, 0.5 - atanh(s) / (2 * Double.pi))
    }

    /// A normalised world point in a world of `worldSize` points.
    @inline(__always)
    public static func scale(_ m: (x: Double, y: Double), worldSize: Double) -> (x: Double, y: Double) {
        (m.x * worldSize, m.y * worldSize)
    }

    /// (lon, lat) of a world point; lon is not wrapped.
    @inline(__always)
    public static func unproject(x: Double, y: Double, worldSize: Double) -> (lon: Double, lat: Double) {
        let lon = x / worldSize * 360 - 180
        let t = (0.5 - y / worldSize) * 2 * Double.pi
        let lat = atan(sinh(t)) * Sphere.degrees
        return (lon, lat)
    }
}
