import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Other fingers (SPEC behaviour 9, its multi-touch paragraph): during a drag they are the host's, during a
/// press they abandon it, and a finger left down keeps the next touch with the host.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureMultiTouchTests: XCTestCase {
    func testDuringADragOtherPointersAreTheHostsAndDoNotDisturbIt() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        _ = s.events()
        XCTAssertFalse(s.down(100, 100, at: t + 10, pointer: 1))
        XCTAssertFalse(s.move(150, 120, at: t + 20, pointer: 1))
        XCTAssertEqual(s.kinds(), [], "the host's finger moves nothing of pindrop's")
        XCTAssertTrue(s.move(700, 300, at: t + 30))
        XCTAssertEqual(s.kinds(), [.dragged])
        XCTAssertFalse(s.up(150, 120, at: t + 40, pointer: 1))
        XCTAssertTrue(s.up(700, 300, at: t + 50))
        XCTAssertEqual(s.kinds(), [.dropped, .moved, .calloutChanged, .geocodeRequest])
    }

    func testASecondPointerDuringAPressAbandonsThePress() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        XCTAssertTrue(s.down(600, 400, at: 0))
        XCTAssertFalse(s.down(800, 500, at: 100, pointer: 1), "a pinch is the host's")
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        s.tick(1000)
        XCTAssertFalse(s.move(590, 400, at: 1010))
        XCTAssertFalse(s.up(590, 400, at: 1020))
        XCTAssertFalse(s.up(800, 500, at: 1030, pointer: 1))
        XCTAssertEqual(s.kinds(), [])
        XCTAssertEqual("\(s.map.gestureStateName)", "idle")
    }

    func testAFingerLeftDownAfterADragKeepsTheNextTouchWithTheHost() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.down(100, 100, at: t + 10, pointer: 1)
        s.up(610, 400, at: t + 20)
        _ = s.events()
        XCTAssertFalse(s.down(300, 300, at: t + 30, pointer: 2), "two fingers down: the host's gesture")
        s.tick(t + 2000)
        XCTAssertEqual(s.kinds(), [])
    }
}
