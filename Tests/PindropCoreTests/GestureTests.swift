import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A map, a camera and a pen: the stories below touch it at explicit times and read the events.
final class Story {
    let map: Map
    var log: [EventFields] = []

    init(_ configure: (inout Options) -> Void = { _ in },
         lon: Double = -118.2, lat: Double = 33.8, zoom: Double = 18, width: Double = 1200, height: Double = 800) {
        var o = Options()
        configure(&o)
        map = try! Map(options: o, factory: BruteForceFactory())
        try! map.setCamera(Camera(centerLon: lon, centerLat: lat, zoom: zoom, width: width, height: height))
    }

    @discardableResult func down(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .down, x: x, y: y, time: t)
    }
    @discardableResult func move(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .move, x: x, y: y, time: t)
    }
    @discardableResult func up(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .up, x: x, y: y, time: t)
    }
    @discardableResult func cancel(at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .cancel, x: .nan, y: .nan, time: t)
    }
    func tick(_ t: Double) { try! map.tick(time: t) }

    /// The events since the last call.
    func events() -> [EventFields] {
        var out: [EventFields] = []
        while let e = map.pollEventFields() { out.append(e); log.append(e) }
        return out
    }
    func kinds() -> [Event.Kind] { events().map(\.kind) }

    func screen(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) { try! map.toScreen(lon: lon, lat: lat) }
    func screenOf(_ id: Int64) -> (x: Double, y: Double) {
        let p = try! map.displayPosition(id: id)
        return screen(p.lon, p.lat)
    }
    /// The pin's view in a frame at time t.
    func view(_ id: Int64, at t: Double) -> Map.PinView? {
        let n = try! map.frame(time: t)
        return map.frameViews[0..<n].first { $0.id == id }
    }
    func position(_ id: Int64) -> (lon: Double, lat: Double) { try! map.position(id: id) }

    /// Adds pin `id` under screen point (x, y).
    func addPin(_ id: Int64, atScreen x: Double, _ y: Double) {
        let p = try! map.toLonLat(x: x, y: y)
        try! map.add(id: id, lon: p.lon, lat: p.lat)
    }

    /// Touch profile: press at (x, y) at t, hold until the lift, wait for the lift animation,
    /// then move past the threshold to (x + 10, y). Returns the time after.
    func liftAndStartDrag(_ x: Double, _ y: Double, at t: Double) -> Double {
        down(x, y, at: t)
        tick(t + map.options.liftDelayMs)
        let t2 = t + map.options.liftDelayMs + map.options.liftDurationMs
        move(x + 10, y, at: t2)
        return t2
    }
}

/// Web Mercator inverse in its textbook form (Snyder: φ = 2·atan(e^(π(1 − 2y))) − π/2), written
/// apart from the library's, for a camera without bearing.
func textbookLonLat(centerLon: Double, centerLat: Double, zoom: Double, width: Double, height: Double,
                    x: Double, y: Double) -> (lon: Double, lat: Double) {
    let size = 256 * pow(2, zoom)
    let cx = (centerLon + 180) / 360 * size
    let phi = centerLat * .pi / 180
    let cy = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * size
    let wx = cx + (x - width / 2), wy = cy + (y - height / 2)
    let lon = wx / size * 360 - 180
    let lat = (2 * atan(exp(.pi * (1 - 2 * wy / size))) - .pi / 2) * 180 / .pi
    return (lon, lat)
}

final class GestureTests: XCTestCase {
    // Grab easily.

    func testATouchWithinHitRadiusGrabsThePinAndOneBeyondDoesNot() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        XCTAssertTrue(s.down(600 + 21.9, 400, at: 0), "21.9 points away is within hit_radius 22")
        s.up(600 + 21.9, 400, at: 50)
        XCTAssertEqual(s.kinds(), [.selected])
        XCTAssertFalse(s.down(600, 400 + 22.1, at: 1000), "22.1 points away is beyond hit_radius")
        XCTAssertEqual("\(s.map.gestureStateName)", "mapTouch")
        s.up(600, 422.1, at: 1050)
    }

    func testTheNearestDrawnPinWinsAndTiesGoToTheEditedThenSelectedThenHigherID() {
        let s = Story()
        s.addPin(1, atScreen: 590, 400)
        s.addPin(2, atScreen: 610, 400)
        s.addPin(3, atScreen: 603, 400)
        s.down(605, 400, at: 0); s.up(605, 400, at: 10)
        XCTAssertEqual(s.map.selectedID, 3, "pin 3 is 2 points away, pin 2 5, pin 1 15")
        // 600: pins 1 and 2 are both 10 away, pin 3 is 3 away → 3; at 600 without 3:
        try! s.map.remove(id: 3)
        _ = s.events()
        s.down(600, 400, at: 1000); s.up(600, 400, at: 1010)
        XCTAssertEqual(s.map.selectedID, 2, "a tie between 1 and 2 goes to the higher id")
        s.map.editingID = 1
        s.down(600, 400, at: 2000); s.up(600, 400, at: 2010)
        XCTAssertEqual(s.map.selectedID, 1, "a tie goes to the pin being edited first")
    }

    // Pan or drag, decided by a pause.

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
        XCTAssertEqual(s.view(1, at: 1250)?.flags ?? [], .dragging)
    }

    func testATouchThatArrivesAfterAMissedTickStillLiftsFirst() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0)
        XCTAssertTrue(s.move(620, 400, at: 400), "the lift was due at 250: it happens, then the move drags")
        XCTAssertEqual(s.kinds(), [.lifted, .dragged])
    }

    // Threshold.

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

    // The finger never hides the target.

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

    // No hop on release.

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

    // No jitter at any zoom.

    func testOnePointStepsMoveTheDrawnPinByOnePointAtEveryZoomAndLatitude() {
        for zoom in [0.0, 10, 18, 22, 24] {
            for lat in [0.0, 60, 85, -85] {
                let s = Story(lon: 13.4, lat: lat, zoom: zoom)
                s.addPin(1, atScreen: 600, 400)
                let t = s.liftAndStartDrag(600, 400, at: 0)
                var prev = s.view(1, at: t)!
                for i in 1...20 {
                    let dx = i <= 10 ? 1.0 : 0.0, dy = i <= 10 ? 0.0 : 1.0
                    let fx = 610 + Double(min(i, 10)), fy = 400 + Double(max(0, i - 10))
                    s.move(fx, fy, at: t + Double(i))
                    let v = s.view(1, at: t + Double(i))!
                    XCTAssertEqual(v.x - prev.x, dx, accuracy: 1e-5, "zoom \(zoom) lat \(lat) step \(i)")
                    XCTAssertEqual(v.y - prev.y, dy, accuracy: 1e-5, "zoom \(zoom) lat \(lat) step \(i)")
                    prev = v
                }
            }
        }
    }

    func testOnARotatedMapThePinStillFollowsTheFingerPointForPoint() {
        let s = Story()
        try! s.map.setCamera(Camera(centerLon: 151.2, centerLat: -33.87, zoom: 19, bearingDeg: 30, width: 1200, height: 800))
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        for i in 1...10 {
            s.move(610 + Double(i), 400 - Double(i), at: t + Double(i))
            let v = s.view(1, at: t + Double(i))!
            XCTAssertEqual(v.x, 610 + Double(i), accuracy: 1e-6)
            XCTAssertEqual(v.y, 400 - Double(i) - 40, accuracy: 1e-6)
        }
    }

    // Cancel restores.

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

    // Drag again at once.

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

    // Mouse profile.

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

    // Multi-touch.

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

    // Taps.

    func testATapOnAPinSelectsItAndATapOnTheMapDeselectsAfterTheDoubleTapWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        s.down(600, 400, at: 0); s.up(600, 400, at: 80)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] }, [[Event.Kind.selected.rawValue, 1]])
        s.down(300, 300, at: 500); s.up(300, 300, at: 580)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] },
                       [[Event.Kind.deselected.rawValue, 1], [Event.Kind.selected.rawValue, 2]])
        XCTAssertFalse(s.down(900, 700, at: 1000)); XCTAssertFalse(s.up(900, 700, at: 1080))
        XCTAssertEqual(s.map.nextDeadline, 1380)
        s.tick(1379)
        XCTAssertEqual(s.kinds(), [])
        s.tick(1380)
        XCTAssertEqual(s.kinds(), [.deselected])
        XCTAssertEqual(s.map.selectedID, noID)
    }

    func testADoubleTapOnTheMapKeepsTheSelection() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0); s.up(600, 400, at: 80)
        _ = s.events()
        s.down(900, 700, at: 1000); s.up(900, 700, at: 1060)
        s.down(905, 690, at: 1200); s.up(905, 690, at: 1260)
        s.tick(5000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertEqual(s.map.selectedID, 1)
    }

    func testATapOnTheMapThenAQuickTapOnAFarPinKeepsTheNewSelection() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 100, 100)
        s.down(600, 400, at: 0); s.up(600, 400, at: 50)
        _ = s.events()
        s.down(900, 700, at: 1000); s.up(900, 700, at: 1050)   // would deselect pin 1 at 1350
        s.down(100, 100, at: 1150); s.up(100, 100, at: 1200)   // far away: selects pin 2 at once
        s.tick(2000)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] },
                       [[Event.Kind.deselected.rawValue, 1], [Event.Kind.selected.rawValue, 2]])
        XCTAssertEqual(s.map.selectedID, 2, "the window acts on the selection it saw, not on a newer one")
    }

    func testTapToMoveDoesNothingIfTheEditEndedInTheWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.map.editingID = noID  // the host committed the edit before the window closed
        s.tick(1000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
    }

    func testAHeldPressThatIsNeitherTapNorLiftSelectsNothing() {
        let s = Story { $0.liftDelayMs = 600 }
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0); s.up(600, 400, at: 400)  // longer than tap_max_ms, shorter than the lift delay
        XCTAssertEqual(s.kinds(), [])
    }

    func testTapToMoveMovesTheEditedPinOnlyAfterTheDoubleTapWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0)
        s.up(302, 201, at: 90)
        XCTAssertEqual(s.map.nextDeadline, 390)
        s.tick(389.999)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
        s.tick(390)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.moved, .calloutChanged, .geocodeRequest])
        let want = try! s.map.toLonLat(x: 302, y: 201)
        XCTAssertEqual(e[0].cause, .tap)
        XCTAssertEqual(e[0].lon, want.lon, accuracy: 1e-12)
        XCTAssertEqual(e[0].lat, want.lat, accuracy: 1e-12)
        XCTAssertEqual(e[0].fromLon.bitPattern, home.lon.bitPattern)
        XCTAssertTrue(s.position(1) == (e[0].lon, e[0].lat))
        XCTAssertEqual(s.view(1, at: 390 + 250)!.x, 302, accuracy: 1e-6, "it glides to the tapped point")
    }

    /// An animation never blocks an edit: a tap-to-move can be undone while the pin still glides
    /// to the tapped point, and it is then drawn at its restored coordinate, not mid-glide.
    func testUndoRightAfterATapToMoveWorksAtOnce() {
        let s = Story()
        s.addPin(1, atScreen: 500, 300); s.map.editingID = 1
        let home = s.position(1)
        s.down(200, 600, at: 0); s.up(200, 600, at: 80)
        s.tick(380)  // the double-tap window closed: the pin moves to the tapped point
        XCTAssertEqual(s.kinds(), [.moved, .calloutChanged, .geocodeRequest])
        XCTAssertNotEqual(s.view(1, at: 381)!.x, 200, "the glide to the tapped point is still running")
        XCTAssertNoThrow(try s.map.undo(time: 382))
        let e = s.events()
        XCTAssertEqual(e.first?.kind, .moved)
        XCTAssertEqual(e.first?.cause, .undo)
        XCTAssertTrue(s.position(1) == home)
        let back = s.screen(home.lon, home.lat)
        let v = s.view(1, at: 393)!
        XCTAssertEqual(v.x, back.x, accuracy: 1e-6, "drawn where it was restored to")
        XCTAssertEqual(v.y, back.y, accuracy: 1e-6)
        XCTAssertNoThrow(try s.map.redo(time: 394), "redo at once too")
        XCTAssertEqual(s.events().first?.cause, .redo)
    }

    func testADoubleTapNeverMovesTheEditedPin() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.down(330, 220, at: 250)  // within double_tap_slop (40) and double_tap_ms (300)
        s.up(330, 220, at: 300)
        s.tick(2000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
    }

    func testASecondTouchBeyondTheSlopDoesNotCancelTheTap() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.down(1000, 700, at: 200)  // far away: not a double tap
        s.tick(360)
        XCTAssertEqual(s.kinds(), [.moved, .calloutChanged, .geocodeRequest])
        s.up(1000, 700, at: 400)
    }

    func testATapOnAnotherPinWhileEditingSelectsAndMovesNothing() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 200)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.tick(1000)
        XCTAssertEqual(s.kinds(), [.selected])
        XCTAssertTrue(s.position(1) == home)
    }

    // Non-draggable pins.

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

    // Auto-pan.

    func testAutopanSpeedGrowsWithDepthIntoTheMarginAndThePinStaysUnderTheFinger() {
        let s = Story { $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(1180, 400, at: t + 10)  // 20 points into the 40-point margin: half of 600 pt/s
        XCTAssertEqual(s.map.nextDeadline, t + 10 + 1000.0 / 60)
        s.move(1200, 400, at: t + 60)  // at the edge: full speed
        s.tick(t + 110)
        var e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 300 * 0.05 + 600 * 0.05, accuracy: 1e-9)
        XCTAssertEqual(e[0].dy, 0)
        // The host pans by dx: the map slides under the finger, the pin stays under the finger.
        var cam = (try! s.map.toLonLat(x: 600 + e[0].dx, y: 400))
        try! s.map.setCamera(Camera(centerLon: cam.lon, centerLat: cam.lat, zoom: 18, width: 1200, height: 800))
        let d = s.events()
        XCTAssertEqual(d.map(\.kind), [.dragged])
        let under = try! s.map.toLonLat(x: 1200, y: 400)
        XCTAssertEqual(d[0].lon, under.lon, accuracy: 1e-12)
        XCTAssertEqual(s.view(1, at: t + 110)!.x, 1200, accuracy: 1e-6)
        s.tick(t + 210)
        e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e[0].dx, 60, accuracy: 1e-9)
        cam = (try! s.map.toLonLat(x: 600 + e[0].dx, y: 400))
        try! s.map.setCamera(Camera(centerLon: cam.lon, centerLat: cam.lat, zoom: 18, width: 1200, height: 800))
        // Out of the margin: no more auto-pan once the owed distance is paid.
        s.move(600, 400, at: t + 260)
        s.tick(t + 270)
        e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 600 * 0.05, accuracy: 1e-9)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        s.up(600, 400, at: t + 300)
        let moved = s.events().first { $0.kind == .moved }!
        let want = try! s.map.toLonLat(x: 600, y: 400)
        XCTAssertEqual(moved.lon, want.lon, accuracy: 1e-12)
    }

    func testTheLandingPointNearTheTopEdgePansUpEvenWithTheFingerBelowTheMargin() {
        let s = Story()  // lift_height 40
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        s.move(600, 60, at: t + 10)  // finger 60 from the top, landing point 20 from it
        s.tick(t + 110)
        let e = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e[0].dx, 0)
        XCTAssertEqual(e[0].dy, -300 * 0.1, accuracy: 1e-9)
    }

    // Bad input changes nothing.

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

    // Removal mid-gesture.

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

    // Frame: animation state and drawing order.

    func testTheDraggedPinIsDrawnLastAndTheDropFallsWithABounce() {
        let s = Story()
        for i in 0..<20 { s.addPin(Int64(i), atScreen: 500 + Double(i) * 10, 400 + Double(i) * 5) }
        let t = s.liftAndStartDrag(500, 400, at: 0)
        s.move(700, 100, at: t + 10)
        var n = try! s.map.frame(time: t + 10)
        XCTAssertEqual(s.map.frameViews[n - 1].id, 0)
        XCTAssertEqual(s.map.frameViews[n - 1].flags, .dragging)
        s.up(700, 100, at: t + 20)
        var lifts: [Double] = []
        for dt in stride(from: 0.0, through: 250, by: 5) {
            n = try! s.map.frame(time: t + 20 + dt)
            let v = s.map.frameViews[0..<n].first { $0.id == 0 }!
            XCTAssertEqual(v.flags.intersection(.dragging), [])
            XCTAssertEqual(v.y, 60, accuracy: 1e-6, "the pin stays where it landed while the lift falls")
            lifts.append(v.lift)
        }
        XCTAssertEqual(lifts.first!, 1)
        XCTAssertEqual(lifts.last!, 0)
        XCTAssertLessThan(lifts.min()!, -0.05, "a bounce below 0")
        XCTAssertGreaterThan(lifts.min()!, -0.2, "a small one")
        let lowest = lifts.firstIndex(of: lifts.min()!)!
        XCTAssertTrue(zip(lifts[..<lowest], lifts[1...lowest]).allSatisfy { $0 >= $1 }, "falls, then settles")
    }

    func testEditingAndSelectedFlagsShowInTheFrame() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        s.map.editingID = 1
        s.down(300, 300, at: 0); s.up(300, 300, at: 50)
        XCTAssertEqual(s.view(1, at: 60)!.flags, .editing)
        XCTAssertEqual(s.view(2, at: 60)!.flags, .selected)
    }
}
