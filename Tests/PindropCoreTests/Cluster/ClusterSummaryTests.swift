import Foundation
import XCTest
@testable import PindropCore

/// What a cluster holds (behaviour 19), computed from scratch from its members: the oracle the
/// incremental summaries are held to.
struct SummaryOracle: Equatable {
    var count = 0, valued = 0
    var sum = 0.0, absSum = 0.0
    var vmin = Double.nan, vmax = Double.nan
    var category: UInt32 = 0
    var oneSpot = false
    /// Most pins first, ties by lower category.
    var counts: [CategoryCount] = []

    init(_ pins: [(value: Double, category: UInt32, x: Double, y: Double)]) {
        count = pins.count
        var byCategory: [UInt32: UInt32] = [:]
        for p in pins {
            byCategory[p.category, default: 0] += 1
            guard !p.value.isNaN else { continue }
            valued += 1
            sum += p.value; absSum += abs(p.value)
            vmin = vmin.isNaN ? p.value : min(vmin, p.value)
            vmax = vmax.isNaN ? p.value : max(vmax, p.value)
        }
        counts = byCategory.map { CategoryCount(category: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
        category = counts.count == 1 ? counts[0].category : PinAttributes.mixed
        oneSpot = !pins.isEmpty && pins.allSatisfy { $0.x == pins[0].x && $0.y == pins[0].y }
    }
}

final class ClusterSummaryTests: XCTestCase {
    typealias Harness = ClusterTests.Harness

    /// A harness whose pins carry values and categories, kept by id as the map keeps them by slot
    /// (a removed pin's attributes go with it).
    final class Attributed {
        let h: Harness
        let attributes: PinAttributes
        var value: [Int64: Double] = [:]
        var category: [Int64: UInt32] = [:]

        init(radius: Double, maxZoom: Double, byCategory: Bool = false, minPoints: Int = 2) {
            attributes = PinAttributes()
            h = Harness(radius: radius, maxZoom: maxZoom, attributes: attributes, byCategory: byCategory, minPoints: minPoints)
        }

        func set(_ id: Int64, value v: Double? = nil, category c: UInt32? = nil) {
            let s = h.slotOf[id]!
            let nv = v ?? value[id] ?? .nan, nc = c ?? category[id] ?? 0
            h.levels.attributesWillChange(slot: s, value: nv, category: nc)
            attributes.setValue(s, nv); attributes.setCategory(s, nc)
            value[id] = nv; category[id] = nc
        }

        func remove(_ id: Int64) {
            let s = h.slotOf[id]!
            h.remove(id)
            attributes.reset(s)
            value[id] = nil; category[id] = nil
        }

        /// A from-scratch build of the same pins (other slots, the same attributes by id).
        func fresh() -> Attributed {
            let f = Attributed(radius: h.levels.radius, maxZoom: h.levels.maxZoom, byCategory: h.levels.byCategory,
                               minPoints: h.levels.minPoints)
            for (id, p) in h.point.sorted(by: { $0.key < $1.key }) {
                f.h.add(id, p.x, p.y, excluded: h.excluded.contains(id))
                f.set(id, value: value[id] ?? .nan, category: category[id] ?? 0)
            }
            return f
        }
    }

    /// Levels as `Harness.snapshot` gives them, equal item for item (members and points exactly).
    func assertSame(_ a: [[UInt64: (Int, [Int64], Double, Double)]], _ b: [[UInt64: (Int, [Int64], Double, Double)]],
                    _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for z in 0..<min(a.count, b.count) {
            XCTAssertEqual(a[z].count, b[z].count, "\(what): level \(z) item count", file: file, line: line)
            let bad = a[z].filter { k, va in
                guard let vb = b[z][k] else { return true }
                return va.0 != vb.0 || va.1 != vb.1 || va.2 != vb.2 || va.3 != vb.3
            }.count
            XCTAssertEqual(bad, 0, "\(what): level \(z): \(bad) items differ", file: file, line: line)
            if bad > 0 { return }
        }
    }

    static func randomValue(_ rng: inout SplitMix) -> Double {
        switch rng.next() % 8 {
        case 0, 1: return .nan
        case 2: return Double(Int64(rng.next() % 2_000_001) - 1_000_000) * 1e3     // up to 1e9
        case 3: return Double(rng.next() % 1000) * 1e-7
        case 4: return Double(rng.next() % 50)                                     // ties for min and max
        default: return Double(Int64(rng.next() % 20_001) - 10_000) / 64
        }
    }

    /// Every item of levels t..< L: its summary and counts per category against the oracle over
    /// its members; returns how many items were checked.
    @discardableResult
    func checkSummaries(_ a: Attributed, from t: Int = 0, _ what: String,
                        file: StaticString = #filePath, line: UInt = #line) -> Int {
        let lv = a.h.levels
        lv.update(level: t)
        var checked = 0, bad = 0
        var counts: [CategoryCount] = []
        for z in t..<lv.levelCount {
            var items: [UInt32] = []
            lv.items(level: z, minX: -1, minY: -1, maxX: 2, maxY: 2, into: &items)
            for s in items {
                var m: [Int32] = []
                lv.members(level: z, slot: s, into: &m)
                let want = SummaryOracle(m.map { slot in
                    let id = a.h.idOf[slot]!, p = a.h.point[id]!
                    return (a.value[id] ?? .nan, a.category[id] ?? 0, p.x, p.y)
                })
                let got = lv.summaries.item(z, s).summary
                lv.summaries.categories(z, s, into: &counts)
                let sumOK = want.valued == 0 ? got.valueSum.isNaN : abs(got.valueSum - want.sum) <= 1e-12 * want.absSum
                let minOK = want.valued == 0 ? got.valueMin.isNaN && got.valueMax.isNaN
                    : got.valueMin == want.vmin && got.valueMax == want.vmax
                if Int(got.count) != want.count || Int(got.valued) != want.valued || !sumOK || !minOK
                    || got.category != want.category || (got.flags == ClusterSummary.oneSpot) != want.oneSpot
                    || counts != want.counts {
                    bad += 1
                    if bad <= 3 {
                        XCTFail("\(what): level \(z) item \(s): got \(got) \(counts), want \(want)", file: file, line: line)
                    }
                }
                checked += 1
            }
        }
        XCTAssertEqual(bad, 0, "\(what): \(bad) of \(checked) summaries differ", file: file, line: line)
        return checked
    }

    /// Random histories on real trees: adds, removes, exclusions, jumps, drags of up to 100 m and
    /// value and category changes (one pin or a batch), with updates at random moments. Every
    /// summary of every item at every level equals the oracle over its members, and the levels
    /// equal a from-scratch build bit for bit.
    func testSummariesEqualTheOracleAfterRandomHistories() throws {
        let trees = try LATrees.city("artesia")
        var rng = SplitMix(seed: 41)
        let a = Attributed(radius: 60, maxZoom: 17)
        let h = a.h
        var outside = Array(trees.shuffled(using: &rng))
        for _ in 0..<(trees.count / 2) {
            let t = outside.removeLast(); let m = ClusterTests.merc(t); h.add(t.id, m.x, m.y)
        }
        for id in h.point.keys where rng.next() % 4 != 0 {
            a.set(id, value: Self.randomValue(&rng), category: UInt32(rng.next() % 6))
        }
        h.levels.rebuild()
        checkSummaries(a, "after the build")
        let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
        var sinceUpdate = 0, updateEvery = 7
        for step in 0..<3000 {
            let ids = Array(h.point.keys)
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            let r = rng.next() % 14
            switch r {
            case 0, 1:
                let before = Set(h.point.keys)
                h.apply(.add, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                for n in Set(h.point.keys).subtracting(before) where rng.next() % 2 == 0 {
                    a.set(n, value: Self.randomValue(&rng), category: UInt32(rng.next() % 6))
                }
            case 2, 3:
                a.remove(id)
                outside.insert(trees.first { $0.id == id }!, at: 0)
            case 4: h.apply(.toggle, to: id, &rng, trees: trees, outside: &outside, metre: metre)
            case 5: h.apply(.jump, to: id, &rng, trees: trees, outside: &outside, metre: metre)
            case 6, 7: a.set(id, value: Self.randomValue(&rng))
            case 8: a.set(id, category: UInt32(rng.next() % 6))
            case 9:
                // A batch: a pin's neighbours in the id order all take one value and category.
                let v = Self.randomValue(&rng), c = UInt32(rng.next() % 6)
                for other in ids.prefix(1 + Int(rng.next() % 12)) { a.set(other, value: v, category: c) }
            default: h.apply(.drag(reach: 100, steps: 1000), to: id, &rng, trees: trees, outside: &outside, metre: metre)
            }
            sinceUpdate += 1
            if sinceUpdate >= updateEvery {
                // Mostly the whole hierarchy, sometimes only the street levels (the rest catch up).
                h.levels.update(level: rng.next() % 4 == 0 ? h.levels.levelCount - 1 - Int(rng.next() % 3) : 0)
                sinceUpdate = 0
                updateEvery = 1 + Int(rng.next() % 20)
            }
            if step % 300 == 299 {
                XCTAssertFalse(h.levels.needsRebuild)
                checkSummaries(a, "step \(step)")
                assertSame(h.snapshot(), a.fresh().h.snapshot(), "step \(step)")
                if testRun?.failureCount ?? 0 > 0 { return }
            }
        }
        assertSame(h.snapshot(), h.oracle(), "oracle after edits")
    }

    /// Small maps in the fuzzer's shape (stacks and near neighbours, small and deep radii, levels
    /// left behind), with attributes: the summaries after every update to a random level.
    func testSummariesOnSmallStackedMaps() {
        for seed in 0..<16 {
            var rng = SplitMix(seed: UInt64(100 + seed))
            let deep = seed % 2 == 0
            let radius = Double(1 + rng.next() % (deep ? 8 : 255))
            let maxZoom = deep ? Double(24 + rng.next() % 7) : Double(1 + rng.next() % 20)
            let a = Attributed(radius: radius, maxZoom: maxZoom, byCategory: seed % 4 == 1)
            let h = a.h
            if rng.next() % 2 == 0 { h.levels.lazyItems = .max }
            let L = h.levels.levelCount
            var nextId: Int64 = 1
            func spot() -> (Double, Double) {
                let k = rng.next() % 24
                let step = 1e-5 * Double(1 + rng.next() % 4) / 360
                return (0.17155 + Double(k % 6) * step, 0.40542 + Double(k / 6) * step)
            }
            var checked = 0
            for step in 0..<300 {
                let ids = h.point.keys.sorted()
                let r = rng.next() % 12
                if ids.isEmpty || r < 3 {
                    let p = spot(); h.add(nextId, p.0, p.1, excluded: rng.next() % 8 == 0)
                    if rng.next() % 2 == 0 { a.set(nextId, value: Self.randomValue(&rng), category: UInt32(rng.next() % 3)) }
                    nextId += 1
                } else {
                    let id = ids[Int(rng.next() % UInt64(ids.count))]
                    switch r {
                    case 3: a.remove(id)
                    case 4: h.exclude(id, !h.excluded.contains(id))
                    case 5, 6: a.set(id, value: Self.randomValue(&rng))
                    case 7: a.set(id, category: UInt32(rng.next() % 3))
                    default: let p = spot(); h.move(id, p.0, p.1)
                    }
                }
                guard L > 0, rng.next() % 3 == 0 else { continue }
                checked += checkSummaries(a, from: Int(rng.next() % UInt64(L)), "seed \(seed) step \(step)")
                if testRun?.failureCount ?? 0 > 0 { return }
            }
            XCTAssertGreaterThan(checked, 100)
        }
    }

    /// With `byCategory`, the levels are the oracle's levels of each category's pins side by side
    /// (16's rules within each category), after random histories that also move pins from one
    /// category to another; and equal to a from-scratch build.
    func testByCategoryIsOneHierarchyPerCategory() throws {
        let trees = try LATrees.city("artesia")
        var rng = SplitMix(seed: 7)
        let a = Attributed(radius: 60, maxZoom: 17, byCategory: true)
        let h = a.h
        var outside = Array(trees.shuffled(using: &rng))
        for _ in 0..<(trees.count / 2) {
            let t = outside.removeLast(); let m = ClusterTests.merc(t); h.add(t.id, m.x, m.y)
        }
        for id in h.point.keys { a.set(id, category: UInt32(rng.next() % 4)) }
        h.levels.update()
        func oracle() -> [[UInt64: (Int, [Int64], Double, Double)]] {
            var out = Array(repeating: [UInt64: (Int, [Int64], Double, Double)](), count: h.levels.levelCount)
            for c in Set(a.category.values) {
                let pts = h.point.filter { !h.excluded.contains($0.key) && a.category[$0.key] == c }
                    .map { (id: $0.key, x: $0.value.x, y: $0.value.y) }
                let o = ClusterOracle(points: pts, radius: h.levels.radius, levelCount: h.levels.levelCount)
                for z in 0..<h.levels.levelCount {
                    for it in o.levels[z] { out[z][it.key] = (it.count, it.ids.sorted(), it.x, it.y) }
                }
            }
            return out
        }
        assertSame(h.snapshot(), oracle(), "after the build")
        let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
        for step in 0..<1500 {
            let ids = Array(h.point.keys)
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            switch rng.next() % 10 {
            case 0:
                let before = Set(h.point.keys)
                h.apply(.add, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                for n in Set(h.point.keys).subtracting(before) { a.set(n, category: UInt32(rng.next() % 4)) }
            case 1: a.remove(id); outside.insert(trees.first { $0.id == id }!, at: 0)
            case 2: h.apply(.toggle, to: id, &rng, trees: trees, outside: &outside, metre: metre)
            case 3, 4: a.set(id, category: UInt32(rng.next() % 4))
            default: h.apply(.drag(reach: 100, steps: 1000), to: id, &rng, trees: trees, outside: &outside, metre: metre)
            }
            if rng.next() % 5 == 0 { h.levels.update() }
            if step % 250 == 249 {
                assertSame(h.snapshot(), oracle(), "step \(step)")
                assertSame(h.snapshot(), a.fresh().h.snapshot(), "step \(step): rebuild")
                checkSummaries(a, "step \(step)")
                // Every cluster's pins share one category.
                for z in 0..<h.levels.levelCount {
                    var items: [UInt32] = []
                    h.levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &items)
                    for s in items { XCTAssertNotEqual(h.levels.summaries.item(z, s).category, PinAttributes.mixed) }
                }
                if testRun?.failureCount ?? 0 > 0 { return }
            }
        }
    }

    /// supercluster's `_cluster` with minPoints, written from its source's logic: items visited by
    /// order key; an unvisited item takes the unvisited items within the radius; if they hold at
    /// least `m` pins together (and there is more than one item) they become a cluster, otherwise
    /// each of them stays itself at this level (and none of them is visited again there).
    static func minPointsOracle(_ points: [(id: Int64, x: Double, y: Double)], radius: Double, levelCount: Int,
                                m: Int) -> [[UInt64: (Int, [Int64], Double, Double)]] {
        typealias Item = ClusterOracle.Item
        var pin: [Int64: (x: Double, y: Double)] = [:]
        for p in points { pin[p.id] = (p.x, p.y) }
        var items = points.map { Item(key: ClusterLevels.orderKey(id: $0.id), x: $0.x, y: $0.y, count: 1, ids: [$0.id]) }
        var out = Array(repeating: [UInt64: (Int, [Int64], Double, Double)](), count: levelCount)
        for z in stride(from: levelCount - 1, through: 0, by: -1) {
            let r = radius / (256 * pow(2, Double(z)))
            items.sort { $0.key < $1.key }
            var visited = [Bool](repeating: false, count: items.count)
            var next: [Item] = []
            for i in items.indices where !visited[i] {
                visited[i] = true
                var group = [i]
                for j in items.indices where !visited[j] {
                    let dx = items[j].x - items[i].x, dy = items[j].y - items[i].y
                    if dx * dx + dy * dy <= r * r { group.append(j) }
                }
                for j in group { visited[j] = true }
                let pins = group.reduce(0) { $0 + items[$1].count }
                if group.count == 1 || pins < m { next.append(contentsOf: group.map { items[$0] }); continue }
                let ids = group.flatMap { items[$0].ids }
                var sx = 0, sy = 0
                for id in ids {
                    sx += Int((pin[id]!.x * 4_294_967_296).rounded()); sy += Int((pin[id]!.y * 4_294_967_296).rounded())
                }
                let n = Double(ids.count)
                next.append(Item(key: items[i].key, x: Double(sx) / n / 4_294_967_296, y: Double(sy) / n / 4_294_967_296,
                                 count: ids.count, ids: ids))
            }
            items = next
            out[z] = Dictionary(uniqueKeysWithValues: items.map { ($0.key, ($0.count, $0.ids.sorted(), $0.x, $0.y)) })
        }
        return out
    }

    /// cluster_min_points = m: the levels are supercluster's with minPoints m (the oracle above),
    /// no cluster holds fewer than m pins, and the summaries are right, after random histories
    /// on real trees and on stacks.
    func testMinPointsIsSuperclustersRule() throws {
        let trees = try LATrees.city("artesia")
        for (seed, m) in [(1, 3), (2, 5), (3, 12)] {
            var rng = SplitMix(seed: UInt64(seed))
            let a = Attributed(radius: 60, maxZoom: 17, byCategory: false, minPoints: m)
            let h = a.h
            var outside = Array(trees.shuffled(using: &rng))
            for _ in 0..<(trees.count / 3) {
                let t = outside.removeLast(); let p = ClusterTests.merc(t); h.add(t.id, p.x, p.y)
            }
            // A few stacks of 2..m+1 pins on one spot.
            for k in 0..<6 {
                let p = ClusterTests.merc(trees[k * 37])
                for i in 0..<(2 + k % (m + 1)) { h.add(Int64(1_000_000 + 100 * k + i), p.x, p.y) }
            }
            for id in h.point.keys where rng.next() % 2 == 0 { a.set(id, value: Self.randomValue(&rng), category: UInt32(rng.next() % 3)) }
            let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
            for step in 0..<120 {
                let ids = Array(h.point.keys)
                let id = ids[Int(rng.next() % UInt64(ids.count))]
                switch rng.next() % 6 {
                case 0: h.apply(.add, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                case 1 where id < 1_000_000: a.remove(id); outside.insert(trees.first { $0.id == id }!, at: 0)
                case 2: h.apply(.toggle, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                case 3: a.set(id, value: Self.randomValue(&rng))
                default: h.apply(.drag(reach: 300, steps: 1000), to: id, &rng, trees: trees, outside: &outside, metre: metre)
                }
                guard step % 30 == 29 else { continue }
                let got = h.snapshot()
                let pts = h.point.filter { !h.excluded.contains($0.key) }.map { (id: $0.key, x: $0.value.x, y: $0.value.y) }
                assertSame(got, Self.minPointsOracle(pts, radius: 60, levelCount: h.levels.levelCount, m: m), "m \(m) step \(step)")
                var clusters = 0
                for level in got { for (_, v) in level where v.0 > 1 { clusters += 1; XCTAssertGreaterThanOrEqual(v.0, m) } }
                XCTAssertGreaterThan(clusters, 10)
                checkSummaries(a, "m \(m) step \(step)")
                if testRun?.failureCount ?? 0 > 0 { return }
            }
            // m = 2 is the default rule: the same oracle with m = 2 is the plain one.
            if m == 3 {
                let pts = h.point.filter { !h.excluded.contains($0.key) }.map { (id: $0.key, x: $0.value.x, y: $0.value.y) }
                assertSame(h.oracle(), Self.minPointsOracle(pts, radius: 60, levelCount: h.levels.levelCount, m: 2), "m = 2")
            }
        }
    }

    /// A key names its cluster while its pins stay the same: moves and attribute changes keep it;
    /// a pin leaving makes it stale, and it stays stale when the same pins cluster again.
    func testKeysNeverNameAnotherCluster() throws {
        let attributes = PinAttributes()
        let room = try XCTUnwrap(Clusterer(radius: 60, maxZoom: 17, attributes: attributes))
        // Three pins a few metres apart and one far away; view level 12.
        let base = WebMercator.normalized(lon: -118.3535, lat: 33.8871)
        let metre = 1 / 40_075_016.7 / cos(33.8871 * .pi / 180)
        for i in 0..<3 { room.pinAdded(Int32(i), id: Int64(10 + i), mercator: (base.x + Double(i) * 3 * metre, base.y)) }
        room.pinAdded(3, id: 13, mercator: (base.x + 3000 * metre, base.y))
        let z = 12
        func clusterKey() -> UInt64? {
            room.levels.update(level: z)
            var items: [UInt32] = []
            room.levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &items)
            let clusters = items.filter { room.levels.count(level: z, slot: $0) >= 2 }
            XCTAssertLessThanOrEqual(clusters.count, 1)
            return clusters.first.map { room.key(z, $0) }
        }
        let k1 = try XCTUnwrap(clusterKey())
        XCTAssertEqual(room.summary(k1)?.count, 3)
        room.pinMoved(1, mercator: (base.x + 5 * metre, base.y))
        attributes.setValue(2, 4); room.pinAttributesWillChange(2, value: 4, category: 0)
        XCTAssertEqual(clusterKey(), k1, "a move and an attribute change keep the members, and the key")
        XCTAssertEqual(room.summary(k1)?.valued, 0, "the attribute was set after the hook")
        // Pin 12 leaves: the key is stale; it comes back: the same three pins, another key.
        room.pinMoved(2, mercator: (base.x + 6000 * metre, base.y))
        let k2 = try XCTUnwrap(clusterKey())
        XCTAssertNil(room.summary(k1))
        XCTAssertEqual(room.summary(k2)?.count, 2)
        room.pinMoved(2, mercator: (base.x + 6 * metre, base.y))
        let k3 = try XCTUnwrap(clusterKey())
        XCTAssertEqual(room.summary(k3)?.count, 3)
        XCTAssertNotEqual(k3, k1)
        XCTAssertNil(room.summary(k1), "the same members together again: the old key stays stale")
        XCTAssertNil(room.summary(k2))
        var members: [Int32] = []
        XCTAssertFalse(room.members(k1, into: &members))
        XCTAssertNil(room.expansionZoom(k1))
        // Kept out (selected) and let back in: stale again.
        room.setExcluded([0])
        XCTAssertNil(room.summary(k3))
        room.setExcluded([])
        let k4 = try XCTUnwrap(clusterKey())
        XCTAssertNil(room.summary(k3))
        XCTAssertEqual(room.summary(k4)?.count, 3)
        // Keys of other levels and slots, and junk, are not found.
        XCTAssertNil(room.summary(k4 ^ (1 << 58)))
        XCTAssertNil(room.summary(k4 | (1 << 63)), "a stack's key bit")
        XCTAssertNil(room.summary(k4 &+ 1))
        XCTAssertNil(room.summary(0))
        XCTAssertNil(room.summary(.max))
    }
}
