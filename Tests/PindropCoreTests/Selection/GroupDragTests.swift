import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 23, a selection moved as one: the group drag (rigid, flagged, dropped as one user
/// move in ascending id order, one undo step), cancel, the allowed area reverting the group, nudges
/// and the keyboard drag of a selection, and a single selected pin as before. Explicit times; the
/// oracle for the offsets is Web Mercator in its textbook form, written apart from the library's.
final class GroupDragTests: XCTestCase {
    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; configure(&$0) }, zoom: 19)
        s.addPin(1, atScreen: 500, 400)
        s.addPin(2, atScreen: 600, 420)
        s.addPin(3, atScreen: 700, 380)
        s.addPin(4, atScreen: 200, 200)
        _ = s.events()
        return s
    }

    /// Web Mercator, world of size 1, in its textbook form (Snyder).
    func mercator(_ p: (lon: Double, lat: Double)) -> (x: Double, y: Double) {
        let phi = p.lat * .pi / 180
        return ((p.lon + 180) / 360, 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi))
    }

    func offset(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> (x: Double, y: Double) {
        let p = mercator(a), q = mercator(b)
        return (q.x - p.x, q.y - p.y)
    }

    /// Mouse profile: press pin `id`, move by (dx, dy) in `steps` moves from t, then release.
    /// Returns where the finger is.
    @discardableResult
    func drag(_ s: Story, _ id: Int64, dx: Double, dy: Double, at t: Double, release: Bool = true) -> (x: Double, y: Double) {
        let p = s.screenOf(id)
        s.down(p.x, p.y, at: t)
        s.move(p.x + dx / 2, p.y + dy / 2, at: t + 10)
        s.move(p.x + dx, p.y + dy, at: t + 20)
        if release { s.up(p.x + dx, p.y + dy, at: t + 30) }
        return (p.x + dx, p.y + dy)
    }

    func testTheGroupFollowsRigidlyFlaggedDraggingAndDropsAsOneMoveInIdOrder() throws {
        let s = story()
        try s.map.selectMany([1, 2, 3], mode: .set)
        let before = (1...4).map { s.position(Int64($0)) }
        let screens = (1...3).map { s.screenOf(Int64($0)) }
        _ = s.events()
        let finger = drag(s, 2, dx: 50, dy: 30, at: 100, release: false)
        // While dragged: every selected pin drawn 50, 30 points away, flagged DRAGGING; 4 is still.
        let n = try s.map.frame(time: 125)
        let views = Dictionary(uniqueKeysWithValues: s.map.frameViews[0..<n].map { ($0.id, $0) })
        for id in 1...3 {
            let v = try XCTUnwrap(views[Int64(id)])
            XCTAssertEqual(v.x, screens[id - 1].x + 50, accuracy: 1e-6)
            XCTAssertEqual(v.y, screens[id - 1].y + 30, accuracy: 1e-6)
            XCTAssertTrue(v.flags.contains(.dragging), "pin \(id)")
            XCTAssertTrue(v.flags.contains(.selected), "pin \(id)")
        }
        XCTAssertFalse(views[4]!.flags.contains(.dragging))
        // Only the grabbed pin reports the drag; nothing has moved yet.
        let during = s.events()
        XCTAssertEqual(Set(during.map(\.id)), [2])
        XCTAssertEqual(during.first?.kind, .lifted)
        XCTAssertEqual(s.position(1).lon, before[0].lon)
        s.up(finger.x, finger.y, at: 130)
        let e = s.events()
        XCTAssertEqual(e.first?.kind, .dropped)
        let moved = e.filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.id), [1, 2, 3], "one MOVED per pin, ascending ids")
        XCTAssertTrue(moved.allSatisfy { $0.cause == .drag })
        XCTAssertEqual(e.filter { $0.kind == .calloutChanged }.map(\.id), [1, 2, 3])
        XCTAssertEqual(e.filter { $0.kind == .geocodeRequest }.map(\.id), [1, 2, 3])
        for (k, m) in moved.enumerated() {
            XCTAssertEqual(m.fromLon, before[k].lon); XCTAssertEqual(m.fromLat, before[k].lat)
            XCTAssertEqual(m.lon, s.position(m.id).lon); XCTAssertEqual(m.lat, s.position(m.id).lat)
        }
        XCTAssertEqual(s.position(4).lon, before[3].lon)
        XCTAssertEqual(s.map.undoCount, 1)
        // The oracle: every pin keeps its Web Mercator offset from the grabbed pin.
        for id in [1, 3] {
            let was = offset(before[1], before[id - 1]), now = offset(s.position(2), s.position(Int64(id)))
            XCTAssertEqual(now.x, was.x, accuracy: 1e-12); XCTAssertEqual(now.y, was.y, accuracy: 1e-12)
        }
        // ... so the same screen offset at another zoom.
        try s.map.setCamera(Camera(centerLon: -118.2, centerLat: 33.8, zoom: 15, width: 1200, height: 800))
        let a = s.screenOf(2), b = s.screenOf(3)
        let scale = pow(2, 15.0 - 19.0)
        XCTAssertEqual(b.x - a.x, (screens[2].x - screens[1].x) * scale, accuracy: 1e-6)
        XCTAssertEqual(b.y - a.y, (screens[2].y - screens[1].y) * scale, accuracy: 1e-6)
    }

    func testOneUndoRestoresTheGroupAndOneRedoMovesItAgain() throws {
        let s = story()
        try s.map.selectMany([1, 2, 3], mode: .set)
        let before = (1...3).map { s.position(Int64($0)) }
        drag(s, 1, dx: -40, dy: 25, at: 100)
        let after = (1...3).map { s.position(Int64($0)) }
        _ = s.events()
        try s.map.undo(time: 200)
        let undo = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(undo.map(\.id), [1, 2, 3])
        XCTAssertTrue(undo.allSatisfy { $0.cause == .undo })
        for k in 0..<3 {
            XCTAssertEqual(s.position(Int64(k + 1)).lon, before[k].lon); XCTAssertEqual(s.position(Int64(k + 1)).lat, before[k].lat)
        }
        XCTAssertEqual(s.map.undoCount, 0)
        XCTAssertEqual(s.map.redoCount, 1)
        try s.map.redo(time: 300)
        XCTAssertEqual(s.events().filter { $0.kind == .moved }.map(\.cause), [.redo, .redo, .redo])
        for k in 0..<3 {
            XCTAssertEqual(s.position(Int64(k + 1)).lon, after[k].lon); XCTAssertEqual(s.position(Int64(k + 1)).lat, after[k].lat)
        }
    }

    func testCancelPutsEveryPinBack() throws {
        let s = story()
        try s.map.selectMany([1, 2, 3], mode: .set)
        let screens = (1...3).map { s.screenOf(Int64($0)) }
        drag(s, 3, dx: 80, dy: -60, at: 100, release: false)
        _ = s.events()
        try s.map.cancelGesture(time: 130)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dragCancelled])
        s.up(0, 0, at: 140)
        let n = try s.map.frame(time: 1000)
        for v in s.map.frameViews[0..<n] where v.id <= 3 {
            XCTAssertEqual(v.x, screens[Int(v.id) - 1].x, accuracy: 1e-6)
            XCTAssertEqual(v.y, screens[Int(v.id) - 1].y, accuracy: 1e-6)
            XCTAssertFalse(v.flags.contains(.dragging))
        }
        XCTAssertEqual(s.map.undoCount, 0)
    }

    /// The allowed area covers pins 1-3 with 100 points to spare on the left, 20 on the right.
    func areaStory(_ policy: Options.OutsidePolicy) throws -> Story {
        let s = story { $0.outsidePolicy = policy }
        let nw = try s.map.toLonLat(x: 300, y: 300), se = try s.map.toLonLat(x: 720, y: 500)
        s.map.setAllowedArea(try PolygonArea(polygons: [[[(nw.lon, se.lat), (se.lon, se.lat), (se.lon, nw.lat), (nw.lon, nw.lat)]]]))
        try s.map.selectMany([1, 2, 3], mode: .set)
        _ = s.events()
        return s
    }

    func testTheAllowedAreaRevertsTheGroupAsAWholeAndFlagsThePinsOutside() throws {
        for policy in Options.OutsidePolicy.allCases {
            let s = try areaStory(policy)
            let before = (1...3).map { s.position(Int64($0)) }
            // 50 points right: pin 3 (x 700) leaves the area (x 720), 1 and 2 stay inside.
            let finger = drag(s, 1, dx: 50, dy: 0, at: 100, release: false)
            let n = try s.map.frame(time: 125)
            let invalid = s.map.frameViews[0..<n].filter { $0.flags.contains(.invalid) }.map(\.id)
            XCTAssertEqual(invalid, [3], "\(policy)")
            s.up(finger.x, finger.y, at: 130)
            let e = s.events()
            XCTAssertEqual(e.filter { $0.kind == .moved }.count, 0, "\(policy): the group is reverted")
            for k in 0..<3 {
                XCTAssertEqual(s.position(Int64(k + 1)).lon, before[k].lon); XCTAssertEqual(s.position(Int64(k + 1)).lat, before[k].lat)
            }
            // 50 points left: all stay inside, the group moves.
            s.tick(999)  // pin 1 has glided back
            drag(s, 1, dx: -50, dy: 0, at: 1000)
            XCTAssertEqual(s.events().filter { $0.kind == .moved }.map(\.id), [1, 2, 3], "\(policy)")
        }
    }

    func testNudgesMoveTheWholeSelectionAsOneStepPerSeries() throws {
        let s = story()
        try s.map.selectMany([1, 3], mode: .set)
        let before = (1...3).map { s.screenOf(Int64($0)) }
        let start = [s.position(1), s.position(3)]
        _ = s.events()
        try s.map.nudge(dx: 10, dy: 0, time: 100)
        try s.map.nudge(dx: 0, dy: -5, time: 300)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.id), [1, 3, 1, 3])
        XCTAssertTrue(moved.allSatisfy { $0.cause == .nudge })
        for id in [1, 3] {
            let p = s.screenOf(Int64(id))
            XCTAssertEqual(p.x, before[id - 1].x + 10, accuracy: 1e-6)
            XCTAssertEqual(p.y, before[id - 1].y - 5, accuracy: 1e-6)
        }
        XCTAssertEqual(s.screenOf(2).x, before[1].x, accuracy: 1e-9)
        XCTAssertEqual(s.map.undoCount, 1, "a series of nudges of the selection is one step")
        try s.map.undo(time: 400)
        XCTAssertEqual(s.position(1).lon, start[0].lon); XCTAssertEqual(s.position(3).lat, start[1].lat)
        // A nudge that would take one pin out of the allowed area moves none, whatever the policy.
        let nw = try s.map.toLonLat(x: 300, y: 300), se = try s.map.toLonLat(x: 720, y: 500)
        s.map.setAllowedArea(try PolygonArea(polygons: [[[(nw.lon, se.lat), (se.lon, se.lat), (se.lon, nw.lat), (nw.lon, nw.lat)]]]))
        XCTAssertThrowsError(try s.map.nudge(dx: 30, dy: 0, time: 500)) {   // pin 3 would pass x = 720
            XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument)
        }
        XCTAssertEqual(s.position(1).lon, start[0].lon)
        try s.map.nudge(dx: -30, dy: 0, time: 600)
        XCTAssertEqual(s.events().filter { $0.kind == .moved }.map(\.id), [1, 3, 1, 3])  // undo's two, then the nudge's
    }

    func testAGroupNudgeWithTheSnapPolicyIsRefusedToo() throws {
        let s = try areaStory(.snap)
        XCTAssertThrowsError(try s.map.nudge(dx: 30, dy: 0, time: 100)) {
            XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument)
        }
        XCTAssertEqual(s.events().count, 0)
    }

    func testTheKeyboardDragMovesTheSelection() throws {
        let s = story()
        try s.map.selectMany([2, 3], mode: .set)
        let before = (1...3).map { s.screenOf(Int64($0)) }
        try s.map.keyLift(time: 100)
        try s.map.nudge(dx: 10, dy: 0, time: 200)
        try s.map.nudge(dx: 10, dy: 10, time: 300)
        let n = try s.map.frame(time: 350)
        let v3 = try XCTUnwrap(s.map.frameViews[0..<n].first { $0.id == 3 })
        XCTAssertTrue(v3.flags.contains(.dragging))
        XCTAssertEqual(v3.x, before[2].x + 20, accuracy: 1e-6)
        XCTAssertEqual(v3.y, before[2].y + 10, accuracy: 1e-6)
        _ = s.events()
        try s.map.keyDrop(time: 400)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.id), [2, 3])
        XCTAssertTrue(moved.allSatisfy { $0.cause == .keyboard })
        for id in [2, 3] {
            XCTAssertEqual(s.screenOf(Int64(id)).x, before[id - 1].x + 20, accuracy: 1e-6)
            XCTAssertEqual(s.screenOf(Int64(id)).y, before[id - 1].y + 10, accuracy: 1e-6)
        }
        XCTAssertEqual(s.map.undoCount, 1)
    }

    func testASingleSelectedPinBehavesAsBefore() throws {
        let s = story()
        try s.map.select(id: 2)
        drag(s, 2, dx: 30, dy: 30, at: 100)
        let e = s.events()
        XCTAssertEqual(e.filter { $0.kind == .moved }.map(\.id), [2])
        // A drag of an unselected pin moves only that pin, even with a selection of several.
        try s.map.selectMany([1, 3], mode: .set)
        drag(s, 2, dx: 30, dy: 30, at: 1000)
        XCTAssertEqual(s.events().filter { $0.kind == .moved }.map(\.id), [2])
        XCTAssertNil(s.map.group)
    }

    func testRemovingAMemberDuringTheDragLeavesTheOthersMoving() throws {
        let s = story()
        try s.map.selectMany([1, 2, 3], mode: .set)
        let finger = drag(s, 1, dx: 20, dy: 20, at: 100, release: false)
        try s.map.remove(id: 3)
        s.up(finger.x, finger.y, at: 130)
        XCTAssertEqual(s.events().filter { $0.kind == .moved }.map(\.id), [1, 2])
    }
}
