import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The spiral's layout in points, against numbers worked out by hand from its rule (docs/spreading.md) and
/// against geometric facts the rule implies (the Python suite holds the full independent oracle).
final class SpiralRuleTests: XCTestCase {
    func testAGroupOfOneOrNoneIsNotSpread() {
        XCTAssertEqual(SpiralRule.offsets(n: 1, spacing: 25).count, 1)
        XCTAssertEqual(SpiralRule.offsets(n: 1, spacing: 25)[0].dx, 0)
        XCTAssertTrue(SpiralRule.offsets(n: 0, spacing: 25).isEmpty)
    }

    func testSmallGroupsSitOnACircleStartingNorth() {
        // n = 2: radius max(25, 25·4/2π = 15.9) = 25; pin 0 north (up), pin 1 south.
        let two = SpiralRule.offsets(n: 2, spacing: 25)
        XCTAssertEqual(two[0].dx, 0, accuracy: 1e-12); XCTAssertEqual(two[0].dy, -25, accuracy: 1e-12)
        XCTAssertEqual(two[1].dx, 0, accuracy: 1e-12); XCTAssertEqual(two[1].dy, 25, accuracy: 1e-12)
        // n = 4, spacing 40: pin 1 due east (clockwise from north), radius 40.
        XCTAssertEqual(SpiralRule.offsets(n: 4, spacing: 40)[1].dx, 40, accuracy: 1e-12)
        // n = 8: radius 25·10/2π = 39.79 > 25.
        for o in SpiralRule.offsets(n: 8, spacing: 25) {
            XCTAssertEqual((o.dx * o.dx + o.dy * o.dy).squareRoot(), 250 / (2 * Double.pi), accuracy: 1e-12)
        }
    }

    func testNineAndMoreFollowLeafletsSpiralFromTheInside() {
        // s = 1. The step at k = n places nothing; pin n-1 is placed after it.
        let n = 9
        let a1 = 28.0 / 11 + 0.0005 * 9, l1 = 11 + 10 * Double.pi / a1
        let o = SpiralRule.offsets(n: n, spacing: 25)
        XCTAssertEqual(o[8].dx, l1 * sin(a1), accuracy: 1e-12)
        XCTAssertEqual(o[8].dy, -l1 * cos(a1), accuracy: 1e-12)
        let a2 = a1 + 28 / l1 + 0.0005 * 8, l2 = l1 + 10 * Double.pi / a2
        XCTAssertEqual(o[7].dx, l2 * sin(a2), accuracy: 1e-12)
        XCTAssertEqual(o[7].dy, -l2 * cos(a2), accuracy: 1e-12)
        // Pin 0 is the outermost and every pin is further out than the next.
        let d = o.map { ($0.dx * $0.dx + $0.dy * $0.dy).squareRoot() }
        for k in 0..<(n - 1) { XCTAssertGreaterThan(d[k], d[k + 1]) }
    }

    func testSpacingScalesTheWholeLayout() {
        for n in [3, 9, 50, 305] {
            let a = SpiralRule.offsets(n: n, spacing: 25), b = SpiralRule.offsets(n: n, spacing: 50)
            for k in 0..<n {
                XCTAssertEqual(b[k].dx, 2 * a[k].dx, accuracy: 1e-9 * max(1, abs(a[k].dx)))
                XCTAssertEqual(b[k].dy, 2 * a[k].dy, accuracy: 1e-9 * max(1, abs(a[k].dy)))
            }
        }
    }

    func testNeighboursOnTheSpiralKeepApart() {
        // Leaflet's foot separation: consecutive pins at least 28s points apart along the spiral
        // (a little more: the step adds 0.0005k radians, and the arc's chord is measured).
        for n in [9, 50, 305] {
            let o = SpiralRule.offsets(n: n, spacing: 25)
            for k in 0..<(n - 1) {
                let gap = hypot(o[k].dx - o[k + 1].dx, o[k].dy - o[k + 1].dy)
                XCTAssertGreaterThan(gap, 28); XCTAssertLessThan(gap, 50)
            }
        }
    }

    func testTheBatchRefusesBadSpacingAndZoomAndWritesNothing() {
        let pts: [Double] = [10, 50, 10, 50]
        var out: [Double] = [7, 7, 7, 7]
        for (spacing, zoom) in [(0.0, 17.0), (-1, 17), (.nan, 17), (25, -1), (25, 31), (25, .infinity)] {
            let threw = pts.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o -> Bool in
                    do { try SpiralRule.spread(lonlat: p, tolerance: 0, spacing: spacing, zoom: zoom, into: o) } catch { return true }
                    return false
                }
            }
            XCTAssertTrue(threw, "spacing \(spacing), zoom \(zoom)")
            XCTAssertEqual(out, [7, 7, 7, 7])
        }
    }

    /// Spacings up to the largest double: the offsets stay finite (the layout is the one at 2^40
    /// points), and the batch writes coordinates on the globe.
    func testAbsurdSpacingsLayOutAtTheCap() {
        for n in [2, 8, 9, 305] {
            let capped = SpiralRule.offsets(n: n, spacing: SpiralRule.maxSpacing)
            for spacing in [SpiralRule.maxSpacing * 2, 1e300, .greatestFiniteMagnitude] {
                let o = SpiralRule.offsets(n: n, spacing: spacing)
                for k in 0..<n {
                    XCTAssertTrue(o[k].dx.isFinite && o[k].dy.isFinite, "n \(n), spacing \(spacing)")
                    XCTAssertEqual(o[k].dx, capped[k].dx); XCTAssertEqual(o[k].dy, capped[k].dy)
                }
            }
        }
        let pts = [Double](repeating: 0, count: 2 * 305).enumerated().map { $0.offset % 2 == 0 ? -118.25 : 34.05 }
        var out = [Double](repeating: .nan, count: pts.count)
        for zoom in [0.0, 18, 30] {
            let threw = pts.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o -> Bool in
                    do { try SpiralRule.spread(lonlat: p, tolerance: 0, spacing: .greatestFiniteMagnitude, zoom: zoom, into: o) } catch { return true }
                    return false
                }
            }
            XCTAssertFalse(threw, "zoom \(zoom)")
            for k in 0..<305 { XCTAssertTrue(abs(out[2 * k]) <= 180 && abs(out[2 * k + 1]) <= 90, "zoom \(zoom), pin \(k)") }
        }
    }
}

/// Behaviour 17 on a map: the spreading room lays spiral groups out in the view's points.
final class SpiralMapTests: XCTestCase {
    let spot = (lon: -118.34600679066747, lat: 33.88355188855412)

    func stack(_ n: Int, zoom: Double = 19, bearing: Double = 0, spacing: Double = 25) -> Story {
        let s = Story({ $0.spreadMode = .spiral; $0.spreadSpacing = spacing; $0.liftDelayMs = 0; $0.liftHeight = 0 },
                      lon: spot.lon, lat: spot.lat, zoom: zoom)
        try! s.map.setCamera(Camera(centerLon: spot.lon, centerLat: spot.lat, zoom: zoom, bearingDeg: bearing,
                                    width: 1200, height: 800))
        for k in 0..<n { try! s.map.add(id: Int64(n - k), lon: spot.lon, lat: spot.lat) }   // added in reverse
        return s
    }

    /// Drawn minus anchor, in id order (ids 1...n).
    func drawnOffsets(_ s: Story, _ n: Int, at t: Double = 0) -> [(dx: Double, dy: Double)] {
        let count = try! s.map.frame(time: t)
        let views = Dictionary(uniqueKeysWithValues: s.map.frameViews[0..<count].map { ($0.id, $0) })
        return (1...n).map { id in
            let v = views[Int64(id)]!
            XCTAssertTrue(v.flags.contains(.spread))
            return (v.x - v.anchorX, v.y - v.anchorY)
        }
    }

    func assertClose(_ a: [(dx: Double, dy: Double)], _ b: [(dx: Double, dy: Double)], _ what: String) {
        XCTAssertEqual(a.count, b.count, what)
        for (p, q) in zip(a, b) {
            XCTAssertEqual(p.dx, q.dx, accuracy: 1e-6, what); XCTAssertEqual(p.dy, q.dy, accuracy: 1e-6, what)
        }
    }

    func testTheLayoutKeepsItsPointsAtEveryZoom() {
        let s = stack(305, zoom: 15)
        let want = SpiralRule.offsets(n: 305, spacing: 25)
        for z in 15...22 {
            try! s.map.setCamera(Camera(centerLon: spot.lon, centerLat: spot.lat, zoom: Double(z), width: 1200, height: 800))
            assertClose(drawnOffsets(s, 305, at: Double(z)), want, "zoom \(z)")
        }
    }

    func testSmallGroupsAndSpacing() {
        for n in [2, 8, 9] {
            assertClose(drawnOffsets(stack(n, spacing: 40), n), SpiralRule.offsets(n: n, spacing: 40), "n \(n)")
        }
    }

    func testATurnedMapTurnsTheSpiral() {
        let b = 40.0 * Double.pi / 180
        let want = SpiralRule.offsets(n: 20, spacing: 25).map { o in
            (dx: o.dx * cos(b) + o.dy * sin(b), dy: -o.dx * sin(b) + o.dy * cos(b))
        }
        assertClose(drawnOffsets(stack(20, bearing: 40), 20), want, "bearing 40")
    }

    /// A map whose spacing is the largest double draws its stacks at finite coordinates on the
    /// globe (as the contract fuzzer's map with that option found they were not).
    func testTheLargestSpacingDrawsOnTheGlobe() {
        for n in [2, 9] {
            let s = stack(n, zoom: 18, spacing: .greatestFiniteMagnitude)
            for id in 1...n {
                let p = try! s.map.displayPosition(id: Int64(id))
                XCTAssertTrue(abs(p.lon) <= 180 && abs(p.lat) <= 90, "n \(n), pin \(id): \(p)")
            }
            XCTAssertNoThrow(try s.map.frame(time: 1))
        }
    }

    func testHitTestsFindSpiralPins() {
        let s = stack(50, zoom: 20)
        for id in 1...50 {
            let p = s.screenOf(Int64(id))
            XCTAssertEqual(try s.map.hitTest(x: p.x, y: p.y), Int64(id))
        }
    }

    func testADragOutLandsWhereDroppedAndTheRestReForm() {
        let s = stack(30)
        let p = s.screenOf(4)
        s.down(p.x + 1, p.y, at: 10)
        s.move(p.x + 60, p.y + 40, at: 20)
        s.move(p.x + 200, p.y + 150, at: 30)
        s.up(p.x + 200, p.y + 150, at: 40)
        let moved = s.events().filter { $0.kind == .moved }
        XCTAssertEqual(moved.map(\.id), [4])
        let landed = s.screen(moved[0].lon, moved[0].lat)
        XCTAssertEqual(landed.x, p.x + 199, accuracy: 1e-6); XCTAssertEqual(landed.y, p.y + 150, accuracy: 1e-6)
        s.tick(1000)
        let count = try! s.map.frame(time: 1000)
        let views = Dictionary(uniqueKeysWithValues: s.map.frameViews[0..<count].map { ($0.id, $0) })
        let rest = (1...30).filter { $0 != 4 }.map { id -> (dx: Double, dy: Double) in
            let v = views[Int64(id)]!
            return (v.x - v.anchorX, v.y - v.anchorY)
        }
        assertClose(rest, SpiralRule.offsets(n: 29, spacing: 25), "the 29 left")
    }

    func testAHostProjectionNorthUpGetsTheSameLayoutInItsPoints() {
        var o = Options()
        o.spreadMode = .spiral
        let map = try! Map(options: o, factory: BruteForceFactory())
        let scale = 1e5, lon0 = spot.lon, lat0 = spot.lat
        try! map.setProjection(HostProjection(width: 800, height: 600,
            project: { lon, lat in ((lon - lon0) * scale + 400, (lat0 - lat) * scale + 300) },
            unproject: { x, y in ((x - 400) / scale + lon0, lat0 - (y - 300) / scale) }))
        for id in 1...12 { try! map.add(id: Int64(id), lon: lon0, lat: lat0) }
        let want = SpiralRule.offsets(n: 12, spacing: 25)
        for id in 1...12 {
            let d = try! map.displayPosition(id: Int64(id))
            let q = try! map.toScreen(lon: d.lon, lat: d.lat)
            XCTAssertEqual(q.x - 400, want[id - 1].dx, accuracy: 1e-6)
            XCTAssertEqual(q.y - 300, want[id - 1].dy, accuracy: 1e-6)
        }
    }
}
