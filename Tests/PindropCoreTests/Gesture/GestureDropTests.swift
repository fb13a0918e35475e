import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Releasing a dragged pin (SPEC behaviours 5 and 8, "No hop on release", "Drag again at once"): MOVED
/// carries the last DRAGGED coordinate bit for bit, a lift without a move changes nothing, and a dropped pin
/// can be lifted again a millisecond later.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureDropTests: XCTestCase {
    func testReleasingCommitsTheLastDraggedCoordinateBitForBit() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let from = s.position(1)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        for i in 1...30 { s.move(610 + Double(i) * 3.37, 400 - Double(i) * 1.91, at: t + Double(i) * 16) }
        let dragged = s.events().filter { $0.kind == .dragged }
        let drawnBefore = s.view(1, at: t + 600)!
        s.up(610 + 30 * 3.37, 400 - 30 * 1.91, at: t + 600)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dropped, .moved, .calloutChanged, .geocodeRequest])
        let moved = e[1]
        XCTAssertEqual(moved.lon.bitPattern, dragged.last!.lon.bitPattern)
        XCTAssertEqual(moved.lat.bitPattern, dragged.last!.lat.bitPattern)
        XCTAssertEqual(moved.cause, .drag)
        XCTAssertEqual(moved.fromLon.bitPattern, from.lon.bitPattern)
        XCTAssertEqual(moved.fromLat.bitPattern, from.lat.bitPattern)
        XCTAssertTrue(s.position(1) == (moved.lon, moved.lat))
        let drawnAfter = s.view(1, at: t + 600)!
        XCTAssertEqual(drawnAfter.x, drawnBefore.x)
        XCTAssertEqual(drawnAfter.y, drawnBefore.y)
        XCTAssertEqual(s.view(1, at: t + 2000)!.x, drawnBefore.x)
        XCTAssertEqual(s.view(1, at: t + 2000)!.y, drawnBefore.y)
    }

    func testReleasingDuringTheLiftAnimationStillCommitsTheLastDragged() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        s.tick(250)
        s.move(630, 380, at: 270)  // dragging while the pin is still rising
        let drawn = s.view(1, at: 300)!
        s.up(630, 380, at: 300)
        let e = s.events()
        let lastDragged = e.last { $0.kind == .dragged }!
        let moved = e.first { $0.kind == .moved }!
        XCTAssertEqual(moved.lon.bitPattern, lastDragged.lon.bitPattern)
        XCTAssertEqual(moved.lat.bitPattern, lastDragged.lat.bitPattern)
        let after = s.view(1, at: 300)!
        XCTAssertEqual(after.x, drawn.x, accuracy: 1e-9)
        XCTAssertEqual(after.y, drawn.y, accuracy: 1e-9)
    }

    func testLiftAndReleaseWithoutMovingChangesNothing() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let before = s.position(1)
        let drawn = s.view(1, at: 0)!
        s.down(600, 400, at: 0)
        s.tick(250)
        s.move(603, 403, at: 500)
        s.up(603, 403, at: 600)
        XCTAssertEqual(s.kinds(), [.lifted, .dropped])
        XCTAssertEqual(s.position(1).lon.bitPattern, before.lon.bitPattern)
        XCTAssertEqual(s.position(1).lat.bitPattern, before.lat.bitPattern)
        let settled = s.view(1, at: 600 + 250)!
        XCTAssertEqual(settled.x, drawn.x)
        XCTAssertEqual(settled.y, drawn.y)
        XCTAssertEqual(settled.lift, 0)
    }

    func testAPinCanBeLiftedAgainOneMillisecondAfterItWasDropped() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(700, 300, at: t + 50)
        s.up(700, 300, at: t + 60)
        XCTAssertEqual(s.kinds(), [.lifted, .dragged, .dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
        XCTAssertLessThan(s.view(1, at: t + 61)!.lift, 1, "the drop animation is running")
        let p = s.screenOf(1)
        XCTAssertTrue(s.down(p.x, p.y, at: t + 61))
        XCTAssertEqual(s.map.nextDeadline, t + 61 + 250)
        s.tick(t + 61 + 250)
        s.move(p.x + 50, p.y, at: t + 61 + 300)
        s.up(p.x + 50, p.y, at: t + 61 + 310)
        // The second DRAGGED: released while still rising, the landing point rose 10 ms further.
        XCTAssertEqual(s.kinds(), [.lifted, .dragged, .dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
    }

    func testMouseProfileDragsAgainOneMillisecondAfterADrop() {
        let s = Story { $0.liftDelayMs = 0; $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0); s.move(650, 400, at: 10); s.up(650, 400, at: 20)
        XCTAssertEqual(s.kinds(), [.lifted, .dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
        s.down(650, 400, at: 21); s.move(700, 400, at: 22); s.up(700, 400, at: 23)
        XCTAssertEqual(s.kinds(), [.lifted, .dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
        XCTAssertEqual(s.screenOf(1).x, 700, accuracy: 1e-6)
    }
}
