import XCTest
import PindropCore
import PindropTestSupport
@testable import PindropIndex

/// The GEOS index must answer exactly as the brute-force index under any sequence of changes,
/// in particular changes made after its tree was queried (GEOS 3.11 drops inserts into a built
/// tree), and across every rebuild of its tiers.
final class GEOSPointIndexTests: XCTestCase {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() >> 11) / Double(1 << 53) }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    func makeIndex(tail: Int, small: Int) -> GEOSPointIndex {
        let index = GEOSFactory().makeIndex() as! GEOSPointIndex
        index.tailLimit = tail
        index.smallLimit = small
        return index
    }

    func sorted(_ index: SpatialIndex, _ box: GeoBox) -> [Int32] {
        var out: [Int32] = []
        index.query(box, into: &out)
        return out.sorted()
    }

    func randomBox(_ rng: inout Rng) -> GeoBox {
        switch rng.int(6) {
        case 0: return GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)  // everything
        case 1:  // a degenerate box: a single point, edges included
            let x = Double(rng.int(21)) / 10 - 1, y = Double(rng.int(21)) / 10 - 1
            return GeoBox(minLon: x, minLat: y, maxLon: x, maxLat: y)
        default:
            let x = rng.uniform(-1.2, 1.2), y = rng.uniform(-1.2, 1.2)
            return GeoBox(minLon: x, minLat: y, maxLon: x + rng.uniform(0, 0.6), maxLat: y + rng.uniform(0, 0.6))
        }
    }

    /// A position on a coarse grid half the time, so that points share coordinates and sit
    /// exactly on box edges.
    func randomPoint(_ rng: inout Rng) -> (Double, Double) {
        if rng.int(2) == 0 { return (Double(rng.int(21)) / 10 - 1, Double(rng.int(21)) / 10 - 1) }
        return (rng.uniform(-1, 1), rng.uniform(-1, 1))
    }

    /// Runs a long random sequence of bulk loads, sets, removals and queries on both indexes.
    func runAgainstBruteForce(seed: UInt64, tail: Int, small: Int, steps: Int, slots: Int) {
        var rng = Rng(state: seed)
        let geos = makeIndex(tail: tail, small: small)
        let brute = BruteForceIndex()
        var alive = Set<Int32>()
        var queries = 0
        for step in 0..<steps {
            switch rng.int(100) {
            case 0..<3:  // a bulk load (before or after queries)
                // Half of them only bring new slots (what a map does); the others also move
                // slots that are already there.
                let onlyNew = rng.int(2) == 0
                var ss: [Int32] = [], xs: [Double] = [], ys: [Double] = [], seen = Set<Int32>()
                for _ in 0..<rng.int(min(3 * tail, slots) + 2) {
                    let s = Int32(rng.int(slots))
                    if (onlyNew && alive.contains(s)) || !seen.insert(s).inserted { continue }
                    let p = randomPoint(&rng)
                    ss.append(s); xs.append(p.0); ys.append(p.1)
                }
                geos.insert(slots: ss, lon: xs, lat: ys); brute.insert(slots: ss, lon: xs, lat: ys)
                alive.formUnion(ss)
            case 3..<45:  // set: add a slot or move it (slot reuse after removal included)
                let s = Int32(rng.int(slots)), p = randomPoint(&rng)
                geos.set(s, lon: p.0, lat: p.1); brute.set(s, lon: p.0, lat: p.1)
                alive.insert(s)
            case 45..<60:
                let s = Int32(rng.int(slots))
                geos.remove(s); brute.remove(s)  // removing a slot that is not there is a no-op
                alive.remove(s)
            case 60..<61:
                geos.removeAll(); brute.removeAll(); alive.removeAll()
            default:
                let box = randomBox(&rng)
                let got = sorted(geos, box), want = sorted(brute, box)
                if got != want {
                    XCTFail("seed \(seed) step \(step): \(box) gave \(got.count) slots, brute force \(want.count)")
                    return
                }
                queries += 1
            }
        }
        XCTAssertGreaterThan(queries, steps / 4)
        XCTAssertEqual(sorted(geos, GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)), alive.sorted())
    }

    func testTinyTiersRebuildConstantly() {
        runAgainstBruteForce(seed: 1, tail: 2, small: 5, steps: 20_000, slots: 60)
    }

    func testSmallTiers() {
        runAgainstBruteForce(seed: 2, tail: 8, small: 40, steps: 20_000, slots: 400)
    }

    func testDefaultTiers() {
        runAgainstBruteForce(seed: 3, tail: GEOSPointIndex.defaultTailLimit, small: GEOSPointIndex.defaultSmallLimit,
                             steps: 3000, slots: 2000)
    }

    func testManySeeds() {
        for seed in 10..<30 { runAgainstBruteForce(seed: UInt64(seed), tail: 1 + seed % 7, small: 3 + seed % 23, steps: 2000, slots: 80) }
    }

    /// The GEOS fact the design rests on: a point set after the first query is still found,
    /// and a moved point is found only at its new place.
    func testChangesAfterTheFirstQueryAreSeen() {
        let index = makeIndex(tail: 64, small: 16384)
        let n = 100
        index.insert(slots: (0..<Int32(n)).map { $0 }, lon: (0..<n).map { Double($0) / 100 }, lat: Array(repeating: 0, count: n))
        let all = GeoBox(minLon: -1, minLat: -1, maxLon: 2, maxLat: 1)
        XCTAssertEqual(sorted(index, all).count, 100)  // this query builds the GEOS tree
        index.set(100, lon: 0.5, lat: 0.5)             // a new point after the build
        index.set(3, lon: 1.5, lat: 0.5)               // a moved point
        XCTAssertEqual(sorted(index, all).count, 101)
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.45, minLat: 0.45, maxLon: 0.55, maxLat: 0.55)), [100])
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.025, minLat: -0.1, maxLon: 0.035, maxLat: 0.1)), [])
        XCTAssertEqual(sorted(index, GeoBox(minLon: 1.4, minLat: 0.4, maxLon: 1.6, maxLat: 0.6)), [3])
        // Enough changes to overflow the tail many times and rebuild the small tree and main.
        index.tailLimit = 4; index.smallLimit = 20
        for i in 0..<200 { index.set(Int32(i % 101), lon: Double(i) / 200, lat: 0.25) }
        XCTAssertGreaterThan(index.smallRebuilds, 0)
        XCTAssertGreaterThan(index.mainRebuilds, 0)
        XCTAssertEqual(sorted(index, all).count, 101)
        XCTAssertEqual(sorted(index, GeoBox(minLon: -1, minLat: 0.2, maxLon: 2, maxLat: 0.3)).count, 101)
    }

    func testRemovedSlotsAreNotReportedAndCanBeReused() {
        let index = makeIndex(tail: 3, small: 10)
        index.insert(slots: [0, 1, 2, 3, 4, 5], lon: [0, 0, 0, 1, 1, 1], lat: [0, 0, 0, 1, 1, 1])
        let all = GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)
        XCTAssertEqual(sorted(index, all), [0, 1, 2, 3, 4, 5])
        index.remove(1); index.remove(4)
        XCTAssertEqual(sorted(index, all), [0, 2, 3, 5])
        index.set(1, lon: 1, lat: 1)  // slot 1 reused at slot 4's old place
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.5, minLat: 0.5, maxLon: 1.5, maxLat: 1.5)), [1, 3, 5])
        XCTAssertEqual(sorted(index, GeoBox(minLon: -0.5, minLat: -0.5, maxLon: 0.5, maxLat: 0.5)), [0, 2])
        index.removeAll()
        XCTAssertEqual(sorted(index, all), [])
        index.set(9, lon: 3, lat: 3)
        XCTAssertEqual(sorted(index, all), [9])
    }
}
