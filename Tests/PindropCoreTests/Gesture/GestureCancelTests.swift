import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A drag that ends without a drop (SPEC behaviour 7, "Cancel restores"): a touch CANCEL, cancel_gesture
/// (Esc) and removing the pin mid-drag put it back exactly and swallow the rest of the touch.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureCancelTests: XCTestCase {
    func testATouchCancelPutsThePinBackExactly() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let home = s.position(1), drawn = s.view(1, at: 0)!
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(900, 200, at: t + 50)
        XCTAssertTrue(s.cancel(at: t + 60))
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.lifted, .dragged, .dragged, .dragCancelled])
        XCTAssertEqual(e.last!.lon.bitPattern, home.lon.bitPattern)
        XCTAssertEqual(e.last!.lat.bitPattern, home.lat.bitPattern)
        XCTAssertTrue(s.position(1) == home)
        let mid = s.view(1, at: t + 60 + 125)!
        XCTAssertGreaterThan(mid.x, drawn.x, "it glides back")
        let settled = s.view(1, at: t + 60 + 250)!
        XCTAssertEqual(settled.x, drawn.x)
        XCTAssertEqual(settled.y, drawn.y)
        XCTAssertEqual("\(s.map.gestureStateName)", "idle")
    }

    func testCancelGestureLikeEscRestoresAndSwallowsTheRestOfTheTouch() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let home = s.position(1)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(700, 300, at: t + 50)
        try! s.map.cancelGesture(time: t + 60)
        XCTAssertEqual(s.events().map(\.kind), [.lifted, .dragged, .dragged, .dragCancelled])
        XCTAssertTrue(s.move(800, 300, at: t + 70), "the rest of the touch is swallowed")
        XCTAssertTrue(s.up(800, 300, at: t + 80))
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
        try! s.map.cancelGesture(time: t + 90)  // nothing in progress: OK, nothing happens
        XCTAssertEqual(s.kinds(), [])
    }

    func testRemovingThePinMidDragCancelsAndSwallowsTheRestOfTheTouch() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        _ = s.events()
        try! s.map.remove(id: 1)
        XCTAssertEqual(s.kinds(), [.dragCancelled])
        XCTAssertTrue(s.move(700, 400, at: t + 10))
        XCTAssertTrue(s.up(700, 400, at: t + 20))
        XCTAssertEqual(s.kinds(), [])
        s.addPin(2, atScreen: 100, 100)  // reuses the slot: nothing of the old gesture sticks to it
        let v = s.view(2, at: t + 30)!
        XCTAssertEqual(v.flags, [])
        XCTAssertEqual(v.lift, 0)
        XCTAssertEqual(v.x, 100, accuracy: 1e-6)
    }
}
