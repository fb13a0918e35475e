import XCTest
import PindropCore
import PindropTestSupport
@testable import PindropGEOSIndex

/// The GEOS index must answer exactly as the brute-force index under any sequence of changes,
/// in particular changes made after a leaf's tree was queried (GEOS 3.11 drops inserts into a
/// built tree), and across every rebuild and split of its leaves.
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

    func makeIndex(leaf: Int, pending: Int, slice: Int = GEOSPointIndex.defaultSliceInserts) -> GEOSPointIndex {
        let index = try! GEOSFactory().makeIndex() as! GEOSPointIndex
        index.leafCapacity = leaf
        index.pendingLimit = pending
        index.sliceInserts = slice
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

    /// A point near (x, y): a small step, or the nearest multiple of a power-of-two fraction of
    /// the world (180 / 2^k degrees), which is where the quadtree's cells meet, so that a moved
    /// point lands on a cell's edge from either side.
    func smallMove(_ x: Double, _ y: Double, _ rng: inout Rng) -> (Double, Double) {
        if rng.int(2) == 0 { return (x + rng.uniform(-0.02, 0.02), y + rng.uniform(-0.02, 0.02)) }
        let m = 180 / Double(1 << (4 + rng.int(12)))
        return ((x / m).rounded() * m, rng.int(2) == 0 ? y : (y / m).rounded() * m)
    }

    /// Runs a long random sequence of bulk loads, sets, removals and queries on both indexes.
    @discardableResult
    func runAgainstBruteForce(seed: UInt64, leaf: Int, pending: Int, slice: Int = 1, steps: Int, slots: Int) -> GEOSPointIndex {
        var rng = Rng(state: seed)
        let geos = makeIndex(leaf: leaf, pending: pending, slice: slice)
        let brute = BruteForceIndex()
        var alive = Set<Int32>()
        var at: [Int32: (Double, Double)] = [:]  // where each slot was set (bulk loads leave it out)
        var queries = 0
        for step in 0..<steps {
            switch rng.int(100) {
            case 0..<3:  // a bulk load (before or after queries)
                // Half of them only bring new slots (what a map does); the others also move
                // slots that are already there.
                let onlyNew = rng.int(2) == 0
                var ss: [Int32] = [], xs: [Double] = [], ys: [Double] = [], seen = Set<Int32>()
                for _ in 0..<rng.int(min(3 * leaf, slots) + 2) {
                    let s = Int32(rng.int(slots))
                    if (onlyNew && alive.contains(s)) || !seen.insert(s).inserted { continue }
                    let p = randomPoint(&rng)
                    ss.append(s); xs.append(p.0); ys.append(p.1)
                }
                geos.insert(slots: ss, lon: xs, lat: ys); brute.insert(slots: ss, lon: xs, lat: ys)
                alive.formUnion(ss)
                for (i, s) in ss.enumerated() { at[s] = (xs[i], ys[i]) }
            case 3..<30:  // set: add a slot or move it (slot reuse after removal included)
                let s = Int32(rng.int(slots)), p = randomPoint(&rng)
                geos.set(s, lon: p.0, lat: p.1); brute.set(s, lon: p.0, lat: p.1)
                alive.insert(s); at[s] = p
            case 30..<45:  // a small move of a slot that is there: it mostly stays in its leaf
                guard !alive.isEmpty else { continue }
                let s = alive[alive.index(alive.startIndex, offsetBy: rng.int(alive.count))]
                guard let (x, y) = at[s] else { continue }
                let p = smallMove(x, y, &rng)
                geos.set(s, lon: p.0, lat: p.1); brute.set(s, lon: p.0, lat: p.1)
                at[s] = p
            case 45..<60:
                let s = Int32(rng.int(slots))
                geos.remove(s); brute.remove(s)  // removing a slot that is not there is a no-op
                alive.remove(s); at[s] = nil
            case 60..<61:
                geos.removeAll(); brute.removeAll(); alive.removeAll(); at = [:]
            case 61..<75:  // the host's queries do the deferred work: inserts and tree builds
                geos.maintain(inserts: 1 + rng.int(2 * slice + 1))
            default:
                let box = randomBox(&rng)
                let got = sorted(geos, box), want = sorted(brute, box)
                if got != want {
                    XCTFail("seed \(seed) step \(step): \(box) gave \(got.count) slots, brute force \(want.count)")
                    return geos
                }
                queries += 1
            }
        }
        XCTAssertGreaterThan(queries, steps / 5)
        XCTAssertEqual(sorted(geos, GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)), alive.sorted())
        return geos
    }

    func testTinyLeavesRebuildAndSplitConstantly() {
        let index = runAgainstBruteForce(seed: 1, leaf: 2, pending: 1, slice: 1, steps: 20_000, slots: 60)
        XCTAssertGreaterThan(index.builds, 1000)
        XCTAssertGreaterThan(index.splits, 100)
    }

    func testSmallLeaves() {
        let index = runAgainstBruteForce(seed: 2, leaf: 8, pending: 4, slice: 3, steps: 20_000, slots: 400)
        XCTAssertGreaterThan(index.builds, 1000)
        XCTAssertGreaterThan(index.splits, 10)
    }

    func testDefaultLimits() {
        runAgainstBruteForce(seed: 3, leaf: GEOSPointIndex.defaultLeafCapacity, pending: GEOSPointIndex.defaultPendingLimit,
                             slice: GEOSPointIndex.defaultSliceInserts, steps: 3000, slots: 2000)
    }

    func testManySeeds() {
        for seed in 10..<30 { runAgainstBruteForce(seed: UInt64(seed), leaf: 1 + seed % 7, pending: seed % 5, slice: 1 + seed % 3, steps: 2000, slots: 80) }
    }

    /// More pins on one coordinate than a leaf holds: the leaf cannot split and stays whole.
    func testAStackLargerThanALeaf() {
        let index = makeIndex(leaf: 4, pending: 2, slice: 1)
        let brute = BruteForceIndex()
        let n: Int32 = 50
        let slots = Array(0..<n)
        let xs = slots.map { $0 < 40 ? 0.5 : Double($0) / 100 }, ys = slots.map { $0 < 40 ? 0.25 : -Double($0) / 100 }
        index.insert(slots: slots, lon: xs, lat: ys); brute.insert(slots: slots, lon: xs, lat: ys)
        let boxes = [GeoBox(minLon: 0.5, minLat: 0.25, maxLon: 0.5, maxLat: 0.25), GeoBox(minLon: 0, minLat: -1, maxLon: 1, maxLat: 1),
                     GeoBox(minLon: 0.41, minLat: -0.5, maxLon: 0.45, maxLat: 0)]
        for b in boxes { XCTAssertEqual(sorted(index, b), sorted(brute, b)) }
        for _ in 0..<40 { index.maintain(inserts: 1) }
        for b in boxes { XCTAssertEqual(sorted(index, b), sorted(brute, b)) }
        for s in stride(from: Int32(0), to: 40, by: 3) { index.set(s, lon: 0.5, lat: 0.5); brute.set(s, lon: 0.5, lat: 0.5) }
        for b in boxes { XCTAssertEqual(sorted(index, b), sorted(brute, b)) }
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.5, minLat: 0.5, maxLon: 0.5, maxLat: 0.5)).count, 14)
    }

    /// A stack far larger than the lists a query scans, queried straight after the bulk load
    /// (and moved into afterwards): it gets its tree at once, and nothing loops.
    func testAHugeStackRightAfterALoad() {
        let index = makeIndex(leaf: 4, pending: 2, slice: 1)
        let n: Int32 = 500
        let slots = Array(0..<n)
        index.insert(slots: slots, lon: slots.map { $0 < 450 ? 0.5 : Double($0) / 1000 }, lat: slots.map { $0 < 450 ? 0.25 : 0 })
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.5, minLat: 0.25, maxLon: 0.5, maxLat: 0.25)).count, 450)
        for s in Int32(450)..<n { index.set(s, lon: 0.5, lat: 0.25) }
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.4, minLat: 0.2, maxLon: 0.6, maxLat: 0.3)).count, 500)
    }

    /// The map's index reads positions from the pin store's coordinates instead of keeping a copy.
    func testSharedCoordinates() {
        let coords = SlotCoordinates()
        let index = try! GEOSFactory().makeIndex(sharing: coords) as! GEOSPointIndex
        index.leafCapacity = 3; index.pendingLimit = 2; index.sliceInserts = 1
        let brute = BruteForceIndex()
        var rng = Rng(state: 99)
        for step in 0..<5000 {
            let s = Int32(rng.int(40))
            if rng.int(4) == 0 {
                index.remove(s); brute.remove(s)
            } else {
                let p = randomPoint(&rng)
                coords.set(s, lon: p.0, lat: p.1)  // the store writes first
                index.set(s, lon: p.0, lat: p.1); brute.set(s, lon: p.0, lat: p.1)
            }
            let box = randomBox(&rng)
            if sorted(index, box) != sorted(brute, box) { XCTFail("step \(step): \(box)"); return }
            if step % 3 == 0 { index.maintain(inserts: 2) }
        }
    }

    /// The GEOS fact the design rests on: a point set after the first query is still found,
    /// and a moved point is found only at its new place.
    func testChangesAfterTheFirstQueryAreSeen() {
        let index = makeIndex(leaf: 64, pending: 16)
        let n = 100
        index.insert(slots: (0..<Int32(n)).map { $0 }, lon: (0..<n).map { Double($0) / 100 }, lat: Array(repeating: 0, count: n))
        let all = GeoBox(minLon: -1, minLat: -1, maxLon: 2, maxLat: 1)
        XCTAssertEqual(sorted(index, all).count, 100)  // the leaves' trees are built a slice per call
        for _ in 0..<100 { XCTAssertEqual(sorted(index, all).count, 100); index.maintain(inserts: 8) }
        XCTAssertGreaterThan(index.builtLeafCount, 1, "leaves \(index.leafCount) builds \(index.builds) splits \(index.splits)")
        index.set(100, lon: 0.5, lat: 0.5)             // a new point after the build
        index.set(3, lon: 1.5, lat: 0.5)               // a moved point
        XCTAssertEqual(sorted(index, all).count, 101)
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.45, minLat: 0.45, maxLon: 0.55, maxLat: 0.55)), [100])
        XCTAssertEqual(sorted(index, GeoBox(minLon: 0.025, minLat: -0.1, maxLon: 0.035, maxLat: 0.1)), [])
        XCTAssertEqual(sorted(index, GeoBox(minLon: 1.4, minLat: 0.4, maxLon: 1.6, maxLat: 0.6)), [3])
        // Enough changes to overflow the pending lists many times, rebuilding and splitting leaves
        // whose trees have been queried.
        index.leafCapacity = 2; index.pendingLimit = 2; index.sliceInserts = 1
        let builds = index.builds, splits = index.splits
        for i in 0..<200 {
            index.set(Int32(i % 101), lon: Double(i) / 200, lat: 0.25)
            if i % 7 == 0 { XCTAssertEqual(sorted(index, all).count, 101); index.maintain(inserts: 4) }
        }
        XCTAssertGreaterThan(index.builds, builds + 20)
        XCTAssertGreaterThan(index.splits, splits)
        XCTAssertEqual(sorted(index, all).count, 101)
        XCTAssertEqual(sorted(index, GeoBox(minLon: -1, minLat: 0.2, maxLon: 2, maxLat: 0.3)).count, 101)
    }

    func testRemovedSlotsAreNotReportedAndCanBeReused() {
        let index = makeIndex(leaf: 3, pending: 1)
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
