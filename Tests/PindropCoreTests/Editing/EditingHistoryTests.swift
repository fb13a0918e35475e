import XCTest
@testable import PindropCore

/// Every user move can be undone and redone, exactly.
final class EditingHistoryTests: XCTestCase {
    typealias F = EditingFixture

    func testUndoRedoChainsRestoreExactCoordinates() throws {
        let m = try F.map()
        // Coordinates with all their bits in use, so that any recomputation would show.
        let start = (lon: -118.352592369026439, lat: 33.900539810736184)
        let steps: [(lon: Double, lat: Double)] = [(-118.35261234567891, 33.90061234567891),
                                                   (-118.35199999999999, 33.90100000000001),
                                                   (-118.3530000000001, 33.8999999999999)]
        try m.add(id: 5, lon: start.lon, lat: start.lat)
        try F.move(m, 5, steps[0].lon, steps[0].lat)
        try F.move(m, 5, steps[1].lon, steps[1].lat, cause: .tap)
        try F.move(m, 5, steps[2].lon, steps[2].lat)
        _ = F.drain(m)
        XCTAssertEqual(m.undoCount, 3)

        let expected = [steps[1], steps[0], start]
        for (i, e) in expected.enumerated() {
            try m.undo(time: Double(10 + i))
            XCTAssertTrue(try m.position(id: 5) == e, "undo \(i + 1)")
            let moved = F.drain(m).first { $0.kind == .moved }!
            XCTAssertEqual(moved.cause, .undo)
            XCTAssertTrue((moved.lon, moved.lat) == e)
            XCTAssertTrue((moved.fromLon, moved.fromLat) == (i == 0 ? steps[2] : expected[i - 1]))
        }
        XCTAssertEqual(F.status { try m.undo(time: 20) }, .state, "nothing left to undo")

        for (i, e) in steps.enumerated() {
            try m.redo(time: Double(30 + i))
            XCTAssertTrue(try m.position(id: 5) == e, "redo \(i + 1)")
            let events = F.drain(m)
            XCTAssertEqual(F.kinds(events), [.moved, .calloutChanged, .geocodeRequest])
            XCTAssertEqual(events[0].cause, .redo)
        }
        XCTAssertEqual(F.status { try m.redo(time: 40) }, .state, "nothing left to redo")
    }

    func testANewMoveClearsTheRedoHistory() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try F.move(m, 1, 1, 1)
        try F.move(m, 1, 2, 2)
        try m.undo(time: 1)
        XCTAssertEqual(m.redoCount, 1)
        try F.move(m, 1, 3, 3, cause: .tap)
        XCTAssertEqual(m.redoCount, 0)
        XCTAssertEqual(F.status { try m.redo(time: 2) }, .state)
        try m.undo(time: 3)
        XCTAssertTrue(try m.position(id: 1) == (1, 1))
    }

    func testUndoAcrossPinsGoesInTimeOrder() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.add(id: 2, lon: 5, lat: 5)
        try F.move(m, 1, 1, 1)
        try F.move(m, 2, 6, 6)
        try m.undo(time: 1)
        XCTAssertTrue(try m.position(id: 2) == (5, 5))
        XCTAssertTrue(try m.position(id: 1) == (1, 1))
        try m.undo(time: 2)
        XCTAssertTrue(try m.position(id: 1) == (0, 0))
    }

    func testMovesOfARemovedPinAreSkipped() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.add(id: 2, lon: 5, lat: 5)
        try F.move(m, 1, 1, 1)
        try F.move(m, 2, 6, 6)
        try F.move(m, 2, 7, 7)
        try m.remove(id: 2)
        try m.undo(time: 1)  // pin 2's moves are skipped: pin 1's move is taken back
        XCTAssertTrue(try m.position(id: 1) == (0, 0))
        XCTAssertThrowsError(try m.undo(time: 2)) { e in
            let e = e as! PindropError
            XCTAssertEqual(e.status, .state)
            XCTAssertTrue(e.message.contains("2 moves of removed pins"), e.message)
        }
        // A new pin that reuses the id has no history.
        try m.add(id: 2, lon: 5, lat: 5)
        XCTAssertEqual(F.status { try m.undo(time: 3) }, .state)
        XCTAssertTrue(try m.position(id: 2) == (5, 5))
        // Redo still replays pin 1's move.
        try m.redo(time: 4)
        XCTAssertTrue(try m.position(id: 1) == (1, 1))
    }

    func testFailedUndoChangesNothing() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try F.move(m, 1, 1, 1)
        try m.advance(to: 100)
        _ = F.drain(m)
        XCTAssertEqual(F.status { try m.undo(time: 50) }, .invalidArgument, "time went backwards")
        XCTAssertEqual(F.status { try m.undo(time: .nan) }, .invalidArgument)
        XCTAssertTrue(try m.position(id: 1) == (1, 1))
        XCTAssertEqual(m.undoCount, 1)
        XCTAssertTrue(F.drain(m).isEmpty)
    }

    func testHostMovesAreNotUserMoves() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.setPosition(id: 1, lon: 1, lat: 1)
        XCTAssertEqual(m.undoCount, 0)
        XCTAssertTrue(F.drain(m).isEmpty)
    }
}
