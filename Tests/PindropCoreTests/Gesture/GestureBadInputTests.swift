import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Bad touches and ticks (SPEC section 2: a failed call changes nothing): a status, and the gesture, the
/// deadline, the clock and the event queue exactly as they were.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureBadInputTests: XCTestCase {
    func testBadInputReturnsAStatusAndChangesNothing() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 100)
        func unchanged(_ what: String, _ body: () throws -> Void) {
            let state = "\(s.map.gestureStateName)", deadline = s.map.nextDeadline, now = s.map.now
            XCTAssertThrowsError(try body(), what) { XCTAssertEqual(($0 as! PindropError).status, .invalidArgument) }
            XCTAssertEqual("\(s.map.gestureStateName)", state, what)
            XCTAssertEqual(s.map.nextDeadline, deadline, what)
            XCTAssertEqual(s.map.now, now, what)
            XCTAssertEqual(s.kinds(), [], what)
        }
        unchanged("move for a pointer never down") { try _ = s.map.touch(pointer: 7, phase: .move, x: 1, y: 1, time: 300) }
        unchanged("up for a pointer never down") { try _ = s.map.touch(pointer: 7, phase: .up, x: 1, y: 1, time: 300) }
        unchanged("cancel for a pointer never down") { try _ = s.map.touch(pointer: 7, phase: .cancel, x: 1, y: 1, time: 300) }
        unchanged("down twice") { try _ = s.map.touch(pointer: 0, phase: .down, x: 600, y: 400, time: 300) }
        unchanged("time backwards") { try _ = s.map.touch(pointer: 0, phase: .move, x: 601, y: 400, time: 99) }
        unchanged("tick backwards") { try s.map.tick(time: 50) }
        unchanged("NaN x") { try _ = s.map.touch(pointer: 0, phase: .move, x: .nan, y: 400, time: 300) }
        unchanged("infinite y") { try _ = s.map.touch(pointer: 0, phase: .up, x: 600, y: .infinity, time: 300) }
        unchanged("NaN time") { try _ = s.map.touch(pointer: 0, phase: .move, x: 600, y: 400, time: .nan) }
        unchanged("cancel_gesture backwards") { try s.map.cancelGesture(time: 10) }
        // The press is still intact: it lifts on time.
        s.tick(350)
        XCTAssertEqual(s.kinds(), [.lifted])
    }
}
