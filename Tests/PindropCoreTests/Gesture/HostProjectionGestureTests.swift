import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Gestures through the host's own projection (SPEC section 3, `pindrop_map_set_projection`; a QGIS
/// canvas in any CRS): the hit radius, the lift height, the grab offset and a tap-move are all in
/// the host's screen points, and every coordinate pindrop commits is the host's unprojection of
/// the point it means. The host canvas here is an affine one, turned by 20° and stretched, whose
/// inverse is written out by Cramer's rule; expected coordinates come from that inverse.
final class HostProjectionGestureTests: XCTestCase {
    let lon0 = 2.35, lat0 = 48.85, width = 1200.0, height = 800.0
    // Screen = A · (Δlon, Δlat) + centre, A = rotation(20°) · diag(9e4, -1.3e5).
    var a: Double { cos(20 * Double.pi / 180) * 9e4 }
    var b: Double { sin(20 * Double.pi / 180) * 1.3e5 }
    var c: Double { sin(20 * Double.pi / 180) * 9e4 }
    var d: Double { -cos(20 * Double.pi / 180) * 1.3e5 }

    func project(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        (a * (lon - lon0) + b * (lat - lat0) + width / 2, c * (lon - lon0) + d * (lat - lat0) + height / 2)
    }
    func unproject(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        let u = x - width / 2, v = y - height / 2, det = a * d - b * c
        return (lon0 + (u * d - b * v) / det, lat0 + (a * v - c * u) / det)
    }
    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story(configure)
        let (p, u) = (project, unproject)
        try! s.map.setProjection(HostProjection(width: width, height: height, project: { p($0, $1) }, unproject: { u($0, $1) }))
        return s
    }

    func testTheHitRadiusIsInTheHostsPoints() throws {
        let s = story()
        let pin = unproject(400, 300)
        try s.map.add(id: 1, lon: pin.lon, lat: pin.lat)
        for k in 0..<8 {
            let t = Double(k) * .pi / 4
            XCTAssertEqual(try s.map.hitTest(x: 400 + 21.9 * cos(t), y: 300 + 21.9 * sin(t)), 1, "21.9 points at \(k * 45)°")
            XCTAssertNil(try s.map.hitTest(x: 400 + 22.1 * cos(t), y: 300 + 22.1 * sin(t)), "22.1 points at \(k * 45)°")
        }
    }

    func testADropLandsWhereTheHostUnprojectsTheFingerPlusTheGrabOffsetLiftHeightUp() throws {
        let s = story()
        let pin = unproject(600, 400)
        try s.map.add(id: 1, lon: pin.lon, lat: pin.lat)
        // Grabbed 3 points right of and 2 above the pin; released at (800, 500).
        let t = s.liftAndStartDrag(603, 398, at: 0)
        s.move(800, 500, at: t + 10)
        let dragged = s.events().filter { $0.kind == .dragged }.last
        s.up(800, 500, at: t + 20)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.count, 1)
        guard let drop = moved.first else { return }
        let want = unproject(800 - 3, 500 + 2 - 40)
        XCTAssertEqual(drop.lon, want.lon, accuracy: 1e-12); XCTAssertEqual(drop.lat, want.lat, accuracy: 1e-12)
        XCTAssertEqual(drop.lon.bitPattern, dragged?.lon.bitPattern, "no hop on release through a host projection either")
        let v = try XCTUnwrap(s.view(1, at: t + 2000))
        XCTAssertEqual(v.x, 797, accuracy: 1e-6); XCTAssertEqual(v.y, 462, accuracy: 1e-6)
    }

    func testATapToMoveLandsWhereTheHostUnprojectsTheTap() throws {
        let s = story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        _ = s.events()
        s.down(250, 650, at: 0); s.up(250, 650, at: 60)
        s.tick(360)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.cause), [.tap])
        guard let tap = moved.first else { return }
        let want = unproject(250, 650)
        XCTAssertEqual(tap.lon, want.lon, accuracy: 1e-12); XCTAssertEqual(tap.lat, want.lat, accuracy: 1e-12)
    }
}
