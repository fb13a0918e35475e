import Foundation
import XCTest
@testable import PindropCore

extension ClusterSummaryTests {
    /// cluster_min_points 3...8, with and without cluster_by_category, kept by the incremental
    /// update (never a rebuild): after every step of random histories (adds, removes, exclusions,
    /// jumps, drags, value and category changes, on real trees and stacks of 1...m+1 pins on one
    /// spot), the levels brought up to date equal a from-scratch build bit for bit (members,
    /// counts, points), no cluster holds fewer than m pins, and every summary equals the one
    /// computed from its members.
    func testMinPointsLevelsAreKeptIncrementally() throws {
        let trees = try LATrees.city("artesia")
        let metre = 1 / 40_075_016.7 / cos(33.87 * .pi / 180)
        let cases: [(m: Int, byCategory: Bool)] = [(3, false), (4, true), (5, false), (6, true), (7, false), (8, true),
                                                   (3, true), (8, false)]
        var keptApart = 0
        for (n, c) in cases.enumerated() {
            var rng = SplitMix(seed: UInt64(500 + n))
            let a = Attributed(radius: 60, maxZoom: 17, byCategory: c.byCategory, minPoints: c.m)
            let h = a.h
            if n % 3 == 1 { h.levels.lazyItems = .max }
            let L = h.levels.levelCount
            var outside = Array(trees.shuffled(using: &rng))
            for _ in 0..<200 {
                let t = outside.removeLast(); let p = ClusterTests.merc(t); h.add(t.id, p.x, p.y)
            }
            // Stacks of 1...m+1 pins on one spot, next to real trees.
            for k in 0..<5 {
                let p = ClusterTests.merc(trees[k * 53])
                for i in 0..<(1 + k % (c.m + 1)) { h.add(Int64(1_000_000 + 100 * k + i), p.x, p.y) }
            }
            for id in h.point.keys where rng.next() % 3 != 0 {
                a.set(id, value: Self.randomValue(&rng), category: UInt32(rng.next() % 3))
            }
            h.levels.update()
            for step in 0..<40 {
                let ids = h.point.keys.sorted()
                let id = ids[Int(rng.next() % UInt64(ids.count))]
                switch rng.next() % 10 {
                case 0, 1: h.apply(.add, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                case 2 where id < 1_000_000: a.remove(id); outside.insert(trees.first { $0.id == id }!, at: 0)
                case 3: h.apply(.toggle, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                case 4: h.apply(.jump, to: id, &rng, trees: trees, outside: &outside, metre: metre)
                case 5: a.set(id, value: Self.randomValue(&rng))
                case 6: a.set(id, category: UInt32(rng.next() % 3))
                case 7:
                    // A stack's pins, or a tree's neighbours in the id order, take one category.
                    let cat = UInt32(rng.next() % 3)
                    for other in ids.prefix(1 + Int(rng.next() % 8)) { a.set(other, category: cat) }
                default: h.apply(.drag(reach: 300, steps: 1000), to: id, &rng, trees: trees, outside: &outside, metre: metre)
                }
                // Mostly the whole hierarchy, sometimes only the street levels (the rest catch up).
                let t = rng.next() % 4 == 0 ? L - 1 - Int(rng.next() % 3) : 0
                let got = h.snapshot(from: t)
                XCTAssertFalse(h.levels.needsRebuild, "m \(c.m): an edit fell back to a rebuild")
                let fresh = a.fresh()
                fresh.h.levels.rebuild()
                let want = fresh.h.snapshot(from: t)
                assertSame(got, want, "m \(c.m) by category \(c.byCategory) step \(step)")
                for level in got {
                    for (_, v) in level where v.0 > 1 { XCTAssertGreaterThanOrEqual(v.0, c.m, "m \(c.m) step \(step)") }
                }
                // Groups kept apart: single pins at a level where an m = 2 build would cluster them.
                if step == 39 {
                    let plain = Attributed(radius: 60, maxZoom: 17, byCategory: c.byCategory, minPoints: 2)
                    for (pid, p) in h.point.sorted(by: { $0.key < $1.key }) {
                        plain.h.add(pid, p.x, p.y, excluded: h.excluded.contains(pid))
                        plain.set(pid, value: a.value[pid] ?? .nan, category: a.category[pid] ?? 0)
                    }
                    let other = plain.h.snapshot(from: t)
                    for z in 0..<got.count { keptApart += got[z].count - other[z].count }
                }
                checkSummaries(a, from: t, "m \(c.m) step \(step)")
                if testRun?.failureCount ?? 0 > 0 { return }
            }
        }
        XCTAssertGreaterThan(keptApart, 20, "the histories must keep groups apart")
    }
}
