import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 20: the keyboard focus through what the last frame drew, and the drag by keyboard
/// (key lift, nudges as a drag, key drop, cancel). Stories with explicit times, first through the
/// gesture machine alone (its recording context), then through a map.
final class KeyboardTests: XCTestCase {
    // MARK: - The gesture machine alone

    func testTheMachineAloneLiftsNudgesAsADragAndDropsWithCauseKeyboard() {
        let c = GestureMachineTests.Recorder()  // pin 7 in slot 0, drawn at (600, 400); 1000 points per degree
        let o = Options()
        let g = GestureMachine(options: o)
        var trace: [String] = []
        g.trace = { trace.append($0.description) }
        c.now = 100
        g.keyLift(slot: 0, id: 7, c)
        XCTAssertEqual(c.effects, [.emit(.lifted(id: 7, at: LonLat(c.pin)))])
        XCTAssertTrue(g.holds(0))
        XCTAssertEqual(g.flags(0), .dragging)
        // Drawn where it was: lift_height (40) is not applied; the lift value rises as a finger's does.
        let drawn = g.drawnPosition(0, c)!
        XCTAssertEqual(drawn.lon, c.pin.lon); XCTAssertEqual(drawn.lat, c.pin.lat)
        XCTAssertEqual(g.lift(0, at: 100 + o.liftDurationMs / 2), 1 - 0.125, accuracy: 1e-12)  // ease-out cubic at p = 0.5
        XCTAssertEqual(g.nextDeadline(c), .infinity, "a lifted pin asks for no tick")

        // Two nudges: the point the pin marks moves by each, and the landing point is the
        // coordinate under it (x / 1000, -y / 1000 in this projection).
        c.now = 200
        let first = g.keyNudgeTarget(dx: 10, dy: -5, c)!
        XCTAssertEqual(first.x, 610); XCTAssertEqual(first.y, 395)
        g.keyHandle(.nudge(x: first.x, y: first.y, dx: 10, dy: -5), c)
        c.now = 220
        let second = g.keyNudgeTarget(dx: 10, dy: 0, c)!
        XCTAssertEqual(second.x, 620); XCTAssertEqual(second.y, 395)
        g.keyHandle(.nudge(x: second.x, y: second.y, dx: 10, dy: 0), c)
        c.now = 300
        g.keyHandle(.keyDrop, c)
        let a = LonLat(lon: 610 / 1000.0, lat: -395 / 1000.0), b = LonLat(lon: 620 / 1000.0, lat: -395 / 1000.0)
        XCTAssertEqual(c.effects, [
            .emit(.lifted(id: 7, at: LonLat(c.pin))),
            .emit(.dragged(id: 7, to: a)),
            .emit(.dragged(id: 7, to: b)),
            .emit(.dropped(id: 7, at: b)),
            .userMove(slot: 0, lon: b.lon, lat: b.lat, cause: .keyboard),
        ])
        XCTAssertFalse(g.holds(0))
        XCTAssertNil(g.keyboardSlot)
        XCTAssertEqual(trace, [
            "[tap t=100.0] closed → keyLift → closed",
            "[keyboard t=100.0] keyIdle → keyLift → keyLifted",
            "[keyboard t=200.0] keyLifted → nudge → keyDragging",
            "[keyboard t=220.0] keyDragging → nudge → keyDragging",
            "[keyboard t=300.0] keyDragging → keyDrop → keyIdle",
        ])
    }

    func testTheMachineAloneAutoPansCancelsAndDropsAnUnmovedPinInPlace() {
        let c = GestureMachineTests.Recorder()
        let o = Options()  // autopan_margin 40, autopan_speed 600
        let g = GestureMachine(options: o)
        // Lifted and dropped without a nudge: it falls back, nothing moves.
        g.keyLift(slot: 0, id: 7, c)
        c.now = 50
        g.keyHandle(.keyDrop, c)
        XCTAssertEqual(c.effects, [.emit(.lifted(id: 7, at: LonLat(c.pin))), .emit(.dropped(id: 7, at: LonLat(c.pin)))])

        // Nudged 30 points deep into the right band (x = 1190 of 1200): 600 * 30 / 40 = 450
        // points per second, owed from the nudge on; a tick 100 ms later asks for 45 points.
        c.effects = []
        c.now = 1000
        g.keyLift(slot: 0, id: 7, c)
        c.now = 1200
        g.keyHandle(.nudge(x: 1190, y: 400, dx: 590, dy: 0), c)
        XCTAssertEqual(g.nextDeadline(c), 1200 + 1000.0 / 60)
        c.now = 1300
        g.tick(c)
        guard case .emit(.autopan(let id, let dx, let dy)) = c.effects.last else {
            return XCTFail("no AUTOPAN: \(c.effects)")
        }
        XCTAssertEqual(id, 7)
        XCTAssertEqual(dx, 45, accuracy: 1e-9)
        XCTAssertEqual(dy, 0)
        // Esc: DRAG_CANCELLED with the true coordinate, no user move.
        c.now = 1400
        g.cancelGesture(c)
        XCTAssertEqual(c.effects.last, .emit(.dragCancelled(id: 7, at: LonLat(c.pin))))
        XCTAssertFalse(c.effects.contains { if case .userMove = $0 { true } else { false } })
        XCTAssertNil(g.keyboardSlot)
        XCTAssertEqual(g.nextDeadline(c), .infinity)
    }

    // MARK: - Focus: reading order against an independent sort of the frame

    /// What a frame offers the focus, sorted here by tuples: (row, x, pin before cluster, id or key).
    struct Item: Equatable, CustomStringConvertible {
        var row: Double, x: Double, y: Double, kind: Int, id: Int64, key: UInt64
        var description: String { kind == 1 ? "pin \(id) (\(x), \(y))" : "cluster \(key) (\(x), \(y))" }
        var focus: Focus {
            kind == 1 ? Focus(kind: .pin, id: id, key: 0, x: x, y: y) : Focus(kind: .cluster, id: noID, key: key, x: x, y: y)
        }
        static func before(_ a: Item, _ b: Item) -> Bool {
            if a.row != b.row { return a.row < b.row }
            if a.x != b.x { return a.x < b.x }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.kind == 1 ? a.id < b.id : a.key < b.key
        }
    }

    /// The last frame's pins and clusters whose drawn point is inside the viewport, in reading order.
    func readingOrder(_ m: Map) -> [Item] {
        let r = m.options.hitRadius, w = m.view.width, h = m.view.height
        var items: [Item] = []
        for v in m.frameViews where v.x >= 0 && v.x <= w && v.y >= 0 && v.y <= h {
            items.append(Item(row: floor(v.y / r), x: v.x, y: v.y, kind: 1, id: v.id, key: 0))
        }
        for c in m.clusterViews where c.x >= 0 && c.x <= w && c.y >= 0 && c.y <= h {
            items.append(Item(row: floor(c.y / r), x: c.x, y: c.y, kind: 2, id: noID, key: c.key))
        }
        return items.sorted(by: Item.before)
    }

    func checkStepsFollowTheReadingOrder(_ m: Map, file: StaticString = #filePath, line: UInt = #line) throws {
        let order = readingOrder(m)
        XCTAssertGreaterThan(order.count, 10, "a frame with something to focus", file: file, line: line)
        // Forward from nothing: every item once, then back to the first; the rank counts along.
        XCTAssertTrue(m.focusRank == (order.count, order.count), "nothing focused yet", file: file, line: line)
        var forward: [Focus] = []
        for i in 0...order.count {
            forward.append(try m.focusStep(1))
            XCTAssertTrue(m.focusRank == (i % order.count, order.count), "rank after \(i + 1) steps", file: file, line: line)
        }
        XCTAssertEqual(forward, order.map(\.focus) + [order[0].focus], file: file, line: line)
        // Backward from the first: the last (wrapping), then every item in reverse.
        var backward: [Focus] = []
        for _ in 0..<order.count { backward.append(try m.focusStep(-1)) }
        XCTAssertEqual(backward, order.reversed().map(\.focus), file: file, line: line)
        XCTAssertEqual(m.focus, order[0].focus, file: file, line: line)
    }

    func testFocusStepsFollowTheReadingOrderOfAClusteredFrame() throws {
        // Zoom 14 with clusters of radius 60: a frame of clusters and single pins, some pins
        // outside the viewport (in and beyond its margin), which the focus never takes.
        let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
        var rng = TestRng(state: 20)
        for id in 1...160 {
            s.addPin(Int64(id), atScreen: rng.uniform(-200, 1400), rng.uniform(-200, 1000))
        }
        let n = try s.map.frame(time: 0)
        XCTAssertGreaterThan(s.map.clusterViews.count, 5)
        XCTAssertGreaterThan(n, 5)
        XCTAssertTrue(s.map.clusterViews.contains { $0.x < 0 || $0.x > 1200 || $0.y < 0 || $0.y > 800 }, "clusters in the margin")
        try checkStepsFollowTheReadingOrder(s.map)
    }

    func testFocusStepsBreakTiesInARowByXThenId() throws {
        // Spreading off: pins sharing a point tie on x and are taken by id (negative ids too);
        // pins a few points apart vertically share a row of hit_radius points.
        let s = Story({ $0.spreadMode = .off })
        var rng = TestRng(state: 7)
        var id: Int64 = -60
        for _ in 0..<40 {
            let x = rng.uniform(0, 1200).rounded(), y = rng.uniform(0, 800).rounded()
            for k in 0..<(1 + rng.int(3)) {
                s.addPin(id, atScreen: x, y + Double(k) * 3)
                id += 3
            }
        }
        try s.map.frame(time: 0)
        let order = readingOrder(s.map)
        XCTAssertTrue(zip(order, order.dropFirst()).contains { $0.row == $1.row && $0.x == $1.x }, "ties on x in a row")
        try checkStepsFollowTheReadingOrder(s.map)
    }

    func testFocusStepWithNothingDrawnOrABadStep() throws {
        let s = Story()
        XCTAssertEqual(try s.map.focusStep(1), .none, "no frame yet")
        s.addPin(1, atScreen: 600, 400)
        XCTAssertEqual(try s.map.focusStep(1), .none, "the last frame (none) drew nothing")
        try s.map.frame(time: 0)
        XCTAssertEqual(try s.map.focusStep(-1).id, 1)
        for bad: Int32 in [0, 2, -2, .max, .min] {
            XCTAssertThrowsError(try s.map.focusStep(bad)) { e in
                XCTAssertEqual((e as? PindropError)?.status, .invalidArgument)
                XCTAssertTrue((e as? PindropError)?.message.contains("\(bad)") ?? false)
            }
            XCTAssertEqual(s.map.focus.id, 1, "a bad step changes nothing")
        }
        XCTAssertNil(s.map.pollEvent(), "focus emits no events")
    }

    // MARK: - Focus while the frames change

    func testTheFocusStaysOnItsPinWhileDrawnAndMovesOnWhenItLeaves() throws {
        let s = Story()
        s.addPin(1, atScreen: 100, 100)
        s.addPin(2, atScreen: 600, 105)
        s.addPin(3, atScreen: 300, 400)
        s.addPin(4, atScreen: 900, 700)
        try s.map.frame(time: 0)
        XCTAssertEqual(try s.map.focusStep(1).id, 1)
        XCTAssertEqual(try s.map.focusStep(1).id, 2)
        // The focused pin is flagged, and drawn after the other ordinary pins (none hides it).
        try s.map.frame(time: 10)
        let views = s.map.frameViews
        XCTAssertEqual(views.filter { $0.flags.contains(.focused) }.map(\.id), [2])
        XCTAssertEqual(views.last?.id, 2, "drawn last of the ordinary pins")
        XCTAssertEqual(views.map(\.id), [1, 3, 4, 2])
        // Selected: the selected pin is still drawn above the focused one.
        try s.map.select(id: 3)
        try s.map.frame(time: 20)
        XCTAssertEqual(s.map.frameViews.map(\.id), [1, 4, 2, 3])
        try s.map.select(id: noID)

        // The view pans 50 points: pin 2 is still drawn, so it keeps the focus at its new point.
        let here = try s.map.toLonLat(x: 650, y: 400)
        try s.map.setCamera(Camera(centerLon: here.lon, centerLat: here.lat, zoom: 18, width: 1200, height: 800))
        try s.map.frame(time: 30)
        XCTAssertEqual(s.map.focus.id, 2)
        XCTAssertEqual(s.map.focus.x, 550, accuracy: 1e-6)
        XCTAssertEqual(s.map.frameViews.first { $0.flags.contains(.focused) }?.id, 2)

        // It pans 700 points back: pin 2 (now at x = 1250) leaves the frame, and the focus
        // moves to the next item in reading order from where pin 2 was last drawn, (550, 105).
        let was = KeyboardTests.Item(row: floor(s.map.focus.y / 22), x: s.map.focus.x, y: s.map.focus.y, kind: 1, id: 2, key: 0)
        let far = try s.map.toLonLat(x: 600 - 700, y: 400)
        try s.map.setCamera(Camera(centerLon: far.lon, centerLat: far.lat, zoom: 18, width: 1200, height: 800))
        try s.map.frame(time: 40)
        XCTAssertFalse(s.map.frameViews.contains { $0.id == 2 })
        let order = readingOrder(s.map)
        let expected = order.first { Item.before(was, $0) } ?? order.first
        XCTAssertEqual(s.map.focus, expected?.focus)
        XCTAssertEqual(s.map.focus.id, 1, "pin 1, now at (750, 100), comes next in its row")
        XCTAssertEqual(s.map.frameViews.filter { $0.flags.contains(.focused) }.map(\.id), [1])

        // Removing the focused pin moves the focus on at once, to the next item the last frame drew
        // (pin 3, in the next row); the next frame keeps it there.
        try s.map.remove(id: 1)
        XCTAssertEqual(s.map.focus.id, 3)
        try s.map.frame(time: 50)
        XCTAssertEqual(s.map.focus.id, readingOrder(s.map).first?.id)
        XCTAssertEqual(s.map.focus.id, 3)
        // Nothing left in view: the focus is none.
        try s.map.remove(id: 3)
        try s.map.frame(time: 60)
        XCTAssertEqual(s.map.focus, .none)
        XCTAssertEqual(try s.map.focusStep(1), .none)
    }

    func testTheFocusFollowsAClusterByKeyAndMovesOnWhenItSplits() throws {
        let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
        s.addPin(1, atScreen: 600, 400); s.addPin(2, atScreen: 610, 400)
        s.addPin(3, atScreen: 100, 100)
        try s.map.frame(time: 0)
        XCTAssertEqual(s.map.clusterViews.count, 1)
        XCTAssertEqual(try s.map.focusStep(1).id, 3)
        let f = try s.map.focusStep(1)
        XCTAssertEqual(f.kind, .cluster)
        XCTAssertEqual(f.key, s.map.clusterViews[0].key)
        try s.map.frame(time: 10)
        XCTAssertEqual(s.map.focus, f, "the same cluster, drawn at the same point")
        // Selecting pin 2 takes it out of its cluster: the cluster dissolves, and the focus moves on
        // to the next item from where the cluster was drawn (pin 2 at x = 610 follows (605, 400)).
        try s.map.select(id: 2)
        try s.map.frame(time: 20)
        XCTAssertTrue(s.map.clusterViews.isEmpty)
        XCTAssertEqual(s.map.focus.kind, .pin)
        XCTAssertEqual(s.map.focus.id, 2)
    }

    // MARK: - The keyboard drag through a map

    /// A Story with pin 1 at (600, 400), selected, its true coordinate, and the events drained.
    func liftable(_ configure: (inout Options) -> Void = { _ in }) -> (Story, (lon: Double, lat: Double)) {
        let s = Story(configure)
        s.addPin(1, atScreen: 600, 400)
        try! s.map.select(id: 1)
        _ = s.events()
        return (s, s.position(1))
    }

    func testAKeyboardDragIsOneUserMoveWithItsFollowUpsAndOneUndoStep() throws {
        let (s, start) = liftable { $0.minSpacingM = 5 }
        s.addPin(2, atScreen: 700, 402)   // about 1 m from where pin 1 lands: a NEARBY warning
        let startScreen = s.screen(start.lon, start.lat)

        try s.map.keyLift(time: 1000)
        XCTAssertEqual(s.events().map(\.kind), [.lifted])
        XCTAssertEqual(s.map.focus.id, 1, "the lifted pin takes the focus")
        let lifted = s.view(1, at: 1100)!
        XCTAssertEqual(lifted.x, startScreen.x, accuracy: 1e-9, "lift_height is not applied")
        XCTAssertEqual(lifted.y, startScreen.y, accuracy: 1e-9)
        XCTAssertEqual(lifted.lift, 0.875, accuracy: 1e-12)
        XCTAssertEqual(lifted.flags, [.selected, .dragging, .focused, .animating], "its lift still rising")
        XCTAssertEqual(s.map.frameViews.last?.id, 1, "drawn last")

        // Ten arrow presses of 10 points: each a DRAGGED at the coordinate under the point the pin
        // marks; nothing saved yet.
        var dragged: [EventFields] = []
        for k in 1...10 {
            try s.map.nudge(dx: 10, dy: 0, time: 1200 + Double(k) * 50)
            let e = s.events()
            XCTAssertEqual(e.map(\.kind), [.dragged], "nudge \(k)")
            dragged += e
            let drawn = s.screenOf(1)
            XCTAssertEqual(drawn.x, startScreen.x + Double(10 * k), accuracy: 1e-6)
            XCTAssertEqual(drawn.y, startScreen.y, accuracy: 1e-6)
        }
        let target = try s.map.toLonLat(x: startScreen.x + 100, y: startScreen.y)
        XCTAssertEqual(dragged.last!.lon, target.lon, accuracy: 1e-12)
        XCTAssertEqual(dragged.last!.lat, target.lat, accuracy: 1e-12)
        XCTAssertTrue(s.position(1) == start, "the true coordinate waits for the drop")
        XCTAssertEqual(s.map.undoCount, 0)

        try s.map.keyDrop(time: 2000)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dropped, .moved, .calloutChanged, .geocodeRequest, .nearby])
        guard e.count == 5 else { return }
        let last = dragged.last!
        XCTAssertEqual(e[0].lon, last.lon); XCTAssertEqual(e[0].lat, last.lat)
        XCTAssertEqual(e[1].cause, .keyboard)
        XCTAssertEqual(e[1].lon, last.lon, "bit for bit the last DRAGGED")
        XCTAssertEqual(e[1].lat, last.lat)
        XCTAssertEqual(e[1].fromLon, start.lon); XCTAssertEqual(e[1].fromLat, start.lat)
        XCTAssertEqual(e[4].other, 2)
        XCTAssertTrue(s.position(1) == (last.lon, last.lat))
        XCTAssertEqual(try s.map.callout(id: 1, .subtitle), Editor.coordinateText(lon: last.lon, lat: last.lat))
        XCTAssertEqual(s.map.undoCount, 1, "one undo step for the whole drag")
        // After the drop the pin stays where it was drawn; only its lift falls.
        let after = s.view(1, at: 2000)!
        XCTAssertEqual(after.x, startScreen.x + 100, accuracy: 1e-6)
        XCTAssertFalse(after.flags.contains(.dragging))

        // A nudge right after is a step of its own (the drop ended any nudge series).
        try s.map.nudge(dx: 1, dy: 0, time: 2100)
        XCTAssertEqual(s.events().first { $0.kind == .moved }?.cause, .nudge)
        XCTAssertEqual(s.map.undoCount, 2)
        try s.map.undo(time: 2200)
        _ = s.events()
        // Undo takes the keyboard drag back to exactly where the pin was; redo replays it.
        try s.map.undo(time: 2300)
        let u = s.events()
        XCTAssertEqual(u.first?.kind, .moved)
        XCTAssertEqual(u.first?.cause, .undo)
        XCTAssertTrue(s.position(1) == start)
        try s.map.redo(time: 2400)
        XCTAssertEqual(s.events().first?.cause, .redo)
        XCTAssertTrue(s.position(1) == (last.lon, last.lat))
        XCTAssertEqual(s.map.undoCount, 1)
        XCTAssertEqual(s.map.redoCount, 1, "the undone nudge can still be redone")
    }

    /// A pin lifted inside the top band (y = 9 of 800: Tab reaches the top of the view first) and
    /// nudged along the edge does not set the map panning: one arrow press used to pan it 345 m in
    /// a few seconds, until another key stopped it. A nudge toward the edge pans; one along it or
    /// away stops that axis.
    func testTheKeyboardPansOnlyTowardAnEdgeItPushesThePinTo() throws {
        let s = Story()
        s.addPin(1, atScreen: 600, 9)
        try s.map.select(id: 1)
        try s.map.keyLift(time: 0)
        _ = s.events()
        for k in 1...3 { try s.map.nudge(dx: 1, dy: 0, time: Double(k) * 100) }
        s.tick(1000)
        XCTAssertEqual(s.events().filter { $0.kind == .autopan }.count, 0, "nudged along the top edge")
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        // Up, toward the edge (now 1 point deeper: 32 of 40): it pans up, 600 · 32/40 points a second.
        try s.map.nudge(dx: 0, dy: -1, time: 1100)
        XCTAssertEqual(s.map.nextDeadline, 1100 + 1000.0 / 60)
        s.tick(1200)
        let up = s.events().filter { $0.kind == .autopan }
        XCTAssertEqual(up.count, 1)
        XCTAssertEqual(up.first?.dy ?? 0, -600 * 32 / 40 * 0.1, accuracy: 1e-9)
        XCTAssertEqual(up.first?.dx ?? 1, 0)
        // Right again, along the edge: what is owed comes once, then the pan stops.
        try s.map.nudge(dx: 1, dy: 0, time: 1250)
        s.tick(1300)
        XCTAssertEqual(s.events().filter { $0.kind == .autopan }.count, 1, "the 50 ms owed")
        s.tick(2000)
        XCTAssertEqual(s.events().filter { $0.kind == .autopan }.count, 0)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
    }

    func testAKeyboardDragAutoPansAndStaysAtItsScreenPointAsTheCameraMoves() throws {
        let (s, _) = liftable()
        try s.map.keyLift(time: 0)
        // 575 points right: x = 1175, 15 points into the 40-point band: 600 * 15 / 40 = 225 points/s.
        let drawn = s.screenOf(1)
        try s.map.nudge(dx: 575, dy: 0, time: 10)
        let x = drawn.x + 575
        XCTAssertEqual(s.map.nextDeadline, 10 + 1000.0 / 60)
        _ = s.events()
        s.tick(110)
        let pan = s.events().filter { $0.kind == .autopan }
        guard pan.count == 1 else { return XCTFail("one AUTOPAN expected: \(pan)") }
        XCTAssertEqual(pan[0].dx, 225 * 0.1, accuracy: 1e-6)
        XCTAssertEqual(pan[0].dy, 0)
        XCTAssertEqual(pan[0].id, 1)
        // The host moves its camera by (dx, dy): the pin stays at its screen point, and its
        // landing point moves across the map (DRAGGED).
        let centre = try s.map.toLonLat(x: 600 + pan[0].dx, y: 400)
        try s.map.setCamera(Camera(centerLon: centre.lon, centerLat: centre.lat, zoom: 18, width: 1200, height: 800))
        let moved = s.events()
        XCTAssertEqual(moved.map(\.kind), [.dragged])
        guard moved.count == 1 else { return }
        let landing = try s.map.toLonLat(x: x, y: drawn.y)
        XCTAssertEqual(moved[0].lon, landing.lon, accuracy: 1e-12)
        XCTAssertEqual(moved[0].lat, landing.lat, accuracy: 1e-12)
        XCTAssertEqual(s.view(1, at: 120)!.x, x, accuracy: 1e-6)
        // Out of the band at 150 ms: what is owed until then (40 ms at 225 points/s) comes on the
        // next tick, and then auto-pan stops.
        try s.map.nudge(dx: -200, dy: 0, time: 150)
        _ = s.events()
        s.tick(200)
        let rest = s.events().filter { $0.kind == .autopan }
        guard rest.count == 1 else { return XCTFail("one AUTOPAN expected: \(rest)") }
        XCTAssertEqual(rest[0].dx, 225 * 0.04, accuracy: 1e-6)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        try s.map.keyDrop(time: 300)
        let drop = s.events()
        let there = try s.map.toLonLat(x: x - 200, y: drawn.y)
        XCTAssertEqual(drop.first { $0.kind == .moved }?.lon ?? .nan, there.lon, accuracy: 1e-12)
    }

    func testCancelAndRemovalPutTheKeyboardDragBack() throws {
        let (s, start) = liftable()
        try s.map.keyLift(time: 0)
        try s.map.nudge(dx: 30, dy: 30, time: 10)
        try s.map.nudge(dx: 30, dy: 30, time: 20)
        _ = s.events()
        let held = s.screenOf(1)
        try s.map.cancelGesture(time: 100)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.dragCancelled])
        guard e.count == 1 else { return }
        XCTAssertEqual(e[0].lon, start.lon); XCTAssertEqual(e[0].lat, start.lat)
        XCTAssertTrue(s.position(1) == start)
        XCTAssertEqual(s.map.undoCount, 0, "nothing saved")
        // It glides back from where it was held.
        let startScreen = s.screen(start.lon, start.lat)
        let v = s.view(1, at: 100)!
        XCTAssertEqual(v.x, held.x, accuracy: 1e-6)
        XCTAssertEqual(s.view(1, at: 350)!.x, startScreen.x, accuracy: 1e-9)
        XCTAssertThrowsError(try s.map.keyDrop(time: 400), "the drag is over")

        // Removing the held pin cancels the drag; nudges then have nothing to move.
        try s.map.keyLift(time: 500)
        try s.map.nudge(dx: 5, dy: 0, time: 510)
        _ = s.events()
        try s.map.remove(id: 1)
        XCTAssertEqual(s.events().map(\.kind), [.dragCancelled, .deselected])
        XCTAssertNil(s.map.gesture.keyboardSlot)
        XCTAssertThrowsError(try s.map.nudge(dx: 5, dy: 0, time: 520)) { e in
            XCTAssertEqual((e as? PindropError)?.status, .state)
        }
    }

    func testAKeyLiftedPinDroppedUnmovedFallsBackWithoutAMove() throws {
        let (s, start) = liftable()
        try s.map.keyLift(time: 0)
        try s.map.nudge(dx: 0, dy: 0, time: 50)  // (0, 0) moves nothing
        try s.map.keyDrop(time: 100)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.lifted, .dropped])
        guard e.count == 2 else { return }
        XCTAssertEqual(e[1].lon, start.lon); XCTAssertEqual(e[1].lat, start.lat)
        XCTAssertEqual(s.map.undoCount, 0)
        // Lifted again at once, mid-way through the drop animation: it rises from where it is.
        let mid = s.view(1, at: 150)!.lift
        XCTAssertGreaterThan(mid, 0)
        try s.map.keyLift(time: 150)
        XCTAssertEqual(s.view(1, at: 150)!.lift, mid, accuracy: 1e-12)
    }

    func testTheAllowedAreaRevertsOrSnapsAKeyboardDrop() throws {
        for policy in [Options.OutsidePolicy.revert, .snap] {
            let (s, start) = liftable { $0.outsidePolicy = policy }
            let p = s.screen(start.lon, start.lat)
            // A band 50 points wide around the pin, as a square in lon/lat.
            let a = try s.map.toLonLat(x: p.x - 50, y: p.y + 50), b = try s.map.toLonLat(x: p.x + 50, y: p.y - 50)
            s.map.setAllowedArea(try PolygonArea(polygons: [[[(a.lon, a.lat), (b.lon, a.lat), (b.lon, b.lat), (a.lon, b.lat)]]]))
            try s.map.keyLift(time: 0)
            try s.map.nudge(dx: 100, dy: 0, time: 10)
            XCTAssertTrue(s.view(1, at: 20)!.flags.contains(.invalid), "held outside: flagged")
            _ = s.events()
            try s.map.keyDrop(time: 100)
            let e = s.events()
            switch policy {
            case .revert:
                XCTAssertEqual(e.map(\.kind), [.dropped])
                XCTAssertTrue(s.position(1) == start)
                XCTAssertEqual(s.map.undoCount, 0)
            case .snap:
                XCTAssertEqual(e.map(\.kind), [.dropped, .moved, .calloutChanged, .geocodeRequest])
                guard e.count == 4 else { continue }
                XCTAssertEqual(e[1].cause, .snap)
                XCTAssertEqual(e[1].lon, b.lon, accuracy: 1e-12, "snapped to the east edge")
                XCTAssertEqual(s.map.undoCount, 1)
            }
        }
    }

    func testASpreadPinLiftsFromItsRingAndAHeldPinStaysOutOfClusters() throws {
        // Three pins on one spot, spread on a ring: the key lift starts from the ring position.
        let s = Story()
        let spot = try s.map.toLonLat(x: 600, y: 400)
        for id: Int64 in 1...3 { try s.map.add(id: id, lon: spot.lon, lat: spot.lat) }
        try s.map.select(id: 2)
        let ring = try s.map.displayPosition(id: 2)
        try s.map.keyLift(time: 0)
        let drawn = try s.map.displayPosition(id: 2)
        XCTAssertEqual(drawn.lon, ring.lon); XCTAssertEqual(drawn.lat, ring.lat)
        try s.map.nudge(dx: 0, dy: -50, time: 10)
        try s.map.keyDrop(time: 20)
        let p = s.position(2), r = s.screen(ring.lon, ring.lat), q = s.screen(p.lon, p.lat)
        XCTAssertEqual(q.x, r.x, accuracy: 1e-6); XCTAssertEqual(q.y, r.y - 50, accuracy: 1e-6)

        // Clustered view: the held pin is drawn as a pin even when the selection moves away.
        let c = Story({ $0.clusterRadius = 60 }, zoom: 14)
        c.addPin(1, atScreen: 600, 400); c.addPin(2, atScreen: 610, 400); c.addPin(3, atScreen: 620, 400)
        try c.map.select(id: 1)
        try c.map.keyLift(time: 0)
        try c.map.select(id: noID)
        try c.map.frame(time: 10)
        XCTAssertEqual(c.map.frameViews.map(\.id), [1])
        XCTAssertEqual(c.map.clusterViews.map(\.count), [2])
        try c.map.nudge(dx: 1, dy: 0, time: 20)
        try c.map.keyDrop(time: 30)
        try c.map.frame(time: 40)
        XCTAssertEqual(c.map.clusterViews.map(\.count), [3], "dropped and deselected: clustered again")
    }

    func testTheHeldPinKeepsTheFocusEvenBeyondTheFrame() throws {
        let (s, _) = liftable()
        s.addPin(2, atScreen: 300, 300)
        try s.map.frame(time: 0)
        try s.map.keyLift(time: 10)
        XCTAssertEqual(s.map.focus.id, 1)
        // Nudged 2,000 points beyond the right edge: not in the frame, still focused while held.
        try s.map.nudge(dx: 2000, dy: 0, time: 20)
        try s.map.frame(time: 30)
        XCTAssertFalse(s.map.frameViews.contains { $0.id == 1 })
        XCTAssertEqual(s.map.focus.id, 1)
        XCTAssertTrue(s.map.focusRank == (1, 1), "focused, but not among the frame's items")
        // Dropped there, it is no longer drawn nor held: the next frame moves the focus on.
        try s.map.keyDrop(time: 40)
        try s.map.frame(time: 50)
        XCTAssertEqual(s.map.focus.id, 2)
    }

    func testAKeyLiftDropsATapStillWaitingToMoveTheEditedPin() throws {
        // Pin 1 is edited and selected; a tap on the map would move it there when its double-tap
        // window closes. A key lift inside the window is the newer gesture: the tap is dropped.
        let (s, start) = liftable()
        try s.map.edit(id: 1, time: 0)
        s.down(900, 700, at: 10); s.up(900, 700, at: 50)
        XCTAssertEqual(s.map.nextDeadline, 50 + s.map.options.doubleTapMs)
        try s.map.keyLift(time: 100)
        XCTAssertEqual("\(s.map.gesture.tapWindow.name)", "closed")
        XCTAssertEqual(s.map.nextDeadline, .infinity)
        try s.map.keyDrop(time: 200)
        s.tick(1000)
        XCTAssertFalse(s.events().contains { $0.kind == .moved }, "nothing moved the pin")
        XCTAssertTrue(s.position(1) == start)
        // Without the key lift the same tap moves it (the control).
        s.down(900, 700, at: 2000); s.up(900, 700, at: 2050)
        s.tick(2050 + s.map.options.doubleTapMs)
        XCTAssertEqual(s.events().first { $0.kind == .moved }?.cause, .tap)
    }

    // MARK: - Every bad state: a status with a message, nothing changed

    /// Runs `body`, which must fail with `status` and a message, and checks that nothing changed:
    /// no event, the same time, gesture states, selection, focus and positions.
    struct Snapshot: Equatable {
        var now: Double, pointer: String, keyboard: String, tap: String
        var selected: Int64, focus: Focus, undo: Int, redo: Int
        init(_ m: Map) {
            now = m.now; pointer = "\(m.gesture.state.name)"; keyboard = "\(m.gesture.keyboard.name)"
            tap = "\(m.gesture.tapWindow.name)"; selected = m.selectedID; focus = m.focus
            undo = m.undoCount; redo = m.redoCount
        }
    }

    func assertRefused(_ s: Story, _ status: Status, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                       _ body: () throws -> Void) {
        _ = s.events()
        let m = s.map
        let before = Snapshot(m)
        let ids = (1...9).map { Int64($0) }.filter { (try? m.position(id: $0)) != nil }
        let positions = ids.map { try! m.displayPosition(id: $0) }
        XCTAssertThrowsError(try body(), what, file: file, line: line) { e in
            XCTAssertEqual((e as? PindropError)?.status, status, what, file: file, line: line)
            XCTAssertFalse((e as? PindropError)?.message.isEmpty ?? true, what, file: file, line: line)
        }
        XCTAssertEqual(before, Snapshot(m), what, file: file, line: line)
        for (id, p) in zip(ids, positions) {
            let q = try! m.displayPosition(id: id)
            XCTAssertTrue(p == q, "\(what): pin \(id) moved", file: file, line: line)
        }
        XCTAssertTrue(s.events().isEmpty, "\(what): no events", file: file, line: line)
    }

    func testEveryBadStateIsRefusedAndChangesNothing() throws {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        try s.map.frame(time: 0)
        try s.map.focusStep(1)

        assertRefused(s, .state, "key lift with nothing selected") { try s.map.keyLift(time: 10) }
        assertRefused(s, .state, "key drop with no keyboard drag") { try s.map.keyDrop(time: 10) }
        for bad: Int32 in [0, 2, -3] {
            assertRefused(s, .invalidArgument, "focus step \(bad)") { try s.map.focusStep(bad) }
        }

        // A finger on the selected pin: pressed, then lifted.
        try s.map.select(id: 1)
        s.down(600, 400, at: 20)
        assertRefused(s, .state, "key lift while a finger presses the pin") { try s.map.keyLift(time: 30) }
        s.tick(270)
        XCTAssertEqual("\(s.map.gestureStateName)", "lifted")
        assertRefused(s, .state, "key lift while a finger holds the pin") { try s.map.keyLift(time: 280) }
        s.up(600, 400, at: 290)
        // The host's pan (a pointer down off the pins).
        s.down(900, 700, at: 300)
        s.move(990, 700, at: 310)
        assertRefused(s, .state, "key lift during the host's pan") { try s.map.keyLift(time: 320) }
        s.up(990, 700, at: 330)

        // A pin that may not be dragged.
        try s.map.setDraggable(id: 1, false)
        assertRefused(s, .state, "key lift of a pin that is not draggable") { try s.map.keyLift(time: 340) }
        try s.map.setDraggable(id: 1, true)

        // A tap on the map whose window, due by the key lift's time, clears the selection.
        s.down(900, 700, at: 1000)
        s.up(900, 700, at: 1050)
        assertRefused(s, .state, "key lift after a tap that deselects") { try s.map.keyLift(time: 1400) }
        s.tick(1400)
        XCTAssertEqual(s.map.selectedID, noID, "the tap deselected at its deadline")
        try s.map.select(id: 1)

        // Time going backwards.
        assertRefused(s, .invalidArgument, "key lift earlier than the last time") { try s.map.keyLift(time: 100) }

        // A keyboard drag under way: a second key lift, touches of every phase, an undo of its pin.
        try s.map.keyLift(time: 2000)
        try s.map.nudge(dx: 10, dy: 0, time: 2010)
        assertRefused(s, .state, "a second key lift") { try s.map.keyLift(time: 2020) }
        assertRefused(s, .state, "a touch down on the held pin") { _ = try s.map.touch(pointer: 0, phase: .down, x: 610, y: 400, time: 2020) }
        assertRefused(s, .state, "a touch down off the pins") { _ = try s.map.touch(pointer: 3, phase: .down, x: 50, y: 50, time: 2020) }
        assertRefused(s, .state, "a touch move") { _ = try s.map.touch(pointer: 0, phase: .move, x: 50, y: 50, time: 2020) }
        assertRefused(s, .invalidArgument, "a nudge that is not finite") { try s.map.nudge(dx: .nan, dy: 0, time: 2020) }
        assertRefused(s, .invalidArgument, "a key drop earlier than the last time") { try s.map.keyDrop(time: 2000) }
        try s.map.keyDrop(time: 2030)
        XCTAssertEqual(s.events().first { $0.kind == .moved }?.cause, .keyboard)
        try s.map.keyLift(time: 2040)
        assertRefused(s, .state, "an undo of the held pin's move") { try s.map.undo(time: 2050) }
        try s.map.cancelGesture(time: 2060)
        // Once it is over, touches and undo work again.
        XCTAssertTrue(s.down(600 + 10, 400, at: 2070))
        s.up(610, 400, at: 2080)
        try s.map.undo(time: 2090)
    }

    func testANudgeTheViewCannotPlaceIsRefusedDuringAKeyboardDrag() throws {
        // A host projection that cannot unproject beyond x = 1000.
        let s = Story()
        try s.map.setProjection(HostProjection(width: 1200, height: 800,
                                               project: { lon, lat in (lon * 1000, -lat * 1000) },
                                               unproject: { x, y in x > 1000 ? nil : (x / 1000, -y / 1000) }))
        try s.map.add(id: 1, lon: 0.6, lat: -0.4)
        try s.map.select(id: 1)
        try s.map.keyLift(time: 0)
        try s.map.nudge(dx: 300, dy: 0, time: 10)
        XCTAssertEqual(s.events().last?.lon, 0.9)
        assertRefused(s, .invalidArgument, "a nudge to a point the view cannot place") {
            try s.map.nudge(dx: 200, dy: 0, time: 20)
        }
        try s.map.keyDrop(time: 30)
        XCTAssertTrue(s.position(1) == (0.9, -0.4))
    }
}
