import Foundation
import XCTest
@testable import PindropCore

/// Behaviour 17's layout in points, against numbers worked out by hand from SPEC 17's text and
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
}
