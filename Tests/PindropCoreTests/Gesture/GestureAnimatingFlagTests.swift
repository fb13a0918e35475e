import XCTest
@testable import PindropCore
import PindropTestSupport

/// `PINDROP_PIN_ANIMATING` (docs/gestures.md, "Animations"): a pin is flagged while its drawing
/// still changes with no input — its lift rising, a drop falling, its drawn point gliding — and
/// not once it is still, so that a host knows when to stop drawing frames. The glides with no
/// lift (a tap-to-move, a cancel before the lift) gave a host no sign at all before the flag.
/// Stories with explicit times on a `Story` (Story.swift): lift 200 ms, drop 250 ms.
final class GestureAnimatingFlagTests: XCTestCase {
    private func animating(_ s: Story, _ id: Int64, at t: Double) -> Bool {
        s.view(id, at: t)!.flags.contains(.animating)
    }

    func testAPinAtRestIsNotAnimating() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        XCTAssertFalse(animating(s, 1, at: 0))
        XCTAssertFalse(animating(s, 1, at: 5000))
    }

    func testTheLiftAnimatesUntilItIsUpAndTheDropUntilItSettles() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        XCTAssertFalse(animating(s, 1, at: 100), "pressed, not lifted yet")
        s.tick(250)
        XCTAssertTrue(animating(s, 1, at: 250), "the lift starts rising")
        XCTAssertTrue(animating(s, 1, at: 449))
        s.move(660, 400, at: 450)
        let held = s.view(1, at: 460)!
        XCTAssertTrue(held.flags.contains(.dragging))
        XCTAssertFalse(held.flags.contains(.animating), "fully lifted: it moves only with the finger")
        XCTAssertEqual(held.lift, 1)
        s.up(660, 400, at: 500)
        XCTAssertTrue(animating(s, 1, at: 500), "the drop falls")
        XCTAssertNotEqual(s.view(1, at: 740)!.lift, 0)
        XCTAssertTrue(animating(s, 1, at: 740))
        XCTAssertEqual(s.view(1, at: 750)!.lift, 0)
        XCTAssertFalse(animating(s, 1, at: 750), "settled at drop_duration_ms")
    }

    func testACancelGlidesBackFlaggedUntilItArrives() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(700, 450, at: t + 50)
        XCTAssertNoThrow(try s.map.cancelGesture(time: t + 100))
        let home = s.screen(s.position(1).lon, s.position(1).lat)
        let mid = s.view(1, at: t + 200)!
        XCTAssertNotEqual(mid.x, home.x, "still on its way back")
        XCTAssertTrue(mid.flags.contains(.animating))
        let end = s.view(1, at: t + 350)!
        XCTAssertEqual(end.x, home.x, accuracy: 1e-9)
        XCTAssertFalse(end.flags.contains(.animating))
    }

    func testATapToMoveGlidesWithNoLiftAndIsFlagged() {
        let s = Story()
        s.addPin(1, atScreen: 500, 300); s.map.editingID = 1
        s.down(200, 600, at: 0); s.up(200, 600, at: 80)
        s.tick(380)  // the double-tap window closed: the pin moves to the tapped point
        XCTAssertEqual(s.kinds(), [.moved, .calloutChanged, .geocodeRequest])
        let mid = s.view(1, at: 500)!
        XCTAssertEqual(mid.lift, 0, "a tap-to-move has no lift: only the flag says it still moves")
        XCTAssertNotEqual(mid.x, 200)
        XCTAssertTrue(mid.flags.contains(.animating))
        XCTAssertEqual(s.map.nextDeadline, .infinity, "no tick is due: the flag is the host's sign")
        let end = s.view(1, at: 380 + 250)!
        XCTAssertEqual(end.x, 200, accuracy: 1e-6)
        XCTAssertFalse(end.flags.contains(.animating))
    }

    func testNoAnimationsNoFlag() {
        let s = Story { $0.liftDurationMs = 0; $0.dropDurationMs = 0 }
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        s.tick(250)
        XCTAssertFalse(animating(s, 1, at: 250))
        s.move(650, 400, at: 260)
        s.up(650, 400, at: 270)
        XCTAssertFalse(animating(s, 1, at: 270))
    }

    func testTheKeyboardsLiftIsFlaggedWhileItRises() throws {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        try s.map.select(id: 1)
        try s.map.keyLift(time: 10)
        XCTAssertTrue(animating(s, 1, at: 100))
        XCTAssertFalse(animating(s, 1, at: 210))
        try s.map.keyDrop(time: 300)
        XCTAssertTrue(animating(s, 1, at: 400))
        XCTAssertFalse(animating(s, 1, at: 550))
    }
}
