import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The great-circle destination written independently of the library: rotate the unit vector of
/// the start point towards the tangent direction of the bearing by the angular distance.
private func oracleDestination(lon: Double, lat: Double, bearing: Double, meters: Double) -> (lon: Double, lat: Double) {
    let r = 6378137.0, rad = Double.pi / 180
    let phi = lat * rad, lam = lon * rad
    let p = (cos(phi) * cos(lam), cos(phi) * sin(lam), sin(phi))
    let north = (-sin(phi) * cos(lam), -sin(phi) * sin(lam), cos(phi))
    let east = (-sin(lam), cos(lam), 0.0)
    let t = (north.0 * cos(bearing) + east.0 * sin(bearing),
             north.1 * cos(bearing) + east.1 * sin(bearing),
             north.2 * cos(bearing) + east.2 * sin(bearing))
    let d = meters / r
    let q = (p.0 * cos(d) + t.0 * sin(d), p.1 * cos(d) + t.1 * sin(d), p.2 * cos(d) + t.2 * sin(d))
    return (atan2(q.1, q.0) / rad, atan2(q.2, (q.0 * q.0 + q.1 * q.1).squareRoot()) / rad)
}

/// Great-circle distance by the spherical law of cosines on unit vectors (not the library's haversine).
private func oracleDistance(_ a: (lon: Double, lat: Double), _ b: (lon: Double, lat: Double)) -> Double {
    let rad = Double.pi / 180
    func v(_ p: (lon: Double, lat: Double)) -> (Double, Double, Double) {
        (cos(p.lat * rad) * cos(p.lon * rad), cos(p.lat * rad) * sin(p.lon * rad), sin(p.lat * rad))
    }
    let x = v(a), y = v(b)
    let cross = (x.1 * y.2 - x.2 * y.1, x.2 * y.0 - x.0 * y.2, x.0 * y.1 - x.1 * y.0)
    let s = (cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot()
    return 6378137.0 * atan2(s, x.0 * y.0 + x.1 * y.1 + x.2 * y.2)
}

/// Longitude difference folded into [-180, 180].
private func lonDiff(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d < -180 { d += 360 }
    return d
}

private func makeMap(tolerance: Double = 0, mode: Options.SpreadMode = .ring) throws -> Map {
    var o = Options()
    o.spreadToleranceM = tolerance
    o.spreadMode = mode
    return try Map(options: o, factory: BruteForceFactory())
}

/// Runs the batch rule on pairs (lon, lat).
private func batch(_ points: [(Double, Double)], tolerance: Double) throws -> [(lon: Double, lat: Double)] {
    let flat = points.flatMap { [$0.0, $0.1] }
    var out = [Double](repeating: .nan, count: flat.count)
    try flat.withUnsafeBufferPointer { i in
        try out.withUnsafeMutableBufferPointer { o in
            do { try SpreadRule.spread(lonlat: i, tolerance: tolerance, into: o) } catch { throw error }
        }
    }
    return (0..<points.count).map { (out[2 * $0], out[2 * $0 + 1]) }
}

/// The status of the batch rule on `input` (.ok when it succeeds).
private func spreadStatus(_ input: [Double], _ tolerance: Double, _ out: inout [Double]) -> Status {
    input.withUnsafeBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in
            do throws(PindropError) { try SpreadRule.spread(lonlat: i, tolerance: tolerance, into: o); return .ok } catch { return error.status }
        }
    }
}

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
