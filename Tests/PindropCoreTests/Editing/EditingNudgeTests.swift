import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 18: the keyboard alternative to a drag, as stories with explicit times.
final class EditingNudgeTests: XCTestCase {
    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; configure(&$0) }, zoom: 19)
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 700, 450)
        return s
    }

    func testANudgeIsAUserMove() throws {
        let s = story()
        try s.map.select(id: 1)
        _ = s.events()
        try s.map.nudge(dx: 3, dy: -2, time: 100)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.moved, .calloutChanged, .geocodeRequest])
        XCTAssertEqual(e[0].cause, .nudge)
        let p = s.screenOf(1)
        XCTAssertEqual(p.x, 603, accuracy: 1e-6); XCTAssertEqual(p.y, 398, accuracy: 1e-6)
    }

    func testASeriesIsOneUndoStepAndASecondsPauseEndsIt() throws {
        let s = story()
        try s.map.select(id: 1)
        let start = s.position(1)
        for k in 0..<5 { try s.map.nudge(dx: 1, dy: 0, time: 100 + 200 * Double(k)) }   // ..., 900
        XCTAssertEqual(s.map.undoCount, 1)
        let series = s.position(1)
        try s.map.nudge(dx: 1, dy: 0, time: 1900)    // 1000 ms after the last: a new step
        XCTAssertEqual(s.map.undoCount, 2)
        try s.map.undo(time: 2000)
        XCTAssertEqual(s.position(1).lon, series.lon); XCTAssertEqual(s.position(1).lat, series.lat)
        try s.map.undo(time: 2001)
        XCTAssertEqual(s.position(1).lon, start.lon); XCTAssertEqual(s.position(1).lat, start.lat)
    }

    func testAnUndoInsideASeriesEndsIt() throws {
        let s = story()
        try s.map.select(id: 1)
        try s.map.nudge(dx: 1, dy: 0, time: 100)
        try s.map.nudge(dx: 1, dy: 0, time: 200)
        try s.map.undo(time: 300)
        try s.map.nudge(dx: 0, dy: 1, time: 400)     // 200 ms later, but after an undo: its own step
        XCTAssertEqual(s.map.undoCount, 1)
        XCTAssertEqual(s.map.redoCount, 0)
    }

    func testRefusals() throws {
        let s = story()
        XCTAssertThrowsError(try s.map.nudge(dx: 1, dy: 0, time: 100)) { XCTAssertEqual(($0 as? PindropError)?.status, .state) }
        try s.map.select(id: 1)
        let p = s.screenOf(1)
        s.down(p.x, p.y, at: 200)
        XCTAssertThrowsError(try s.map.nudge(dx: 1, dy: 0, time: 210)) { XCTAssertEqual(($0 as? PindropError)?.status, .state) }
        s.up(p.x, p.y, at: 220)
        XCTAssertThrowsError(try s.map.nudge(dx: .nan, dy: 0, time: 230)) {
            XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument)
        }
        XCTAssertThrowsError(try s.map.nudge(dx: 1, dy: 0, time: 100)) {   // time went back
            XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument)
        }
        _ = s.events()
        try s.map.nudge(dx: 1, dy: 0, time: 240)
        XCTAssertEqual(s.events().first?.cause, .nudge)
    }
}
