import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Auto-pan (SPEC behaviour 15): near an edge the map asks the host to pan, faster the deeper the landing
/// point is in the margin, and the pin stays under the finger while the host pans.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureAutopanTests: XCTestCase {
    func testAutopanSpeedGrowsWithDepthIntoTheMarginAndThePinStaysUnderTheFinger() {
        let s = Story { $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(1180, 400, at: t + 10)  // 20 points into the 40-point margin: half of 600 pt/s
        XCTAssertEqual(s.map.nextDeadline, t + 10 + 1000.0 / 60)
        s.move(1200, 400, at: t + 60)  // at the edge: full speed
        s.tick(t + 110)
        var e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 300 * 0.05 + 600 * 0.05, accuracy: 1e-9)
        XCTAssertEqual(e[0].dy, 0)
        // The host pans by dx: the map slides under the finger, the pin stays under the finger.
        var cam = (try! s.map.toLonLat(x: 600 + e[0].dx, y: 400))
        try! s.map.setCamera(Camera(centerLon: cam.lon, centerLat: cam.lat, zoom: 18, width: 1200, height: 800))
        let d = s.events()
        XCTAssertEqual(d.map(\.kind), [.dragged])
        let under = try! s.map.toLonLat(x: 1200, y: 400)
        XCTAssertEqual(d[0].lon, under.lon, accuracy: 1e-12)
        XCTAssertEqual(s.view(1, at: t + 110)!.x, 1200, accuracy: 1e-6)
        s.tick(t + 210)
        e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e[0].dx, 60, accuracy: 1e-9)
        cam = (try! s.map.toLonLat(x: 600 + e[0].dx, y: 400))
        try! s.map.setCamera(Camera(centerLon: cam.lon, centerLat: cam.lat, zoom: 18, width: 1200, height: 800))
        // Out of the margin: no more auto-pan once the owed distance is paid.
        s.move(600, 400, at: t + 260)
        s.tick(t + 270)
        e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 600 * 0.05, accuracy: 1e-9)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        s.up(600, 400, at: t + 300)
        let moved = s.events().first { $0.kind == .moved }!
        let want = try! s.map.toLonLat(x: 600, y: 400)
        XCTAssertEqual(moved.lon, want.lon, accuracy: 1e-12)
    }

    func testTheLandingPointNearTheTopEdgePansUpEvenWithTheFingerBelowTheMargin() {
        let s = Story()  // lift_height 40
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(600, 60, at: t + 10)  // finger 60 from the top, landing point 20 from it
        s.tick(t + 110)
        let e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 0)
        XCTAssertEqual(e[0].dy, -300 * 0.1, accuracy: 1e-9)
    }
}
