#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PindropKit
import XCTest

/// The Swift API as an app uses it: only `import PindropKit`, no Core type in sight.
final class PinMapTests: XCTestCase {
    /// The README's phone: a tree at the centre of a 390 × 844 screen at zoom 19.
    let tree = LonLat(lon: -118.3535474, lat: 33.8870931)
    var phone: Camera { Camera(center: tree, zoom: 19, width: 390, height: 844) }

    /// The coordinate of a screen point of `phone`, from the Web Mercator formula as textbooks
    /// write it (256 · 2^zoom points around the world), not from the library.
    func mercatorOracle(x: Double, y: Double) -> LonLat {
        let world = 256 * pow(2, 19.0)
        let cx = (tree.lon + 180) / 360 * world
        let cy = (1 - log(tan(Double.pi / 4 + tree.lat * Double.pi / 180 / 2)) / Double.pi) / 2 * world
        let lon = (cx + x - 195) / world * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * (cy + y - 422) / world))) * 180 / Double.pi
        return LonLat(lon: lon, lat: lat)
    }

    /// Great-circle distance in metres on the Web Mercator sphere (haversine).
    func metres(_ a: LonLat, _ b: LonLat) -> Double {
        let r = Double.pi / 180
        let h = pow(sin((b.lat - a.lat) * r / 2), 2) + cos(a.lat * r) * cos(b.lat * r) * pow(sin((b.lon - a.lon) * r / 2), 2)
        return 2 * 6378137 * asin(min(1, h.squareRoot()))
    }

    func testTheReadmeDragLandsTheTreeFortyPointsAboveTheFinger() throws {
        let map = try PinMap()
        try map.setCamera(phone)
        try map.add(Pin(id: 5603, coordinate: tree))
        XCTAssertTrue(try map.touch(.down, at: ScreenPoint(x: 195, y: 422), timeMs: 0))
        XCTAssertEqual(map.nextDeadlineMs, 250)          // the hold that lifts it
        try map.tick(timeMs: 250)
        try map.touch(.move, at: ScreenPoint(x: 255, y: 382), timeMs: 500)
        try map.touch(.up, at: ScreenPoint(x: 255, y: 382), timeMs: 520)

        let events = map.events()
        let landed = try map.position(id: 5603)
        let expected = mercatorOracle(x: 255, y: 382 - 40)  // lift_height 40 points above the finger
        XCTAssertEqual(landed.lon, expected.lon, accuracy: 1e-9)
        XCTAssertEqual(landed.lat, expected.lat, accuracy: 1e-9)
        XCTAssertEqual(landed, try map.toLonLat(ScreenPoint(x: 255, y: 342)))

        // Lifted at 250 ms where it stood, dragged, dropped and moved (by a drag) where it landed.
        XCTAssertEqual(events.first, TimedPinEvent(event: .lifted(id: 5603, at: tree), timeMs: 250))
        XCTAssertTrue(events.contains(TimedPinEvent(event: .dropped(id: 5603, at: landed), timeMs: 520)))
        XCTAssertTrue(events.contains(TimedPinEvent(event: .moved(id: 5603, from: tree, to: landed, cause: .drag), timeMs: 520)))
        let kinds = events.map { e -> String in
            switch e.event {
            case .lifted: "lifted"
            case .dragged: "dragged"
            case .dropped: "dropped"
            case .moved: "moved"
            default: "other"
            }
        }
        XCTAssertEqual(kinds.filter { $0 != "other" && $0 != "dragged" }, ["lifted", "dropped", "moved"])
        XCTAssertLessThan(kinds.firstIndex(of: "lifted")!, kinds.firstIndex(of: "dragged")!)
        XCTAssertLessThan(kinds.firstIndex(of: "dragged")!, kinds.firstIndex(of: "dropped")!)
        XCTAssertNil(map.nextDeadlineMs)
    }

    func testEventsAreAnEnumCarryingTheirData() throws {
        let map = try PinMap()
        try map.setCamera(phone)
        try map.add(Pin(id: 1, coordinate: tree))
        try map.add(Pin(id: 2, coordinate: LonLat(lon: tree.lon + 0.001, lat: tree.lat)))
        try map.select(id: 1)
        try map.select(id: 2)
        try map.select(id: nil)
        XCTAssertEqual(map.events().map(\.event), [.selected(id: 1), .deselected(id: 1), .selected(id: 2), .deselected(id: 2)])
        XCTAssertNil(map.selectedID)

        // A nudge is a user move: MOVED with cause .nudge, from where the pin was.
        try map.select(id: 1)
        try map.nudge(dx: 0, dy: -10, timeMs: 1000)
        let moved = map.events().compactMap { e -> (from: LonLat, to: LonLat, cause: MoveCause)? in
            if case .moved(id: 1, let from, let to, let cause) = e.event { return (from, to, cause) }
            return nil
        }
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(moved.first?.from, tree)
        XCTAssertEqual(moved.first?.cause, .nudge)
        XCTAssertEqual(moved.first?.to, try map.position(id: 1))
        XCTAssertGreaterThan(moved.first!.to.lat, tree.lat)  // 10 points up the screen: north
    }

    func testBadInputThrowsATypedErrorAndChangesNothing() throws {
        let map = try PinMap()
        try map.add(Pin(id: 7, coordinate: tree))
        do throws(PindropError) {
            try map.add(Pin(id: 7, coordinate: LonLat(lon: 0, lat: 0)))
            XCTFail("a second pin 7 was accepted")
        } catch {
            // `error` is a PindropError (typed throws), so this switch needs no default.
            switch error {
            case .duplicateID(let message): XCTAssertTrue(message.contains("7"), message)
            case .invalidArgument, .notFound, .parse, .state: XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try map.position(id: 7), tree)
        XCTAssertEqual(map.count, 1)

        XCTAssertThrowsError(try map.add(Pin(id: 8, coordinate: LonLat(lon: 181, lat: 0)))) {
            guard case .invalidArgument = $0 as? PindropError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try map.position(id: 99)) {
            XCTAssertEqual(($0 as? PindropError).map { if case .notFound = $0 { true } else { false } }, true)
        }
        try map.tick(timeMs: 100)
        XCTAssertThrowsError(try map.tick(timeMs: 50)) {  // time went backwards
            guard case .invalidArgument(let m) = $0 as? PindropError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("backwards"), m)
        }
        XCTAssertThrowsError(try map.setAllowedArea("not an area")) {
            guard case .parse = $0 as? PindropError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try map.undo(timeMs: 200)) {
            guard case .state = $0 as? PindropError else { return XCTFail("\($0)") }
        }
        var options = PinMapOptions()
        options.hitRadius = 0
        XCTAssertThrowsError(try PinMap(options: options)) {
            guard case .invalidArgument(let m) = $0 as? PindropError else { return XCTFail("\($0)") }
            XCTAssertTrue(m.contains("hit_radius"), m)
        }
    }

    func testTreesOnOneSpotAreDrawnOnARingOfOneAndAHalfMetresPerTree() throws {
        let spot = LonLat(lon: -118.346, lat: 33.8835)
        let alone = LonLat(lon: -118.35, lat: 33.89)
        let ring = try Spread.ring(Array(repeating: spot, count: 5) + [alone])
        XCTAssertEqual(ring.last, alone)
        for p in ring.dropLast() { XCTAssertEqual(metres(spot, p), 7.5, accuracy: 1e-6) }
        XCTAssertEqual(Set(ring).count, 6)
        XCTAssertEqual(ring[0].lon, spot.lon, accuracy: 1e-12)  // the first one due north
        XCTAssertGreaterThan(ring[0].lat, spot.lat)

        // A map draws the same group on the same ring (spread mode .ring, the default).
        let map = try PinMap()
        try map.setCamera(Camera(center: spot, zoom: 19, width: 390, height: 844))
        try map.add(contentsOf: (0..<5).map { Pin(id: Int64(10 + $0), coordinate: spot) })
        for i in 0..<5 {
            let drawn = try map.displayPosition(id: Int64(10 + i))
            XCTAssertEqual(drawn.lon, ring[i].lon, accuracy: 1e-9)
            XCTAssertEqual(drawn.lat, ring[i].lat, accuracy: 1e-9)
            XCTAssertEqual(try map.position(id: Int64(10 + i)), spot)
        }
        let views = try map.frame(timeMs: 0)
        XCTAssertEqual(views.count, 5)
        XCTAssertTrue(views.allSatisfy { $0.flags.contains(.spread) && $0.point != $0.anchor })
        XCTAssertThrowsError(try Spread.ring([spot], toleranceM: -1))
    }
}
