import XCTest
@testable import PindropCore

/// The editing room stands alone: driven through a context that records the effects it asks
/// for (events, user moves, removals), with no map, pin store or index behind it.
final class EditorTests: XCTestCase {
    /// Pins by slot; `pins(within:)` offers every pin (a superset is what the room may get).
    final class Recorder: EditingContext {
        var now = 0.0
        var pins: [(id: Int64, lon: Double, lat: Double)] = []
        var effects: [EditingEffect] = []

        func slotOf(_ id: Int64) -> Int32? { pins.firstIndex { $0.id == id }.map(Int32.init) }
        func pinID(_ slot: Int32) -> Int64 { pins[Int(slot)].id }
        func truePosition(_ slot: Int32) -> (lon: Double, lat: Double) { (pins[Int(slot)].lon, pins[Int(slot)].lat) }
        func pins(within meters: Double, ofLon lon: Double, lat: Double, into out: inout [Int32]) {
            out.append(contentsOf: pins.indices.map(Int32.init))
        }
        func isHeld(_ slot: Int32) -> Bool { false }
        func apply(_ effect: EditingEffect) -> Bool { effects.append(effect); return true }
    }

    func testALandingAsksForItsCalloutAGeocodeRequestAndTheNearbyWarnings() {
        var o = Options()
        o.minSpacingM = 20
        let room = Editor(options: o)
        let c = Recorder()
        // On the equator 1e-4 degrees of latitude is an arc of R·1e-4·π/180 (about 11.1 m).
        c.pins = [(1, 10, 0), (2, 10, 0.0001), (3, 10, 0.001)]
        c.now = 40
        room.landed(0, c)
        let arc = Sphere.radius * 0.0001 * Double.pi / 180
        guard c.effects.count == 3, case .emit(.nearby(1, 2, LonLat(lon: 10, lat: 0.0001), let d)) = c.effects[2] else {
            return XCTFail("\(c.effects)")
        }
        XCTAssertEqual(d, arc, accuracy: arc * 1e-9)
        XCTAssertEqual(Array(c.effects.prefix(2)), [
            .emit(.calloutChanged(id: 1, at: LonLat(lon: 10, lat: 0))),
            .emit(.geocodeRequest(id: 1, at: LonLat(lon: 10, lat: 0), request: 1)),
        ])
        XCTAssertEqual(room.subtitles[1], "0.00000, 10.00000")
    }

    func testAnEditIsOneUndoStepAndItsUndoAsksForOneUserMoveBack() throws {
        let room = Editor(options: Options())
        let c = Recorder()
        c.pins = [(5, 1, 2)]
        room.begin(0, placed: false, c)
        XCTAssertEqual(room.editingID, 5)
        for p in [(1.5, 2.5), (3.0, 4.0)] {  // two user moves the map made during the edit
            let from = c.truePosition(0)
            c.pins[0] = (5, p.0, p.1)
            room.userMoved(0, from: from, cause: .tap, c)
        }
        XCTAssertEqual(room.undoStack.count, 2)
        c.effects = []
        room.commit(c)
        XCTAssertEqual(c.effects, [], "an edit (not a placement) is saved without MOVED")
        XCTAssertEqual(room.undoStack.map { [$0.fromLon, $0.fromLat, $0.toLon, $0.toLat] }, [[1, 2, 3, 4]])
        XCTAssertEqual(room.editingID, noID)
        let slot = try room.replayable(undo: true, c)
        room.replay(undo: true, slot, c)
        XCTAssertEqual(c.effects, [.userMove(slot: 0, lon: 1, lat: 2, cause: .undo)])
        XCTAssertEqual(room.redoStack.count, 1)
        XCTAssertThrowsError(try room.replayable(undo: true, c), "nothing left to undo")
    }

    func testCancellingAPlacementAsksForTheRemovalOfItsPin() {
        let room = Editor(options: Options())
        let c = Recorder()
        c.pins = [(9, -118.35, 33.9)]
        room.begin(0, placed: true, c)
        c.effects = []
        room.cancel(c)
        XCTAssertEqual(c.effects, [.remove(id: 9)])
        XCTAssertNil(room.session)
    }
}
