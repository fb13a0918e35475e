import Foundation

/// Spherical Web Mercator in "world points": the world is 256·2^zoom points wide, x east from the
/// antimeridian, y south from the top (85.0511°N). Unrounded, as the mapping libraries define it.
public enum WebMercator {
    public static let maxLatitude = 85.0511287798066

    @inline(__always)
    public static func worldSize(zoom: Double) -> Double { 256 * exp2(zoom) }

    /// World point of (lon, lat) at a world size; lon is used as given (not wrapped).
    @inline(__always)
    public static func project(lon: Double, lat: Double, worldSize: Double) -> (x: Double, y: Double) {
        let x = (lon + 180) / 360 * worldSize
        let s = sin(lat * Sphere.radians)
        // y = (0.5 - ln(tan(π/4 + φ/2)) / 2π) · size, written with atanh for accuracy.
        let y = (0.5 - atanh(s) / (2 * Double.pi)) * worldSize
        return (x, y)
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
