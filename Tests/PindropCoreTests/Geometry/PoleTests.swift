import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The poles and the far edges of Web Mercator (SPEC section 2: "a coordinate the view cannot place
/// is never returned as OK with an infinite or NaN point"; docs/robustness.md): the camera refuses
/// latitude ±90, answers a point near a pole with a finite point or a refusal, and a frame or a
/// hit test over pins at the poles is finite and never traps.
final class PoleTests: XCTestCase {
    func map() throws -> Map {
        let m = try Map(options: Options(), factory: BruteForceFactory())
        try m.setCamera(Camera(centerLon: 0, centerLat: 0, zoom: 0, width: 800, height: 600))
        return m
    }

    func testAPoleHasNoScreenPointAndTheRefusalSaysWhy() throws {
        let m = try map()
        for (lon, lat) in [(180.0, 90.0), (0, -90), (-45, 90)] {
            XCTAssertThrowsError(try m.toScreen(lon: lon, lat: lat), "(\(lon), \(lat))") { error in
                let e = error as? PindropError
                XCTAssertEqual(e?.status, .invalidArgument)
                XCTAssertTrue(e?.message.contains("\(Int(lat))") == true, e?.message ?? "")
            }
        }
        // The last latitude Web Mercator draws (85.0511°, the top of the world square) is a point.
        let top = try m.toScreen(lon: 0, lat: 85.05112877980659)
        XCTAssertEqual(top.y, 300 - 128, accuracy: 1e-6)
    }

    func testNearAPoleAtDeepZoomOnATurnedCameraTheAnswerIsAFinitePointOrARefusal() throws {
        let m = try map()
        var points = 0, refusals = 0
        for i in 0..<200 {
            try m.setCamera(Camera(centerLon: 179.9, centerLat: 85.05, zoom: 25 + Double(i % 6),
                                   bearingDeg: Double(i * 37 % 360) + 0.5, width: 800, height: 600))
            let lat = 90 - Double(i) * 1e-9
            do {
                let p = try m.toScreen(lon: 180, lat: lat)
                XCTAssertTrue(p.x.isFinite && p.y.isFinite, "lat \(lat): (\(p.x), \(p.y))")
                points += 1
            } catch {
                XCTAssertEqual(error.status, .invalidArgument)
                refusals += 1
            }
        }
        XCTAssertEqual(points + refusals, 200)
        XCTAssertGreaterThan(refusals, 0, "at least the pole itself is refused")
    }

    func testAScreenPointTooFarOutForALongitudeIsRefusedOrFinite() throws {
        let m = try map()
        for far in [-Double.greatestFiniteMagnitude, .greatestFiniteMagnitude, 1e300, -1e306] {
            for (x, y) in [(far, 100.0), (100, far)] {
                do {
                    let p = try m.toLonLat(x: x, y: y)
                    XCTAssertTrue(p.lon.isFinite && p.lat.isFinite, "(\(x), \(y)) → (\(p.lon), \(p.lat))")
                    XCTAssertTrue((-180...180).contains(p.lon) && (-90...90).contains(p.lat))
                } catch {
                    XCTAssertEqual(error.status, .invalidArgument)
                }
            }
        }
    }

    func testPinsAtThePolesAreInNoFrameAndEveryPointAFrameReturnsIsFinite() throws {
        let m = try map()
        try m.add(id: 20, lon: 0, lat: 90)
        try m.add(id: 21, lon: 0, lat: 90)      // a stack at the pole: its ring cannot be drawn either
        try m.add(id: 22, lon: 45, lat: -90)
        try m.add(id: 23, lon: 0, lat: 89.999999999)
        try m.add(id: 24, lon: 10, lat: 80)     // an ordinary pin in the same view
        try m.setCamera(Camera(centerLon: 0, centerLat: 85, zoom: 3, bearingDeg: 30, width: 800, height: 600))
        let n = try m.frame(time: 0)
        let views = m.frameViews[0..<n]
        for v in views {
            XCTAssertTrue(v.x.isFinite && v.y.isFinite && v.anchorX.isFinite && v.anchorY.isFinite, "pin \(v.id)")
        }
        XCTAssertTrue(views.contains { $0.id == 24 }, "the ordinary pin is drawn")
        XCTAssertFalse(views.contains { [20, 21, 22].contains($0.id) }, "a pin at a pole has no screen point")
        for i in 0..<50 {
            let hit = try m.hitTest(x: Double(i * 16), y: 0)
            XCTAssertFalse(hit.map { [20, 21, 22].contains($0) } ?? false, "a pin at a pole is never hit")
        }
    }
}
