import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Snapping (SPEC behaviour 24), sentence by sentence: stories with explicit times on a `Story`
/// (zoom 18 over Los Angeles, lift_height 0 so the landing point is the finger), its snap layers
/// given as text built from screen points.
final class SnapScenarioTests: XCTestCase {
    func story(tolerance: Double = 12, toPins: Bool = false, _ more: (inout Options) -> Void = { _ in }) -> Story {
        Story { o in
            o.liftHeight = 0
            o.snapTolerance = tolerance
            o.snapToPins = toPins
            more(&o)
        }
    }

    /// "lon lat" of a screen point, as WKT writes a position.
    func at(_ s: Story, _ x: Double, _ y: Double) -> String {
        let p = try! s.map.toLonLat(x: x, y: y)
        return "\(p.lon) \(p.lat)"
    }
    func lonLat(_ s: Story, _ x: Double, _ y: Double) -> (lon: Double, lat: Double) { try! s.map.toLonLat(x: x, y: y) }

    /// Drags pin 1 from (300, 300), lifted at 250 ms, to each screen point in turn, 16 ms apart;
    /// returns the time of the last move.
    @discardableResult
    func drag(_ s: Story, to points: [(Double, Double)], from t0: Double = 0) -> Double {
        var t = s.liftAndStartDrag(300, 300, at: t0)
        for p in points { t += 16; s.move(p.0, p.1, at: t) }
        return t
    }

    func lastDragged(_ e: [EventFields]) -> EventFields? { e.last { $0.kind == .dragged } }

    /// The event's point is drawn at screen point (x, y) (the unsnapped landing point: the finger
    /// plus a grab offset of a few nanopoints).
    func assertAtScreen(_ s: Story, _ e: EventFields, _ x: Double, _ y: Double, _ message: String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
        let q = try! s.map.toScreen(lon: e.lon, lat: e.lat)
        XCTAssertEqual(q.x, x, accuracy: 1e-6, message, file: file, line: line)
        XCTAssertEqual(q.y, y, accuracy: 1e-6, message, file: file, line: line)
    }

    // MARK: - What wins

    /// A vertex within tolerance wins over a segment, even a nearer one; the drop commits the
    /// vertex's own coordinate, bit for bit.
    func testAVertexWithinToleranceWinsOverANearerSegment() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(0, "GEOMETRYCOLLECTION (LINESTRING (\(at(s, 500, 400)), \(at(s, 700, 400))), POINT (\(at(s, 620, 410))))")
        let t = drag(s, to: [(620, 402)])  // 2 points from the segment, 8 from the point
        let e = s.events()
        let vertex = lonLat(s, 620, 410)
        XCTAssertEqual(lastDragged(e)!.lon.bitPattern, vertex.lon.bitPattern)
        XCTAssertEqual(lastDragged(e)!.lat.bitPattern, vertex.lat.bitPattern)
        XCTAssertEqual(s.map.snapTarget, SnapHit(kind: .vertex, layer: 0, feature: 1, index: 0, lon: vertex.lon, lat: vertex.lat))
        XCTAssertTrue(s.view(1, at: t)!.flags.contains(.snapped))
        s.up(620, 402, at: t + 16)
        let moved = s.events().first { $0.kind == .moved }!
        XCTAssertEqual(moved.lon.bitPattern, vertex.lon.bitPattern)
        XCTAssertEqual(moved.lat.bitPattern, vertex.lat.bitPattern)
        XCTAssertTrue(s.position(1) == vertex)
        XCTAssertEqual(s.map.snapTarget.kind, .none, "not dragging: nothing")
        XCTAssertFalse(s.view(1, at: t + 2000)!.flags.contains(.snapped))
    }

    /// Without a vertex in reach, the segment's nearest point (in Web Mercator) is the landing
    /// point: on the line, straight below the finger for a horizontal line at zero bearing.
    func testASegmentSnapsToItsNearestPoint() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(2, "{\"type\":\"Feature\",\"id\":41,\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[\(at(s, 500, 400).replacingOccurrences(of: " ", with: ","))],[\(at(s, 700, 400).replacingOccurrences(of: " ", with: ","))]]}}")
        let t = drag(s, to: [(613, 409)])
        let d = lastDragged(s.events())!
        let q = try s.map.toScreen(lon: d.lon, lat: d.lat)
        XCTAssertEqual(q.x, 613, accuracy: 1e-6)
        XCTAssertEqual(q.y, 400, accuracy: 1e-6)
        let target = s.map.snapTarget
        XCTAssertEqual(target.kind, .segment)
        XCTAssertEqual(target.layer, 2)
        XCTAssertEqual(target.feature, 41)
        XCTAssertEqual(target.index, 0)
        XCTAssertEqual(target.lon.bitPattern, d.lon.bitPattern)
        // Beyond tolerance (13 points away): not snapped, the finger's point.
        s.move(613, 413, at: t + 16)
        assertAtScreen(s, lastDragged(s.events())!, 613, 413)
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        XCTAssertFalse(s.view(1, at: t + 16)!.flags.contains(.snapped))
    }

    /// Ties at one distance: the lower layer, then the lower feature id, then the lower index.
    func testTiesGoToTheLowerLayerThenFeatureThenIndex() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        let p = at(s, 600, 400), q = at(s, 640, 380)
        try s.map.setSnapLayer(3, "POINT (\(p))")
        try s.map.setSnapLayer(1, "GEOMETRYCOLLECTION (POINT (\(q)), LINESTRING (\(q), \(p)))")
        drag(s, to: [(603, 401)])
        XCTAssertEqual(s.map.snapTarget.layer, 1, "the same point in layers 1 and 3")
        XCTAssertEqual(s.map.snapTarget.feature, 1)
        XCTAssertEqual(s.map.snapTarget.index, 1, "the line's second vertex")
        _ = s.events()

        // Same layer: feature 2 (vertex 0) against feature 7 at the same point.
        let s2 = story()
        s2.addPin(1, atScreen: 300, 300)
        let c = at(s2, 600, 400)
        let pt = c.replacingOccurrences(of: " ", with: ",")
        try s2.map.setSnapLayer(0, "{\"type\":\"FeatureCollection\",\"features\":[" +
            "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(pt)]}}," +
            "{\"type\":\"Feature\",\"id\":2,\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[\(pt)],[\(pt)]]}}]}")
        drag(s2, to: [(605, 398)])
        XCTAssertEqual(s2.map.snapTarget.feature, 2)
        XCTAssertEqual(s2.map.snapTarget.index, 0, "two vertices of feature 2 at one point: the lower index")

        // Segments: two features along one line, the lower id wins.
        let s3 = story()
        s3.addPin(1, atScreen: 300, 300)
        let a = at(s3, 500, 400), b = at(s3, 700, 400)
        try s3.map.setSnapLayer(0, "GEOMETRYCOLLECTION (LINESTRING (\(a), \(b)), LINESTRING (\(a), \(b)))")
        drag(s3, to: [(600, 405)])
        XCTAssertEqual(s3.map.snapTarget.kind, .segment)
        XCTAssertEqual(s3.map.snapTarget.feature, 0)
    }

    // MARK: - Pins

    /// snap_to_pins: another pin's true coordinate is a target; the dragged pin's own never is.
    func testSnapToPinsTakesOtherPinsButNeverTheDraggedOne() throws {
        let s = story(toPins: true)
        s.addPin(1, atScreen: 300, 300)
        s.addPin(2, atScreen: 500, 300)
        // 310, 300 is 10 points from pin 1's own coordinate: not snapped.
        let t = s.liftAndStartDrag(300, 300, at: 0)
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        assertAtScreen(s, lastDragged(s.events())!, 310, 300)
        s.move(495, 306, at: t + 16)
        let d = lastDragged(s.events())!
        XCTAssertTrue((d.lon, d.lat) == s.position(2))
        XCTAssertEqual(s.map.snapTarget.kind, .pin)
        XCTAssertEqual(s.map.snapTarget.feature, 2)
        // Without snap_to_pins the other pin is no target.
        let off = story(toPins: false)
        off.addPin(1, atScreen: 300, 300)
        off.addPin(2, atScreen: 500, 300)
        drag(off, to: [(495, 306)])
        XCTAssertEqual(off.map.snapTarget.kind, .none)
    }

    // MARK: - The modifier

    /// NO_SNAP held mid-drag: the next move unsnaps; released, the next move snaps again.
    func testNoSnapHeldAndReleasedMidDrag() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(0, "POINT (\(at(s, 600, 400)))")
        let vertex = lonLat(s, 600, 400)
        var t = drag(s, to: [(605, 403)])
        XCTAssertTrue({ let d = lastDragged(s.events())!; return (d.lon, d.lat) == vertex }())
        try s.map.setModifiers(.noSnap)
        XCTAssertEqual(s.map.snapTarget.kind, .vertex, "held: nothing changes before the next move")
        t += 16; s.move(606, 403, at: t)
        var d = lastDragged(s.events())!
        assertAtScreen(s, d, 606, 403)
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        XCTAssertFalse(s.view(1, at: t)!.flags.contains(.snapped))
        t += 16; s.move(604, 402, at: t)
        d = lastDragged(s.events())!
        assertAtScreen(s, d, 604, 402, "still held: still off")
        try s.map.setModifiers(Modifiers())
        t += 16; s.move(605, 402, at: t)
        d = lastDragged(s.events())!
        XCTAssertTrue((d.lon, d.lat) == vertex, "released: the next move snaps")
        XCTAssertTrue(s.view(1, at: t)!.flags.contains(.snapped))
        // Held when the finger lifts: the lift is the next input, off; the drop commits exactly
        // what the last DRAGGED reported.
        try s.map.setModifiers(.noSnap)
        s.up(605, 402, at: t + 16)
        let e = s.events()
        let moved = e.first { $0.kind == .moved }!
        assertAtScreen(s, moved, 605, 402)
        XCTAssertEqual(moved.lon.bitPattern, lastDragged(e)!.lon.bitPattern)
        XCTAssertEqual(moved.lat.bitPattern, lastDragged(e)!.lat.bitPattern)
    }

    // MARK: - Tap-to-move, nudges, the keyboard

    /// A tap on the map while a pin is edited moves it there, snapped as a drag would be.
    func testTapToMoveSnaps() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(0, "LINESTRING (\(at(s, 500, 400)), \(at(s, 700, 400)))")
        try s.map.edit(id: 1, time: 0)
        s.down(580, 395, at: 100)
        s.up(580, 395, at: 150)
        s.tick(150 + s.map.options.doubleTapMs + 1)
        let moved = s.events().first { $0.kind == .moved }!
        XCTAssertEqual(moved.cause, .tap)
        let q = try s.map.toScreen(lon: moved.lon, lat: moved.lat)
        XCTAssertEqual(q.x, 580, accuracy: 1e-6)
        XCTAssertEqual(q.y, 400, accuracy: 1e-6)
        XCTAssertEqual(s.map.snapTarget.kind, .none, "no drag: no target to report")
        // And with NO_SNAP held, the tap's own point.
        try s.map.setModifiers(.noSnap)
        s.down(530, 396, at: 1000)
        s.up(530, 396, at: 1050)
        s.tick(1050 + s.map.options.doubleTapMs + 1)
        let raw = s.events().first { $0.kind == .moved }!
        assertAtScreen(s, raw, 530, 396)
    }

    /// Nudges and the keyboard drag never snap: an arrow key is an exact step.
    func testNudgesAndTheKeyboardDragNeverSnap() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(0, "POINT (\(at(s, 305, 302)))")
        try s.map.select(id: 1)
        try s.map.nudge(dx: 4, dy: 0, time: 10)
        let nudged = s.events().first { $0.kind == .moved }!
        XCTAssertEqual(nudged.cause, .nudge)
        let q = try s.map.toScreen(lon: nudged.lon, lat: nudged.lat)
        XCTAssertEqual(q.x, 304, accuracy: 1e-6)
        XCTAssertEqual(q.y, 300, accuracy: 1e-6)
        try s.map.keyLift(time: 1000)
        try s.map.nudge(dx: 1, dy: 1, time: 1100)
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        try s.map.keyDrop(time: 1200)
        let kept = s.events().first { $0.kind == .moved }!
        let k = try s.map.toScreen(lon: kept.lon, lat: kept.lat)
        XCTAssertEqual(k.x, 305, accuracy: 1e-6)
        XCTAssertEqual(k.y, 301, accuracy: 1e-6, "one point below, not on the vertex at 302")
    }

    // MARK: - The allowed area

    /// The allowed area applies after snapping: a landing point inside whose snap target lies
    /// outside is flagged invalid while dragged and, with the revert policy, reverted.
    func testTheAllowedAreaAppliesAfterSnapping() throws {
        let s = story { $0.outsidePolicy = .revert }
        s.addPin(1, atScreen: 300, 300)
        let from = s.position(1)
        let corners = [(100.0, 100.0), (598.0, 100.0), (598.0, 600.0), (100.0, 600.0)].map { lonLat(s, $0.0, $0.1) }
        s.map.setAllowedArea(try PolygonArea(polygons: [[corners]]))
        try s.map.setSnapLayer(0, "POINT (\(at(s, 605, 400)))")
        let t = drag(s, to: [(595, 400)])  // inside, 10 points from the vertex outside
        XCTAssertEqual(s.map.snapTarget.kind, .vertex)
        let flags = s.view(1, at: t)!.flags
        XCTAssertTrue(flags.contains(.snapped))
        XCTAssertTrue(flags.contains(.invalid))
        s.up(595, 400, at: t + 16)
        XCTAssertTrue(s.position(1) == from, "the snapped point is outside: reverted")
        // NO_SNAP held: the point inside is kept.
        try s.map.setModifiers(.noSnap)
        let t2 = drag(s, to: [(595, 400)], from: 5000)
        s.up(595, 400, at: t2 + 16)
        assertAtScreen(s, s.events().first { $0.kind == .moved }!, 595, 400)
    }

    // MARK: - Bad input

    /// Bad text, a feature without an integer id, a layer out of range: a status and a message,
    /// and the layers as they were.
    func testBadInputChangesNothing() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(0, "POINT (\(at(s, 600, 400)))")
        let bad: [(UInt32, String, Status, String)] = [
            (0, "POINT (1 2", .parse, "expected ')'"),
            (0, "LINESTRING (1 2)", .parse, "1 point"),
            (0, "POLYGON ((0 0, 1 0, 1 1, 0 0.5))", .parse, "closed"),
            (0, "CIRCLE (1 2)", .parse, "CIRCLE"),
            (0, "POINT (1 2) POINT (3 4)", .parse, "after the geometry"),
            (0, "POINT (200 2)", .parse, "outside"),
            (0, "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}]}",
             .parse, "feature 0 has no integer \"id\""),
            (0, "{\"type\":\"Feature\",\"id\":\"a7\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}", .parse, "integer"),
            (0, "{\"type\":\"Feature\",\"id\":1.5,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}", .parse, "integer"),
            (0, "{\"type\":\"Feature\",\"id\":1,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}", .parse, "GeoJSON"),
            (UInt32.max, "POINT (1 2)", .invalidArgument, "4294967295"),
            (1024, "POINT (1 2)", .invalidArgument, "0 ... 1023"),
        ]
        for (layer, text, status, words) in bad {
            XCTAssertThrowsError(try s.map.setSnapLayer(layer, text), text) { e in
                let err = e as! PindropError
                XCTAssertEqual(err.status, status, text)
                XCTAssertTrue(err.message.contains(words), "\(text): \(err.message)")
            }
        }
        XCTAssertThrowsError(try s.map.setSnapLayer(UInt32.max, nil), "clearing a layer out of range")
        // Layer 0 still snaps as before.
        drag(s, to: [(605, 403)])
        XCTAssertEqual(s.map.snapTarget.kind, .vertex)
        // A tolerance that is NaN or negative: the options are refused.
        for bad in [Double.nan, -1, .infinity] {
            var o = Options(); o.snapTolerance = bad
            XCTAssertThrowsError(try o.validate(), "\(bad)") { e in
                XCTAssertTrue((e as! PindropError).message.contains("snap_tolerance"))
            }
        }
    }

    /// Clearing a layer (nil or "") removes its targets; snap_tolerance 0 is off.
    func testClearingALayerAndToleranceZero() throws {
        let s = story()
        s.addPin(1, atScreen: 300, 300)
        try s.map.setSnapLayer(4, "POINT (\(at(s, 600, 400)))")
        try s.map.setSnapLayer(4, "")
        drag(s, to: [(603, 401)])
        XCTAssertEqual(s.map.snapTarget.kind, .none)
        let z = story(tolerance: 0)
        z.addPin(1, atScreen: 300, 300)
        try z.map.setSnapLayer(0, "POINT (\(at(z, 600, 400)))")
        drag(z, to: [(603, 401)])
        XCTAssertEqual(z.map.snapTarget.kind, .none)
        let u = story()
        u.addPin(1, atScreen: 300, 300)
        try u.map.setSnapLayer(0, "POINT (\(at(u, 600, 400)))")
        try u.map.setSnapLayer(0, nil)
        drag(u, to: [(603, 401)])
        XCTAssertEqual(u.map.snapTarget.kind, .none)
    }
}
