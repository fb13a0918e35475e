import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The event queue is bounded (PINDROP_EVENT_QUEUE_LIMIT; include/pindrop.h before
/// pindrop_map_poll_event): from the limit on, a pin's DRAGGED replaces its DRAGGED in the
/// queue's tail and its AUTOPAN adds to its AUTOPAN there; every other event is always queued,
/// and events keep their order.
final class EventQueueBoundTests: XCTestCase {
    let a = LonLat(lon: 1, lat: 1), b = LonLat(lon: 2, lat: 2), c = LonLat(lon: 3, lat: 3), d = LonLat(lon: 4, lat: 4)

    func drain(_ q: inout EventQueue) -> [TimedEvent] {
        var out: [TimedEvent] = []
        while let e = q.pop() { out.append(e) }
        return out
    }

    func testBelowTheLimitEveryEventIsQueuedAsItCame() {
        var q = EventQueue(limit: 8)
        q.push(.dragged(id: 1, to: a), time: 1)
        q.push(.dragged(id: 1, to: b), time: 2)
        q.push(.autopan(id: 1, dx: 1, dy: 0), time: 3)
        q.push(.autopan(id: 1, dx: 2, dy: 0), time: 4)
        XCTAssertEqual(drain(&q).map(\.time), [1, 2, 3, 4])
    }

    /// The order semantics, told with explicit times: at the limit a DRAGGED of pin 1 replaces
    /// pin 1's DRAGGED in the tail and goes to the end; an AUTOPAN sums into pin 1's AUTOPAN; a
    /// MOVED ends the tail; pin 2's DRAGGED is its own; events of other kinds keep their places.
    func testAtTheLimitADragsEventsMergeInTheTailAndEverythingElseKeepsItsOrder() {
        var q = EventQueue(limit: 2)
        q.push(.selected(id: 1), time: 0)
        q.push(.lifted(id: 1, at: a), time: 1)                   // the limit is reached
        q.push(.dragged(id: 1, to: a), time: 2)                  // nothing to merge with: queued
        q.push(.dragged(id: 1, to: b), time: 3)                  // replaces the one at 2
        q.push(.autopan(id: 1, dx: 1, dy: 2), time: 4)           // queued
        q.push(.dragged(id: 2, to: d), time: 4)                  // another pin: queued
        q.push(.dragged(id: 1, to: c), time: 5)                  // replaces pin 1's at 3, moves to the end
        q.push(.autopan(id: 1, dx: 10, dy: 20), time: 6)         // sums into the one at 4, moves to the end
        q.push(.dropped(id: 1, at: c), time: 7)                  // ends the tail
        q.push(.moved(id: 1, from: a, to: c, cause: .drag), time: 7)
        q.push(.dragged(id: 1, to: d), time: 8)                  // after the MOVED: not merged across it
        q.push(.dragged(id: 1, to: a), time: 9)                  // replaces the one at 8
        q.push(.selected(id: 2), time: 10)
        XCTAssertEqual(q.count, 9)
        let got = drain(&q)
        XCTAssertEqual(got.map(\.event), [
            .selected(id: 1), .lifted(id: 1, at: a),
            .dragged(id: 2, to: d), .dragged(id: 1, to: c), .autopan(id: 1, dx: 11, dy: 22),
            .dropped(id: 1, at: c), .moved(id: 1, from: a, to: c, cause: .drag),
            .dragged(id: 1, to: a), .selected(id: 2),
        ])
        XCTAssertEqual(got.map(\.time), [0, 1, 4, 5, 6, 7, 7, 9, 10])
    }

    func testEventsAHostMustSeeAreNeverMergedOrDropped() {
        var q = EventQueue(limit: 1)
        let kept: [Event] = [
            .selected(id: 1), .deselected(id: 1), .lifted(id: 1, at: a), .dropped(id: 1, at: a),
            .dragCancelled(id: 1, at: a), .moved(id: 1, from: a, to: b, cause: .nudge),
            .geocodeRequest(id: 1, at: b, request: 9), .calloutChanged(id: 1, at: b),
            .nearby(id: 1, other: 2, at: b, distance: 3), .clusterTapped(key: 5, at: a),
            .stackOpened(key: 6, at: a), .stackClosed(key: 6, at: a),
        ]
        XCTAssertEqual(Set(kept.map(\.kind)), Set(Event.Kind.allCases).subtracting([.dragged, .autopan]))
        for round in 0..<3 { for (i, e) in kept.enumerated() { q.push(e, time: Double(round * 100 + i)) } }
        XCTAssertEqual(drain(&q).map(\.event), kept + kept + kept)
    }

    /// A host that polls only some of the events keeps the storage of the pending ones, not of
    /// every event ever queued.
    func testPollingSomeButNeverAllKeepsTheStorageToThePendingEvents() {
        var q = EventQueue()
        for i in 0..<200_000 {
            q.push(.selected(id: Int64(i)), time: Double(i))
            q.push(.deselected(id: Int64(i)), time: Double(i))
            XCTAssertNotNil(q.pop())
            if i % 2 == 0 { XCTAssertNotNil(q.pop()) }
        }
        // 400,000 pushed, 300,000 read: the next is the 300,001st, pin 150,000's SELECTED.
        XCTAssertEqual(q.count, 100_000)
        XCTAssertLessThanOrEqual(q.storedCount, 2 * q.count + 256)
        XCTAssertEqual(q.pop()?.event, .selected(id: 150_000))
    }

    func testTheHeaderStatesTheLimit() {
        XCTAssertEqual(EventQueue.defaultLimit, HeaderTables.eventQueueLimit)
    }

    // MARK: - On a map

    /// 2,000,000 finger moves of one drag without a poll: the queue stays within the limit, and
    /// the drop still arrives after the DRAGGED at its landing point, with its MOVED.
    func testTwoMillionDragMovesWithoutPollingStayWithinTheLimit() {
        let s = Story { $0.liftDelayMs = 0; $0.liftHeight = 0; $0.autopanMargin = 0 }
        s.addPin(1, atScreen: 600, 400)
        let home = LonLat(s.position(1))
        let moves = ProcessInfo.processInfo.environment["PINDROP_QUEUE_MOVES"].flatMap { Int($0) } ?? 2_000_000
        var t = 0.0
        var peak = 0
        for round in 0..<4 {
            let at = s.screenOf(1)
            s.down(at.x, at.y, at: t)
            for i in 0..<(moves / 4) {
                t += 0.001
                s.move(400 + Double(i % 400), 300 + Double(round), at: t)
                peak = max(peak, s.map.events.count)
            }
            t += 1
            s.up(617, 300 + Double(round), at: t)
            t += 1000
            s.tick(t)
            peak = max(peak, s.map.events.count)
        }
        XCTAssertLessThanOrEqual(peak, EventQueue.defaultLimit + 6 * 4, "the queue held \(peak) events")
        var events: [TimedEvent] = []
        while let e = s.map.pollEvent() { events.append(e) }
        // Every drop and every MOVED arrives, in order, each MOVED on the DRAGGED before it.
        var lastDragged: LonLat?, from = home, drops = 0, moved = 0, lastTime = -Double.infinity
        for e in events {
            XCTAssertGreaterThanOrEqual(e.time, lastTime)
            lastTime = e.time
            switch e.event {
            case .dragged(1, let to): lastDragged = to
            case .dropped(1, let at): XCTAssertEqual(at, lastDragged); drops += 1
            case .moved(1, let f, let to, .drag):
                XCTAssertEqual(f, from); XCTAssertEqual(to, lastDragged); from = to; moved += 1
            default: break
            }
        }
        XCTAssertEqual(drops, 4)
        XCTAssertEqual(moved, 4)
        XCTAssertEqual(LonLat(s.position(1)), from)
    }

    /// A queue at the limit on a map, with explicit times: a drag near the edge auto-pans; its
    /// DRAGGED and AUTOPAN merge, the owed pan is the sum of every tick's, and the drop's events
    /// come after them in their order.
    func testAtTheLimitADragsAutopanIsSummedAndItsDropFollows() {
        let s = Story { $0.liftDelayMs = 0; $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        // A twin queue of limit 1 and an unbounded one see the same story.
        s.map.events = EventQueue(limit: 1)
        s.down(600, 400, at: 0)
        s.move(1195, 400, at: 10)                      // inside the autopan margin at the right edge
        var t = 10.0
        for _ in 0..<30 { t += 1000 / 60; s.tick(t) }
        s.up(1195, 400, at: t + 1)
        var got: [TimedEvent] = []
        while let e = s.map.pollEvent() { got.append(e) }
        let kinds = got.map(\.event.kind)
        XCTAssertEqual(kinds.first, .lifted)
        XCTAssertEqual(Array(kinds.suffix(4)), [.dropped, .moved, .calloutChanged, .geocodeRequest])
        let middle = kinds.dropFirst().dropLast(4)
        XCTAssertEqual(middle.filter { $0 == .autopan }.count, 1, "\(kinds)")
        XCTAssertEqual(middle.filter { $0 == .dragged }.count, 1, "\(kinds)")
        guard case .autopan(1, let dx, let dy) = got.first(where: { $0.event.kind == .autopan })?.event else {
            return XCTFail("no AUTOPAN: \(kinds)")
        }
        // The same story on an unbounded queue asks for the same pan, tick by tick.
        let twin = Story { $0.liftDelayMs = 0; $0.liftHeight = 0 }
        twin.addPin(1, atScreen: 600, 400)
        twin.map.events = EventQueue(limit: .max)
        twin.down(600, 400, at: 0)
        twin.move(1195, 400, at: 10)
        t = 10
        for _ in 0..<30 { t += 1000 / 60; twin.tick(t) }
        twin.up(1195, 400, at: t + 1)
        var sx = 0.0, sy = 0.0, lastDrag: LonLat?
        while let e = twin.map.pollEvent() {
            if case .autopan(1, let x, let y) = e.event { sx += x; sy += y }
            if case .dragged(1, let to) = e.event { lastDrag = to }
        }
        XCTAssertGreaterThan(sx, 0)
        XCTAssertEqual(dx, sx, accuracy: 1e-9)
        XCTAssertEqual(dy, sy, accuracy: 1e-9)
        guard case .dragged(1, let to) = got.first(where: { $0.event.kind == .dragged })?.event else { return XCTFail() }
        XCTAssertEqual(to, lastDrag)
    }
}
