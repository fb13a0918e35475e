import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// `Sphere.measure` (`pindrop_distance`, behaviour 20's announcements; docs/accessibility.md): the
/// distance in metres and the initial bearing in degrees clockwise from north, in [0, 360), on the
/// 6378137 m sphere. The oracle works with unit vectors (the angle between two points, and the
/// direction of the second seen from the first projected on the local north and east), apart from
/// the library's haversine and atan2 of spherical trigonometry; the points are made by the textbook
/// destination formula (`TextbookSphere`), so a round trip gives back the distance and bearing asked for.
final class SphereMeasureTests: XCTestCase {
    typealias V = (x: Double, y: Double, z: Double)

    func unit(_ lon: Double, _ lat: Double) -> V {
        let l = lon * .pi / 180, p = lat * .pi / 180
        return (cos(p) * cos(l), cos(p) * sin(l), sin(p))
    }
    func dot(_ a: V, _ b: V) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    func cross(_ a: V, _ b: V) -> V { (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }

    /// Distance (metres) and bearing (degrees in [0, 360)) by vectors.
    func oracle(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> (metres: Double, bearing: Double) {
        let a = unit(lon1, lat1), b = unit(lon2, lat2), c = cross(a, b)
        let metres = atan2(dot(c, c).squareRoot(), dot(a, b)) * TextbookSphere.radius
        let l = lon1 * .pi / 180, p = lat1 * .pi / 180
        let north: V = (-sin(p) * cos(l), -sin(p) * sin(l), cos(p)), east: V = (-sin(l), cos(l), 0)
        var deg = atan2(dot(b, east), dot(b, north)) * 180 / .pi
        if deg < 0 { deg += 360 }
        return (metres, deg)
    }

    func testDistanceAndBearingAgreeWithVectorsAndRoundTripTheDestinationFormula() throws {
        var rng = TestRng(state: 20)
        for _ in 0..<2000 {
            let lon1 = rng.uniform(-180, 180), lat1 = rng.uniform(-85, 85)
            let metres = [0.5, 30, 2_000, 300_000][rng.int(4)] * rng.uniform(0.1, 1)
            let bearing = rng.uniform(0, 2 * .pi)
            var to = TextbookSphere.destination(lon1, lat1, bearing: bearing, metres: metres)
            if to.lon > 180 { to.lon -= 360 } else if to.lon < -180 { to.lon += 360 }
            let got = try Sphere.measure(lon1, lat1, to.lon, to.lat)
            let want = oracle(lon1, lat1, to.lon, to.lat)
            let what = "from (\(lon1), \(lat1)) \(metres) m at \(bearing * 180 / .pi)°"
            XCTAssertEqual(got.metres, want.metres, accuracy: 1e-6 + 1e-9 * metres, what)
            XCTAssertEqual(got.metres, metres, accuracy: 1e-6 + 1e-9 * metres, what + ": the distance asked for")
            XCTAssertTrue(got.bearing >= 0 && got.bearing < 360, what + ": \(got.bearing)")
            // Bearings compared on the circle; the tolerance grows as the points get close.
            let tol = 1e-6 + 1e-6 / metres
            let diff = { (a: Double, b: Double) in abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180) }
            XCTAssertLessThan(diff(got.bearing, want.bearing), tol, what)
            XCTAssertLessThan(diff(got.bearing, bearing * 180 / .pi), tol, what + ": the bearing asked for")
        }
    }

    func testTheCardinalDirectionsTheSamePointAndBadInput() throws {
        XCTAssertEqual(try Sphere.measure(0, 0, 0, 1).bearing, 0, accuracy: 1e-12, "north")
        XCTAssertEqual(try Sphere.measure(0, 0, 1, 0).bearing, 90, accuracy: 1e-12, "east")
        XCTAssertEqual(try Sphere.measure(0, 1, 0, 0).bearing, 180, accuracy: 1e-12, "south")
        XCTAssertEqual(try Sphere.measure(1, 0, 0, 0).bearing, 270, accuracy: 1e-12, "west")
        XCTAssertEqual(try Sphere.measure(0, 0, 0, 1).metres, TextbookSphere.radius * .pi / 180, accuracy: 1e-6)
        XCTAssertEqual(try Sphere.measure(179.9995, 0, -179.9995, 0).bearing, 90, accuracy: 1e-9, "east across ±180")
        let same = try Sphere.measure(10, 20, 10, 20)
        XCTAssertEqual(same.metres, 0); XCTAssertEqual(same.bearing, 0)
        for (bad, side) in [((Double.nan, 0.0, 0.0, 0.0), "from"), ((0, 91, 0, 0), "from"), ((0, 0, 181, 0), "to"),
                            ((0, 0, 0, .infinity), "to")] {
            XCTAssertThrowsError(try Sphere.measure(bad.0, bad.1, bad.2, bad.3), "\(bad)") {
                let e = $0 as? PindropError
                XCTAssertEqual(e?.status, .invalidArgument)
                XCTAssertTrue(e?.message.contains(side) == true, e?.message ?? "")
            }
        }
    }
}
