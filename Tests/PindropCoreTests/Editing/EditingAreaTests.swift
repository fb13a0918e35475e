import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Drops outside the allowed area are reverted or snapped to the nearest point inside.
final class EditingAreaTests: XCTestCase {
    typealias F = EditingFixture

    // A square of 0.02° around Lawndale: lon -118.36 ... -118.34, lat 33.89 ... 33.91.
    let west = -118.36, east = -118.34, south = 33.89, north = 33.91
    var square: [(lon: Double, lat: Double)] { [(west, south), (east, south), (east, north), (west, north)] }

    func testRevertPutsThePinBackWithoutMoved() throws {
        let m = try F.map { $0.outsidePolicy = .revert }
        m.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try m.add(id: 1, lon: -118.35, lat: 33.9)
        XCTAssertFalse(try F.move(m, 1, -118.33, 33.9))
        XCTAssertTrue(F.drain(m).isEmpty, "no MOVED, no callout, no request")
        XCTAssertTrue(try m.position(id: 1) == (-118.35, 33.9))
        XCTAssertEqual(m.undoCount, 0, "nothing to undo")
        // A tap-move outside follows the same policy; one inside goes through.
        XCTAssertFalse(try F.move(m, 1, -118.35, 33.95, cause: .tap))
        XCTAssertTrue(try F.move(m, 1, -118.345, 33.905, cause: .tap))
        XCTAssertEqual(F.drain(m).first?.cause, .tap)
    }

    func testSnapLandsOnTheEdgeNearestTheDrop() throws {
        let m = try F.map { $0.outsidePolicy = .snap }
        m.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try m.add(id: 1, lon: -118.35, lat: 33.9)
        // Dropped 0.005° east of the east edge: the nearest point inside is straight west of it.
        XCTAssertTrue(try F.move(m, 1, -118.335, 33.903))
        let moved = F.drain(m)[0]
        XCTAssertEqual(moved.kind, .moved)
        XCTAssertEqual(moved.cause, .snap)
        XCTAssertEqual(moved.fromLon, -118.35); XCTAssertEqual(moved.fromLat, 33.9)
        XCTAssertEqual(moved.lon, east, accuracy: 1e-12)
        XCTAssertEqual(moved.lat, 33.903, accuracy: 1e-12)
        let p = try m.position(id: 1)
        XCTAssertTrue(p == (moved.lon, moved.lat))
        XCTAssertTrue(m.allowedArea!.contains(lon: p.lon, lat: p.lat))
        // The snap is a user move like any other: undo takes it back exactly.
        try m.undo(time: 10)
        XCTAssertTrue(try m.position(id: 1) == (-118.35, 33.9))
    }

    func testSnapBeyondACornerLandsOnTheCorner() throws {
        let m = try F.map { $0.outsidePolicy = .snap }
        m.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try m.add(id: 1, lon: -118.35, lat: 33.9)
        try F.move(m, 1, -118.3, 33.95)
        XCTAssertTrue(try m.position(id: 1) == (east, north), "the corner vertex, bit for bit")
    }

    /// The nearest point in metres, not in degrees: at 60°N a degree of longitude is half as
    /// long as a degree of latitude. From (11, 60), polygon A lies 0.015° east (about 835 m) and
    /// polygon B 0.01° north (about 1113 m): the snap must choose A although B is nearer in degrees.
    func testSnapMeasuresMetresNotDegrees() throws {
        let a: [(lon: Double, lat: Double)] = [(11.015, 59.99), (11.05, 59.99), (11.05, 60.005), (11.015, 60.005)]
        let b: [(lon: Double, lat: Double)] = [(10.99, 60.01), (11.005, 60.01), (11.005, 60.05), (10.99, 60.05)]
        let area = try PolygonArea(polygons: [[a], [b]])
        let p = area.nearestInside(lon: 11, lat: 60)
        XCTAssertEqual(p.lon, 11.015, accuracy: 1e-12)
        XCTAssertEqual(p.lat, 60, accuracy: 1e-12)
        let oracle = Self.bruteNearest(area.rings, ne: (11, 60))
        XCTAssertEqual(Sphere.distance(11, 60, p.lon, p.lat), oracle.distance, accuracy: 0.02)
    }

    /// nearestInside against a brute-force search over densely sampled boundary points, for
    /// drops all around a concave polygon with a hole: always inside, never farther than the
    /// best sample (up to the sampling step).
    func testSnapAgreesWithABruteForceSearch() throws {
        let ring: [(lon: Double, lat: Double)] = [(0, 0), (0.01, 0), (0.01, 0.004), (0.004, 0.004), (0.004, 0.01), (0, 0.01)]
        let hole: [(lon: Double, lat: Double)] = [(0.001, 0.001), (0.002, 0.001), (0.002, 0.002), (0.001, 0.002)]
        let area = try PolygonArea(polygons: [[ring, hole]])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let lon = Double.random(in: -0.005...0.015, using: &rng), lat = Double.random(in: -0.005...0.015, using: &rng)
            let p = area.nearestInside(lon: lon, lat: lat)
            XCTAssertTrue(area.contains(lon: p.lon, lat: p.lat))
            if area.contains(lon: lon, lat: lat) {
                XCTAssertTrue(p == (lon, lat)); continue
            }
            let best = Self.bruteNearest(area.rings, ne: (lon, lat))
            let d = Sphere.distance(lon, lat, p.lon, p.lat)
            XCTAssertLessThanOrEqual(d, best.distance + 1e-6, "drop (\(lon), \(lat))")
            XCTAssertGreaterThan(d, best.distance - 0.005, "drop (\(lon), \(lat)): samples are 2 mm apart")
        }
    }

    /// The search skips runs of edges by their boxes: on a ring of 5,000 vertices (and a hole)
    /// it must find the same distance as a scan of every edge.
    func testPrunedSearchMatchesAFullScan() throws {
        let n = 5000
        let outer: [(lon: Double, lat: Double)] = (0..<n).map { i in
            let t = Double(i) / Double(n) * 2 * .pi
            let r = 0.03 * (1 + 0.3 * sin(5 * t) + 0.05 * sin(71 * t))
            return (-118.35 + r * cos(t), 33.9 + r * sin(t))
        }
        let hole: [(lon: Double, lat: Double)] = (0..<50).map { i in
            let t = Double(i) / 50 * 2 * .pi
            return (-118.35 + 0.005 * cos(t), 33.9 + 0.005 * sin(t))
        }
        let area = try PolygonArea(polygons: [[outer, hole]])
        let rings = [outer + [outer[0]], hole + [hole[0]]]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let x0 = -118.35 + Double.random(in: -0.06...0.06, using: &rng)
            let y0 = 33.9 + Double.random(in: -0.06...0.06, using: &rng)
            let k = cos(y0 * .pi / 180)
            var full = Double.infinity
            for ring in rings {
                for i in 0..<(ring.count - 1) {
                    let ax = (ring[i].lon - x0) * k, ay = ring[i].lat - y0
                    let dx = (ring[i + 1].lon - ring[i].lon) * k, dy = ring[i + 1].lat - ring[i].lat
                    let t = max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
                    full = min(full, (ax + t * dx) * (ax + t * dx) + (ay + t * dy) * (ay + t * dy))
                }
            }
            let p = area.rings.nearestBoundaryPoint(lon: x0, lat: y0)!
            let got = ((p.lon - x0) * k) * ((p.lon - x0) * k) + (p.lat - y0) * (p.lat - y0)
            XCTAssertEqual(got.squareRoot(), full.squareRoot(), accuracy: 1e-12, "(\(x0), \(y0))")
        }
    }

    /// A drop at 179.5°E next to an area that starts at 180°W snaps across the antimeridian
    /// (half a degree away), not to a farther polygon on its own side of the line.
    func testSnapWrapsAcrossTheAntimeridian() throws {
        let west: [(lon: Double, lat: Double)] = [(-180, 0), (-170, 0), (-170, 10), (-180, 10)]
        let east: [(lon: Double, lat: Double)] = [(100, 0), (110, 0), (110, 10), (100, 10)]
        let area = try PolygonArea(polygons: [[west], [east]])
        let p = area.nearestInside(lon: 179.5, lat: 5)
        XCTAssertEqual(p.lon, -180)
        XCTAssertEqual(p.lat, 5, accuracy: 1e-12)
        XCTAssertLessThan(Sphere.distance(179.5, 5, p.lon, p.lat), 56_000)
    }

    func testPolygonAreaContainsWithHolesAndBoundary() throws {
        let outer: [(lon: Double, lat: Double)] = [(0, 0), (4, 0), (4, 4), (0, 4)]
        let hole: [(lon: Double, lat: Double)] = [(1, 1), (3, 1), (3, 3), (1, 3)]
        let second: [(lon: Double, lat: Double)] = [(10, 10), (11, 10), (11, 11)]
        let a = try PolygonArea(polygons: [[outer, hole], [second]])
        XCTAssertTrue(a.contains(lon: 0.5, lat: 0.5))
        XCTAssertFalse(a.contains(lon: 2, lat: 2), "in the hole")
        XCTAssertTrue(a.contains(lon: 1, lat: 2), "on the hole's edge")
        XCTAssertTrue(a.contains(lon: 4, lat: 4), "a corner")
        XCTAssertTrue(a.contains(lon: 10.9, lat: 10.5))
        XCTAssertFalse(a.contains(lon: 10.1, lat: 10.5))
        XCTAssertFalse(a.contains(lon: 5, lat: 5))
        // Snapping from inside the hole goes to the hole's nearest edge.
        let p = a.nearestInside(lon: 2, lat: 1.2)
        XCTAssertEqual(p.lon, 2, accuracy: 1e-12); XCTAssertEqual(p.lat, 1, accuracy: 1e-12)
    }

    func testPlacementFollowsThePolicy() throws {
        let revert = try F.map { $0.outsidePolicy = .revert }
        revert.setAllowedArea(try PolygonArea(polygons: [[square]]))
        XCTAssertEqual(F.status { try revert.place(id: 1, lon: -118.3, lat: 33.9, time: 5) }, .invalidArgument)
        XCTAssertEqual(revert.count, 0)
        XCTAssertNil(revert.editSession)
        XCTAssertEqual(revert.now, 0, "a refused call does not take the time")

        let snap = try F.map { $0.outsidePolicy = .snap }
        snap.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try snap.place(id: 1, lon: -118.3, lat: 33.9, time: 5)
        let p = try snap.position(id: 1)
        XCTAssertEqual(p.lon, east, accuracy: 1e-12)
        XCTAssertEqual(p.lat, 33.9, accuracy: 1e-12)
    }

    func testUndoIgnoresTheAreaAndRestoresExactly() throws {
        let m = try F.map { $0.outsidePolicy = .revert }
        try m.add(id: 1, lon: -118.3, lat: 33.95)  // outside the area set below
        try F.move(m, 1, -118.35, 33.9)
        m.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try m.undo(time: 1)
        XCTAssertTrue(try m.position(id: 1) == (-118.3, 33.95))
    }

    func testClearingTheAreaAllowsEverything() throws {
        let m = try F.map { $0.outsidePolicy = .revert }
        m.setAllowedArea(try PolygonArea(polygons: [[square]]))
        try m.add(id: 1, lon: -118.35, lat: 33.9)
        XCTAssertFalse(try F.move(m, 1, 0, 0))
        try m.setAllowedArea(text: nil)
        XCTAssertTrue(try F.move(m, 1, 0, 0))
    }

    func testWithoutGEOSAreaTextIsRefusedClearly() throws {
        let m = try F.map()
        XCTAssertThrowsError(try m.setAllowedArea(text: "POLYGON((0 0, 1 0, 1 1, 0 0))")) { e in
            XCTAssertEqual((e as? PindropError)?.status, .state)
            XCTAssertTrue((e as? PindropError)?.message.contains("GEOS") ?? false)
        }
    }

    func testBadRingsAreRefused() {
        XCTAssertThrowsError(try PolygonArea(polygons: [[[(0, 0), (1, 1)]]]))
        XCTAssertThrowsError(try PolygonArea(polygons: [[[(0, 0), (1, 1), (.nan, 0)]]]))
        XCTAssertThrowsError(try PolygonArea(polygons: []))
    }

    /// The boundary point nearest (in great-circle metres) to a point, by sampling every edge
    /// about every metre and then every 2 mm around the best sample of each edge (the distance
    /// along a short edge has one minimum): an oracle that shares nothing with the code under test.
    static func bruteNearest(_ rings: AreaRings, ne p: (Double, Double)) -> (lon: Double, lat: Double, distance: Double) {
        var best = (lon: 0.0, lat: 0.0, distance: Double.infinity)
        var start = 0
        for end in rings.ringEnd {
            for i in start..<(end - 1) {
                let a = (rings.lon[i], rings.lat[i]), b = (rings.lon[i + 1], rings.lat[i + 1])
                func at(_ t: Double) -> (Double, Double, Double) {
                    let q = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
                    return (q.0, q.1, Sphere.distance(p.0, p.1, q.0, q.1))
                }
                let n = max(1, Int(Sphere.distance(a.0, a.1, b.0, b.1)))
                var bestK = 0, bestD = Double.infinity
                for k in 0...n { let d = at(Double(k) / Double(n)).2; if d < bestD { bestD = d; bestK = k } }
                let lo = Double(max(0, bestK - 1)) / Double(n), hi = Double(min(n, bestK + 1)) / Double(n)
                for j in 0...1000 {
                    let q = at(lo + (hi - lo) * Double(j) / 1000)
                    if q.2 < best.distance { best = (q.0, q.1, q.2) }
                }
            }
            start = end
        }
        return best
    }
}
