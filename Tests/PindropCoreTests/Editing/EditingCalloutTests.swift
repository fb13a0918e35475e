import XCTest
@testable import PindropCore
import PindropTestSupport

/// Helpers shared by the Editing*Tests files (namespaced so that other test files stay free).
enum EditingFixture {
    /// A map over the brute-force index; time starts at 0.
    static func map(_ configure: (inout Options) -> Void = { _ in }) throws -> Map {
        var o = Options()
        configure(&o)
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.advance(to: 0)
        return m
    }

    static func drain(_ m: Map) -> [EventFields] {
        var out: [EventFields] = []
        while let e = m.pollEventFields() { out.append(e) }
        return out
    }

    static func kinds(_ events: [EventFields]) -> [Event.Kind] { events.map(\.kind) }

    /// Degrees of latitude for `metres` along a meridian of the 6378137 m sphere (exact).
    static func dLat(_ metres: Double) -> Double { metres / 6378137.0 * 180.0 / Double.pi }

    /// A user move (what the gesture engine does on a drop or a tap-move).
    @discardableResult
    static func move(_ m: Map, _ id: Int64, _ lon: Double, _ lat: Double, cause: Event.Cause = .drag) throws -> Bool {
        m.applyUserMove(try m.slot(id), lon: lon, lat: lat, cause: cause)
    }

    static func status(_ body: () throws -> Void) -> Status? {
        do { try body(); return nil } catch let e as PindropError { return e.status } catch { return nil }
    }
}

/// The callout follows the pin; stale geocode answers are refused.
final class EditingCalloutTests: XCTestCase {
    typealias F = EditingFixture

    func testSubtitleIsTheCoordinateAfterAMoveUntilTheHostAnswers() throws {
        let m = try F.map()
        try m.add(id: 7, lon: -118.35, lat: 33.9)
        XCTAssertEqual(try m.callout(id: 7, .subtitle), "", "no subtitle before any user move")

        // The user drops the pin at a coordinate with more digits than the subtitle shows.
        try m.advance(to: 1000)
        XCTAssertTrue(try F.move(m, 7, -118.351234567, 33.901236))
        let events = F.drain(m)
        XCTAssertEqual(F.kinds(events), [.moved, .calloutChanged, .geocodeRequest])
        XCTAssertEqual(try m.callout(id: 7, .subtitle), "33.90124, -118.35123", "lat, lon rounded to 5 decimals")
        let request = events[2]
        XCTAssertEqual(request.id, 7)
        XCTAssertEqual(request.lon, -118.351234567)
        XCTAssertEqual(request.lat, 33.901236)
        XCTAssertEqual(request.timeMs, 1000)
        XCTAssertNotEqual(request.request, 0)

        // The geocoder answers: the subtitle becomes the address.
        XCTAssertEqual(try m.answerGeocode(request: request.request, "4400 W 147th St"), .ok)
        XCTAssertEqual(try m.callout(id: 7, .subtitle), "4400 W 147th St")
        XCTAssertEqual(F.kinds(F.drain(m)), [.calloutChanged])
    }

    func testAStaleAnswerIsRefusedWhileTheCurrentOneIsShown() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 2.35, lat: 48.85)
        try F.move(m, 1, 2.3501, 48.8501)
        let first = F.drain(m).first { $0.kind == .geocodeRequest }!.request
        try m.advance(to: 500)
        try F.move(m, 1, 2.3502, 48.8502)
        let second = F.drain(m).first { $0.kind == .geocodeRequest }!.request
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "48.85020, 2.35020")

        // The answer to the older request arrives first: refused, the coordinate stays.
        XCTAssertEqual(try m.answerGeocode(request: first, "Rue de Rivoli"), .stale)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "48.85020, 2.35020")
        XCTAssertTrue(F.drain(m).isEmpty)
        // The current answer is shown; the old one, arriving again later, is still refused.
        XCTAssertEqual(try m.answerGeocode(request: second, "Place du Châtelet"), .ok)
        XCTAssertEqual(try m.answerGeocode(request: first, "Rue de Rivoli"), .stale)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "Place du Châtelet")
    }

    func testRequestsOfOnePinDoNotMakeAnotherPinsAnswerStale() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.add(id: 2, lon: 1, lat: 1)
        try F.move(m, 1, 0.1, 0.1)
        let r1 = F.drain(m).first { $0.kind == .geocodeRequest }!.request
        try F.move(m, 2, 1.1, 1.1)
        let r2 = F.drain(m).first { $0.kind == .geocodeRequest }!.request
        XCTAssertEqual(try m.answerGeocode(request: r1, "one"), .ok)
        XCTAssertEqual(try m.answerGeocode(request: r2, "two"), .ok)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "one")
        XCTAssertEqual(try m.callout(id: 2, .subtitle), "two")
    }

    func testUnknownRequestsAreNotFound() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        XCTAssertEqual(F.status { _ = try m.answerGeocode(request: 0, "x") }, .notFound)
        XCTAssertEqual(F.status { _ = try m.answerGeocode(request: 1, "x") }, .notFound, "nothing issued yet")
        try F.move(m, 1, 0.5, 0.5)
        let r = F.drain(m).first { $0.kind == .geocodeRequest }!.request
        XCTAssertEqual(F.status { _ = try m.answerGeocode(request: r + 1, "x") }, .notFound)
        XCTAssertEqual(F.status { _ = try m.answerGeocode(request: .max, "x") }, .notFound)
    }

    func testHostMovesAndRemovalsMakeAnswersStale() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 10, lat: 10)
        try m.add(id: 2, lon: 20, lat: 20)
        try F.move(m, 1, 10.5, 10.5)
        try F.move(m, 2, 20.5, 20.5)
        let requests = F.drain(m).filter { $0.kind == .geocodeRequest }.map(\.request)
        try m.setPosition(id: 1, lon: 11, lat: 11)  // the host moved it: the answer describes the old place
        try m.remove(id: 2)
        XCTAssertEqual(try m.answerGeocode(request: requests[0], "old place"), .stale)
        XCTAssertEqual(try m.answerGeocode(request: requests[1], "gone"), .stale)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "10.50000, 10.50000")
    }

    func testRevertedMoveChangesNoCalloutAndAsksNothing() throws {
        let m = try F.map { $0.outsidePolicy = .revert }
        m.setAllowedArea(try PolygonArea(polygons: [[[(0, 0), (1, 0), (1, 1), (0, 1)]]]))
        try m.add(id: 1, lon: 0.5, lat: 0.5)
        XCTAssertFalse(try F.move(m, 1, 2, 2))
        XCTAssertTrue(F.drain(m).isEmpty)
        XCTAssertEqual(try m.callout(id: 1, .subtitle), "")
    }

    func testTitlesRoundTripAnyScript() throws {
        let m = try F.map()
        try m.add(id: 3, lon: 139.69, lat: 35.69)
        let title = "銀杏 Ginkgo biloba — Гинкго 🌳"
        try m.setTitle(id: 3, title)
        XCTAssertEqual(try m.callout(id: 3, .title), title)
        XCTAssertEqual(F.kinds(F.drain(m)), [.calloutChanged])
        try m.setTitle(id: 3, title)
        XCTAssertTrue(F.drain(m).isEmpty, "setting the same title again changes nothing")
        try m.setTitle(id: 3, nil)
        XCTAssertEqual(try m.callout(id: 3, .title), "")
        XCTAssertEqual(F.kinds(F.drain(m)), [.calloutChanged])
        XCTAssertEqual(F.status { try m.setTitle(id: 4, "x") }, .notFound)
        XCTAssertEqual(F.status { _ = try m.callout(id: 4, .title) }, .notFound)
    }

    func testRemovingAPinForgetsItsCallout() throws {
        let m = try F.map()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.setTitle(id: 1, "old tree")
        try m.remove(id: 1)
        try m.add(id: 1, lon: 0, lat: 0)
        XCTAssertEqual(try m.callout(id: 1, .title), "", "a new pin with a reused id starts blank")
    }

    func testCoordinateTextNeverShowsMinusZero() {
        XCTAssertEqual(Editor.coordinateText(lon: -0.000001, lat: -0.000004), "0.00000, 0.00000")
        XCTAssertEqual(Editor.coordinateText(lon: -179.999996, lat: -89.5), "-89.50000, -180.00000")
    }
}
