import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

final class SpreadRingOracleTests: XCTestCase {
    let centres: [(String, Double, Double)] = [
        ("equator", 12.5, 0), ("34N", -118.35259, 33.90054), ("60N", 24.9384, 60.1699),
        ("45S", 170.5036, -45.8788), ("antimeridian east", 179.99999, -16.5), ("antimeridian west", -179.999995, 52.2),
    ]

    func testRingsMatchAnIndependentDestinationFormula() throws {
        for (name, lon, lat) in centres {
            for n in [2, 3, 5, 12, 305] {
                let map = try makeMap()
                // Added in a scrambled order: the ring is ordered by id, not by arrival.
                let ids = (0..<n).map { Int64(($0 * 7919) % n) * 3 - 40 }
                for id in ids { try map.add(id: id, lon: lon, lat: lat) }
                let sorted = ids.sorted()
                let drawnByBatch = try batch(Array(repeating: (lon, lat), count: n), tolerance: 0)
                for (i, id) in sorted.enumerated() {
                    let want = oracleDestination(lon: lon, lat: lat, bearing: 2 * Double.pi * Double(i) / Double(n),
                                                 meters: 1.5 * Double(n))
                    let got = try map.displayPosition(id: id)
                    XCTAssertEqual(lonDiff(got.lon, want.lon), 0, accuracy: 1e-9, "\(name) n=\(n) i=\(i) lon")
                    XCTAssertEqual(got.lat, want.lat, accuracy: 1e-9, "\(name) n=\(n) i=\(i) lat")
                    XCTAssertTrue(got.lon >= -180 && got.lon <= 180, "\(name): drawn longitude \(got.lon) is normalised")
                    XCTAssertEqual(oracleDistance(got, (lon, lat)), 1.5 * Double(n), accuracy: 1e-6)
                    // The batch function draws the same ring, bit for bit.
                    XCTAssertEqual(drawnByBatch[i].lon, got.lon, "\(name) n=\(n) i=\(i)")
                    XCTAssertEqual(drawnByBatch[i].lat, got.lat)
                    // The true coordinate never changes.
                    let t = try map.position(id: id)
                    XCTAssertEqual(t.lon, lon); XCTAssertEqual(t.lat, lat)
                    XCTAssertEqual(map.flags(try map.slot(id)).intersection(.spread), .spread)
                }
            }
        }
    }

    func testALonePinStaysExactlyPut() throws {
        let map = try makeMap(tolerance: 5)
        try map.add(id: 1, lon: -118.35259236902644, lat: 33.900539810736184)
        try map.add(id: 2, lon: -118.3, lat: 33.9)
        let d = try map.displayPosition(id: 1)
        XCTAssertEqual(d.lon, -118.35259236902644); XCTAssertEqual(d.lat, 33.900539810736184)
        XCTAssertEqual(map.flags(try map.slot(1)).intersection(.spread), [])
        let b = try batch([(-118.35259236902644, 33.900539810736184)], tolerance: 0)
        XCTAssertEqual(b[0].lon, -118.35259236902644); XCTAssertEqual(b[0].lat, 33.900539810736184)
    }

    func testSpreadingOffDrawsPinsAtTheirCoordinate() throws {
        let map = try makeMap(mode: .off)
        for id in 0..<4 { try map.add(id: Int64(id), lon: 2.35, lat: 48.85) }
        for id in 0..<4 {
            let d = try map.displayPosition(id: Int64(id))
            XCTAssertEqual(d.lon, 2.35); XCTAssertEqual(d.lat, 48.85)
        }
    }
}

final class SpreadGroupingTests: XCTestCase {
    /// Points 1.5 m apart along a parallel, tolerance 2 m: 0 starts a group, 1 joins it, 2 is 3 m
    /// from 0 and starts the next, and so on. Nothing chains into one long group.
    func testAChainOfPinsDoesNotChain() throws {
        let lat = 34.05, lon0 = -118.25
        var points: [(Double, Double)] = []
        for i in 0..<10 {
            let p = oracleDestination(lon: lon0, lat: lat, bearing: Double.pi / 2, meters: 1.5 * Double(i))
            points.append((p.lon, p.lat))
        }
        // Pins added one by one in id order, and a bulk add listing them backwards: both group as
        // the batch rule does.
        let map = try makeMap(tolerance: 2)
        for (i, p) in points.enumerated() { try map.add(id: Int64(i), lon: p.0, lat: p.1) }
        let bulk = try makeMap(tolerance: 2)
        let ids = (0..<10).reversed().map { Int64($0) }
        let flat = ids.flatMap { [points[Int($0)].0, points[Int($0)].1] }
        try ids.withUnsafeBufferPointer { i in try flat.withUnsafeBufferPointer { f in try bulk.addMany(ids: i, lonlat: f) } }
        let b = try batch(points, tolerance: 2)
        for pair in stride(from: 0, to: 10, by: 2) {
            let a = points[pair], c = points[pair + 1]
            let mid = (lon: (a.0 + c.0) / 2, lat: (a.1 + c.1) / 2)
            for k in 0..<2 {
                let want = oracleDestination(lon: mid.lon, lat: mid.lat, bearing: Double.pi * Double(k), meters: 3)
                let got = try map.displayPosition(id: Int64(pair + k))
                XCTAssertEqual(got.lon, want.lon, accuracy: 1e-9, "pin \(pair + k)")
                XCTAssertEqual(got.lat, want.lat, accuracy: 1e-9, "pin \(pair + k)")
                let g = try bulk.displayPosition(id: Int64(pair + k))
                XCTAssertEqual(g.lon, got.lon); XCTAssertEqual(g.lat, got.lat)
                XCTAssertEqual(b[pair + k].lon, want.lon, accuracy: 1e-9, "batch pin \(pair + k)")
                XCTAssertEqual(b[pair + k].lat, want.lat, accuracy: 1e-9, "batch pin \(pair + k)")
            }
        }
    }

    /// The same chain added one pin at a time from the far end: each new pin comes first among
    /// its neighbours and re-forms only the group it joins. The groups differ from the batch
    /// rule's (see docs/spreading.md), but still nothing chains: every group lies within the
    /// tolerance of its first pin, and its pins are drawn on its ring.
    func testAChainAddedBackwardsStillDoesNotChain() throws {
        let map = try makeMap(tolerance: 2)
        var points: [(lon: Double, lat: Double)] = []
        for i in 0..<10 { points.append(oracleDestination(lon: -118.25, lat: 34.05, bearing: Double.pi / 2, meters: 1.5 * Double(i))) }
        for i in (0..<10).reversed() { try map.add(id: Int64(i), lon: points[i].lon, lat: points[i].lat) }
        var grouped = 0
        for g in map.spread.members where !g.isEmpty {
            XCTAssertLessThanOrEqual(g.count, 2)
            let first = map.pins.position(g[0])
            for s in g { XCTAssertLessThanOrEqual(oracleDistance(map.pins.position(s), first), 2) }
            if g.count == 2 { grouped += 1 }
        }
        XCTAssertGreaterThanOrEqual(grouped, 1)
        // 0 and 1 came last and pair up, drawn 3 m either side of their midpoint.
        let mid = (lon: (points[0].lon + points[1].lon) / 2, lat: (points[0].lat + points[1].lat) / 2)
        XCTAssertEqual(oracleDistance(try map.displayPosition(id: 0), mid), 3, accuracy: 1e-6)
        XCTAssertEqual(oracleDistance(try map.displayPosition(id: 1), mid), 3, accuracy: 1e-6)
    }

    /// A pin within the tolerance of two groups' first pins joins the one with the lower id.
    func testAPinJoinsTheLowestIdFirstPinWithinTolerance() throws {
        let a = (lon: 10.0, lat: 50.0)
        let b = oracleDestination(lon: a.lon, lat: a.lat, bearing: Double.pi / 2, meters: 3)
        let p = oracleDestination(lon: a.lon, lat: a.lat, bearing: Double.pi / 2, meters: 1.6)
        let map = try makeMap(tolerance: 2)
        try map.add(id: 20, lon: b.lon, lat: b.lat)
        try map.add(id: 10, lon: a.lon, lat: a.lat)
        try map.add(id: 30, lon: p.lon, lat: p.lat)
        // 30 is 1.6 m from 10 and 1.4 m from 20: it joins 10's group; 20 stays alone.
        let d20 = try map.displayPosition(id: 20)
        XCTAssertEqual(d20.lon, b.lon); XCTAssertEqual(d20.lat, b.lat)
        XCTAssertNotEqual(try map.displayPosition(id: 30).lon, p.lon)
        let s10 = try map.slot(10), s30 = try map.slot(30)
        XCTAssertNotNil(map.spread.membership.group(s10))
        XCTAssertEqual(map.spread.membership.group(s10), map.spread.membership.group(s30))
    }

    /// A(5), B(7) 1.5 m east of A, C(3) 1.5 m east of B, tolerance 2 m: the batch rule takes C
    /// first, so B joins C and A stays alone, in whatever order the pins arrive or move.
    func testToleranceGroupsDoNotDependOnTheOrderOfAdds() throws {
        let east = 1.5 / (Sphere.radius * cos(40 * Double.pi / 180)) * 180 / Double.pi
        let a = (lon: 10.0, lat: 40.0), b = (lon: 10.0 + east, lat: 40.0), c = (lon: 10.0 + 2 * east, lat: 40.0)
        let want = try batch([(c.lon, c.lat), (a.lon, a.lat), (b.lon, b.lat)], tolerance: 2)  // ids 3, 5, 7
        XCTAssertTrue(want[1] == a, "A alone stays put")
        let orders: [[Int64]] = [[5, 7, 3], [5, 3, 7], [7, 5, 3], [7, 3, 5], [3, 5, 7], [3, 7, 5]]
        let at: [Int64: (lon: Double, lat: Double)] = [5: a, 7: b, 3: c]
        for order in orders {
            let map = try makeMap(tolerance: 2)
            for id in order { try map.add(id: id, lon: at[id]!.lon, lat: at[id]!.lat) }
            for (k, id) in [Int64(3), 5, 7].enumerated() {
                XCTAssertTrue(try map.displayPosition(id: id) == want[k], "order \(order) id \(id)")
            }
            // The same after a move away and back, and after a removal and a re-add.
            try map.setPosition(id: order[0], lon: 20, lat: 0)
            try map.setPosition(id: order[0], lon: at[order[0]]!.lon, lat: at[order[0]]!.lat)
            try map.remove(id: order[1])
            try map.add(id: order[1], lon: at[order[1]]!.lon, lat: at[order[1]]!.lat)
            for (k, id) in [Int64(3), 5, 7].enumerated() {
                XCTAssertTrue(try map.displayPosition(id: id) == want[k], "order \(order) after edits, id \(id)")
            }
        }
        // A bulk add in any order agrees too.
        let map = try makeMap(tolerance: 2)
        try map.add(id: 5, lon: a.lon, lat: a.lat)
        let ids: [Int64] = [7, 3], ll = [b.lon, b.lat, c.lon, c.lat]
        try ids.withUnsafeBufferPointer { i in
            try ll.withUnsafeBufferPointer { l in do { try map.addMany(ids: i, lonlat: l) } catch { throw error } }
        }
        for (k, id) in [Int64(3), 5, 7].enumerated() {
            XCTAssertTrue(try map.displayPosition(id: id) == want[k], "bulk, id \(id)")
        }
    }

    /// With a tolerance, random histories of adds, moves and removals over a few close spots (so
    /// that groups overlap and pins change leaders) always agree with the batch rule.
    func testToleranceGroupsFollowAnyHistoryAndMatchTheBatchRule() throws {
        let m: Double = 1.0 / Sphere.radius * 180 / Double.pi
        var spots: [(Double, Double)] = [(179.99999, 0), (-180, 0), (180, 0)]
        for k in 0..<8 {
            let lon: Double = 10 + Double(k) * 1.2 * m, lat: Double = 40 + Double(k % 3) * 0.7 * m
            spots.append((lon, lat))
        }
        try checkRandomHistory(tolerance: 2, spots: spots, ids: 40, every: 25)
    }

    /// With tolerance 0 the groups are the sets of equal coordinates whatever the history, so the
    /// map always agrees with the batch rule over its pins in id order.
    func testExactGroupsFollowAnyHistoryAndMatchTheBatchRule() throws {
        let spots: [(Double, Double)] = [(-118.3, 33.9), (-118.31, 33.9), (179.9999, 0), (-180, 0), (180, 0), (0, -0.0), (-0.0, 0)]
        try checkRandomHistory(tolerance: 0, spots: spots, ids: 60, every: 50)
    }

    /// 1500 random adds, moves and removals of `ids` pins over `spots`; every `every` steps the
    /// map's drawn positions must equal the batch rule over its pins in id order, bit for bit.
    private func checkRandomHistory(tolerance: Double, spots: [(Double, Double)], ids: Int64, every: Int) throws {
        var rng = SystemRandomNumberGenerator()
        let map = try makeMap(tolerance: tolerance)
        var alive: Set<Int64> = []
        for step in 0..<1500 {
            let id = Int64.random(in: 0..<ids, using: &rng)
            let spot = spots[Int.random(in: 0..<spots.count, using: &rng)]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where !alive.contains(id):
                try map.add(id: id, lon: spot.0, lat: spot.1); alive.insert(id)
            case 1 where alive.contains(id):
                try map.setPosition(id: id, lon: spot.0, lat: spot.1)
            case 2 where alive.contains(id):
                try map.remove(id: id); alive.remove(id)
            default:
                continue
            }
            if step % every != 0 { continue }
            let sorted = alive.sorted()
            let pts = try sorted.map { id -> (Double, Double) in let p = try map.position(id: id); return (p.lon, p.lat) }
            let want = try batch(pts, tolerance: tolerance)
            for (k, id) in sorted.enumerated() {
                let got = try map.displayPosition(id: id)
                XCTAssertEqual(got.lon, want[k].lon, "step \(step) id \(id)")
                XCTAssertEqual(got.lat, want[k].lat, "step \(step) id \(id)")
            }
        }
    }

    /// Tolerance 0 with bulk adds: batches of every size (so that a batch is grouped both against a
    /// map it outnumbers and against one much larger than itself), listed in any order, landing on
    /// spots that are empty, hold a lone pin or hold a ring, mixed with single adds, moves and
    /// removals. The map agrees with the batch rule over its pins in id order after every step.
    func testExactBulkAddsFollowAnyHistoryAndMatchTheBatchRule() throws {
        var rng = SystemRandomNumberGenerator()
        let spots: [(Double, Double)] = [(-118.3, 33.9), (-118.31, 33.9), (179.9999, 0), (-180, 0), (180, 0), (0, -0.0),
                                         (-0.0, 0), (12.5, 45.25), (-70.1, -33.4)]
        for _ in 0..<4 {
            let map = try makeMap()
            var alive: Set<Int64> = []
            var bulkSpread = 0
            for step in 0..<300 {
                let action = Int.random(in: 0..<5, using: &rng)
                if action <= 1 {
                    // A batch of 1 to 40 new pins, some on a spot, some alone, in shuffled order.
                    let size = action == 0 ? Int.random(in: 1...3, using: &rng) : Int.random(in: 1...40, using: &rng)
                    var ids: [Int64] = []
                    while ids.count < size {
                        let id = Int64.random(in: -3000..<3000, using: &rng)
                        if !alive.contains(id) && !ids.contains(id) { ids.append(id) }
                    }
                    var flat: [Double] = []
                    for _ in ids {
                        if Int.random(in: 0..<4, using: &rng) == 0 {
                            flat += [Double.random(in: -179..<179, using: &rng), Double.random(in: -80..<80, using: &rng)]
                        } else {
                            let spot = spots[Int.random(in: 0..<spots.count, using: &rng)]
                            flat += [spot.0, spot.1]
                        }
                    }
                    try ids.withUnsafeBufferPointer { i in try flat.withUnsafeBufferPointer { f in try map.addMany(ids: i, lonlat: f) } }
                    alive.formUnion(ids)
                } else if action == 2, let id = alive.randomElement(using: &rng) {
                    let spot = spots[Int.random(in: 0..<spots.count, using: &rng)]
                    try map.setPosition(id: id, lon: spot.0, lat: spot.1)
                } else if action == 3, let id = alive.randomElement(using: &rng) {
                    try map.remove(id: id); alive.remove(id)
                } else {
                    let id = Int64.random(in: -3000..<3000, using: &rng)
                    guard !alive.contains(id) else { continue }
                    let spot = spots[Int.random(in: 0..<spots.count, using: &rng)]
                    try map.add(id: id, lon: spot.0, lat: spot.1); alive.insert(id)
                }
                let ids = alive.sorted()
                let pts = try ids.map { id -> (Double, Double) in let p = try map.position(id: id); return (p.lon, p.lat) }
                let want = try batch(pts, tolerance: 0)
                for (k, id) in ids.enumerated() {
                    let got = try map.displayPosition(id: id)
                    XCTAssertEqual(got.lon.bitPattern, want[k].lon.bitPattern, "step \(step) id \(id)")
                    XCTAssertEqual(got.lat.bitPattern, want[k].lat.bitPattern, "step \(step) id \(id)")
                    if got.lon != pts[k].0 || got.lat != pts[k].1 { bulkSpread += 1 }
                }
                // Every spread pin is in exactly the group its membership names, at its rank.
                let spreadPins = try alive.filter { map.spread.isSpread(try map.slot($0)) }
                XCTAssertEqual(map.spread.members.reduce(0) { $0 + $1.count }, spreadPins.count, "every pin in one group")
                for id in spreadPins {
                    let s = try map.slot(id), (g, r) = map.spread.membership.get(s)!
                    XCTAssertEqual(map.spread.members[Int(g)][Int(r)], s)
                }
            }
            XCTAssertGreaterThan(bulkSpread, 1000)
        }
    }

    /// A bulk add groups in ascending id order, whatever order the batch lists the pins in: the
    /// map then equals the batch rule exactly, also with a tolerance.
    func testBulkAddEqualsTheBatchRuleWithTolerance() throws {
        var rng = SystemRandomNumberGenerator()
        var pts: [(Double, Double)] = []
        for _ in 0..<2000 {
            // Clustered points: 40 spots, each point within ~5 m of its spot.
            let spot = Double(Int.random(in: 0..<40, using: &rng))
            let p = oracleDestination(lon: -118.4 + spot * 1e-3, lat: 34.09, bearing: Double.random(in: 0..<6.28, using: &rng),
                                      meters: Double.random(in: 0..<5, using: &rng))
            pts.append(Bool.random(using: &rng) ? p : (-118.4 + spot * 1e-3, 34.09))
        }
        let map = try makeMap(tolerance: 3)
        let order = Array(0..<pts.count).shuffled(using: &rng)
        let ids = order.map { Int64($0) }
        let flat = order.flatMap { [pts[$0].0, pts[$0].1] }
        try ids.withUnsafeBufferPointer { i in
            try flat.withUnsafeBufferPointer { f in try map.addMany(ids: i, lonlat: f) }
        }
        let want = try batch(pts, tolerance: 3)
        var spreadCount = 0
        for k in 0..<pts.count {
            let got = try map.displayPosition(id: Int64(k))
            XCTAssertEqual(got.lon, want[k].lon, "id \(k)"); XCTAssertEqual(got.lat, want[k].lat, "id \(k)")
            if got.lon != pts[k].0 || got.lat != pts[k].1 { spreadCount += 1 }
        }
        XCTAssertGreaterThan(spreadCount, 1900)
    }

    /// Every member of every group is within the tolerance of its group's first pin, after any
    /// history of adds, moves and removes (no chaining, ever).
    func testNoMemberIsFartherThanTheToleranceFromItsFirstPin() throws {
        var rng = SystemRandomNumberGenerator()
        let map = try makeMap(tolerance: 4)
        var alive: Set<Int64> = []
        func somewhere() -> (lon: Double, lat: Double) {
            oracleDestination(lon: 5, lat: 45, bearing: Double.random(in: 0..<6.3, using: &rng),
                              meters: Double.random(in: 0..<12, using: &rng))
        }
        for _ in 0..<3000 {
            let id = Int64.random(in: 0..<80, using: &rng)
            let p = somewhere()
            if !alive.contains(id) { try map.add(id: id, lon: p.lon, lat: p.lat); alive.insert(id) }
            else if Bool.random(using: &rng) { try map.setPosition(id: id, lon: p.lon, lat: p.lat) }
            else { try map.remove(id: id); alive.remove(id) }
        }
        var seen = 0
        for g in map.spread.members.indices where !map.spread.members[g].isEmpty {
            let m = map.spread.members[g]
            let ids = m.map { map.pins.id($0) }
            XCTAssertEqual(ids, ids.sorted(), "members in id order")
            let first = map.pins.position(m[0])
            for s in m {
                XCTAssertEqual(map.spread.membership.group(s), Int32(g))
                XCTAssertLessThanOrEqual(oracleDistance(map.pins.position(s), first), 4 + 1e-9)
                seen += 1
            }
        }
        let alone = try alive.filter { !map.spread.isSpread(try map.slot($0)) }
        XCTAssertEqual(seen + alone.count, alive.count, "every pin is in exactly one group")
        XCTAssertEqual(map.spread.membership.count, seen)
    }
}
