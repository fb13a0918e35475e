import XCTest
@testable import PindropCore

/// The gesture room stands alone (as h11's ConnectionState does without a connection): these
/// tests drive `GestureMachine` through a context that records the effects it asks for, with no
/// map, no pin store and no index behind it.
final class GestureMachineTests: XCTestCase {
    /// One draggable pin, id 7 in slot 0, at (0.6, -0.4); a host projection of 1000 points per
    /// degree with y pointing south, so screen points are easy to state.
    final class Recorder: GestureContext {
        var now = 0.0
        let view = View.host(HostProjection(width: 1200, height: 800,
                                            project: { lon, lat in (lon * 1000, -lat * 1000) },
                                            unproject: { x, y in (x / 1000, -y / 1000) }))
        var selectedID = noID, editingID = noID
        let pin = (lon: 0.6, lat: -0.4)
        var effects: [GestureEffect] = []

        func slotOf(_ id: Int64) -> Int32? { id == 7 ? 0 : nil }
        func truePosition(_ slot: Int32) -> (lon: Double, lat: Double) { pin }
        func restingPosition(_ slot: Int32) -> (lon: Double, lat: Double) { pin }
        func isDraggable(_ slot: Int32) -> Bool { slot == 0 }
        func apply(_ effect: GestureEffect) -> Bool { effects.append(effect); return true }
    }

    func testAHoldDragAndDropAskForLiftedDraggedDroppedAndOneUserMove() {
        let c = Recorder()
        let o = Options()
        let g = GestureMachine(options: o)
        XCTAssertTrue(g.down(.downOnPin(pointer: 1, slot: 0, id: 7, x: 600, y: 400), pointer: 1, x: 600, y: 400, c))
        XCTAssertEqual(g.nextDeadline(c), o.liftDelayMs)
        XCTAssertEqual(c.effects, [], "a press asks nothing of the map")
        c.now = o.liftDelayMs
        g.runTimeouts(c)
        XCTAssertEqual(c.effects, [.emit(.lifted(id: 7, at: LonLat(c.pin)))])
        // Once the lift animation is over, the landing point is the finger plus the grab offset
        // (the pin's drawn point minus the down point), lift_height above (docs/gestures.md).
        c.now += o.liftDurationMs
        XCTAssertTrue(g.handle(.moveBeyondThreshold(pointer: 1, x: 700, y: 450), c))
        let drawn = c.view.toScreen(c.pin.lon, c.pin.lat)!
        let landing = LonLat(c.view.toLonLatUnwrapped(700 + (drawn.x - 600), 450 + (drawn.y - 400) - o.liftHeight)!)
        c.now += 16
        XCTAssertTrue(g.pointerLeft(.up(pointer: 1, x: 700, y: 450, beyondThreshold: true), pointer: 1, c))
        XCTAssertEqual(c.effects, [
            .emit(.lifted(id: 7, at: LonLat(c.pin))),
            .emit(.dragged(id: 7, to: landing)),
            .emit(.dropped(id: 7, at: landing)),
            .userMove(slot: 0, lon: landing.lon, lat: landing.lat, cause: .drag),
        ])
        XCTAssertEqual("\(g.state.name)", "idle")
        XCTAssertFalse(g.holds(0))
    }

    func testATapSelectsAndADoubleTapOnTheMapAsksNothing() {
        let c = Recorder()
        let g = GestureMachine(options: Options())
        XCTAssertTrue(g.down(.downOnPin(pointer: 1, slot: 0, id: 7, x: 600, y: 400), pointer: 1, x: 600, y: 400, c))
        c.now = 100
        XCTAssertTrue(g.pointerLeft(.up(pointer: 1, x: 601, y: 400, beyondThreshold: false), pointer: 1, c))
        XCTAssertEqual(c.effects, [.select(7)])
        // Two taps on the map within double_tap_slop and double_tap_ms: the host zooms, and the
        // window closes without clearing the selection or moving anything.
        c.selectedID = 7
        c.effects = []
        c.now = 1000
        XCTAssertFalse(g.down(.downOffPins(pointer: 2, x: 200, y: 200), pointer: 2, x: 200, y: 200, c))
        c.now = 1050
        XCTAssertFalse(g.pointerLeft(.up(pointer: 2, x: 200, y: 200, beyondThreshold: false), pointer: 2, c))
        XCTAssertEqual(g.nextDeadline(c), 1050 + Options().doubleTapMs)
        c.now = 1100
        XCTAssertFalse(g.down(.downOffPins(pointer: 3, x: 210, y: 205), pointer: 3, x: 210, y: 205, c))
        c.now = 1150
        XCTAssertFalse(g.pointerLeft(.up(pointer: 3, x: 210, y: 205, beyondThreshold: false), pointer: 3, c))
        c.now = 5000
        g.runTimeouts(c)
        XCTAssertEqual(c.effects, [])
        XCTAssertEqual(g.nextDeadline(c), .infinity)
        // A single tap: when its window closes, the selection is cleared.
        c.now = 6000
        _ = g.down(.downOffPins(pointer: 4, x: 300, y: 300), pointer: 4, x: 300, y: 300, c)
        _ = g.pointerLeft(.up(pointer: 4, x: 300, y: 300, beyondThreshold: false), pointer: 4, c)
        c.now = 6000 + Options().doubleTapMs
        g.runTimeouts(c)
        XCTAssertEqual(c.effects, [.select(noID)])
    }
}
