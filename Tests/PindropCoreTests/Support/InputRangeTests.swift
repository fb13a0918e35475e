import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Values no real host can mean are refused, say what was wrong and change nothing
/// (docs/robustness.md, "Accepted ranges"): a nudge of more than a screen, a bearing beyond ±1e6°,
/// a screen point beyond the viewport grown by 1e7 points, a time outside [0, 1e13] ms. The
/// values just inside each range are still accepted.
final class InputRangeTests: XCTestCase {
    /// Everything a refused call must leave alone: pins, selection, time, the view, the events.
    struct Snapshot: Equatable {
        var pins: [Int64: [Double]]
        var selected: Int64
        var now: Double
        var camera: Camera?
        var events: Int
        var gesture: String
    }

    func snapshot(_ m: Map) -> Snapshot {
        var pins: [Int64: [Double]] = [:]
        for s in 0..<m.pins.capacity where m.pins.isAlive(Int32(s)) {
            let p = m.pins.position(Int32(s))
            pins[m.pins.id(Int32(s))] = [p.lon, p.lat]
        }
        var camera: Camera?
        if case .camera(let c) = m.view { camera = c.camera }
        return Snapshot(pins: pins, selected: m.selectedID, now: m.now, camera: camera, events: m.events.count,
                        gesture: "\(m.gestureStateName)")
    }

    /// Asserts that `body` is refused with INVALID_ARGUMENT, that its message contains each of
    /// `words`, and that the map is as it was.
    func assertRefused(_ m: Map, _ words: [String], file: StaticString = #filePath, line: UInt = #line,
                       _ body: () throws(PindropError) -> Void) {
        let before = snapshot(m)
        do {
            try body()
            XCTFail("accepted; expected INVALID_ARGUMENT", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, .invalidArgument, error.message, file: file, line: line)
            for w in words {
                XCTAssertTrue(error.message.contains(w), "\"\(error.message)\" does not say \(w)", file: file, line: line)
            }
        }
        XCTAssertEqual(snapshot(m), before, "a refused call changed the map", file: file, line: line)
    }

    /// A map of 800x600 points at zoom 17 over Los Angeles, pin 1 in the middle and selected.
    func makeMap(_ configure: (inout Options) -> Void = { _ in }) throws -> Map {
        var o = Options()
        o.liftDelayMs = 0
        configure(&o)
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setCamera(Camera(centerLon: -118.25, centerLat: 34.05, zoom: 17, width: 800, height: 600))
        try m.add(id: 1, lon: -118.25, lat: 34.05)
        try m.select(id: 1)
        while m.pollEvent() != nil {}
        return m
    }

    // MARK: - Nudges

    func testANudgeOf1e300PointsIsRefusedAndThePinStaysWhereItWas() throws {
        let m = try makeMap()
        let home = try m.position(id: 1)
        assertRefused(m, ["nudge", "1e+300", "1e7"]) { () throws(PindropError) in
            try m.nudge(dx: 1e300, dy: 1e300, time: 10)
        }
        assertRefused(m, ["nudge", "1e7"]) { () throws(PindropError) in try m.nudge(dx: 1e7 + 1, dy: 0, time: 10) }
        assertRefused(m, ["nudge", "1e7"]) { () throws(PindropError) in try m.nudge(dx: 0, dy: -2e7, time: 10) }
        assertRefused(m, ["nudge", "not finite"]) { () throws(PindropError) in try m.nudge(dx: .nan, dy: 0, time: 10) }
        let after = try m.position(id: 1)
        XCTAssertEqual(after.lon, home.lon)
        XCTAssertEqual(after.lat, home.lat)
        // A nudge of a whole screen, or of 1e7 points, is still a nudge: the pin lands there.
        for (i, dx) in [800.0, 1e7].enumerated() {
            let from = try m.position(id: 1)
            let start = try m.toScreen(lon: from.lon, lat: from.lat)
            let expected = try m.toLonLat(x: start.x + dx, y: start.y)
            try m.nudge(dx: dx, dy: 0, time: 20 + 2000 * Double(i))
            let moved = try m.position(id: 1)
            XCTAssertEqual(moved.lon, expected.lon, accuracy: 1e-9)
            XCTAssertEqual(moved.lat, expected.lat, accuracy: 1e-9)
        }
    }

    func testAKeyboardDragRefusesANudgeOfMoreThanAScreen() throws {
        let m = try makeMap()
        try m.keyLift(time: 0)
        while m.pollEvent() != nil {}
        assertRefused(m, ["nudge", "1e+300"]) { () throws(PindropError) in try m.nudge(dx: 0, dy: 1e300, time: 10) }
        try m.nudge(dx: 10, dy: 0, time: 20)
        XCTAssertEqual(m.pollEvent()?.event.kind, .dragged)
    }

    // MARK: - The camera

    func testABearingBeyondAMillionDegreesIsRefusedAndTheViewStays() throws {
        let m = try makeMap()
        for bearing in [1e300, -1e300, 1e6 + 1, -2e6, .greatestFiniteMagnitude, .infinity, .nan] {
            assertRefused(m, ["bearing_deg"]) { () throws(PindropError) in
                try m.setCamera(Camera(centerLon: 0, centerLat: 0, zoom: 3, bearingDeg: bearing, width: 800, height: 600))
            }
        }
        // The ends of the range are accepted, and draw as the same bearing modulo 360.
        for bearing in [1e6, -1e6] {
            try m.setCamera(Camera(centerLon: -118.25, centerLat: 34.05, zoom: 17, bearingDeg: bearing, width: 800, height: 600))
            let turned = try m.toScreen(lon: -118.249, lat: 34.051)
            let reduced = bearing.truncatingRemainder(dividingBy: 360)
            try m.setCamera(Camera(centerLon: -118.25, centerLat: 34.05, zoom: 17, bearingDeg: reduced, width: 800, height: 600))
            let plain = try m.toScreen(lon: -118.249, lat: 34.051)
            XCTAssertEqual(turned.x, plain.x, accuracy: 1e-6)
            XCTAssertEqual(turned.y, plain.y, accuracy: 1e-6)
        }
    }

    // MARK: - Screen points

    func testTouchesBeyondTheViewportGrownBy1e7PointsAreRefused() throws {
        let m = try makeMap()
        let far: [(Double, Double)] = [(1e300, 300), (400, -1e300), (-1e7 - 1, 300), (800 + 1e7 + 1, 300),
                                       (400, 600 + 1e7 + 1), (.greatestFiniteMagnitude, 0)]
        for (x, y) in far {
            assertRefused(m, ["touch position", "1e7"]) { () throws(PindropError) in
                _ = try m.touch(pointer: 0, phase: .down, x: x, y: y, time: 10)
            }
        }
        XCTAssertTrue(try m.touch(pointer: 0, phase: .down, x: 400, y: 300, time: 20))
        for (x, y) in far {
            assertRefused(m, ["touch position"]) { () throws(PindropError) in
                _ = try m.touch(pointer: 0, phase: .move, x: x, y: y, time: 30)
            }
            assertRefused(m, ["touch position"]) { () throws(PindropError) in
                _ = try m.touch(pointer: 0, phase: .up, x: x, y: y, time: 30)
            }
        }
        // A drag's finger may leave a small map widget by a desktop's width: still a drag; and
        // the edges of the range are touches like any other.
        XCTAssertTrue(try m.touch(pointer: 0, phase: .move, x: 400 + 7680, y: 300, time: 30))
        XCTAssertTrue(try m.touch(pointer: 0, phase: .move, x: 800 + 1e7, y: -1e7, time: 40))
        // Queries change nothing and take any finite point: a pin's screen point at a deep zoom
        // may lie 10^11 points away (hit tests and to_lonlat stay as they were).
        XCTAssertNil(try m.hitTest(x: 1e300, y: 0))
    }

    // MARK: - Times

    func testTimesOutsideZeroTo1e13MillisecondsAreRefused() throws {
        let fresh = try Map(options: Options(), factory: BruteForceFactory())
        assertRefused(fresh, ["time", "-1.0", "[0, 1e13]"]) { () throws(PindropError) in try fresh.tick(time: -1) }
        let m = try makeMap()
        for t in [1e300, 1e13 + 1e6, -0.5, .greatestFiniteMagnitude] {
            assertRefused(m, ["time", "[0, 1e13]"]) { () throws(PindropError) in try m.tick(time: t) }
            assertRefused(m, ["time"]) { () throws(PindropError) in try m.nudge(dx: 1, dy: 0, time: t) }
            assertRefused(m, ["time"]) { () throws(PindropError) in
                _ = try m.touch(pointer: 0, phase: .down, x: 400, y: 300, time: t)
            }
            assertRefused(m, ["time"]) { () throws(PindropError) in _ = try m.frame(time: t) }
        }
        // Before the check, 1e300 was accepted, and every real time after it was "backwards".
        try m.tick(time: 0)
        try m.tick(time: 1.7e12)   // Unix time in milliseconds
        try m.tick(time: 1e13)
        XCTAssertEqual(m.now, 1e13)
    }
}
