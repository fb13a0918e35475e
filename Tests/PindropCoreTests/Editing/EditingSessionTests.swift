import XCTest
@testable import PindropCore

/// place / edit / commit / cancel_edit / select, and how they meet the history.
final class EditingSessionTests: XCTestCase {
    typealias F = EditingFixture

    func testPlaceAdjustCommitUndoRedo() throws {
        let m = try F.map()
        // A surveyor places a new tree at the GPS fix; nothing is saved yet.
        try m.place(id: 100, lon: -118.35, lat: 33.9, time: 1000)
        XCTAssertEqual(m.editingID, 100)
        XCTAssertTrue(m.editSession! == (100, true))
        XCTAssertEqual(F.kinds(F.drain(m)), [.calloutChanged, .geocodeRequest])
        XCTAssertEqual(try m.callout(id: 100, .subtitle), "33.90000, -118.35000")
        XCTAssertEqual(m.flags(try m.slot(100)).intersection(.editing), .editing)

        // Two tap-moves adjust it: each is a MOVED with cause TAP (the true coordinate changed).
        try m.advance(to: 2000)
        try F.move(m, 100, -118.3501, 33.9001, cause: .tap)
        try F.move(m, 100, -118.3502, 33.9002, cause: .tap)
        XCTAssertEqual(F.drain(m).filter { $0.kind == .moved }.map(\.cause), [.tap, .tap])

        // Commit: MOVED with cause PLACE from the placed coordinate to where it is now.
        try m.commit(time: 3000)
        let commit = F.drain(m)
        XCTAssertEqual(F.kinds(commit), [.moved])
        XCTAssertEqual(commit[0].cause, .place)
        XCTAssertEqual(commit[0].id, 100)
        XCTAssertTrue((commit[0].fromLon, commit[0].fromLat) == (-118.35, 33.9))
        XCTAssertTrue((commit[0].lon, commit[0].lat) == (-118.3502, 33.9002))
        XCTAssertEqual(commit[0].timeMs, 3000)
        XCTAssertEqual(m.editingID, noID)
        XCTAssertNil(m.editSession)

        // The placement is one step of history: undo takes it back to the placed coordinate.
        XCTAssertEqual(m.undoCount, 1)
        try m.undo(time: 4000)
        XCTAssertTrue(try m.position(id: 100) == (-118.35, 33.9))
        XCTAssertEqual(F.drain(m).first?.cause, .undo)
        XCTAssertEqual(m.count, 1, "undo never removes a pin")
        try m.redo(time: 5000)
        XCTAssertTrue(try m.position(id: 100) == (-118.3502, 33.9002))
    }

    func testUndoWhilePlacingStepsBackThroughTheAdjustments() throws {
        let m = try F.map()
        try m.place(id: 1, lon: 0, lat: 0, time: 0)
        try F.move(m, 1, 1, 1, cause: .tap)
        try F.move(m, 1, 2, 2, cause: .tap)
        try m.undo(time: 1)
        XCTAssertTrue(try m.position(id: 1) == (1, 1))
        try m.commit(time: 2)
        let moved = F.drain(m).last!
        XCTAssertEqual(moved.cause, .place)
        XCTAssertTrue((moved.lon, moved.lat) == (1, 1))
        XCTAssertEqual(m.undoCount, 1, "the session's steps became one")
        XCTAssertEqual(m.redoCount, 0, "the session's undone steps cannot be redone after it")
    }

    func testCommitWithoutMovingSavesButHasNothingToUndo() throws {
        let m = try F.map()
        try m.place(id: 1, lon: 3, lat: 4, time: 0)
        try m.commit(time: 1)
        let moved = F.drain(m).last!
        XCTAssertEqual(moved.kind, .moved); XCTAssertEqual(moved.cause, .place)
        XCTAssertTrue((moved.fromLon, moved.fromLat) == (3, 4) && (moved.lon, moved.lat) == (3, 4))
        XCTAssertEqual(m.undoCount, 0)
    }

    func testCancelRemovesAPlacedPin() throws {
        let m = try F.map()
        try m.place(id: 1, lon: 0, lat: 0, time: 0)
        try m.select(id: 1)
        try F.move(m, 1, 1, 1, cause: .tap)
        _ = F.drain(m)
        try m.cancelEdit(time: 1)
        XCTAssertEqual(m.count, 0)
        XCTAssertEqual(m.selectedID, noID)
        XCTAssertEqual(F.kinds(F.drain(m)), [.deselected])
        XCTAssertEqual(m.undoCount, 0, "the placement's moves left with it")
        XCTAssertEqual(m.editingID, noID)
    }

    func testCancelRestoresAnEditedPin() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 10, lat: 20)
        try m.add(id: 2, lon: 0, lat: 0)
        try F.move(m, 2, 1, 1)  // an earlier move of another pin stays undoable
        try m.edit(id: 1, time: 0)
        XCTAssertEqual(m.editingID, 1)
        try F.move(m, 1, 10.5, 20.5, cause: .tap)
        try F.move(m, 1, 11, 21)
        _ = F.drain(m)
        try m.cancelEdit(time: 1)
        XCTAssertTrue(try m.position(id: 1) == (10, 20))
        let events = F.drain(m)
        XCTAssertEqual(events.first?.kind, .moved)
        XCTAssertEqual(events.first?.cause, .undo)
        XCTAssertTrue((events[0].fromLon, events[0].fromLat) == (11, 21))
        XCTAssertEqual(m.undoCount, 1)
        try m.undo(time: 2)
        XCTAssertTrue(try m.position(id: 2) == (0, 0))
    }

    func testCommitOfAnEditIsOneUndoStepAndSaysNothing() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 10, lat: 20)
        try m.edit(id: 1, time: 0)
        try F.move(m, 1, 10.5, 20.5, cause: .tap)
        try F.move(m, 1, 11, 21, cause: .tap)
        _ = F.drain(m)
        try m.commit(time: 1)
        XCTAssertTrue(F.drain(m).isEmpty, "the moves were saved as they happened")
        XCTAssertEqual(m.undoCount, 1)
        try m.undo(time: 2)
        XCTAssertTrue(try m.position(id: 1) == (10, 20))
    }

    func testPlacingWhileEditingCommitsTheEditFirst() throws {
        let m = try F.map()
        try m.place(id: 1, lon: 0, lat: 0, time: 0)
        try F.move(m, 1, 1, 1, cause: .tap)
        _ = F.drain(m)
        try m.place(id: 2, lon: 5, lat: 5, time: 1)
        let events = F.drain(m)
        XCTAssertEqual(F.kinds(events), [.moved, .calloutChanged, .geocodeRequest])
        XCTAssertEqual(events[0].id, 1); XCTAssertEqual(events[0].cause, .place)
        XCTAssertEqual(events[1].id, 2)
        XCTAssertEqual(m.editingID, 2)
        try m.edit(id: 1, time: 2)  // likewise for edit: placement of 2 committed
        XCTAssertEqual(F.drain(m).map(\.cause), [.place])
        XCTAssertEqual(m.editingID, 1)
        try m.edit(id: 1, time: 3)
        XCTAssertTrue(F.drain(m).isEmpty, "editing the pin already edited changes nothing")
    }

    func testSessionErrorsChangeNothing() throws {
        let m = try F.map()
        XCTAssertEqual(F.status { try m.commit(time: 0) }, .state)
        XCTAssertEqual(F.status { try m.cancelEdit(time: 0) }, .state)
        XCTAssertEqual(F.status { try m.edit(id: 9, time: 0) }, .notFound)
        try m.add(id: 1, lon: 0, lat: 0)
        XCTAssertEqual(F.status { try m.place(id: 1, lon: 1, lat: 1, time: 0) }, .duplicateID)
        XCTAssertEqual(F.status { try m.place(id: noID, lon: 1, lat: 1, time: 0) }, .invalidArgument)
        XCTAssertEqual(F.status { try m.place(id: 2, lon: 181, lat: 1, time: 0) }, .invalidArgument)
        XCTAssertEqual(F.status { try m.place(id: 2, lon: 1, lat: .nan, time: 0) }, .invalidArgument)
        try m.place(id: 3, lon: 0, lat: 0, time: 10)
        _ = F.drain(m)
        XCTAssertEqual(F.status { try m.place(id: 4, lon: 0, lat: 0, time: 5) }, .invalidArgument, "time went backwards")
        XCTAssertEqual(m.editingID, 3, "the placement in progress was not committed by a failed call")
        XCTAssertTrue(F.drain(m).isEmpty)
    }

    func testRemovingThePinBeingPlacedEndsTheSession() throws {
        let m = try F.map()
        try m.place(id: 1, lon: 0, lat: 0, time: 0)
        try m.remove(id: 1)
        XCTAssertNil(m.editSession)
        XCTAssertEqual(m.editingID, noID)
        XCTAssertEqual(F.status { try m.commit(time: 1) }, .state)
    }

    func testSelect() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.add(id: 2, lon: 1, lat: 1)
        try m.select(id: 1)
        try m.select(id: 2)
        try m.select(id: noID)
        XCTAssertEqual(F.drain(m).map { "\($0.kind)\($0.id)" }, ["selected1", "deselected1", "selected2", "deselected2"])
        XCTAssertEqual(F.status { try m.select(id: 3) }, .notFound)
        XCTAssertEqual(m.selectedID, noID)
    }
}
