import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Snapping in a group drag (behaviours 23 and 24): the grabbed pin snaps and the others keep
/// their Web Mercator offset from its snapped point, while dragged and at the drop; with
/// snap_to_pins, the pins moving with it are never targets, the others are.
final class SnapGroupTests: XCTestCase {
    func story(toPins: Bool = false) -> Story {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; $0.snapTolerance = 12; $0.snapToPins = toPins }, zoom: 19)
        s.addPin(1, atScreen: 500, 400)
        s.addPin(2, atScreen: 600, 420)
        s.addPin(3, atScreen: 700, 380)
        s.addPin(4, atScreen: 200, 200)
        _ = s.events()
        return s
    }

    func mercator(_ p: (lon: Double, lat: Double)) -> (x: Double, y: Double) {
        let phi = p.lat * .pi / 180
        return ((p.lon + 180) / 360, 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi))
    }

    func testTheGrabbedPinSnapsAndTheGroupFollowsItsSnappedPoint() throws {
        let s = story()
        let vertex = try s.map.toLonLat(x: 650, y: 300)
        try s.map.setSnapLayer(0, "POINT (\(vertex.lon) \(vertex.lat))")
        try s.map.selectMany([1, 2, 3], mode: .set)
        let before = (1...3).map { mercator(s.position(Int64($0))) }
        _ = s.events()
        let p = s.screenOf(2)
        s.down(p.x, p.y, at: 100)
        s.move(p.x + 20, p.y - 50, at: 110)
        s.move(656, 306, at: 120)  // 8.5 points from the vertex
        XCTAssertEqual(s.map.snapTarget.kind, .vertex)
        let n = try s.map.frame(time: 125)
        let views = Dictionary(uniqueKeysWithValues: s.map.frameViews[0..<n].map { ($0.id, $0) })
        XCTAssertEqual(views[2]!.x, 650, accuracy: 1e-6)
        XCTAssertEqual(views[2]!.y, 300, accuracy: 1e-6)
        XCTAssertTrue(views[2]!.flags.contains(.snapped))
        XCTAssertFalse(views[1]!.flags.contains(.snapped), "only the grabbed pin is snapped")
        // The others are drawn at their offsets from the snapped point (screen points at zoom 19).
        let size = 256 * pow(2, 19.0)
        for id in [1, 3] {
            let q = before[id - 1]
            XCTAssertEqual(views[Int64(id)]!.x, 650 + (q.x - before[1].x) * size, accuracy: 1e-5)
            XCTAssertEqual(views[Int64(id)]!.y, 300 + (q.y - before[1].y) * size, accuracy: 1e-5)
        }
        s.up(656, 306, at: 130)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.id), [1, 2, 3])
        XCTAssertTrue((moved[1].lon, moved[1].lat) == vertex, "the grabbed pin lands exactly on the vertex")
        let after = (1...3).map { mercator(s.position(Int64($0))) }
        for id in [0, 2] {
            XCTAssertEqual(after[id].x - after[1].x, before[id].x - before[1].x, accuracy: 1e-14)
            XCTAssertEqual(after[id].y - after[1].y, before[id].y - before[1].y, accuracy: 1e-14)
        }
    }

    func testThePinsMovingWithTheGroupAreNoTargetsTheOthersAre() throws {
        let s = story(toPins: true)
        try s.map.selectMany([1, 2, 3], mode: .set)
        _ = s.events()
        let p = s.screenOf(2)
        s.down(p.x, p.y, at: 100)
        s.move(p.x - 40, p.y, at: 110)
        s.move(504, 404, at: 120)  // over where pin 1 stands: it moves too, no target
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        s.move(206, 195, at: 130)  // near pin 4, not selected: a target
        XCTAssertEqual(s.map.snapTarget.kind, .pin)
        XCTAssertEqual(s.map.snapTarget.feature, 4)
        s.up(206, 195, at: 140)
        XCTAssertTrue(s.position(2) == s.position(4))
    }
}
