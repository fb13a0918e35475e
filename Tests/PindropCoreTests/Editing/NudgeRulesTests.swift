import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 18, a nudge is a user move like a drop (docs/editing.md, "Nudges"): the allowed area
/// refuses or snaps it (SPEC 13), it warns of a pin nearby (SPEC 12), a zero nudge is nothing,
/// and a series of nudges is one undo step only while nothing else happens in between.
/// Targets come from `TurnedMercator`; the snap's expected point from a brute-force search of
/// the boundary in metres (haversine), written apart from the library's edge search.
final class NudgeRulesTests: XCTestCase {
    let lon0 = -118.3535474, lat0 = 33.8870931, zoom = 19.0

    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; configure(&$0) }, lon: lon0, lat: lat0, zoom: zoom,
                      width: 390, height: 844)
        return s
    }

    /// The boundary point of `ring` (closed: last == first) nearest `p` in metres on the sphere:
    /// each edge sampled, then the best sample's neighbourhood sampled again, five times over.
    func nearestOnBoundary(_ ring: [(lon: Double, lat: Double)], to p: (lon: Double, lat: Double)) -> (lon: Double, lat: Double) {
        var best = (d: Double.infinity, lon: 0.0, lat: 0.0)
        for k in 0..<(ring.count - 1) {
            let a = ring[k], b = ring[k + 1]
            var lo = 0.0, hi = 1.0
            for _ in 0..<5 {
                var bestT = lo, bestD = Double.infinity
                for i in 0...400 {
                    let t = lo + (hi - lo) * Double(i) / 400
                    let q = (lon: a.lon + (b.lon - a.lon) * t, lat: a.lat + (b.lat - a.lat) * t)
                    let d = TextbookSphere.haversine(p, q)
                    if d < bestD { (bestD, bestT) = (d, t) }
                }
                let step = (hi - lo) / 400
                (lo, hi) = (max(0, bestT - 2 * step), min(1, bestT + 2 * step))
            }
            let t = (lo + hi) / 2
            let q = (lon: a.lon + (b.lon - a.lon) * t, lat: a.lat + (b.lat - a.lat) * t)
            let d = TextbookSphere.haversine(p, q)
            if d < best.d { best = (d, q.lon, q.lat) }
        }
        return (best.lon, best.lat)
    }

    /// A quadrilateral around the pin with a slanted north-east edge (about 100 m across).
    var area: [(lon: Double, lat: Double)] {
        [(lon0 - 0.0006, lat0 - 0.0005), (lon0 + 0.0004, lat0 - 0.0005), (lon0 + 0.0004, lat0 + 0.0001),
         (lon0 - 0.0001, lat0 + 0.0004), (lon0 - 0.0006, lat0 + 0.0004), (lon0 - 0.0006, lat0 - 0.0005)]
    }

    func testSnapPutsANudgeThatLeavesTheAreaOnTheBoundaryPointNearestItsTarget() throws {
        let s = story { $0.outsidePolicy = .snap }
        s.map.setAllowedArea(try PolygonArea(polygons: [[Array(area.dropLast())]]))
        try s.map.add(id: 1, lon: lon0 + 0.0001, lat: lat0 + 0.0001)   // inside, near the slanted edge
        try s.map.select(id: 1)
        _ = s.events()
        let from = s.position(1)
        // A small nudge that stays inside is a plain NUDGE.
        try s.map.nudge(dx: 1, dy: 0, time: 1000)
        var e = s.events()
        XCTAssertEqual(e.first?.cause, .nudge)
        let inside = s.position(1)
        let oneRight = TurnedMercator.moved(from.lon, from.lat, dx: 1, dy: 0, zoom: zoom)
        XCTAssertLessThan(TurnedMercator.worldDistance(inside, oneRight, zoom: zoom), 1e-6)
        // 120 points up and 80 right cross the slanted edge: snapped to the nearest boundary point.
        let target = TurnedMercator.moved(inside.lon, inside.lat, dx: 80, dy: -120, zoom: zoom)
        let want = nearestOnBoundary(area, to: target)
        try s.map.nudge(dx: 80, dy: -120, time: 1100)
        e = s.events()
        XCTAssertEqual(e.map(\.kind), [.moved, .calloutChanged, .geocodeRequest])
        guard !e.isEmpty else { return }
        XCTAssertEqual(e[0].cause, .snap)
        XCTAssertEqual(e[0].fromLon, inside.lon); XCTAssertEqual(e[0].fromLat, inside.lat)
        let p = s.position(1)
        XCTAssertLessThan(TextbookSphere.haversine(p, want), 1e-3, "within a millimetre of the brute-force nearest point")
        XCTAssertTrue(s.map.allowedArea!.contains(lon: p.lon, lat: p.lat))
        XCTAssertGreaterThan(TextbookSphere.haversine(target, p), 10, "the target itself was metres outside")
        // The snap belongs to the nudge series: one undo takes both nudges back.
        try s.map.undo(time: 1200)
        XCTAssertTrue(s.position(1) == from)
    }

    func testRevertRefusesANudgeThatLeavesTheAreaAndChangesNothing() throws {
        let s = story { $0.outsidePolicy = .revert }
        s.map.setAllowedArea(try PolygonArea(polygons: [[Array(area.dropLast())]]))
        try s.map.add(id: 1, lon: lon0 + 0.0001, lat: lat0 + 0.0001)
        try s.map.select(id: 1)
        try s.map.nudge(dx: 1, dy: 0, time: 1000)
        _ = s.events()
        let at = s.position(1), steps = s.map.undoCount, subtitle = try s.map.callout(id: 1, .subtitle)
        XCTAssertThrowsError(try s.map.nudge(dx: 80, dy: -120, time: 1100)) { error in
            XCTAssertEqual((error as? PindropError)?.status, .invalidArgument)
            XCTAssertTrue((error as? PindropError)?.message.contains("allowed area") == true)
        }
        XCTAssertTrue(s.position(1) == at, "bit for bit where it was")
        XCTAssertEqual(s.kinds(), [])
        XCTAssertEqual(s.map.undoCount, steps)
        XCTAssertEqual(try s.map.callout(id: 1, .subtitle), subtitle)
        XCTAssertEqual(s.map.now, 1000, "the refused call did not advance the clock")
        // The series goes on: a nudge inside 1000 ms later than the last good one is still one step.
        try s.map.nudge(dx: -1, dy: 0, time: 1500)
        XCTAssertEqual(s.map.undoCount, steps)
    }

    func testANudgeIntoTheSpacingOfAnotherPinWarnsWithTheGreatCircleDistance() throws {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; $0.minSpacingM = 1 }, lon: lon0, lat: lat0, zoom: 21)
        try s.map.add(id: 1, lon: lon0, lat: lat0)
        // 20 points east at zoom 21 (about 1.24 m); a third pin 40 points east (about 2.5 m).
        let two = TurnedMercator.moved(lon0, lat0, dx: 20, dy: 0, zoom: 21)
        let three = TurnedMercator.moved(lon0, lat0, dx: 40, dy: 0, zoom: 21)
        try s.map.add(id: 2, lon: two.lon, lat: two.lat)
        try s.map.add(id: 3, lon: three.lon, lat: three.lat)
        try s.map.select(id: 1)
        _ = s.events()
        try s.map.nudge(dx: 1, dy: 0, time: 1000)         // 19 points away: about 1.18 m, no warning
        XCTAssertFalse(s.kinds().contains(.nearby))
        try s.map.nudge(dx: 10, dy: 0, time: 1100)        // 9 points away: about 0.56 m
        let nearby = s.events().filter { $0.kind == .nearby }
        XCTAssertEqual(nearby.map(\.other), [2], "pin 3 is 1.7 m away: beyond the spacing")
        XCTAssertEqual(nearby.first?.id, 1)
        let d = TextbookSphere.haversine(s.position(1), s.position(2))
        XCTAssertEqual(nearby.first?.distanceM ?? 0, d, accuracy: 1e-9 * d)
        XCTAssertLessThan(d, 1); XCTAssertGreaterThan(d, 0.5)
    }

    func testAZeroNudgeMovesNothingAndLeavesNothingToUndo() throws {
        let s = story()
        try s.map.add(id: 1, lon: lon0, lat: lat0)
        try s.map.select(id: 1)
        _ = s.events()
        try s.map.nudge(dx: 0, dy: 0, time: 1000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == (lon0, lat0))
        XCTAssertEqual(s.map.undoCount, 0)
        XCTAssertThrowsError(try s.map.undo(time: 1001)) { XCTAssertEqual(($0 as? PindropError)?.status, .state) }
        XCTAssertEqual(s.map.now, 1000, "a zero nudge still keeps the time")
    }

    func testNudgesOfTwoPinsInTurnAreSeparateSteps() throws {
        let s = story()
        let two = (lon: lon0 + 0.0004, lat: lat0 - 0.0003)
        try s.map.add(id: 1, lon: lon0, lat: lat0)
        try s.map.add(id: 2, lon: two.lon, lat: two.lat)
        try s.map.select(id: 1)
        try s.map.nudge(dx: 5, dy: 0, time: 1000)
        let a = s.position(1)
        try s.map.select(id: 2)
        try s.map.nudge(dx: 5, dy: 0, time: 1100)
        try s.map.select(id: 1)
        try s.map.nudge(dx: 5, dy: 0, time: 1200)   // 200 ms after pin 1's last nudge, but pin 2 moved between
        XCTAssertEqual(s.map.undoCount, 3)
        try s.map.undo(time: 1300)
        XCTAssertTrue(s.position(1) == a)
        XCTAssertFalse(s.position(2) == two)
        try s.map.undo(time: 1301)
        XCTAssertTrue(s.position(2) == two)
        try s.map.undo(time: 1302)
        XCTAssertTrue(s.position(1) == (lon0, lat0))
    }

    func testADragBetweenNudgesStartsANewStep() throws {
        let s = story()
        try s.map.add(id: 1, lon: lon0, lat: lat0)
        try s.map.select(id: 1)
        try s.map.nudge(dx: 3, dy: 0, time: 1000)
        let afterNudge = s.position(1)
        let p = s.screenOf(1)
        s.down(p.x, p.y, at: 1100); s.move(p.x + 30, p.y, at: 1150); s.up(p.x + 30, p.y, at: 1200)
        let dragged = s.position(1)
        XCTAssertFalse(dragged == afterNudge)
        try s.map.nudge(dx: 3, dy: 0, time: 1300)   // 300 ms after the last nudge, but a drag came between
        XCTAssertEqual(s.map.undoCount, 3)
        try s.map.undo(time: 1400)
        XCTAssertTrue(s.position(1) == dragged)
        try s.map.undo(time: 1401)
        XCTAssertTrue(s.position(1) == afterNudge)
    }

    /// docs/editing.md: an undo or a redo between nudges starts a new step, even when the redo
    /// puts the series' own entry back on top less than a second after the last nudge.
    func testAnUndoAndRedoBetweenNudgesStartANewStep() throws {
        let s = story()
        try s.map.add(id: 1, lon: lon0, lat: lat0)
        try s.map.select(id: 1)
        try s.map.nudge(dx: 3, dy: 0, time: 1000)
        let afterNudge = s.position(1)
        try s.map.undo(time: 1100)
        XCTAssertTrue(s.position(1) == (lon0, lat0))
        try s.map.redo(time: 1200)
        XCTAssertTrue(s.position(1) == afterNudge)
        try s.map.nudge(dx: 3, dy: 0, time: 1300)   // 300 ms after the redo
        XCTAssertEqual(s.map.undoCount, 2)
        try s.map.undo(time: 1400)
        XCTAssertTrue(s.position(1) == afterNudge)
        try s.map.undo(time: 1401)
        XCTAssertTrue(s.position(1) == (lon0, lat0))
        // And an undo alone: the nudge after it is its own step too.
        try s.map.nudge(dx: 3, dy: 0, time: 1500)
        try s.map.undo(time: 1600)
        try s.map.nudge(dx: 0, dy: 3, time: 1700)
        XCTAssertEqual(s.map.undoCount, 1)
        XCTAssertEqual(s.map.redoCount, 0)
    }
}
