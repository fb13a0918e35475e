import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport
@testable import PindropGEOSIndex

/// Allowed areas read and prepared by GEOS.
final class GEOSAreaTests: XCTestCase {
    let factory = try! GEOSFactory()

    let squareWKT = "POLYGON((-118.36 33.89, -118.34 33.89, -118.34 33.91, -118.36 33.91, -118.36 33.89))"
    let squareGeoJSON = """
        {"type": "Polygon", "coordinates": [[[-118.36, 33.89], [-118.34, 33.89], [-118.34, 33.91], [-118.36, 33.91], [-118.36, 33.89]]]}
        """

    func area(_ text: String) throws -> AllowedArea { try factory.parseArea(text) }

    func parseStatus(_ text: String) -> (Status, String)? {
        do { _ = try factory.parseArea(text); return nil } catch { return (error.status, error.message) }
    }

    func testWKTAndGeoJSONSquaresAgree() throws {
        let wkt = try area(squareWKT), json = try area(squareGeoJSON)
        let plain = try PolygonArea(polygons: [[[(-118.36, 33.89), (-118.34, 33.89), (-118.34, 33.91), (-118.36, 33.91)]]])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let lon = Double.random(in: -118.37 ... -118.33, using: &rng), lat = Double.random(in: 33.88...33.92, using: &rng)
            let expected = lon >= -118.36 && lon <= -118.34 && lat >= 33.89 && lat <= 33.91
            XCTAssertEqual(wkt.contains(lon: lon, lat: lat), expected)
            XCTAssertEqual(json.contains(lon: lon, lat: lat), expected)
            XCTAssertEqual(plain.contains(lon: lon, lat: lat), expected)
        }
        XCTAssertTrue(wkt.contains(lon: -118.34, lat: 33.9), "the boundary counts as inside")
        XCTAssertTrue(json.contains(lon: -118.36, lat: 33.91), "a corner too")
        // Snapping: east of the east edge → straight west onto it; beyond a corner → the corner.
        for a in [wkt, json] {
            let p = a.nearestInside(lon: -118.33, lat: 33.905)
            XCTAssertEqual(p.lon, -118.34, accuracy: 1e-12); XCTAssertEqual(p.lat, 33.905, accuracy: 1e-12)
            XCTAssertTrue(a.contains(lon: p.lon, lat: p.lat))
            let c = a.nearestInside(lon: -118.37, lat: 33.88)
            XCTAssertTrue(c == (-118.36, 33.89))
        }
    }

    func testFeaturesAndCollectionsAreTheUnionOfTheirPolygons() throws {
        // Two overlapping squares as features: the overlap is inside (an even-odd count of the
        // raw rings would call it outside) and the snap never lands on an inner edge.
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]]}},
              {"type": "Feature", "properties": {"name": "b"}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]]]]}}
            ]}
            """
        let a = try area(text)
        XCTAssertTrue(a.contains(lon: 1.5, lat: 1.5), "the overlap")
        XCTAssertTrue(a.contains(lon: 0.5, lat: 0.5))
        XCTAssertTrue(a.contains(lon: 2.5, lat: 2.5))
        XCTAssertFalse(a.contains(lon: 2.5, lat: 0.5))
        // In the notch below b and right of a: 0.6° from x = 2, 0.1° from y = 1 → up onto y = 1.
        let p = a.nearestInside(lon: 2.6, lat: 0.9)
        XCTAssertTrue(a.contains(lon: p.lon, lat: p.lat))
        XCTAssertEqual(p.lon, 2.6, accuracy: 1e-12); XCTAssertEqual(p.lat, 1, accuracy: 1e-12)
        // Lower in the notch: 0.8° from y = 1, 0.6° from x = 2 → left onto x = 2.
        let q = a.nearestInside(lon: 2.6, lat: 0.2)
        XCTAssertEqual(q.lon, 2, accuracy: 1e-12); XCTAssertEqual(q.lat, 0.2, accuracy: 1e-12)

        let feature = """
            {"type": "Feature", "properties": null, "geometry": \(squareGeoJSON)}
            """
        XCTAssertTrue(try area(feature).contains(lon: -118.35, lat: 33.9))
    }

    func testHolesAreOutside() throws {
        let a = try area("MULTIPOLYGON(((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 3 1, 3 3, 1 3, 1 1)), ((10 10, 11 10, 11 11, 10 10)))")
        XCTAssertFalse(a.contains(lon: 2, lat: 2))
        XCTAssertTrue(a.contains(lon: 0.5, lat: 2))
        XCTAssertTrue(a.contains(lon: 10.9, lat: 10.5))
        let p = a.nearestInside(lon: 2, lat: 1.2)
        XCTAssertEqual(p.lon, 2, accuracy: 1e-12); XCTAssertEqual(p.lat, 1, accuracy: 1e-12)
    }

    func testBadTextIsAParseErrorNamingTheProblem() {
        let cases: [(String, String)] = [
            ("POLYGON((0 0, 1 0, 1 1))", "closed"),
            ("POLYGON((0 0, 1 0, 1 1, 0 0)", "WKT"),
            ("POLYGON((0 0, 1 0, 1 1, 0 0)) and more", "unexpected text"),
            ("POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))", "Self-intersection"),
            ("POINT(1 2)", "Polygon or MultiPolygon"),
            ("LINESTRING(0 0, 1 1)", "Polygon or MultiPolygon"),
            ("POLYGON EMPTY", "empty"),
            ("POLYGON((0 0, 200 0, 200 1, 0 0))", "lon/lat"),
            ("", "empty"),
            ("squares please", "WKT"),
            ("{\"type\": \"Polygon\"", "JSON"),
            ("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1]]]}", "closed"),
            ("{\"type\": \"Point\", \"coordinates\": [1, 2]}", "Polygon or MultiPolygon"),
            ("{\"type\": \"FeatureCollection\", \"features\": []}", "no polygon"),
            ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}}]}", "feature 0"),
        ]
        for (text, keyword) in cases {
            guard let (status, message) = parseStatus(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertEqual(status, .parse, text)
            XCTAssertTrue(message.contains(keyword), "\(text): \(message)")
        }
    }

    func testAFailedParseKeepsTheMapsArea() throws {
        let m = try Map(factory: factory)
        try m.setAllowedArea(text: squareWKT)
        let before = m.allowedArea
        XCTAssertThrowsError(try m.setAllowedArea(text: "POLYGON((0 0"))
        XCTAssertTrue(m.allowedArea === before)
        try m.setAllowedArea(text: nil)
        XCTAssertNil(m.allowedArea)
    }

    /// A city-sized ring of 10,000 vertices (a wobbly circle of ~3 km): GEOS's prepared test
    /// agrees with the crossing rule, and every snap tests as inside and matches the plain ring.
    func testManyVertexRingAgreesWithThePlainRing() throws {
        let ring = Self.wobblyRing(vertices: 10_000)
        let wkt = "POLYGON((" + (ring + [ring[0]]).map { "\($0.lon) \($0.lat)" }.joined(separator: ", ") + "))"
        let geos = try area(wkt)
        let plain = try PolygonArea(polygons: [[ring]])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let lon = -118.35 + Double.random(in: -0.05...0.05, using: &rng)
            let lat = 33.9 + Double.random(in: -0.05...0.05, using: &rng)
            XCTAssertEqual(geos.contains(lon: lon, lat: lat), plain.contains(lon: lon, lat: lat), "(\(lon), \(lat))")
        }
        for _ in 0..<50 {
            let lon = -118.35 + Double.random(in: -0.08...0.08, using: &rng)
            let lat = 33.9 + Double.random(in: -0.08...0.08, using: &rng)
            let p = geos.nearestInside(lon: lon, lat: lat)
            XCTAssertTrue(geos.contains(lon: p.lon, lat: p.lat))
            let q = plain.nearestInside(lon: lon, lat: lat)
            XCTAssertLessThan(Sphere.distance(p.lon, p.lat, q.lon, q.lat), 1e-3)
        }
    }

    /// Snapping onto slanted edges, where the interpolated point is often a hair outside: the
    /// nudge must always bring it in, by a negligible distance.
    func testSnapsOnSlantedEdgesAlwaysTestInside() throws {
        let a = try area("POLYGON((0.1 0.1, 0.7071067811865476 0.3, 0.9 0.8660254037844386, 0.31415926 0.95, 0.1 0.1))")
        let rings = (a as! GEOSArea).rings
        var rng = SystemRandomNumberGenerator()
        var nudged = 0
        for _ in 0..<500 {
            let lon = Double.random(in: -0.5...1.5, using: &rng), lat = Double.random(in: -0.5...1.5, using: &rng)
            let p = a.nearestInside(lon: lon, lat: lat)
            XCTAssertTrue(a.contains(lon: p.lon, lat: p.lat), "(\(lon), \(lat)) → \(p)")
            if !a.contains(lon: lon, lat: lat), let b = rings.nearestBoundaryPoint(lon: lon, lat: lat) {
                if !a.contains(lon: b.lon, lat: b.lat) { nudged += 1 }
                XCTAssertLessThan(Sphere.distance(p.lon, p.lat, b.lon, b.lat), 0.01, "nudged by less than a centimetre")
            }
        }
        XCTAssertGreaterThan(nudged, 0, "some boundary points fell outside, so the nudge was exercised")
    }

    static func wobblyRing(vertices n: Int) -> [(lon: Double, lat: Double)] {
        (0..<n).map { i in
            let t = Double(i) / Double(n) * 2 * Double.pi
            let r = 0.03 * (1 + 0.2 * sin(7 * t) + 0.05 * sin(53 * t))
            return (-118.35 + r * cos(t) / cos(33.9 * Double.pi / 180), 33.9 + r * sin(t))
        }
    }
}
