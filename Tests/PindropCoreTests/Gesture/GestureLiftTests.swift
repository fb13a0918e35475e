import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A press on a pin becomes a pan or a lift (SPEC behaviours 2, 3 and 4; docs/gestures.md): the pause
/// decides, the lift happens exactly at lift_delay_ms and rises over lift_duration_ms, the landing point sits
/// lift_height above the finger, a non-draggable pin never lifts, and the mouse profile (lift_delay_ms 0)
/// drags at once.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureLiftTests: XCTestCase {
    func testAQuickSwipeStartingOnAPinPansAndTheGestureStaysTheHosts() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let before = s.position(1)
        XCTAssertTrue(s.down(600, 400, at: 0), "pindrop claims the press")
        XCTAssertTrue(s.move(603, 400, at: 40), "within drag_threshold: still undecided, not the host's pan")
        XCTAssertFalse(s.move(620, 400, at: 80), "beyond drag_threshold before lift_delay_ms: the host pans")
        XCTAssertEqual(s.map.nextDeadline, .infinity, "no lift is pending any more")
        s.tick(1000)
        XCTAssertFalse(s.move(600, 400, at: 1100), "back over the pin, still the host's")
        XCTAssertFalse(s.up(600, 400, at: 1200))
        XCTAssertEqual(s.kinds(), [], "no lift, no drag, no selection")
        XCTAssertTrue(s.position(1) == before)
    }

    func testAHoldLiftsExactlyAtLiftDelayAndNextDeadlineSaysSo() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        s.down(600, 400, at: 1000)
        XCTAssertEqual(s.map.nextDeadline, 1250)
        s.move(602, 401, at: 1100)  // a little tremor within the threshold
        s.tick(1249.999)
        XCTAssertEqual(s.kinds(), [])
        s.tick(1250)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.lifted])
        XCTAssertEqual(e.first?.id, 1)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        XCTAssertEqual(s.view(1, at: 1250)?.flags ?? [], [.dragging, .animating], "held, its lift rising")
        XCTAssertEqual(s.view(1, at: 1450)?.flags ?? [], .dragging, "held, lifted")
    }

    func testATouchThatArrivesAfterAMissedTickStillLiftsFirst() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        XCTAssertTrue(s.move(620, 400, at: 400), "the lift was due at 250: it happens, then the move drags")
        XCTAssertEqual(s.kinds(), [.lifted, .dragged])
    }

    func testALiftedPinFollowsOnlyAfterMoreThanDragThreshold() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        s.tick(250)
        _ = s.events()
        s.move(603, 404, at: 300)  // exactly 5 points: not more than the threshold
        XCTAssertEqual(s.kinds(), [])
        XCTAssertEqual("\(s.map.gestureStateName)", "lifted")
        s.move(603, 404.01, at: 310)
        XCTAssertEqual(s.kinds(), [.dragged])
        s.move(601, 401, at: 320)  // once following, it follows everywhere
        XCTAssertEqual(s.kinds(), [.dragged])
    }

    func testTheLandingPointIsLiftHeightAboveTheFingerPlusTheGrabOffset() {
        let cam = (lon: -118.2, lat: 33.8, zoom: 18.0)
        let s = Story(lon: cam.lon, lat: cam.lat, zoom: cam.zoom)
        s.addPin(1, atScreen: 600, 400)
        let pin = s.screenOf(1)
        // Grabbed 7 points left of and 5 points below the pin.
        let t = s.liftAndStartDrag(pin.x - 7, pin.y + 5, at: 0)
        _ = s.events()
        s.move(300, 500, at: t + 20)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dragged])
        let want = textbookLonLat(centerLon: cam.lon, centerLat: cam.lat, zoom: cam.zoom, width: 1200, height: 800,
                                  x: 300 + 7, y: 500 - 5 - 40)
        XCTAssertEqual(e[0].lon, want.lon, accuracy: 1e-11)
        XCTAssertEqual(e[0].lat, want.lat, accuracy: 1e-11)
        let v = s.view(1, at: t + 20)!
        XCTAssertEqual(v.x, 307, accuracy: 1e-6)
        XCTAssertEqual(v.y, 455, accuracy: 1e-6)
        XCTAssertEqual(v.lift, 1)
        XCTAssertEqual(v.flags.intersection(.dragging), .dragging)
    }

    func testTheLiftedPinRisesSmoothlyOverLiftDuration() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        let pin = s.screenOf(1)
        s.down(pin.x, pin.y, at: 0)
        s.tick(250)
        var lastY = pin.y
        for t in stride(from: 250.0, through: 450, by: 25) {
            let v = s.view(1, at: t)!
            let p = min(1, (t - 250) / 200), eased = 1 - pow(1 - p, 3)
            XCTAssertEqual(v.lift, eased, accuracy: 1e-12, "lift at \(t)")
            XCTAssertEqual(v.y, pin.y - 40 * eased, accuracy: 1e-6, "drawn point at \(t)")
            XCTAssertEqual(v.x, pin.x, accuracy: 1e-6)
            XCTAssertLessThanOrEqual(v.y, lastY)
            lastY = v.y
        }
        XCTAssertEqual(s.view(1, at: 1000)!.y, pin.y - 40, accuracy: 1e-6)
    }

    func testANonDraggablePinNeverLiftsButCanBeSelected() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        try! s.map.setDraggable(id: 1, false)
        s.down(600, 400, at: 0)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        s.tick(5000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertFalse(s.move(700, 400, at: 5010), "moving pans the map")
        s.up(700, 400, at: 5020)
        s.down(600, 400, at: 6000); s.up(600, 400, at: 6050)
        XCTAssertEqual(s.kinds(), [.selected])
        s.map.editingID = 1
        s.down(100, 100, at: 7000); s.up(100, 100, at: 7050); s.tick(8000)
        XCTAssertEqual(s.kinds(), [], "tap-to-move does not move it either")

        let m = Story { $0.liftDelayMs = 0 }
        m.addPin(1, atScreen: 600, 400)
        try! m.map.setDraggable(id: 1, false)
        XCTAssertTrue(m.down(600, 400, at: 0))
        XCTAssertFalse(m.move(650, 400, at: 10), "mouse profile: press and move pans")
        XCTAssertEqual(m.kinds(), [])
    }

    func testMouseProfilePressAndMoveDragsAtOnce() {
        let s = Story { $0.liftDelayMs = 0; $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        XCTAssertTrue(s.down(600, 400, at: 0))
        XCTAssertEqual(s.map.nextDeadline, .infinity, "no hold to wait for")
        s.tick(2000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.move(604, 400, at: 2010))
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.move(610, 400, at: 2020))
        XCTAssertEqual(s.kinds(), [.lifted, .dragged])
        XCTAssertEqual(s.view(1, at: 2020)!.x, 610, accuracy: 1e-6, "lift_height 0: the pin sits under the pointer")
        XCTAssertTrue(s.up(640, 420, at: 2030))
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
        let want = try! s.map.toLonLat(x: 640, y: 420)
        XCTAssertEqual(e[2].lon, want.lon, accuracy: 1e-12)
        XCTAssertEqual(e[2].lat, want.lat, accuracy: 1e-12)
        // A click selects.
        let p = s.screenOf(1)
        s.down(p.x, p.y, at: 3000); s.up(p.x, p.y, at: 3080)
        XCTAssertEqual(s.kinds(), [.selected])
    }
}
