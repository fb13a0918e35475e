import XCTest
@testable import PindropCore
import PindropTestSupport

/// Badges under an open stack (docs/clusters.md, "Badges under an open stack"): while a stack is
/// open, no badge is drawn within hit_radius of one of its pins, and a touch there finds what is
/// drawn (a pin of the open stack), not the badge hidden under it; the badge comes back when the
/// stack closes.
final class OpenStackFootprintTests: XCTestCase {
    static let lon = -118.2, lat = 33.8

    /// A stack of 40 at the view's centre and one of 3 60 points east of it: two badges. Opened,
    /// the 40 cover the 3's badge with their grid: it is not drawn, a tap on its spot touches a
    /// pin of the open stack, and closing brings it back.
    func testABadgeUnderTheOpenStacksGridIsNeitherDrawnNorHit() throws {
        let s = Story({ $0.spreadOnTap = true }, lon: Self.lon, lat: Self.lat, zoom: 18)
        for id: Int64 in 1...40 { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }
        let east = try s.map.toLonLat(x: 660, y: 400)
        for id: Int64 in 101...103 { try s.map.add(id: id, lon: east.lon, lat: east.lat) }
        var n = try s.map.frameClusters(time: 0)
        let badges = Array(s.map.clusterViews[0..<n])
        XCTAssertEqual(badges.map(\.count).sorted(), [3, 40], "two badges, 60 points apart")
        let big = try XCTUnwrap(badges.first { $0.count == 40 }), small = try XCTUnwrap(badges.first { $0.count == 3 })

        try s.map.openStack(key: big.key, time: 10)
        XCTAssertEqual(s.kinds(), [.stackOpened])
        let drawn = try s.map.frame(time: 20)
        let open = s.map.frameViews[0..<drawn].filter { $0.flags.contains(.spread) }
        XCTAssertEqual(open.count, 40)
        let r = s.map.options.hitRadius
        let nearest = open.map { (($0.x - small.x) * ($0.x - small.x) + ($0.y - small.y) * ($0.y - small.y)).squareRoot() }.min()!
        XCTAssertLessThan(nearest, r, "the open grid reaches the small stack's badge")
        n = try s.map.frameClusters(time: 20)
        XCTAssertEqual(n, 0, "the badge of 3 under the open grid is not drawn")

        // A tap on its spot touches the open stack's pin drawn nearest it.
        XCTAssertTrue(s.down(small.x, small.y, at: 30))
        s.up(small.x, small.y, at: 80)
        let kinds = s.kinds()
        XCTAssertFalse(kinds.contains(.stackOpened), "\(kinds)")
        XCTAssertFalse(kinds.contains(.stackClosed), "\(kinds)")
        XCTAssertEqual(s.map.openStackKey, big.key)
        XCTAssertNil(s.map.badgeHit(small.x, small.y), "no badge is hit under the open grid")

        // Closed, the 40 are a badge again, and so are the 3.
        try s.map.closeStack(time: 100)
        try s.map.select(id: noID)
        n = try s.map.frameClusters(time: 110)
        XCTAssertEqual(s.map.clusterViews[0..<n].map(\.count).sorted(), [3, 40])
    }

    /// The GTK app's view (466×844 at zoom 18) on Lawndale with its 305-tree stack opened: the
    /// stacks of 261, 78, 75 and 58 near it lie under the grid. No badge is drawn within hit_radius
    /// of a pin of the open stack, every badge drawn is hit where it is drawn, and every pin of the
    /// open stack is hit where it is drawn.
    func testLawndalesOpenStackCoversNoBadge() throws {
        let data = try BadgeTests.lawndale()
        let map = try BadgeTests.map(data) { $0.clusterRadius = 0 }
        var byCoordinate: [[Double]: Int] = [:]
        for i in data.ids.indices { byCoordinate[[data.lonlat[2 * i], data.lonlat[2 * i + 1]], default: 0] += 1 }
        let spot = try XCTUnwrap(byCoordinate.first { $0.value == 305 }).key
        try map.setCamera(Camera(centerLon: spot[0], centerLat: spot[1], zoom: 18, width: 466, height: 844))
        var n = try map.frameClusters(time: 0)
        let before = Array(map.clusterViews[0..<n])
        let stack = try XCTUnwrap(before.first { $0.count == 305 })
        try map.openStack(key: stack.key, time: 10)
        let drawn = try map.frame(time: 20)
        let open = map.frameViews[0..<drawn].filter { $0.flags.contains(.spread) }
        XCTAssertEqual(open.count, 305)
        let r = map.options.hitRadius
        func near(_ x: Double, _ y: Double) -> Bool {
            open.contains { ($0.x - x) * ($0.x - x) + ($0.y - y) * ($0.y - y) <= r * r }
        }
        let covered = before.filter { $0.key != stack.key && near($0.x, $0.y) }
        XCTAssertGreaterThanOrEqual(covered.map(\.count).reduce(0, +), 261 + 78 + 75 + 58,
                                    "the closed stacks near the 305 lie under its grid")
        n = try map.frameClusters(time: 20)
        let after = Array(map.clusterViews[0..<n])
        XCTAssertFalse(after.isEmpty, "badges away from the grid are still drawn")
        for b in after {
            XCTAssertFalse(near(b.x, b.y), "badge of \(b.count) at (\(b.x), \(b.y)) is under the open grid")
            XCTAssertEqual(map.badgeHit(b.x, b.y)?.view.key, b.key, "a badge drawn is hit where it is drawn")
        }
        for b in covered { XCTAssertNil(map.badgeHit(b.x, b.y), "the hidden badge of \(b.count) is not hit") }
        for v in open { XCTAssertEqual(try map.hitTest(x: v.x, y: v.y), v.id) }
        // Closed: the hidden badges are back.
        try map.closeStack(time: 30)
        n = try map.frameClusters(time: 40)
        XCTAssertEqual(Set(map.clusterViews[0..<n].map(\.key)), Set(before.map(\.key)))
    }
}
