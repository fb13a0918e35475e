import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The gestures and the spread ring on a camera with a bearing (docs/gestures.md, "Where the pin
/// is"; SPEC 1, 4, 9 and 11): the hit radius is a circle of the screen, the landing point sits
/// lift_height up the *screen*, a tap-move lands under the tap, and a ring in metres turns with
/// the map. Every expected coordinate and screen point comes from `TurnedMercator` and
/// `TextbookSphere`, never from the map's own conversions.
final class RotatedMapTests: XCTestCase {
    let center = (lon: 151.2093, lat: -33.8688), zoom = 19.0, width = 1200.0, height = 800.0

    func story(bearing: Double, _ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story(configure)
        try! s.map.setCamera(Camera(centerLon: center.lon, centerLat: center.lat, zoom: zoom, bearingDeg: bearing,
                                    width: width, height: height))
        return s
    }
    func oracleScreen(_ p: (lon: Double, lat: Double), bearing: Double) -> (x: Double, y: Double) {
        TurnedMercator.screen(p.lon, p.lat, cLon: center.lon, cLat: center.lat, zoom: zoom, bearingDeg: bearing,
                              width: width, height: height)
    }
    func oracleLonLat(_ x: Double, _ y: Double, bearing: Double) -> (lon: Double, lat: Double) {
        TurnedMercator.lonLat(x: x, y: y, cLon: center.lon, cLat: center.lat, zoom: zoom, bearingDeg: bearing,
                              width: width, height: height)
    }

    func testTheHitRadiusIsACircleOfTheScreenAtAnyBearing() throws {
        for bearing in [0.0, 30, 135, -60] {
            let s = story(bearing: bearing)
            // 8 m north-east of the centre: where the turned camera draws it is the oracle's business.
            let pin = TextbookSphere.destination(center.lon, center.lat, bearing: .pi / 4, metres: 8)
            try s.map.add(id: 1, lon: pin.lon, lat: pin.lat)
            let at = oracleScreen(pin, bearing: bearing)
            for k in 0..<12 {
                let a = Double(k) * .pi / 6
                XCTAssertEqual(try s.map.hitTest(x: at.x + 21.9 * cos(a), y: at.y + 21.9 * sin(a)), 1,
                               "bearing \(bearing), 21.9 points at \(k * 30)°")
                XCTAssertNil(try s.map.hitTest(x: at.x + 22.1 * cos(a), y: at.y + 22.1 * sin(a)),
                             "bearing \(bearing), 22.1 points at \(k * 30)°")
            }
        }
    }

    func testADropOnATurnedMapLandsLiftHeightUpTheScreenFromTheFingerPlusTheGrabOffset() throws {
        for bearing in [30.0, 90, -145] {
            let s = story(bearing: bearing)
            let pin = TextbookSphere.destination(center.lon, center.lat, bearing: 2, metres: 5)
            try s.map.add(id: 1, lon: pin.lon, lat: pin.lat)
            let at = oracleScreen(pin, bearing: bearing)
            // Grabbed 7 points left of and 5 below the pin, dragged, released at (300, 500).
            let t = s.liftAndStartDrag(at.x - 7, at.y + 5, at: 0)
            s.move(300, 500, at: t + 20)
            s.up(300, 500, at: t + 40)
            let moved = s.events().filter { $0.kind == .moved }
            XCTAssertEqual(moved.count, 1, "bearing \(bearing): the press at the oracle's point grabs the pin")
            guard let drop = moved.first else { continue }
            let want = oracleLonLat(300 + 7, 500 - 5 - 40, bearing: bearing)
            XCTAssertLessThan(TurnedMercator.worldDistance((drop.lon, drop.lat), want, zoom: zoom), 1e-6,
                              "bearing \(bearing)")
            let v = try XCTUnwrap(s.view(1, at: t + 2000))
            XCTAssertEqual(v.x, 307, accuracy: 1e-6); XCTAssertEqual(v.y, 455, accuracy: 1e-6)
        }
    }

    func testATapToMoveOnATurnedMapLandsUnderTheTap() throws {
        for bearing in [45.0, 200] {
            let s = story(bearing: bearing)
            s.addPin(1, atScreen: 600, 400)
            s.map.editingID = 1
            _ = s.events()
            s.down(250, 650, at: 0); s.up(250, 650, at: 60)
            s.tick(360)
            let moved = s.events().filter { $0.kind == .moved }
            XCTAssertEqual(moved.map(\.cause), [.tap])
            guard let tap = moved.first else { continue }
            let want = oracleLonLat(250, 650, bearing: bearing)
            XCTAssertLessThan(TurnedMercator.worldDistance((tap.lon, tap.lat), want, zoom: zoom), 1e-6,
                              "bearing \(bearing)")
        }
    }

    /// Pin i of n at bearing 2πi/n and 3n/2 metres from the spot (SPEC 11) is a geographic place:
    /// on a camera turned by 75° the ring is drawn turned by -75°, each pin where the oracle puts
    /// that place, its leg's end at the spot.
    func testARingInMetresTurnsWithTheMap() throws {
        let bearing = 75.0, n = 6
        let s = story(bearing: bearing)
        let spot = TextbookSphere.destination(center.lon, center.lat, bearing: 3, metres: 12)
        for i in 0..<n { try s.map.add(id: 100 + Int64(i), lon: spot.lon, lat: spot.lat) }
        let count = try s.map.frame(time: 0)
        let views = s.map.frameViews[0..<count]
        XCTAssertEqual(views.count, n)
        let anchor = oracleScreen(spot, bearing: bearing)
        for i in 0..<n {
            let place = TextbookSphere.destination(spot.lon, spot.lat, bearing: 2 * .pi * Double(i) / Double(n),
                                                   metres: 1.5 * Double(n))
            let want = oracleScreen(place, bearing: bearing)
            let v = try XCTUnwrap(views.first { $0.id == 100 + Int64(i) }, "pin \(i) is drawn")
            XCTAssertEqual(v.x, want.x, accuracy: 1e-6, "pin \(i)"); XCTAssertEqual(v.y, want.y, accuracy: 1e-6, "pin \(i)")
            XCTAssertEqual(v.anchorX, anchor.x, accuracy: 1e-6); XCTAssertEqual(v.anchorY, anchor.y, accuracy: 1e-6)
            XCTAssertTrue(v.flags.contains(.spread))
        }
    }
}
