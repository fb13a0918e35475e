import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// An opened stack fits the view (docs/spreading.md, "An open stack fits the view"): every pin of
/// it is drawn inside a 390×844 phone view, whatever its size and wherever its centre, at least
/// the layout's spacing from every other, and is hit where it is drawn.
final class OpenStackFitTests: XCTestCase {
    static let phone = (w: 390.0, h: 844.0)

    /// The layout alone: n pins in a phone view, centres in the middle, at the edges and corners
    /// and outside: all inside, the spacing kept between every two, spread_spacing when it fits.
    func testTheLayoutKeepsEveryPinInsideTheViewAtItsSpacing() {
        let (w, h) = Self.phone
        let centres: [(Double, Double)] = [(195, 422), (0, 0), (390, 844), (195, 2), (3, 600), (-80, 422), (500, 900)]
        var out: [Double] = [], scratch: [FitPoint] = []
        for n in [1, 2, 3, 7, 19, 60, 150, 305, 700, 1500, 4000] {
            for (cx, cy) in centres {
                let d = FitLayout.layout(n: n, preferred: 25, x: cx, y: cy, width: w, height: h, into: &out, scratch: &scratch)
                XCTAssertEqual(out.count, 2 * n)
                XCTAssertLessThanOrEqual(d, 25)
                var pts: [(x: Double, y: Double)] = []
                for k in 0..<n {
                    let x = out[2 * k], y = out[2 * k + 1]
                    XCTAssertTrue(x >= 0 && x <= w && y >= 0 && y <= h, "n \(n) at (\(cx), \(cy)): pin \(k) at (\(x), \(y))")
                    pts.append((x, y))
                }
                // Brute force: no two pins closer than the spacing.
                var closest = Double.infinity
                for i in pts.indices { for j in pts.indices where j > i {
                    closest = min(closest, ((pts[i].x - pts[j].x) * (pts[i].x - pts[j].x) + (pts[i].y - pts[j].y) * (pts[i].y - pts[j].y)).squareRoot())
                } }
                if n > 1 { XCTAssertGreaterThanOrEqual(closest, d * (1 - 1e-9), "n \(n)") }
                if n <= 19 && cx >= 25 && cx <= w - 25 && cy >= 25 && cy <= h - 25 { XCTAssertEqual(d, 25, "n \(n) fits at the preferred spacing") }
            }
        }
        // The 305-tree stack on a phone, centred: the spacing it gets.
        let d305 = FitLayout.layout(n: 305, preferred: 25, x: 195, y: 422, width: w, height: h, into: &out, scratch: &scratch)
        XCTAssertEqual(d305, 25, "305 pins fit a phone at 25 points")
        let d4000 = FitLayout.layout(n: 4000, preferred: 25, x: 195, y: 422, width: w, height: h, into: &out, scratch: &scratch)
        XCTAssertGreaterThan(d4000, 8)
    }

    /// Real stacks of the LA trees (2 to 305 trees, Lawndale's 305 included), opened on a 390×844
    /// view at zooms 12 to 21 with the stack in the middle, at the edges and in the corners: every
    /// pin of the opened badge is drawn inside the view, once, and is hit where it is drawn.
    func testRealStacksOpenedOnAPhoneKeepEveryPinInView() throws {
        guard let data = LATreesFile.every(1) else { throw XCTSkip("../shared/data/la_trees.csv is not there") }
        var byCoordinate: [[Double]: [Int64]] = [:]
        for (i, id) in data.ids.enumerated() { byCoordinate[[data.lonlat[2 * i], data.lonlat[2 * i + 1]], default: []].append(id) }
        let stacks = byCoordinate.filter { $0.value.count >= 2 }.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.value.min()! < $1.value.min()! }
        XCTAssertEqual(stacks.first?.value.count, 305)
        // The biggest ones and one of each smaller size down to 2.
        var chosen: [(lon: Double, lat: Double, ids: [Int64])] = []
        var sizes = Set<Int>()
        for s in stacks where chosen.count < 4 || (!sizes.contains(s.value.count) && [2, 3, 4, 6, 10, 20, 40, 80].contains(s.value.count)) {
            chosen.append((s.key[0], s.key[1], s.value)); sizes.insert(s.value.count)
        }
        XCTAssertGreaterThanOrEqual(chosen.count, 10)
        var o = Options()
        o.spreadOnTap = true
        let map = try Map(options: o, factory: BruteForceFactory())
        try data.ids.withUnsafeBufferPointer { i in try data.lonlat.withUnsafeBufferPointer { try map.addMany(ids: i, lonlat: $0) } }
        let (w, h) = Self.phone
        let places: [(Double, Double)] = [(195, 422), (4, 4), (386, 840), (195, 3), (2, 500), (388, 100)]
        var t = 0.0, opened = 0, biggest = 0
        for stack in chosen {
            for z in [12.0, 15, 18, 21] {
                for (px, py) in places {
                    // A camera that draws the stack's centre at (px, py).
                    let world = 256 * pow(2, z)
                    let m = WebMercator.project(lon: stack.lon, lat: stack.lat, worldSize: world)
                    let c = WebMercator.unproject(x: m.x - px + w / 2, y: m.y - py + h / 2, worldSize: world)
                    try map.setCamera(Camera(centerLon: c.lon, centerLat: c.lat, zoom: z, width: w, height: h))
                    t += 1000
                    try map.closeStack(time: t)
                    let n = try map.frameClusters(time: t)
                    // The badge that holds the stack (it may have merged with others near it, and
                    // then lie a little away from it).
                    var badge: ClusterView?
                    let near = map.clusterViews[0..<n].sorted { hypot($0.x - px, $0.y - py) < hypot($1.x - px, $1.y - py) }
                    for v in near {
                        if try map.clusterMembers(key: v.key).contains(stack.ids[0]) { badge = v; break }
                    }
                    let b = try XCTUnwrap(badge, "\(stack.ids.count) at zoom \(z), (\(px), \(py))")
                    let members = Set(try map.clusterMembers(key: b.key))
                    XCTAssertTrue(members.isSuperset(of: stack.ids))
                    // Opened by a tap where it is drawn (a badge at the edge may lie just outside).
                    if b.x >= 0 && b.x <= w && b.y >= 0 && b.y <= h {
                        XCTAssertTrue(try map.touch(pointer: 0, phase: .down, x: b.x, y: b.y, time: t + 10))
                        _ = try map.touch(pointer: 0, phase: .up, x: b.x, y: b.y, time: t + 50)
                    } else {
                        try map.openStack(key: b.key, time: t + 50)
                    }
                    XCTAssertEqual(map.openStackKey, b.key)
                    let k = try map.frame(time: t + 100)
                    let views = map.frameViews[0..<k].filter { members.contains($0.id) }
                    XCTAssertEqual(views.count, members.count, "every pin of the opened badge is drawn")
                    XCTAssertEqual(Set(views.map(\.id)).count, views.count)
                    for v in views {
                        XCTAssertTrue(v.x >= 0 && v.x <= w && v.y >= 0 && v.y <= h,
                                      "\(members.count) at zoom \(z), (\(px), \(py)): \(v.id) drawn at (\(v.x), \(v.y))")
                    }
                    // Each hit where it is drawn (all of a small one, a sample of a large one).
                    for v in views.enumerated() where members.count <= 40 || v.offset % 7 == 0 {
                        XCTAssertEqual(try map.hitTest(x: v.element.x, y: v.element.y), v.element.id)
                    }
                    opened += 1
                    biggest = max(biggest, members.count)
                }
            }
        }
        XCTAssertGreaterThan(opened, 200)
        XCTAssertGreaterThanOrEqual(biggest, 305)
    }
}
