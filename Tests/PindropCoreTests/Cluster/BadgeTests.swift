import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The rule of badges (docs/clusters.md, "Badges never overlap"), written out by brute force:
/// by count (most first), then x, then y, each badge not yet taken takes every badge not yet taken
/// within r; each group becomes one badge at its count-weighted mean point; again until no two lie
/// within r. Returns the groups of the input's indices, in no particular order.
enum BadgeOracle {
    struct Badge { var x, y: Double; var count: Int }

    static func merge(_ badges: [Badge], radius r: Double) -> [[Int]] {
        var items = badges.map { (x: $0.x, y: $0.y, w: Double(max($0.count, 1))) }
        var groups = badges.indices.map { [$0] }
        while true {
            // Most pins first, then by x, then y; each not taken takes all not taken within r.
            let order = items.indices.sorted { a, b in
                items[a].w != items[b].w ? items[a].w > items[b].w
                    : items[a].x != items[b].x ? items[a].x < items[b].x : items[a].y < items[b].y
            }
            var seedOf = [Int](repeating: -1, count: items.count)
            var joined = false
            for i in order where seedOf[i] < 0 {
                seedOf[i] = i
                for j in items.indices where seedOf[j] < 0 {
                    let dx = items[i].x - items[j].x, dy = items[i].y - items[j].y
                    if dx * dx + dy * dy <= r * r { seedOf[j] = i; joined = true }
                }
            }
            if !joined { return groups }
            var next: [Int: Int] = [:]
            var newItems: [(x: Double, y: Double, w: Double)] = [], newGroups: [[Int]] = []
            for i in items.indices {
                let root = seedOf[i]
                if next[root] == nil { next[root] = newItems.count; newItems.append((0, 0, 0)); newGroups.append([]) }
                let k = next[root]!
                newItems[k].x += items[i].w * items[i].x; newItems[k].y += items[i].w * items[i].y
                newItems[k].w += items[i].w
                newGroups[k] += groups[i]
            }
            for k in newItems.indices { newItems[k].x /= newItems[k].w; newItems[k].y /= newItems[k].w }
            items = newItems; groups = newGroups
        }
    }

    /// The closest pair of points (exact: a sweep along x, which compares every pair closer than
    /// `within` along x, the only ones that can be closer than it). Nil when none is within.
    static func closestPair(_ p: [(x: Double, y: Double)], within r: Double) -> Double? {
        let s = p.sorted { $0.x < $1.x }
        var best: Double?
        for i in s.indices {
            var j = i + 1
            while j < s.count && s[j].x - s[i].x <= r {
                let d = ((s[j].x - s[i].x) * (s[j].x - s[i].x) + (s[j].y - s[i].y) * (s[j].y - s[i].y)).squareRoot()
                if d <= r, best == nil || d < best! { best = d }
                j += 1
            }
        }
        return best
    }
}

final class BadgeTests: XCTestCase {
    func testTheOracleIsGreedyAndRepeats() {
        // 0 (most pins) takes 1; 2, 23 from 1, is not taken; the mean of 0 and 1 (at 10/3) is
        // within 22 of 2, so a second round joins them.
        let b = [BadgeOracle.Badge(x: 0, y: 0, count: 2), .init(x: 10, y: 0, count: 1), .init(x: 24, y: 0, count: 1),
                 .init(x: 100, y: 0, count: 5)]
        let g = BadgeOracle.merge(b, radius: 22).map { $0.sorted() }.sorted { $0[0] < $1[0] }
        XCTAssertEqual(g, [[0, 1, 2], [3]])
        // No chains: 0 takes 1 (20 away), not 2 (40 away), which stays apart from their mean (30 away).
        let c = [BadgeOracle.Badge(x: 0, y: 0, count: 1), .init(x: 20, y: 0, count: 1), .init(x: 40, y: 0, count: 1)]
        XCTAssertEqual(BadgeOracle.merge(c, radius: 22).map { $0.sorted() }.sorted { $0[0] < $1[0] }, [[0, 1], [2]])
    }

    /// The map against the oracle on the stacks of a dense neighbourhood (no clusters).
    func testTheMapMergesAsTheOracle() throws {
        let data = try Self.lawndale()
        let map = try Self.map(data) { _ in }
        var byCoordinate: [[Double]: [Int64]] = [:]
        for (i, id) in data.ids.enumerated() { byCoordinate[[data.lonlat[2 * i], data.lonlat[2 * i + 1]], default: []].append(id) }
        let stacks = byCoordinate.filter { $0.value.count >= 2 }.map { ($0.key, $0.value.sorted()) }
        for z in [14.0, 16, 17, 18, 19] {
            try map.setCamera(Camera(centerLon: -118.3466, centerLat: 33.8870, zoom: z, width: 1200, height: 800))
            let n = try map.frameClusters(time: 0)
            let got = try map.clusterViews[0..<n].map { try map.clusterMembers(key: $0.key) }.sorted { $0[0] < $1[0] }
            // The oracle over the stacks the view draws (inside the viewport grown by hit_radius).
            let r = map.options.hitRadius
            let shown = try stacks.filter { s in
                let q = try map.toScreen(lon: s.0[0], lat: s.0[1])
                return q.x >= -r && q.x <= 1200 + r && q.y >= -r && q.y <= 800 + r
            }
            let points = try shown.map { s -> BadgeOracle.Badge in
                let q = try map.toScreen(lon: s.0[0], lat: s.0[1])
                return BadgeOracle.Badge(x: q.x, y: q.y, count: s.1.count)
            }
            let want = BadgeOracle.merge(points, radius: r).map { $0.flatMap { shown[$0].1 }.sorted() }.sorted { $0[0] < $1[0] }
            XCTAssertEqual(got, want, "zoom \(z)")
        }
    }

    /// Two stacks 5 m apart at zoom 18 (about 8 points): one badge of 4 + 13 pins, which answers
    /// for the union, opens as one and lays all 17 out together; zoomed in far enough, two.
    func testStacksWithinHitRadiusAreOneBadgeThatOpensAsOne() throws {
        let lon = -118.2, lat = 33.8
        let s = Story({ $0.spreadOnTap = true }, lon: lon, lat: lat, zoom: 18)
        let east = lon + 5 / (111_320 * cos(lat * .pi / 180))
        for id: Int64 in 1...4 { try s.map.add(id: id, lon: lon, lat: lat) }
        for id: Int64 in 11...23 { try s.map.add(id: id, lon: east, lat: lat) }
        var n = try s.map.frameClusters(time: 0)
        XCTAssertEqual(n, 1, "the 4 and the 13 are one badge")
        let b = s.map.clusterViews[0]
        XCTAssertEqual(b.count, 17)
        XCTAssertEqual(b.flags, ClusterFlags.stack.rawValue)
        XCTAssertTrue(BadgeMerger.isMerged(b.key))
        XCTAssertEqual(try s.map.clusterMembers(key: b.key), Array(1...4) + Array(11...23))
        XCTAssertEqual(try s.map.clusterSummary(key: b.key).count, 17)
        // Drawn at the count-weighted mean: 13/17 of the way to the east stack.
        let p0 = try s.map.toScreen(lon: lon, lat: lat), p1 = try s.map.toScreen(lon: east, lat: lat)
        XCTAssertEqual(b.x, (4 * p0.x + 13 * p1.x) / 17, accuracy: 1e-9)
        XCTAssertEqual(try s.map.frame(time: 0), 0, "no pin drawn: all are in the badge")
        // A tap on it opens both stacks as one.
        XCTAssertTrue(s.down(b.x, b.y, at: 10))
        XCTAssertTrue(s.up(b.x, b.y, at: 60))
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.stackOpened])
        XCTAssertEqual(e.first?.request, b.key)
        XCTAssertEqual(s.map.openStackKey, b.key)
        n = try s.map.frame(time: 100)
        let views = s.map.frameViews[0..<n]
        XCTAssertEqual(Set(views.map(\.id)), Set(Array(1...4) + Array(11...23)))
        for v in views {
            XCTAssertTrue(v.flags.contains(.spread))
            XCTAssertEqual(try s.map.hitTest(x: v.x, y: v.y), v.id)
            for w in views where w.id != v.id {
                XCTAssertGreaterThanOrEqual(((v.x - w.x) * (v.x - w.x) + (v.y - w.y) * (v.y - w.y)).squareRoot(), 25 - 1e-6)
            }
        }
        XCTAssertEqual(try s.map.frameClusters(time: 100), 0)
        try s.map.closeStack(time: 200)
        XCTAssertEqual(s.events().map(\.request), [b.key])
        // At zoom 21 they are 64 points apart: two badges, their own keys.
        try s.map.setCamera(Camera(centerLon: lon, centerLat: lat, zoom: 21, width: 1200, height: 800))
        n = try s.map.frameClusters(time: 300)
        XCTAssertEqual(s.map.clusterViews[0..<n].map(\.count).sorted(), [4, 13])
        XCTAssertTrue(s.map.clusterViews[0..<n].allSatisfy { !BadgeMerger.isMerged($0.key) })
        // The merged key names nothing in this view.
        XCTAssertThrowsError(try s.map.clusterMembers(key: b.key))
        XCTAssertThrowsError(try s.map.openStack(key: b.key, time: 300))
    }

    // MARK: - Real data, every zoom

    /// Draws the whole data in one view per zoom (a viewport that covers it) and checks the rule:
    /// no two badges within hit_radius (exact closest pair), the badges' counts and the pins drawn
    /// add up to every pin, and (with `members`) each badge's members are its count, disjoint
    /// from each other's and from the pins drawn.
    func checkEveryZoom(_ map: Map, ids: [Int64], lonlat: [Double], zooms: ClosedRange<Int>, members: Bool,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        var minLon = Double.infinity, maxLon = -Double.infinity, minLat = Double.infinity, maxLat = -Double.infinity
        for i in ids.indices {
            minLon = min(minLon, lonlat[2 * i]); maxLon = max(maxLon, lonlat[2 * i])
            minLat = min(minLat, lonlat[2 * i + 1]); maxLat = max(maxLat, lonlat[2 * i + 1])
        }
        let r = map.options.hitRadius
        var merged = 0
        for z in zooms {
            let world = 256 * pow(2, Double(z))
            let a = WebMercator.project(lon: minLon, lat: maxLat, worldSize: world)
            let b = WebMercator.project(lon: maxLon, lat: minLat, worldSize: world)
            let w = max(390, b.x - a.x + 4 * r), h = max(844, b.y - a.y + 4 * r)
            let c = WebMercator.unproject(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, worldSize: world)
            try map.setCamera(Camera(centerLon: c.lon, centerLat: c.lat, zoom: Double(z), width: w, height: h))
            let n = try map.frameClusters(time: 0)
            let badges = Array(map.clusterViews[0..<n])
            let pins = try map.frame(time: 0)
            let drawnIDs = map.frameViews[0..<pins].map(\.id)
            let close = BadgeOracle.closestPair(badges.map { ($0.x, $0.y) }, within: r)
            XCTAssertNil(close, "zoom \(z): two badges \(close ?? 0) points apart", file: file, line: line)
            XCTAssertEqual(badges.reduce(0) { $0 + Int($1.count) } + pins, ids.count, "zoom \(z): counts + pins",
                           file: file, line: line)
            merged += badges.filter { BadgeMerger.isMerged($0.key) }.count
            if members {
                var seen = Set(drawnIDs)
                XCTAssertEqual(seen.count, pins)
                for v in badges {
                    let m = try map.clusterMembers(key: v.key)
                    XCTAssertEqual(m.count, Int(v.count), "zoom \(z)", file: file, line: line)
                    for id in m { XCTAssertTrue(seen.insert(id).inserted, "zoom \(z): \(id) twice", file: file, line: line) }
                }
                XCTAssertEqual(seen.count, ids.count, file: file, line: line)
            } else {
                // The merged ones at least: their members are their count.
                for v in badges where BadgeMerger.isMerged(v.key) {
                    XCTAssertEqual(try map.clusterMembers(key: v.key).count, Int(v.count), "zoom \(z)", file: file, line: line)
                }
            }
        }
        XCTAssertGreaterThan(merged, 0, "the rule merged something", file: file, line: line)
    }

    static func lawndale() throws -> (ids: [Int64], lonlat: [Double]) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/data/lawndale_trees.csv")
        var ids: [Int64] = [], lonlat: [Double] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            ids.append(Int64(f[0])!); lonlat.append(Double(f[1])!); lonlat.append(Double(f[2])!)
        }
        return (ids, lonlat)
    }

    static func map(_ data: (ids: [Int64], lonlat: [Double]), _ configure: (inout Options) -> Void) throws -> Map {
        var o = Options()
        o.spreadOnTap = true
        configure(&o)
        let map = try Map(options: o, factory: BruteForceFactory())
        try data.ids.withUnsafeBufferPointer { i in try data.lonlat.withUnsafeBufferPointer { try map.addMany(ids: i, lonlat: $0) } }
        return map
    }

    func testLawndaleBadgesNeverOverlapAtAnyZoom() throws {
        let data = try Self.lawndale()
        // QGIS's plugin and the web page cluster at radius 60 up to zoom 17; and without clusters.
        for radius in [60.0, 0] {
            let map = try Self.map(data) { $0.clusterRadius = radius; $0.clusterMaxZoom = 17 }
            try checkEveryZoom(map, ids: data.ids, lonlat: data.lonlat, zooms: 0...22, members: true)
        }
    }

    func testLATreesBadgesNeverOverlapAtAnyZoom() throws {
        guard let data = LATreesFile.every(1) else { throw XCTSkip("../shared/data/la_trees.csv is not there") }
        let map = try Self.map(data) { $0.clusterRadius = 60; $0.clusterMaxZoom = 17 }
        try checkEveryZoom(map, ids: data.ids, lonlat: data.lonlat, zooms: 0...20, members: false)
    }
}
