import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

final class SpreadMapTests: XCTestCase {
    let spot = (lon: -118.35259236902644, lat: 33.900539810736184)

    /// Dragging a pin out of a ring of n leaves a ring of n−1 with radius 3(n−1)/2 m around the
    /// same spot, ordered by id; the dragged pin is drawn at its drop point.
    func testDraggingAPinOutOfARingLeavesASmallerRing() throws {
        let map = try makeMap()
        let n = 12
        for id in 1...n { try map.add(id: Int64(id), lon: spot.lon, lat: spot.lat) }
        try map.advance(to: 1000)
        let drop = oracleDestination(lon: spot.lon, lat: spot.lat, bearing: 1, meters: 80)
        XCTAssertTrue(map.applyUserMove(try map.slot(5), lon: drop.lon, lat: drop.lat, cause: .drag))
        XCTAssertEqual(map.pollEventFields()?.kind, .moved)
        let d5 = try map.displayPosition(id: 5), t5 = try map.position(id: 5)
        XCTAssertEqual(d5.lon, drop.lon); XCTAssertEqual(d5.lat, drop.lat)
        XCTAssertEqual(t5.lon, drop.lon); XCTAssertEqual(t5.lat, drop.lat)
        XCTAssertEqual(map.flags(try map.slot(5)).intersection(.spread), [])
        let rest = (1...n).filter { $0 != 5 }
        for (i, id) in rest.enumerated() {
            let got = try map.displayPosition(id: Int64(id))
            XCTAssertEqual(oracleDistance(got, spot), 1.5 * Double(n - 1), accuracy: 1e-6)
            let want = oracleDestination(lon: spot.lon, lat: spot.lat, bearing: 2 * Double.pi * Double(i) / Double(n - 1),
                                         meters: 1.5 * Double(n - 1))
            XCTAssertEqual(got.lon, want.lon, accuracy: 1e-9); XCTAssertEqual(got.lat, want.lat, accuracy: 1e-9)
            let t = try map.position(id: Int64(id))
            XCTAssertEqual(t.lon, spot.lon); XCTAssertEqual(t.lat, spot.lat)
        }
        // Dropped back onto the spot, it rejoins: a ring of n again.
        XCTAssertTrue(map.applyUserMove(try map.slot(5), lon: spot.lon, lat: spot.lat, cause: .drag))
        for id in 1...n {
            XCTAssertEqual(oracleDistance(try map.displayPosition(id: Int64(id)), spot), 1.5 * Double(n), accuracy: 1e-6)
        }
    }

    /// Dragging the first pin of a tolerance group away re-forms the rest around their own mean.
    func testDraggingTheFirstPinOfAToleranceGroupReformsTheRest() throws {
        let map = try makeMap(tolerance: 3)
        let a = spot
        let b = oracleDestination(lon: a.lon, lat: a.lat, bearing: 0, meters: 2)
        let c = oracleDestination(lon: a.lon, lat: a.lat, bearing: Double.pi, meters: 2)
        try map.add(id: 1, lon: a.lon, lat: a.lat)
        try map.add(id: 2, lon: b.lon, lat: b.lat)
        try map.add(id: 3, lon: c.lon, lat: c.lat)
        let s1 = try map.slot(1)
        XCTAssertEqual(map.spread.members[Int(map.spread.membership.group(s1)!)].count, 3)
        let far = oracleDestination(lon: a.lon, lat: a.lat, bearing: 2, meters: 500)
        map.applyUserMove(s1, lon: far.lon, lat: far.lat, cause: .drag)
        // 2 and 3 are 4 m apart: without 1 they are two groups of one, drawn where they are.
        for (id, p) in [(Int64(2), b), (3, c)] {
            let d = try map.displayPosition(id: id)
            XCTAssertEqual(d.lon, p.lon); XCTAssertEqual(d.lat, p.lat)
        }
        // Back next to 2 (1 m): 1 has the lowest id, so it comes first and takes 2 (not 3, 3 m away
        // from it) — the groups it joins are re-formed.
        let near = oracleDestination(lon: b.lon, lat: b.lat, bearing: 0, meters: 1)
        map.applyUserMove(s1, lon: near.lon, lat: near.lat, cause: .drag)
        XCTAssertNotNil(map.spread.membership.group(s1))
        XCTAssertEqual(map.spread.membership.group(s1), map.spread.membership.group(try map.slot(2)))
        let d3 = try map.displayPosition(id: 3)
        XCTAssertEqual(d3.lon, c.lon); XCTAssertEqual(d3.lat, c.lat)
        let mid = (lon: (near.lon + b.lon) / 2, lat: (near.lat + b.lat) / 2)
        XCTAssertEqual(oracleDistance(try map.displayPosition(id: 1), mid), 3, accuracy: 1e-6)
    }

    /// A spread pin is hit where it is drawn, not at its true coordinate; frames draw it there,
    /// flagged SPREAD, with its anchor at the true coordinate, even when that coordinate is far
    /// outside the viewport.
    func testHitTestsAndFramesUseTheDrawnPositions() throws {
        let map = try makeMap()
        let n = 305
        for id in 0..<n { try map.add(id: Int64(id), lon: spot.lon, lat: spot.lat) }
        try map.add(id: 1000, lon: -118.3, lat: 33.95)
        let drawn = try map.displayPosition(id: 76)  // bearing 2π·76/305 ≈ 89.7°: 457 m east
        try map.setCamera(Camera(centerLon: drawn.lon, centerLat: drawn.lat, zoom: 19, width: 400, height: 300))
        XCTAssertEqual(try map.hitTest(x: 200, y: 150), 76)
        let centre = try map.toScreen(lon: spot.lon, lat: spot.lat)
        XCTAssertLessThan(centre.x, -1000, "the true coordinate is far off screen")
        let count = try map.frame(time: 0)
        let views = map.frameViews.prefix(count)
        let v = try XCTUnwrap(views.first { $0.id == 76 })
        XCTAssertEqual(v.x, 200, accuracy: 1e-6); XCTAssertEqual(v.y, 150, accuracy: 1e-6)
        XCTAssertEqual(v.anchorX, centre.x, accuracy: 1e-6); XCTAssertEqual(v.anchorY, centre.y, accuracy: 1e-6)
        XCTAssertEqual(v.flags.intersection(.spread), .spread)
        for w in views {
            XCTAssertTrue((70...82).contains(Int(w.id)), "only the ring's nearby pins are in view, got \(w.id)")
        }
        // Zoomed on the true coordinate, nothing is hit there: all 305 are drawn 457 m away.
        try map.setCamera(Camera(centerLon: spot.lon, centerLat: spot.lat, zoom: 19, width: 400, height: 300))
        XCTAssertNil(try map.hitTest(x: 200, y: 150))
        XCTAssertEqual(try map.frame(time: 1), 0)
    }

    /// Box queries find every pin whose drawn position is in the box (checked by brute force over
    /// all pins), for stacks of every size class, next to the antimeridian and far north, while
    /// rings grow and shrink.
    func testBoxQueriesFindEveryPinWhereItIsDrawn() throws {
        try checkBoxQueries(tolerance: 0)
        try checkBoxQueries(tolerance: 3)
    }

    /// The ring grid against a brute force over random extents (small, larger than `maxCells`
    /// cells, astride the antimeridian, at a pole), re-filed and removed at random, and random
    /// boxes from a tap to the whole world.
    func testRingGridReturnsEveryGroupWhoseExtentMeetsTheBox() {
        var rng = TestRng(state: 12)
        var grid = RingGrid()
        var extents: [Int32: GeoBox] = [:]
        func randomExtent() -> GeoBox {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-89, 89)
            let r = [1e-5, 4e-3, 2e-2, 0.3][rng.int(4)] * rng.uniform(0, 1)
            if rng.int(20) == 0 { return SpreadLayout.grownBox(GeoBox(minLon: lon, minLat: 89.99, maxLon: lon, maxLat: 89.99), meters: 3000) }
            let e = GeoBox(minLon: lon - r, minLat: lat - r, maxLon: lon + r, maxLat: lat + r)
            return rng.int(10) == 0 ? GeoBox(minLon: 179.995, minLat: lat - r, maxLon: 180.001 + r, maxLat: lat + r) : e
        }
        func parts(_ b: GeoBox) -> [GeoBox] { var p: [GeoBox] = []; b.split { p.append($0) }; return p }
        func meets(_ a: GeoBox, _ b: GeoBox) -> Bool {
            parts(a).contains { x in parts(b).contains { y in
                x.minLon <= y.maxLon && x.maxLon >= y.minLon && x.minLat <= y.maxLat && x.maxLat >= y.minLat } }
        }
        func mayBeWide(_ e: GeoBox) -> Bool {
            e.minLon < -180 || e.maxLon > 180 || e.minLat < -90 || e.maxLat > 90
                || (Int(floor(e.maxLon / RingGrid.cellDegrees)) - Int(floor(e.minLon / RingGrid.cellDegrees)) + 1)
                * (Int(floor(e.maxLat / RingGrid.cellDegrees)) - Int(floor(e.minLat / RingGrid.cellDegrees)) + 1) > RingGrid.maxCells
        }
        for step in 0..<4000 {
            let g = Int32(rng.int(300))
            switch rng.int(4) {
            case 0: grid.remove(g); extents[g] = nil
            case 1 where extents[g] != nil:
                // A ring one pin larger or smaller: its extent changes a little.
                let e = extents[g]!, d = rng.uniform(-2e-5, 2e-5)
                let f = GeoBox(minLon: e.minLon - d, minLat: e.minLat - d, maxLon: e.maxLon + d, maxLat: e.maxLat + d)
                if f.minLon <= f.maxLon { grid.file(g, extent: f); extents[g] = f }
            default: let e = randomExtent(); grid.file(g, extent: e); extents[g] = e
            }
            guard step % 10 == 0 else { continue }
            let pick = Array(extents.values)
            let c = pick.isEmpty ? GeoBox(minLon: 0, minLat: 0, maxLon: 0, maxLat: 0) : pick[rng.int(pick.count)]
            let half = [1e-4, 3e-3, 0.05, 2, 200][rng.int(5)] * rng.uniform(0, 1)
            let box = GeoBox(minLon: c.minLon - half, minLat: c.minLat - half, maxLon: c.minLon + half, maxLat: c.minLat + half)
            var got: [Int32] = []
            grid.query(box, into: &got)
            XCTAssertEqual(got.count, Set(got).count, "step \(step): a group returned twice")
            for (h, e) in extents where meets(e, box) {
                XCTAssertTrue(got.contains(h), "step \(step): group \(h) \(e) missing from \(box)")
            }
            for h in got {
                guard let e = extents[h] else { XCTFail("step \(step): group \(h) was removed"); continue }
                XCTAssertTrue(meets(e, box) || mayBeWide(e), "step \(step): group \(h) \(e) does not meet \(box)")
            }
        }
        XCTAssertEqual(grid.count, extents.count)
        // Boxes no drawn position can be in (NaN sides, inverted): no trap, and only the wide
        // groups, which every query returns.
        let wide = extents.filter { mayBeWide($0.value) }.count
        for bad in [GeoBox(minLon: .nan, minLat: 0, maxLon: 1, maxLat: 1), GeoBox(minLon: 0, minLat: .nan, maxLon: 1, maxLat: .nan),
                    GeoBox(minLon: 0, minLat: 5, maxLon: 1, maxLat: 4)] {
            var got: [Int32] = []
            grid.query(bad, into: &got)
            XCTAssertLessThanOrEqual(got.count, wide, "\(bad)")
        }
    }

    private func checkBoxQueries(tolerance: Double) throws {
        var rng = SystemRandomNumberGenerator()
        let map = try makeMap(tolerance: tolerance)
        let spots: [(Double, Double)] = [(179.9995, 10), (-179.9999, 10.001), (-118.35, 33.9), (-118.349, 33.9), (15, 78.5), (15.002, 78.5)]
        // With a tolerance, pins land up to 1.4 m from a spot: ring centres move as members change.
        func near(_ spot: (Double, Double)) -> (lon: Double, lat: Double) {
            tolerance == 0 ? (spot.0, spot.1)
                : oracleDestination(lon: spot.0, lat: spot.1, bearing: Double.random(in: 0..<6.3, using: &rng),
                                    meters: Double.random(in: 0..<1.4, using: &rng))
        }
        var next: Int64 = 0
        for (k, spot) in spots.enumerated() {
            let n = [300, 40, 9, 2, 130, 31][k]
            for _ in 0..<n { let p = near(spot); try map.add(id: next, lon: p.lon, lat: p.lat); next += 1 }
        }
        for round in 0..<6 {
            // Move a few pins between stacks: rings change size (and class).
            for _ in 0..<25 {
                let id = Int64.random(in: 0..<next, using: &rng)
                let p = near(spots.randomElement(using: &rng)!)
                try map.setPosition(id: id, lon: p.lon, lat: p.lat)
            }
            for _ in 0..<60 {
                let spot = spots.randomElement(using: &rng)!
                let half = Double.random(in: 1e-5..<5e-3, using: &rng)
                let cx = spot.0 + Double.random(in: -4e-3..<4e-3, using: &rng)
                let cy = spot.1 + Double.random(in: -4e-3..<4e-3, using: &rng)
                let box = GeoBox(minLon: cx - half, minLat: cy - half, maxLon: cx + half, maxLat: cy + half)
                var found: [Int32] = []
                map.drawnCandidates(box, into: &found)
                let got = Set(found)
                // The spreading room alone returns exactly its spread pins drawn in the box, once.
                var spreadFound: [Int32] = []
                map.spread.candidates(box, into: &spreadFound)
                XCTAssertEqual(spreadFound.count, Set(spreadFound).count, "a pin returned twice")
                var spreadWant: Set<Int32> = []
                for s in 0..<Int32(map.pins.capacity) where map.pins.isAlive(s) {
                    let p = map.drawnPosition(s)
                    var inside = false
                    box.split { b in
                        if p.lon >= b.minLon && p.lon <= b.maxLon && p.lat >= b.minLat && p.lat <= b.maxLat { inside = true }
                    }
                    if inside {
                        XCTAssertTrue(got.contains(s), "tolerance \(tolerance) round \(round): pin \(map.pins.id(s)) drawn at \(p) missing from \(box)")
                        if map.spread.isSpread(s) { spreadWant.insert(s) }
                    }
                }
                XCTAssertEqual(Set(spreadFound), spreadWant, "tolerance \(tolerance) round \(round) box \(box)")
            }
        }
    }

    /// The camera, or pins elsewhere, never change a ring.
    func testRingsAreStable() throws {
        let map = try makeMap(tolerance: 2)
        for id in 0..<7 { try map.add(id: Int64(id * 2), lon: spot.lon, lat: spot.lat) }
        let before = try (0..<7).map { try map.displayPosition(id: Int64($0 * 2)) }
        try map.setCamera(Camera(centerLon: 10, centerLat: 50, zoom: 3, bearingDeg: 33, width: 300, height: 200))
        _ = try map.frame(time: 0)
        _ = try map.hitTest(x: 10, y: 10)
        let elsewhere = oracleDestination(lon: spot.lon, lat: spot.lat, bearing: 0.5, meters: 40)
        for id in 100..<140 { try map.add(id: Int64(id), lon: elsewhere.lon, lat: elsewhere.lat) }
        try map.add(id: 1, lon: -118.2, lat: 33.8)
        try map.setPosition(id: 1, lon: -118.21, lat: 33.81)
        try map.remove(id: 101)
        let after = try (0..<7).map { try map.displayPosition(id: Int64($0 * 2)) }
        for k in 0..<7 {
            XCTAssertEqual(before[k].lon, after[k].lon); XCTAssertEqual(before[k].lat, after[k].lat)
        }
    }

    /// Removing pins from a stack shrinks its ring; the last one alone is drawn at its coordinate.
    func testRemovingPinsShrinksTheRing() throws {
        let map = try makeMap()
        for id in 0..<3 { try map.add(id: Int64(id), lon: spot.lon, lat: spot.lat) }
        try map.remove(id: 0)
        XCTAssertEqual(oracleDistance(try map.displayPosition(id: 2), spot), 3, accuracy: 1e-6)
        // id 1 is now first: bearing 0, due north.
        let d1 = try map.displayPosition(id: 1)
        XCTAssertGreaterThan(d1.lat, spot.lat); XCTAssertEqual(d1.lon, spot.lon, accuracy: 1e-12)
        try map.remove(id: 1)
        let d2 = try map.displayPosition(id: 2)
        XCTAssertEqual(d2.lon, spot.lon); XCTAssertEqual(d2.lat, spot.lat)
        XCTAssertEqual(map.spread.ringCount, 0)
    }
}

final class SpreadBatchTests: XCTestCase {
    func testOutMayAliasTheInput() throws {
        var buf: [Double] = [1, 2, 1, 2, 1, 2, 5, 6]
        let copy = buf
        var separate = [Double](repeating: 0, count: 8)
        try copy.withUnsafeBufferPointer { i in
            try separate.withUnsafeMutableBufferPointer { o in
                do { try SpreadRule.spread(lonlat: i, tolerance: 0, into: o) } catch { throw error }
            }
        }
        try buf.withUnsafeMutableBufferPointer { b in
            do { try SpreadRule.spread(lonlat: UnsafeBufferPointer(b), tolerance: 0, into: b) } catch { throw error }
        }
        XCTAssertEqual(buf, separate)
        XCTAssertEqual(Array(buf[6...]), [5, 6])
        XCTAssertNotEqual(buf[1], 2, "the first of three is drawn north of the spot")
    }

    func testBadInputWritesNothing() throws {
        let bad: [[Double]] = [[0, 0, .nan, 1], [0, 0, 181, 1], [0, 0, 1, -90.5], [.infinity, 0, 0, 0]]
        for input in bad {
            var out: [Double] = [7, 7, 7, 7]
            XCTAssertEqual(spreadStatus(input, 0, &out), .invalidArgument)
            XCTAssertEqual(out, [7, 7, 7, 7])
        }
        for tolerance in [-1.0, .nan, .infinity] {
            var out: [Double] = [7, 7, 7, 7]
            XCTAssertEqual(spreadStatus([0, 0, 0, 0], tolerance, &out), .invalidArgument)
            XCTAssertEqual(out, [7, 7, 7, 7])
        }
    }

    func testEmptyInputIsFine() throws {
        let none: [Double] = []
        var out: [Double] = []
        try none.withUnsafeBufferPointer { i in
            try out.withUnsafeMutableBufferPointer { o in
                do { try SpreadRule.spread(lonlat: i, tolerance: 2, into: o) } catch { throw error }
            }
        }
    }

    /// The grid search of the batch rule against a brute-force scan of every earlier first pin.
    func testToleranceGroupingMatchesABruteForceScan() throws {
        var rng = SystemRandomNumberGenerator()
        for (lon, lat) in [(179.99995, 0.0), (0.0, 89.9), (-60.0, -33.0)] {
            var pts: [(Double, Double)] = []
            for _ in 0..<600 {
                let p = oracleDestination(lon: lon, lat: lat, bearing: Double.random(in: 0..<6.3, using: &rng),
                                          meters: Double.random(in: 0..<25, using: &rng))
                pts.append((p.lon, p.lat))
            }
            let tolerance = 4.0
            var leaders: [Int] = [], groupOf: [Int] = []
            for (i, p) in pts.enumerated() {
                let g = leaders.firstIndex { oracleDistance(pts[$0], p) <= tolerance }
                if let g { groupOf.append(g) } else { groupOf.append(leaders.count); leaders.append(i) }
            }
            let got = try batch(pts, tolerance: tolerance)
            for g in leaders.indices {
                let m = pts.indices.filter { groupOf[$0] == g }
                guard m.count > 1 else {
                    XCTAssertEqual(got[m[0]].lon, pts[m[0]].0); continue
                }
                let base = pts[m[0]]
                let mean = (lon: base.0 + m.map { lonDiff(pts[$0].0, base.0) }.reduce(0, +) / Double(m.count),
                            lat: m.map { pts[$0].1 }.reduce(0, +) / Double(m.count))
                for (k, i) in m.enumerated() {
                    let want = oracleDestination(lon: mean.lon, lat: mean.lat, bearing: 2 * Double.pi * Double(k) / Double(m.count),
                                                 meters: 1.5 * Double(m.count))
                    XCTAssertEqual(lonDiff(got[i].lon, want.lon), 0, accuracy: 1e-9, "near (\(lon), \(lat)) point \(i)")
                    XCTAssertEqual(got[i].lat, want.lat, accuracy: 1e-9)
                }
            }
        }
    }
}

final class SpreadMembershipTests: XCTestCase {
    /// The sparse group/rank table against a dictionary over random sets, updates and removals of
    /// slots (runs of neighbouring slots, as a stack's members are, and scattered ones), through
    /// the table's growth and many backward-shift deletions.
    func testMembershipAgreesWithADictionary() {
        var rng = TestRng(state: 5)
        var table = Membership()
        var oracle: [Int32: (Int32, Int32)] = [:]
        for step in 0..<60_000 {
            let s = Int32(rng.int(4) == 0 ? rng.int(1 << 20) : 5000 + rng.int(3000))
            if rng.int(3) == 0 {
                table.remove(s); oracle[s] = nil
            } else {
                let v = (Int32(rng.int(1000)), Int32(rng.int(400)))
                table.set(s, group: v.0, rank: v.1); oracle[s] = v
            }
            guard step % 1000 == 0 else { continue }
            XCTAssertEqual(table.count, oracle.count)
            for (k, v) in oracle {
                XCTAssertTrue(table.contains(k))
                XCTAssertTrue(table.get(k)! == v, "step \(step) slot \(k)")
            }
            for _ in 0..<200 {
                let k = Int32(rng.int(1 << 20))
                XCTAssertEqual(table.contains(k), oracle[k] != nil)
            }
        }
    }
}
