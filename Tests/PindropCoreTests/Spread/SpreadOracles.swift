import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

// The oracles and helpers of the spreading tests (SpreadTests.swift, SpreadMapTests.swift).

/// The great-circle destination written independently of the library: rotate the unit vector of
/// the start point towards the tangent direction of the bearing by the angular distance.
func oracleDestination(lon: Double, lat: Double, bearing: Double, meters: Double) -> (lon: Double, lat: Double) {
    let r = 6378137.0, rad = Double.pi / 180
    let phi = lat * rad, lam = lon * rad
    let p = (cos(phi) * cos(lam), cos(phi) * sin(lam), sin(phi))
    let north = (-sin(phi) * cos(lam), -sin(phi) * sin(lam), cos(phi))
    let east = (-sin(lam), cos(lam), 0.0)
    let t = (north.0 * cos(bearing) + east.0 * sin(bearing),
             north.1 * cos(bearing) + east.1 * sin(bearing),
             north.2 * cos(bearing) + east.2 * sin(bearing))
    let d = meters / r
    let q = (p.0 * cos(d) + t.0 * sin(d), p.1 * cos(d) + t.1 * sin(d), p.2 * cos(d) + t.2 * sin(d))
    return (atan2(q.1, q.0) / rad, atan2(q.2, (q.0 * q.0 + q.1 * q.1).squareRoot()) / rad)
}

/// Great-circle distance by the spherical law of cosines on unit vectors (not the library's haversine).
func oracleDistance(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
    let rad = Double.pi / 180
    func v(_ p: (lon: Double, lat: Double)) -> (Double, Double, Double) {
        (cos(p.lat * rad) * cos(p.lon * rad), cos(p.lat * rad) * sin(p.lon * rad), sin(p.lat * rad))
    }
    let x = v(a), y = v(b)
    let cross = (x.1 * y.2 - x.2 * y.1, x.2 * y.0 - x.0 * y.2, x.0 * y.1 - x.1 * y.0)
    let s = (cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot()
    return 6378137.0 * atan2(s, x.0 * y.0 + x.1 * y.1 + x.2 * y.2)
}

/// Longitude difference folded into [-180, 180].
func lonDiff(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d < -180 { d += 360 }
    return d
}

func makeMap(tolerance: Double = 0, mode: Options.SpreadMode = .ring) throws -> Map {
    var o = Options()
    o.spreadToleranceM = tolerance
    o.spreadMode = mode
    return try Map(options: o, factory: BruteForceFactory())
}

/// Runs the batch rule on pairs (lon, lat).
func batch(_ points: [(Double, Double)], tolerance: Double) throws -> [(lon: Double, lat: Double)] {
    let flat = points.flatMap { [$0.0, $0.1] }
    var out = [Double](repeating: .nan, count: flat.count)
    try flat.withUnsafeBufferPointer { i in
        try out.withUnsafeMutableBufferPointer { o in
            do { try SpreadRule.spread(lonlat: i, tolerance: tolerance, into: o) } catch { throw error }
        }
    }
    return (0..<points.count).map { (out[2 * $0], out[2 * $0 + 1]) }
}

/// The status of the batch rule on `input` (.ok when it succeeds).
func spreadStatus(_ input: [Double], _ tolerance: Double, _ out: inout [Double]) -> Status {
    input.withUnsafeBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in
            do throws(PindropError) { try SpreadRule.spread(lonlat: i, tolerance: tolerance, into: o); return .ok } catch { return error.status }
        }
    }
}
