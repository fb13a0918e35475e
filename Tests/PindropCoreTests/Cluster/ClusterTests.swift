import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Real pins from the LA tree inventory (../shared/data/la_trees.csv next to the repository).
enum LATrees {
    struct Tree { var id: Int64; var lon: Double; var lat: Double }

    /// One city's trees (the file is grouped by city). Ids are the line's byte offset: unique.
    static func city(_ name: String) throws -> [Tree] {
        guard let data = LATreesFile.data, let start = data.range(of: Data("\n\(name),".utf8))?.lowerBound else {
            throw XCTSkip("the LA tree inventory is not at ../shared/data/la_trees.csv")
        }
        var out: [Tree] = []
        var pos = start + 1
        let prefix = Data("\(name),".utf8)
        while pos < data.endIndex, data[pos..<min(data.endIndex, pos + prefix.count)] == prefix {
            let end = data[pos...].firstIndex(of: 10) ?? data.endIndex
            let f = String(decoding: data[pos..<end], as: UTF8.self).split(separator: ",")
            if f.count == 4, let lat = Double(f[2]), let lon = Double(f[3]) {
                out.append(Tree(id: Int64(pos), lon: lon, lat: lat))
            }
            pos = end + 1
        }
        return out
    }
}

/// An independent O(n²) implementation of the cluster rule of docs/clusters.md (supercluster's greedy
/// levels, items visited by order key), written from the rule's text.
struct ClusterOracle {
    struct Item { var key: UInt64; var x: Double; var y: Double; var count: Int; var ids: [Int64] }
    /// levels[z] for z in 0...levelCount; levels[levelCount] are the pins.
    var levels: [[Item]] = []

    init(points: [(id: Int64, x: Double, y: Double)], radius: Double, levelCount: Int) {
        var items = points.map { Item(key: ClusterLevels.orderKey(id: $0.id), x: $0.x, y: $0.y, count: 1, ids: [$0.id]) }
        var pin: [Int64: (x: Double, y: Double)] = [:]
        for p in points { pin[p.id] = (p.x, p.y) }
        levels = Array(repeating: [], count: levelCount + 1)
        levels[levelCount] = items
        for z in stride(from: levelCount - 1, through: 0, by: -1) {
            let r = radius / (256 * pow(2, Double(z)))
            items.sort { $0.key < $1.key }
            var absorbed = [Bool](repeating: false, count: items.count)
            var next: [Item] = []
            for i in items.indices where !absorbed[i] {
                absorbed[i] = true
                var group = [items[i]]
                for j in (i + 1)..<items.count where !absorbed[j] {
                    let dx = items[j].x - items[i].x, dy = items[j].y - items[i].y
                    if dx * dx + dy * dy <= r * r { absorbed[j] = true; group.append(items[j]) }
                }
                if group.count == 1 { next.append(items[i]); continue }
                // The mean of the members' pins, each pin's point rounded to 2^-32 of the world.
                let ids = group.flatMap(\.ids)
                var sx = 0, sy = 0
                for id in ids {
                    sx += Int((pin[id]!.x * 4_294_967_296).rounded()); sy += Int((pin[id]!.y * 4_294_967_296).rounded())
                }
                let n = Double(ids.count)
                next.append(Item(key: items[i].key, x: Double(sx) / n / 4_294_967_296, y: Double(sy) / n / 4_294_967_296,
                                 count: ids.count, ids: ids))
            }
            items = next
            levels[z] = items
        }
    }
}

final class ClusterTests: XCTestCase {
    /// A cluster room over pins with their own slots (reused after removal, as the map's are).
    final class Harness {
        let levels: ClusterLevels
        var slotOf: [Int64: Int32] = [:]
        var idOf: [Int32: Int64] = [:]
        var point: [Int64: (x: Double, y: Double)] = [:]
        var excluded: Set<Int64> = []
        var free: [Int32] = []
        var nextSlot: Int32 = 0

        init(radius: Double, maxZoom: Double, attributes: PinAttributes = PinAttributes(), byCategory: Bool = false,
             minPoints: Int = 2) {
            levels = ClusterLevels(radius: radius, maxZoom: maxZoom, attributes: attributes, byCategory: byCategory,
                                   minPoints: minPoints)
        }

        func add(_ id: Int64, _ x: Double, _ y: Double, excluded ex: Bool = false) {
            let s = free.popLast() ?? { nextSlot += 1; return nextSlot - 1 }()
            slotOf[id] = s; idOf[s] = id; point[id] = (x, y)
            if ex { excluded.insert(id) }
            levels.insert(slot: s, key: ClusterLevels.orderKey(id: id), x: x, y: y, excluded: ex)
        }
        /// A bulk load (the map's add_many): new slots, one `insertMany`.
        func addMany(_ pins: [(id: Int64, x: Double, y: Double)]) {
            var slots: [Int32] = []
            var at: [Int32: (key: UInt64, x: Double, y: Double)] = [:]
            for p in pins {
                let s = free.popLast() ?? { nextSlot += 1; return nextSlot - 1 }()
                slotOf[p.id] = s; idOf[s] = p.id; point[p.id] = (p.x, p.y)
                slots.append(s); at[s] = (ClusterLevels.orderKey(id: p.id), p.x, p.y)
            }
            levels.insertMany(slots) { at[$0]! }
        }
        func remove(_ id: Int64) {
            let s = slotOf.removeValue(forKey: id)!
            idOf[s] = nil; point[id] = nil; excluded.remove(id); free.append(s)
            levels.remove(slot: s)
        }
        func move(_ id: Int64, _ x: Double, _ y: Double) {
            point[id] = (x, y)
            levels.move(slot: slotOf[id]!, x: x, y: y)
        }
        func exclude(_ id: Int64, _ on: Bool) {
            if on { excluded.insert(id) } else { excluded.remove(id) }
            levels.setExcluded(slot: slotOf[id]!, on)
        }

        /// One step of a random history, on pin `id`.
        enum Edit {
            /// a tree from `outside` comes in (one in eight kept out)
            case add
            /// `id` goes (its tree back to `outside`)
            case remove
            /// `id` is kept out, or let back in
            case toggle
            /// `id` jumps to another tree's place
            case jump
            /// `id` is dragged by up to `reach` metres along each axis, in `steps` steps a side
            case drag(reach: Double, steps: UInt64)
        }

        func apply(_ edit: Edit, to id: Int64, _ rng: inout SplitMix, trees: [LATrees.Tree],
                   outside: inout [LATrees.Tree], metre: Double) {
            switch edit {
            case .add:
                if let t = outside.popLast() { let m = ClusterTests.merc(t); add(t.id, m.x, m.y, excluded: rng.next() % 8 == 0) }
            case .remove:
                remove(id)
                outside.insert(trees.first { $0.id == id }!, at: 0)
            case .toggle:
                exclude(id, !excluded.contains(id))
            case .jump:
                let m = ClusterTests.merc(trees[Int(rng.next() % UInt64(trees.count))])
                move(id, m.x, m.y)
            case .drag(let reach, let steps):
                let p = point[id]!
                let unit = reach / Double(steps) * metre
                let dx = (Double(rng.next() % (2 * steps + 1)) - Double(steps)) * unit
                let dy = (Double(rng.next() % (2 * steps + 1)) - Double(steps)) * unit
                move(id, p.x + dx, p.y + dy)
            }
        }

        /// Levels `from`... as key → (count, sorted ids, x, y), after bringing them up to date.
        func snapshot(from t: Int = 0) -> [[UInt64: (Int, [Int64], Double, Double)]] {
            levels.update(level: t)
            var out: [[UInt64: (Int, [Int64], Double, Double)]] = []
            for z in t..<levels.levelCount {
                var items: [UInt32] = []
                levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &items)
                var d: [UInt64: (Int, [Int64], Double, Double)] = [:]
                for s in items {
                    var m: [Int32] = []
                    levels.members(level: z, slot: s, into: &m)
                    let p = levels.point(level: z, slot: s)
                    d[levels.key(level: z, slot: s)] = (Int(levels.count(level: z, slot: s)),
                                                        m.map { idOf[$0]! }.sorted(), p.x, p.y)
                }
                out.append(d)
            }
            return out
        }

        func oracle() -> [[UInt64: (Int, [Int64], Double, Double)]] {
            let pts = point.filter { !excluded.contains($0.key) }.map { (id: $0.key, x: $0.value.x, y: $0.value.y) }
            let o = ClusterOracle(points: pts, radius: levels.radius, levelCount: levels.levelCount)
            return (0..<levels.levelCount).map { z in
                Dictionary(uniqueKeysWithValues: o.levels[z].map { ($0.key, ($0.count, $0.ids.sorted(), $0.x, $0.y)) })
            }
        }
    }

    static func merc(_ t: LATrees.Tree) -> (x: Double, y: Double) { WebMercator.normalized(lon: t.lon, lat: t.lat) }

    func assertSame(_ a: [[UInt64: (Int, [Int64], Double, Double)]], _ b: [[UInt64: (Int, [Int64], Double, Double)]],
                    _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for z in 0..<min(a.count, b.count) {
            XCTAssertEqual(a[z].count, b[z].count, "\(what): level \(z) item count", file: file, line: line)
            var bad = 0
            for (k, va) in a[z] {
                guard let vb = b[z][k] else { bad += 1; continue }
                // Positions: integer sums, so exactly equal.
                if va.0 != vb.0 || va.1 != vb.1 || va.2 != vb.2 || va.3 != vb.3 { bad += 1 }
            }
            XCTAssertEqual(bad, 0, "\(what): level \(z): \(bad) items differ", file: file, line: line)
            if bad > 0 { return }
        }
    }

    /// Built from scratch on two real cities, every level equals the brute-force oracle.
    func testBuildMatchesOracleOnRealData() throws {
        let trees = try LATrees.city("artesia") + LATrees.city("lomita")
        let h = Harness(radius: 60, maxZoom: 17)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.rebuild()
        let snap = h.snapshot()
        assertSame(snap, h.oracle(), "build")
        // Not trivially so: the levels really cluster, and coarsen as the zoom falls.
        XCTAssertEqual(snap[16].values.reduce(0) { $0 + $1.0 }, trees.count)
        XCTAssertLessThan(snap[16].count, trees.count / 2)
        XCTAssertLessThanOrEqual(snap[8].count, 3)
    }

    /// A bulk load falls back to a rebuild: edits made while that rebuild is pending (moves,
    /// removals, exclusions, adds) are in the levels it builds, and incremental updates after it
    /// agree with the oracle.
    func testEditsWhileARebuildIsPending() throws {
        try editsWhileARebuildIsPending(bulk: false)
        // add_many's path: the pins' grid too is left to the rebuild.
        try editsWhileARebuildIsPending(bulk: true)
    }

    func editsWhileARebuildIsPending(bulk: Bool) throws {
        let trees = try LATrees.city("artesia") + LATrees.city("lomita")
        var rng = SplitMix(seed: 5)
        let h = Harness(radius: 60, maxZoom: 17)
        var outside = Array(trees.shuffled(using: &rng))
        if bulk {
            h.addMany(outside.suffix(trees.count * 9 / 10).map { t in let m = Self.merc(t); return (t.id, m.x, m.y) })
            outside.removeLast(trees.count * 9 / 10)
        } else {
            for _ in 0..<(trees.count * 9 / 10) { let t = outside.removeLast(); let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        }
        XCTAssertTrue(h.levels.needsRebuild, "a bulk load must fall back to a rebuild")
        let metre = 1 / 40_075_016.7 / cos(33.85 * .pi / 180)
        func edit(_ n: Int, updating: Bool) {
            for _ in 0..<n {
                let ids = Array(h.point.keys)
                let id = ids[Int(rng.next() % UInt64(ids.count))]
                let edit: Harness.Edit = [.add, .remove, .toggle, .jump, .drag(reach: 200, steps: 200),
                                          .drag(reach: 200, steps: 200)][Int(rng.next() % 6)]
                h.apply(edit, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                if updating && rng.next() % 5 == 0 { h.levels.update() }
            }
        }
        edit(400, updating: false)
        XCTAssertTrue(h.levels.needsRebuild)
        assertSame(h.snapshot(), h.oracle(), "after the pending rebuild")
        edit(400, updating: true)
        XCTAssertFalse(h.levels.needsRebuild)
        assertSame(h.snapshot(), h.oracle(), "after incremental edits on the refilled grid")
    }

    /// The consequences the cluster rule (docs/clusters.md) lets a host rely on, at every level.
    func testHierarchyAndSeparationRules() throws {
        let trees = try LATrees.city("el-segundo")
        let h = Harness(radius: 40, maxZoom: 16.5)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.update()
        XCTAssertEqual(h.levels.levelCount, 17)
        let L = h.levels.levelCount
        var idsAbove = Set(trees.map(\.id))
        for z in stride(from: L - 1, through: 0, by: -1) {
            var items: [UInt32] = []
            h.levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &items)
            var seen = Set<Int64>()
            var singles: [(Double, Double)] = []
            for s in items {
                var m: [Int32] = []
                h.levels.members(level: z, slot: s, into: &m)
                XCTAssertEqual(m.count, Int(h.levels.count(level: z, slot: s)))
                for id in m.map({ h.idOf[$0]! }) { XCTAssertTrue(seen.insert(id).inserted, "pin \(id) twice at \(z)") }
                if m.count == 1 { singles.append(h.levels.point(level: z, slot: s)) }
                // Members at z are whole items of z + 1.
                var total: UInt32 = 0
                h.levels.forEachChild(level: z, slot: s) { c in total += h.levels.count(level: z + 1, slot: c) }
                XCTAssertEqual(total, h.levels.count(level: z, slot: s))
            }
            XCTAssertEqual(seen, idsAbove, "every pin in exactly one item at level \(z)")
            idsAbove = seen
            let r = 40 / (256 * pow(2, Double(z)))
            singles.sort { $0.0 < $1.0 }
            for i in singles.indices {
                var j = i + 1
                while j < singles.count && singles[j].0 - singles[i].0 <= r {
                    let dx = singles[j].0 - singles[i].0, dy = singles[j].1 - singles[i].1
                    XCTAssertGreaterThan(dx * dx + dy * dy, r * r, "two singles within the radius at level \(z)")
                    j += 1
                }
            }
        }
    }

    /// Thousands of adds, removes, moves (small and far), exclusions and inclusions, with updates
    /// at random moments: the levels always equal a from-scratch build, and the oracle at the end.
    func testIncrementalEqualsRebuildAfterRandomEdits() throws {
        let trees = try LATrees.city("artesia")
        var rng = SplitMix(seed: 11)
        let h = Harness(radius: 60, maxZoom: 17)
        var outside = Array(trees.shuffled(using: &rng))
        for _ in 0..<(trees.count / 2) { let t = outside.removeLast(); let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.rebuild()
        let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
        var sinceUpdate = 0, updateEvery = 7
        for step in 0..<4000 {
            let ids = Array(h.point.keys)
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            // Adds, removals, exclusions, far jumps anywhere in the city, and drag steps of up to 100 m.
            let r = rng.next() % 10
            let edit: Harness.Edit = r < 2 ? .add : r < 4 ? .remove : r == 4 ? .toggle : r == 5 ? .jump
                : .drag(reach: 100, steps: 1000)
            h.apply(edit, to: id, &rng, trees: trees, outside: &outside, metre: metre)
            sinceUpdate += 1
            if sinceUpdate >= updateEvery {
                h.levels.update()
                sinceUpdate = 0
                updateEvery = 1 + Int(rng.next() % 20)
            }
            if step % 500 == 499 {
                XCTAssertFalse(h.levels.needsRebuild, "few edits must not fall back to a rebuild")
                let incremental = h.snapshot()
                let fresh = Harness(radius: 60, maxZoom: 17)
                for (id, p) in h.point { fresh.add(id, p.x, p.y, excluded: h.excluded.contains(id)) }
                assertSame(incremental, fresh.snapshot(), "step \(step)")
            }
        }
        assertSame(h.snapshot(), h.oracle(), "oracle after edits")
    }

    /// Updates that bring only some levels up to date (a view at one zoom) while edits go on:
    /// right after `update(level: t)`, levels t and above equal a from-scratch build, and the
    /// levels left behind catch up exactly, whether by taking their deferred changes or, past
    /// what a rebuild costs, by being rebuilt from the level above.
    func testLevelsLeftBehindCatchUpExactly() throws {
        let trees = try LATrees.city("artesia")
        var rng = SplitMix(seed: 23)
        let h = Harness(radius: 60, maxZoom: 17)
        // Every level below the one asked for is left behind (the default leaves only small ones).
        h.levels.lazyItems = .max
        var outside = Array(trees.shuffled(using: &rng))
        for _ in 0..<(trees.count / 2) { let t = outside.removeLast(); let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.rebuild()
        let L = h.levels.levelCount
        let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
        var caughtUpByChanges = 0
        for step in 0..<3000 {
            let ids = Array(h.point.keys)
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            let r = rng.next() % 10
            let edit: Harness.Edit = r == 0 ? .add : r == 1 ? .remove : r == 2 ? .toggle : .drag(reach: 100, steps: 1000)
            h.apply(edit, to: id, &rng, trees: trees, outside: &outside, metre: metre)
            // Mostly street zoom, a little out now and then (after few edits), and far out after
            // long stretches at street zoom (many edits).
            let t = step % 150 == 149 ? Int(rng.next() % UInt64(L - 2))
                : rng.next() % 100 < 80 ? L - 1 : L - 2 - Int(rng.next() % 4)
            let rebuildsBefore = h.levels.partialRebuilds
            h.levels.update(level: t)
            if t < L - 1 && h.levels.partialRebuilds == rebuildsBefore { caughtUpByChanges += 1 }
            if step % 250 == 249 {
                let fresh = Harness(radius: 60, maxZoom: 17)
                for (id, p) in h.point { fresh.add(id, p.x, p.y, excluded: h.excluded.contains(id)) }
                let want = fresh.snapshot()
                let got = h.snapshot(from: t)
                for z in t..<L { assertSame([got[z - t]], [want[z]], "level \(z) right after update(level: \(t)), step \(step)") }
            }
        }
        XCTAssertGreaterThan(h.levels.partialRebuilds, 0, "levels far behind must have been rebuilt")
        XCTAssertGreaterThan(caughtUpByChanges, 100, "levels a little behind must have taken their changes")
        assertSame(h.snapshot(), h.oracle(), "oracle after edits")
    }

    /// Small maps in the shape the contract fuzzer makes: a few dozen pins on a handful of
    /// points (stacks) and close neighbours, edits of every kind, and updates that bring the
    /// levels to a random level (a view, a member list or an expansion zoom at any zoom), checked
    /// against the oracle after every update. Half the maps have a small radius and levels up to
    /// zoom 24–30, where a radius is finer than the fixed point's unit (2^-32 of the world).
    func testSmallStackedMapsAtRandomLevels() {
        for seed in 0..<12 {
            var rng = SplitMix(seed: UInt64(seed))
            let deep = seed % 2 == 0
            let radius = Double(1 + rng.next() % (deep ? 8 : 255))
            let maxZoom = deep ? Double(24 + rng.next() % 7) : Double(rng.next() % 32)
            let h = Harness(radius: radius, maxZoom: maxZoom)
            if rng.next() % 2 == 0 { h.levels.lazyItems = .max }
            let L = h.levels.levelCount
            var nextId: Int64 = 1
            func spot() -> (Double, Double) {
                let k = rng.next() % 64
                let step = 1e-5 * Double(1 + rng.next() % 4) / 360
                return (0.17155 + Double(k % 8) * step, 0.40542 + Double(k / 8) * step)
            }
            for step in 0..<400 {
                let ids = h.point.keys.sorted()
                let r = rng.next() % 10
                if ids.isEmpty || r < 3 {
                    let p = spot(); h.add(nextId, p.0, p.1, excluded: rng.next() % 8 == 0); nextId += 1
                } else {
                    let id = ids[Int(rng.next() % UInt64(ids.count))]
                    switch r {
                    case 3: h.remove(id)
                    case 4: h.exclude(id, !h.excluded.contains(id))
                    default: let p = spot(); h.move(id, p.0, p.1)
                    }
                }
                guard L > 0, rng.next() % 3 == 0 else { continue }
                let t = Int(rng.next() % UInt64(L))
                let got = h.snapshot(from: t), want = h.oracle()
                for z in t..<L {
                    assertSame([got[z - t]], [want[z]], "radius \(radius), max zoom \(maxZoom), seed \(seed), step \(step): level \(z) after update(level: \(t))")
                }
                if testRun?.failureCount ?? 0 > 0 { return }
            }
        }
    }

    /// The fixed point of a coordinate is its value in units of 2^-32 rounded half away from zero
    /// (as the oracle rounds), on the whole world, halves and their neighbours included.
    func testFixedPointRoundsLikeRounded() {
        let unit = 1.0 / 4_294_967_296
        var values: [Double] = [0, 1, 1.0.nextDown, unit, unit / 2, (unit / 2).nextDown, (unit / 2).nextUp,
                                0.49999999999999994 * unit, 0.5 - unit / 2, 0.5 + unit / 2]
        var rng = SplitMix(seed: 3)
        for _ in 0..<100_000 {
            let k = Double(rng.next() % 4_294_967_296)
            let v = (k + 0.5) * unit   // a half: exactly representable
            values += [v, v.nextDown, v.nextUp, Double(rng.next() >> 11) / 9_007_199_254_740_992]
        }
        for v in values where v >= 0 && v <= 1 {
            XCTAssertEqual(ClusterLevels.fixed(v), Int64((v * 4_294_967_296).rounded()), "\(v)")
        }
    }

    /// The 3×3 walk visits every item of the nine cells exactly once, also where the one key the
    /// table moves ((-1, -1) modulo 2^32, onto (-1, -2)) falls in the block with the key it moves to.
    func testCellWalkVisitsEachItemOnce() {
        let top = 4_294_967_295.0   // 2^32 - 1: the cell coordinate -1 modulo 2^32
        for (cx, cy) in [(0.0, 0.0), (5.0, 7.0), (top, top), (top, top - 1), (top - 1, top), (0, top), (top, 0)] {
            var grid = ClusterGrid(cell: 1)
            var items = [ClusterItem](repeating: ClusterItem(x: 0, y: 0, key: 0, parent: 0, next: ClusterGrid.end), count: 9)
            var item: UInt32 = 0
            for dy in -1...1 {
                for dx in -1...1 {
                    grid.insert(item, x: cx + Double(dx) + 0.5, y: cy + Double(dy) + 0.5, &items)
                    item += 1
                }
            }
            var seen = [Int](repeating: 0, count: 9)
            items.withUnsafeBufferPointer { it in grid.forEachNear(cx + 0.5, cy + 0.5, it) { seen[Int($0)] += 1 } }
            XCTAssertEqual(seen, [Int](repeating: 1, count: 9), "block around cell (\(cx), \(cy))")
            // A clustered level's walk, 2×2 cells: the quarter of the cell the point lies in
            // tells which (items numbered by row from the block's lower left, as above).
            var pairs = ClusterGrid(cell: 1, lists: .byKey, walk: .twoByTwo)
            var keyed = [ClusterItem](repeating: ClusterItem(x: 0, y: 0, key: 0, parent: 0, next: ClusterGrid.end), count: 9)
            for i in 0..<9 {
                keyed[i].key = UInt64(i)
                pairs.insert(UInt32(i), x: cx + Double(i % 3 - 1) + 0.5, y: cy + Double(i / 3 - 1) + 0.5, &keyed)
            }
            // A list the block's cells share with a cell outside it (the key `hash` moves) is
            // walked whole, once: the items of the cells whose keys are the block's.
            func key(_ i: Int) -> UInt64 { ClusterGrid.hash(Int64(cx) + Int64(i % 3 - 1), Int64(cy) + Int64(i / 3 - 1)) }
            for (qx, qy, block) in [(0.25, 0.25, [0, 1, 3, 4]), (0.75, 0.75, [4, 5, 7, 8]), (0.25, 0.75, [3, 4, 6, 7])] {
                var met = [Int](repeating: 0, count: 9)
                keyed.withUnsafeBufferPointer { it in pairs.forEachNear(cx + qx, cy + qy, it) { met[Int($0)] += 1 } }
                let keys = Set(block.map(key))
                XCTAssertEqual(met, (0..<9).map { keys.contains(key($0)) ? 1 : 0 }, "2×2 walk at (\(qx), \(qy)) in cell (\(cx), \(cy))")
            }
        }
    }

    /// A seed removed and its slot filled by another pin before the next update (the map reuses
    /// slots), and a seed excluded and included again: its old members are re-decided although
    /// a live pin sits in its slot.
    func testASeedsSlotRefilledBeforeTheUpdate() throws {
        let trees = try LATrees.city("lomita")
        let h = Harness(radius: 60, maxZoom: 17)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.update()
        let z = h.levels.levelCount - 1
        // Seeds of clusters at the pins' level: the leaf of their item is themselves.
        let seeds = trees.filter { t in
            let s = h.slotOf[t.id]!
            guard let item = h.levels.item(holding: s, level: z) else { return false }
            return h.levels.count(level: z, slot: item) >= 3 && h.levels.leaf(level: z, slot: item) == s
        }
        XCTAssertGreaterThan(seeds.count, 10)
        var fresh: Int64 = 1 << 40
        for (n, t) in seeds.prefix(10).enumerated() {
            let p = h.point[t.id]!
            if n % 2 == 0 {
                let slot = h.slotOf[t.id]!
                h.remove(t.id)
                h.add(fresh, p.x, p.y)   // another pin, at the same point
                XCTAssertEqual(h.slotOf[fresh], slot, "the freed slot is reused")
                fresh += 1
            } else {
                h.exclude(t.id, true)
                h.exclude(t.id, false)
            }
            let incremental = h.snapshot()
            let rebuilt = Harness(radius: 60, maxZoom: 17)
            for (id, q) in h.point { rebuilt.add(id, q.x, q.y, excluded: h.excluded.contains(id)) }
            assertSame(incremental, rebuilt.snapshot(), "seed \(n)")
        }
    }

    /// Excluded pins are in no cluster; including them again puts them back where they belong.
    func testExcludedPinsAreNeverClustered() throws {
        let trees = Array(try LATrees.city("lomita").prefix(800))
        let h = Harness(radius: 60, maxZoom: 17)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        let before = h.snapshot()
        let held = trees[17].id
        h.exclude(held, true)
        for level in h.snapshot() {
            for item in level.values { XCTAssertFalse(item.1.contains(held)) }
        }
        XCTAssertEqual(h.snapshot()[10].values.reduce(0) { $0 + $1.0 }, trees.count - 1)
        h.exclude(held, false)
        assertSame(h.snapshot(), before, "after inclusion")
    }

    /// Expansion: the first level where the members are not all in one item.
    func testExpansionLevel() throws {
        let trees = try LATrees.city("artesia")
        let h = Harness(radius: 60, maxZoom: 17)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.update()
        var checked = 0
        for z in [8, 11, 13, 15] {
            var items: [UInt32] = []
            h.levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &items)
            for s in items where h.levels.count(level: z, slot: s) >= 2 {
                var mine: [Int32] = []
                h.levels.members(level: z, slot: s, into: &mine)
                let members = Set(mine)
                let e = h.levels.expansionLevel(level: z, slot: s)
                XCTAssertGreaterThan(e, z)
                // Levels z+1..<e: one item holds them all; level e (if clustered): none does.
                func holdsAll(_ l: Int) -> Bool {
                    var all: [UInt32] = []
                    h.levels.items(level: l, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &all)
                    return all.contains { c in
                        var m: [Int32] = []
                        h.levels.members(level: l, slot: c, into: &m)
                        return members.isSubset(of: Set(m))
                    }
                }
                if e < h.levels.levelCount { XCTAssertFalse(holdsAll(e)) }
                if e - 1 > z { XCTAssertTrue(holdsAll(e - 1)) }
                checked += 1
                if checked % 4 != 0 { break }
            }
        }
        XCTAssertGreaterThan(checked, 3)
    }

    /// Boxes return the items inside, whether found through the cells or by a scan.
    func testBoxQueryAgainstScan() throws {
        let trees = try LATrees.city("lomita")
        let h = Harness(radius: 60, maxZoom: 17)
        for t in trees { let m = Self.merc(t); h.add(t.id, m.x, m.y) }
        h.levels.update()
        let c = Self.merc(trees[100])
        for z in [9, 12, 14, 16] {
            let half = 600 / (256 * pow(2, Double(z)))
            var got: [UInt32] = []
            h.levels.items(level: z, minX: c.x - half, minY: c.y - half, maxX: c.x + half, maxY: c.y + half, into: &got)
            var all: [UInt32] = []
            h.levels.items(level: z, minX: 0, minY: 0, maxX: 1, maxY: 1, into: &all)
            let want = all.filter {
                let p = h.levels.point(level: z, slot: $0)
                return abs(p.x - c.x) <= half && abs(p.y - c.y) <= half
            }
            XCTAssertEqual(Set(got), Set(want), "level \(z)")
            XCTAssertEqual(got.count, Set(got).count)
            XCTAssertFalse(want.isEmpty)
        }
    }
}

/// The room: what a view draws, against the oracle's items projected by the camera.
final class ClustererTests: XCTestCase {
    func load(_ trees: [LATrees.Tree], radius: Double = 60) -> (Clusterer, [Int32: Int64]) {
        let room = Clusterer(radius: radius, maxZoom: 17)!
        var idOf: [Int32: Int64] = [:]
        for (i, t) in trees.enumerated() {
            room.pinAdded(Int32(i), id: t.id, mercator: WebMercator.normalized(lon: t.lon, lat: t.lat))
            idOf[Int32(i)] = t.id
        }
        return (room, idOf)
    }

    func testViewsMatchOracleAtManyCameras() throws {
        let trees = try LATrees.city("lomita") + LATrees.city("artesia")
        let (room, idOf) = load(trees)
        let pts = trees.map { (id: $0.id, x: WebMercator.normalized(lon: $0.lon, lat: $0.lat).x,
                               y: WebMercator.normalized(lon: $0.lon, lat: $0.lat).y) }
        let oracle = ClusterOracle(points: pts, radius: 60, levelCount: 17)
        var rng = SplitMix(seed: 5)
        var checked = 0
        for _ in 0..<40 {
            let t = trees[rng.int(trees.count)]
            let cam = Camera(centerLon: t.lon, centerLat: t.lat, zoom: rng.uniform(8, 16.99),
                             bearingDeg: rng.uniform(-180, 180), width: 1200, height: 800)
            let view = View.camera(CameraTransform(cam))
            var clusters: [ClusterView] = [], pins: [Int32] = []
            XCTAssertTrue(room.query(view, pinMargin: 22, clusters: &clusters, pins: &pins))
            let z = Int(cam.zoom.rounded(.down))
            let c = CameraTransform(cam)
            var wantClusters: Set<[Int64]> = [], wantPins: Set<Int64> = []
            for item in oracle.levels[z] {
                let p = c.toScreen(mercator: (item.x, item.y))
                if item.count == 1 {
                    if p.x >= -60 && p.x <= 1260 && p.y >= -60 && p.y <= 860 { wantPins.insert(item.ids[0]) }
                } else if p.x >= -60 && p.x <= 1260 && p.y >= -60 && p.y <= 860 {
                    wantClusters.insert(item.ids.sorted())
                }
            }
            var gotClusters: Set<[Int64]> = []
            for v in clusters {
                var m: [Int32] = []
                XCTAssertTrue(room.members(v.key, into: &m))
                XCTAssertEqual(m.count, Int(v.count))
                gotClusters.insert(m.map { idOf[$0]! }.sorted())
                let q = c.toScreen(v.lon, v.lat)
                XCTAssertEqual(q.x, v.x, accuracy: 1e-6); XCTAssertEqual(q.y, v.y, accuracy: 1e-6)
            }
            XCTAssertEqual(gotClusters, wantClusters)
            XCTAssertEqual(Set(pins.map { idOf[$0]! }), wantPins)
            checked += clusters.count
        }
        XCTAssertGreaterThan(checked, 40)
    }

    /// A host projection that is Web Mercator at zoom z has zoom z, and draws what the camera does.
    func testHostProjectionZoomIsGroundResolutionZoom() throws {
        let trees = try LATrees.city("lomita")
        let (room, _) = load(trees)
        for zoom in [9.3, 12.0, 14.7] {
            let cam = Camera(centerLon: trees[5].lon, centerLat: trees[5].lat, zoom: zoom, width: 900, height: 700)
            let c = CameraTransform(cam)
            let host = View.host(HostProjection(width: 900, height: 700,
                                                project: { c.toScreen($0, $1) }, unproject: { c.toLonLat($0, $1) }))
            XCTAssertEqual(Clusterer.zoom(of: host)!, zoom, accuracy: 1e-6)
            var a: [ClusterView] = [], pa: [Int32] = [], b: [ClusterView] = [], pb: [Int32] = []
            XCTAssertTrue(room.query(.camera(c), pinMargin: 22, clusters: &a, pins: &pa))
            XCTAssertTrue(room.query(host, pinMargin: 22, clusters: &b, pins: &pb))
            XCTAssertEqual(Set(a.map(\.key)), Set(b.map(\.key)))
            XCTAssertEqual(Set(pa), Set(pb))
        }
        // Zoom at and above the max: nothing clustered.
        let cam = Camera(centerLon: trees[5].lon, centerLat: trees[5].lat, zoom: 17, width: 900, height: 700)
        var a: [ClusterView] = [], pa: [Int32] = []
        XCTAssertFalse(room.query(.camera(CameraTransform(cam)), pinMargin: 22, clusters: &a, pins: &pa))
    }
}
