import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A finger dragging a pin across the allowed area's edge (SPEC 13; docs/editing.md, "Allowed
/// area"): while its landing point is outside, the frame flags it INVALID; dropped outside it is
/// put back (REVERT) or snapped to the nearest point inside (SNAP), and nothing is flagged after.
/// The edge's screen point and the landing coordinate come from `textbookLonLat` (Story.swift).
final class AreaDragTests: XCTestCase {
    let lon0 = -118.2, lat0 = 33.8
    // A square of 0.002° around the camera centre (about 186 by 222 m, some 370 points wide at zoom 18).
    var west: Double { lon0 - 0.001 }
    var east: Double { lon0 + 0.001 }
    var square: [(lon: Double, lat: Double)] {
        [(west, lat0 - 0.001), (east, lat0 - 0.001), (east, lat0 + 0.001), (west, lat0 + 0.001)]
    }

    func landing(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        textbookLonLat(centerLon: lon0, centerLat: lat0, zoom: 18, width: 1200, height: 800, x: x, y: y)
    }

    /// Drags pin 1 from the centre to finger point (x, 440) in ten steps, checking the INVALID flag
    /// against the landing point's side of the east edge at every step. Returns the time after.
    func dragEast(_ s: Story, to x: Double) -> Double {
        let t = s.liftAndStartDrag(600, 400, at: 0)   // pressed on the pin: it lands 40 points above the finger
        for k in 1...10 {
            let fx = 610 + (x - 610) * Double(k) / 10
            s.move(fx, 440, at: t + Double(k) * 16)
            let outside = landing(fx, 400).lon > east
            guard let v = s.view(1, at: t + Double(k) * 16) else { XCTFail("pin 1 is not drawn"); continue }
            XCTAssertEqual(v.flags.contains(.invalid), outside, "finger at \(fx): landing \(outside ? "outside" : "inside")")
            XCTAssertTrue(v.flags.contains(.dragging))
        }
        return t + 160
    }

    func testDroppedOutsideWithRevertThePinGoesBackAndNothingIsSaved() throws {
        let s = Story { $0.outsidePolicy = .revert; $0.liftHeight = 40 }
        s.map.setAllowedArea(try PolygonArea(polygons: [[square]]))
        s.addPin(1, atScreen: 600, 400)
        let home = s.position(1), drawn = try XCTUnwrap(s.view(1, at: 0))
        let t = dragEast(s, to: 1000)
        s.up(1000, 440, at: t + 10)
        let e = s.events()
        XCTAssertFalse(e.contains { $0.kind == .moved }, "no MOVED")
        XCTAssertTrue(e.contains { $0.kind == .dropped })
        XCTAssertTrue(s.position(1) == home)
        XCTAssertEqual(s.map.undoCount, 0)
        let settled = try XCTUnwrap(s.view(1, at: t + 2000))
        XCTAssertFalse(settled.flags.contains(.invalid))
        XCTAssertEqual(settled.x, drawn.x, accuracy: 1e-9); XCTAssertEqual(settled.y, drawn.y, accuracy: 1e-9)
    }

    func testDroppedOutsideWithSnapThePinLandsOnTheEdgeAtTheDropsLatitude() throws {
        let s = Story { $0.outsidePolicy = .snap; $0.liftHeight = 40 }
        s.map.setAllowedArea(try PolygonArea(polygons: [[square]]))
        s.addPin(1, atScreen: 600, 400)
        let home = s.position(1)
        let t = dragEast(s, to: 1000)
        s.up(1000, 440, at: t + 10)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.cause), [.snap])
        guard !moved.isEmpty else { return }
        // The nearest point of a north-south edge is due west of the drop, at its latitude.
        let drop = landing(1000, 400)
        XCTAssertGreaterThan(drop.lon, east)
        XCTAssertEqual(moved[0].lon, east, accuracy: 1e-12)
        XCTAssertEqual(moved[0].lat, drop.lat, accuracy: 1e-9)
        XCTAssertEqual(moved[0].fromLon, home.lon); XCTAssertEqual(moved[0].fromLat, home.lat)
        XCTAssertTrue(s.position(1) == (moved[0].lon, moved[0].lat))
        XCTAssertFalse(try XCTUnwrap(s.view(1, at: t + 2000)).flags.contains(.invalid))
        try s.map.undo(time: t + 3000)
        XCTAssertTrue(s.position(1) == home)
    }

    func testAPinDraggedOutAndBackInIsNotFlaggedAndDropsAsUsual() throws {
        let s = Story { $0.outsidePolicy = .revert }
        s.map.setAllowedArea(try PolygonArea(polygons: [[square]]))
        s.addPin(1, atScreen: 600, 400)
        let t = dragEast(s, to: 1000)
        s.move(700, 440, at: t + 10)
        XCTAssertFalse(try XCTUnwrap(s.view(1, at: t + 10)).flags.contains(.invalid))
        s.up(700, 440, at: t + 20)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.cause), [.drag])
        guard !moved.isEmpty else { return }
        let want = landing(700, 400)
        XCTAssertEqual(moved[0].lon, want.lon, accuracy: 1e-11); XCTAssertEqual(moved[0].lat, want.lat, accuracy: 1e-11)
    }
}
