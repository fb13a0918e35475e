import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 18 through every kind of view (docs/editing.md, "Nudges"): a nudge moves the selected
/// pin by (dx, dy) points of the screen the user sees, on north-up and turned cameras at any zoom
/// and latitude and through the host's own projection, starting from where the pin is drawn.
/// Expected coordinates come from `TurnedMercator` and from the host projection's own formulas.
final class NudgeViewTests: XCTestCase {
    let lawndale = (lon: -118.3535474, lat: 33.8870931)

    /// A map with one pin at the centre of a camera, selected, its events drained.
    func cameraMap(lon: Double, lat: Double, zoom: Double, bearing: Double) throws -> Map {
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setCamera(Camera(centerLon: lon, centerLat: lat, zoom: zoom, bearingDeg: bearing, width: 390, height: 844))
        try m.add(id: 1, lon: lon, lat: lat)
        try m.select(id: 1)
        while m.pollEvent() != nil {}
        return m
    }

    func testOnATurnedCameraANudgeGoesUpTheScreenAtEveryZoomLatitudeAndBearing() throws {
        var t = 1000.0
        for bearing in [0.0, 30, 90, -100, 180, 247.5] {
            for zoom in [3.0, 12, 19, 22] {
                for lat in [0.0, lawndale.lat, 60, -70] {
                    let m = try cameraMap(lon: lawndale.lon, lat: lat, zoom: zoom, bearing: bearing)
                    var at = (lon: lawndale.lon, lat: lat)
                    for (dx, dy) in [(0.0, -10.0), (1, 0), (-7, 3.5), (10, 10)] {
                        t += 100
                        try m.nudge(dx: dx, dy: dy, time: t)
                        let want = TurnedMercator.moved(at.lon, at.lat, dx: dx, dy: dy, zoom: zoom, bearingDeg: bearing)
                        let got = try m.position(id: 1)
                        let what = "bearing \(bearing) zoom \(zoom) lat \(lat) nudge (\(dx), \(dy))"
                        XCTAssertLessThan(TurnedMercator.worldDistance(got, want, zoom: zoom), 1e-5, what)
                        let moved = m.pollEventFields()
                        XCTAssertEqual(moved?.kind, .moved, what)
                        XCTAssertEqual(moved?.cause, .nudge, what)
                        XCTAssertEqual(moved?.fromLon, at.lon, what); XCTAssertEqual(moved?.fromLat, at.lat, what)
                        while m.pollEvent() != nil {}
                        at = got
                    }
                }
            }
        }
    }

    /// "Up" on a camera turned by 30° is 30° east of north: ten points up moves the pin north-east
    /// by ten points of the world, sin 30° of them east.
    func testUpOnACameraTurnedByThirtyDegreesIsThirtyDegreesEastOfNorth() throws {
        let m = try cameraMap(lon: lawndale.lon, lat: lawndale.lat, zoom: 19, bearing: 30)
        try m.nudge(dx: 0, dy: -10, time: 1000)
        let before = TurnedMercator.world(lawndale.lon, lawndale.lat, zoom: 19)
        let p = try m.position(id: 1)
        let after = TurnedMercator.world(p.lon, p.lat, zoom: 19)
        XCTAssertEqual(after.x - before.x, 10 * sin(.pi / 6), accuracy: 1e-6, "east by 5 world points")
        XCTAssertEqual(after.y - before.y, -10 * cos(.pi / 6), accuracy: 1e-6, "north by 8.66 world points")
    }

    /// A plate carrée canvas of the host's, 1e5 points per degree, north up: a nudge of (10, -20)
    /// moves the pin 1e-4° east and 2e-4° north, whatever Web Mercator would say.
    func testAHostProjectionIsNudgedInItsOwnScreenPoints() throws {
        let scale = 1e5, (lon0, lat0) = lawndale
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setProjection(HostProjection(width: 800, height: 600,
            project: { lon, lat in ((lon - lon0) * scale + 400, (lat0 - lat) * scale + 300) },
            unproject: { x, y in ((x - 400) / scale + lon0, lat0 - (y - 300) / scale) }))
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.select(id: 1)
        try m.nudge(dx: 10, dy: -20, time: 1000)
        let p = try m.position(id: 1)
        XCTAssertEqual(p.lon, lon0 + 10 / scale, accuracy: 1e-12)
        XCTAssertEqual(p.lat, lat0 + 20 / scale, accuracy: 1e-12)
    }

    /// A host canvas that is turned by 25° and stretched (a local grid of the host's, not north up,
    /// 8e4 points per degree east and 1.1e5 north): the pin moves by exactly (dx, dy) of the host's
    /// points, so the host's own forward projection of the new coordinate is the old point plus
    /// (dx, dy), and the coordinate is the solution of the 2 × 2 system written out by Cramer's rule.
    func testATurnedAndStretchedHostProjectionIsNudgedByItsOwnPoints() throws {
        let (lon0, lat0) = lawndale
        let r = 25 * Double.pi / 180, sx = 8e4, sy = 1.1e5
        // Screen = A · (Δlon, Δlat) + (400, 300), A = rotation(25°) · diag(sx, -sy).
        let a = cos(r) * sx, b = sin(r) * sy, c = sin(r) * sx, d = -cos(r) * sy
        let det = a * d - b * c
        func project(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
            (a * (lon - lon0) + b * (lat - lat0) + 400, c * (lon - lon0) + d * (lat - lat0) + 300)
        }
        func unproject(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
            let u = x - 400, v = y - 300
            return (lon0 + (u * d - b * v) / det, lat0 + (a * v - c * u) / det)
        }
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setProjection(HostProjection(width: 800, height: 600, project: { project($0, $1) }, unproject: { unproject($0, $1) }))
        try m.add(id: 1, lon: lon0 + 0.0003, lat: lat0 - 0.0002)
        try m.select(id: 1)
        var t = 1000.0
        for (dx, dy) in [(10.0, -20.0), (1, 0), (0, 1), (-33.5, 12.25)] {
            let from = try m.position(id: 1), p0 = project(from.lon, from.lat)
            t += 50
            try m.nudge(dx: dx, dy: dy, time: t)
            let p = try m.position(id: 1), p1 = project(p.lon, p.lat)
            XCTAssertEqual(p1.x - p0.x, dx, accuracy: 1e-7, "nudge (\(dx), \(dy))")
            XCTAssertEqual(p1.y - p0.y, dy, accuracy: 1e-7, "nudge (\(dx), \(dy))")
            // Cramer's rule for A · (Δlon, Δlat) = (dx, dy).
            XCTAssertEqual(p.lon - from.lon, (dx * d - b * dy) / det, accuracy: 1e-12)
            XCTAssertEqual(p.lat - from.lat, (a * dy - c * dx) / det, accuracy: 1e-12)
        }
    }

    /// A host projection that cannot unproject the target refuses the nudge and changes nothing.
    func testANudgeTheHostProjectionCannotPlaceIsRefusedAndChangesNothing() throws {
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setProjection(HostProjection(width: 1200, height: 800,
            project: { lon, lat in (lon * 1000, -lat * 1000) },
            unproject: { x, y in x > 1000 ? nil : (x / 1000, -y / 1000) }))
        try m.add(id: 1, lon: 0.995, lat: -0.4)
        try m.select(id: 1)
        while m.pollEvent() != nil {}
        try m.nudge(dx: 4, dy: 0, time: 100)
        XCTAssertEqual(try m.position(id: 1).lon, 0.999, accuracy: 1e-12)
        let at = try m.position(id: 1), steps = m.undoCount
        while m.pollEvent() != nil {}
        XCTAssertThrowsError(try m.nudge(dx: 4, dy: 0, time: 200)) {
            XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument)
        }
        XCTAssertTrue(try m.position(id: 1) == at)
        XCTAssertNil(m.pollEvent())
        XCTAssertEqual(m.undoCount, steps)
        XCTAssertEqual(m.now, 100, "the refused call did not advance the clock")
    }

    /// A pin of a stack is drawn on its ring (SPEC 11: pin i of n at bearing 2πi/n, 3n/2 metres):
    /// the nudge moves it from there, as a drag would, and it then stands alone at its coordinate.
    func testASpreadPinIsNudgedFromItsPlaceOnTheRing() throws {
        let (lon0, lat0) = lawndale, zoom = 20.0
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setCamera(Camera(centerLon: lon0, centerLat: lat0, zoom: zoom, width: 390, height: 844))
        for i in 0..<5 { try m.add(id: 10 + Int64(i), lon: lon0, lat: lat0) }
        // Pin 12 is pin 2 of 5: bearing 4π/5, 7.5 m from the spot.
        let ring = TextbookSphere.destination(lon0, lat0, bearing: 2 * .pi * 2 / 5, metres: 7.5)
        let drawn = try m.displayPosition(id: 12)
        XCTAssertEqual(drawn.lon, ring.lon, accuracy: 1e-11); XCTAssertEqual(drawn.lat, ring.lat, accuracy: 1e-11)
        try m.select(id: 12)
        try m.nudge(dx: 0, dy: 1, time: 1000)
        let want = TurnedMercator.moved(ring.lon, ring.lat, dx: 0, dy: 1, zoom: zoom)
        let p = try m.position(id: 12)
        XCTAssertLessThan(TurnedMercator.worldDistance(p, want, zoom: zoom), 1e-6, "one point below its place on the ring")
        XCTAssertTrue(try m.displayPosition(id: 12) == p, "out of its stack, alone")
        // The four left behind form a ring of four around the spot.
        let four = TextbookSphere.destination(lon0, lat0, bearing: 0, metres: 6)
        let first = try m.displayPosition(id: 10)
        XCTAssertEqual(first.lon, four.lon, accuracy: 1e-11); XCTAssertEqual(first.lat, four.lat, accuracy: 1e-11)
    }
}
