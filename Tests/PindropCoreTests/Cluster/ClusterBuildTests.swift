import XCTest
@testable import PindropCore

/// The build on its own (`ClusterBuild`), run on levels made here by hand, without
/// `ClusterLevels` and its queries: what it writes into the levels' arrays is read back directly
/// and checked against the brute-force oracle (`ClusterOracle`).
final class ClusterBuildTests: XCTestCase {
    /// A base level holding `points` (slot = index), its grid filled, and empty clustered levels.
    static func handMadeLevels(_ points: [(id: Int64, x: Double, y: Double)], radius: Double,
                               levelCount: Int) -> [ClusterLevel] {
        let levels = (0...levelCount).map {
            ClusterLevel(reach: ClusterLevels.reach(radius, level: $0), isBase: $0 == levelCount)
        }
        let base = levels[levelCount]
        for (i, p) in points.enumerated() {
            base.items.append(ClusterItem(x: p.x, y: p.y, key: ClusterLevels.orderKey(id: p.id),
                                          parent: ClusterLevel.unassigned, next: ClusterGrid.end))
            base.grid.insert(UInt32(i), x: p.x, y: p.y, &base.items)
            base.alive += 1
        }
        return levels
    }

    /// Level z as key → (pins, sorted ids, x, y), each pin's item found by following the parents
    /// up from the pin; also checks that each item's seed is the member with its key.
    static func read(_ levels: [ClusterLevel], _ z: Int, ids: [Int64]) -> [UInt64: (Int, [Int64], Double, Double)] {
        let top = levels.count - 1
        var members: [UInt32: [Int64]] = [:]
        for (i, id) in ids.enumerated() {
            var s = UInt32(i)
            for l in stride(from: top, to: z, by: -1) { s = levels[l].items[Int(s)].parent }
            members[s, default: []].append(id)
        }
        var out: [UInt64: (Int, [Int64], Double, Double)] = [:]
        let level = levels[z]
        for (s, m) in members {
            let i = Int(s)
            let seed = Int(level.sums[i].seed)
            XCTAssertEqual(levels[z + 1].items[seed].key, level.items[i].key, "level \(z): an item's key is its seed's")
            XCTAssertEqual(levels[z + 1].items[seed].parent, s, "level \(z): an item holds its seed")
            out[level.items[i].key] = (Int(level.sums[i].count), m.sorted(), level.items[i].x, level.items[i].y)
        }
        return out
    }

    /// Two real cities built by `ClusterBuild` alone: every level equals the oracle bit for bit
    /// (members, counts, points), and the levels' own counts agree.
    func testBuildAloneMatchesOracleOnRealData() throws {
        let trees = try LATrees.city("artesia") + LATrees.city("lomita")
        let points = trees.map { t -> (id: Int64, x: Double, y: Double) in
            let m = ClusterTests.merc(t); return (t.id, m.x, m.y)
        }
        let radius = 60.0, levelCount = 17
        var levels = Self.handMadeLevels(points, radius: radius, levelCount: levelCount)
        let summaries = ClusterSummaries(levels: levelCount, attributes: PinAttributes())
        let order = levels[levelCount].unplacedByKey()
        ClusterBuild(radius: radius, byCategory: false, minPoints: 2, summaries: summaries)
            .build(&levels, from: levelCount - 1, order: order)

        let oracle = ClusterOracle(points: points, radius: radius, levelCount: levelCount)
        for z in 0..<levelCount {
            let got = Self.read(levels, z, ids: points.map(\.id))
            XCTAssertEqual(levels[z].alive, oracle.levels[z].count, "level \(z): items alive")
            XCTAssertEqual(got.count, oracle.levels[z].count, "level \(z): items")
            var bad = 0
            for o in oracle.levels[z] {
                guard let g = got[o.key] else { bad += 1; continue }
                if g.0 != o.count || g.1 != o.ids.sorted() || g.2 != o.x || g.3 != o.y { bad += 1 }
            }
            XCTAssertEqual(bad, 0, "level \(z): \(bad) items differ from the oracle")
        }
        // Not trivially so: the levels really cluster.
        XCTAssertLessThan(levels[16].alive, trees.count / 2)
        XCTAssertLessThanOrEqual(levels[8].alive, 3)
    }

    /// A partial build (levels z...0 from a level above the pins that is already built) equals
    /// the full one: the oracle's levels again.
    func testPartialBuildFromAClusteredLevel() throws {
        let trees = try LATrees.city("artesia")
        let points = trees.map { t -> (id: Int64, x: Double, y: Double) in
            let m = ClusterTests.merc(t); return (t.id, m.x, m.y)
        }
        let radius = 40.0, levelCount = 16
        var levels = Self.handMadeLevels(points, radius: radius, levelCount: levelCount)
        let summaries = ClusterSummaries(levels: levelCount, attributes: PinAttributes())
        let build = ClusterBuild(radius: radius, byCategory: false, minPoints: 2, summaries: summaries)
        build.build(&levels, from: levelCount - 1, order: levels[levelCount].unplacedByKey())
        build.build(&levels, from: 11, order: levels[12].unplacedByKey())
        let oracle = ClusterOracle(points: points, radius: radius, levelCount: levelCount)
        for z in 0...11 {
            let got = Self.read(levels, z, ids: points.map(\.id))
            let want = Dictionary(uniqueKeysWithValues: oracle.levels[z].map { ($0.key, ($0.count, $0.ids.sorted(), $0.x, $0.y)) })
            XCTAssertEqual(got.count, want.count, "level \(z)")
            for (k, w) in want {
                guard let g = got[k] else { XCTFail("level \(z): item \(k) missing"); continue }
                XCTAssertTrue(g.0 == w.0 && g.1 == w.1 && g.2 == w.2 && g.3 == w.3, "level \(z): item \(k)")
            }
        }
    }

    /// The radix sort against the standard sort, on keys whose top 33 bits often agree (the runs
    /// it finishes by the whole key) and on uniformly spread ones.
    func testSortByKeyAgainstSorted() {
        var rng = SplitMix(seed: 7)
        for trial in 0..<40 {
            let n = Int(rng.next() % 3000) + 2
            var items: [ClusterItem] = []
            for _ in 0..<n {
                var key = rng.next()
                // Half the trials: few distinct top bits, so many runs share them.
                if trial % 2 == 0 { key = (key % 8) << 40 | (rng.next() & 0xFF_FFFF_FFFF) }
                items.append(ClusterItem(x: 0, y: 0, key: key, parent: 0, next: 0))
            }
            // A subset of the slots, in a shuffled order.
            var slots = (0..<UInt32(n)).filter { _ in rng.next() % 4 != 0 }
            slots.shuffle(using: &rng)
            var sorted = slots
            ClusterBuild.sortByKey(&sorted, items)
            XCTAssertEqual(sorted.map { items[Int($0)].key }, slots.map { items[Int($0)].key }.sorted(), "trial \(trial)")
            XCTAssertEqual(Set(sorted), Set(slots))
        }
    }
}
