import XCTest
@testable import PindropCore
import PindropTestSupport

/// Clusters in the map: what a clustered view draws, taps and presses on clusters, and the pins
/// that are never clustered. Zoom 14, radius 60: pins 1 and 2 (10 points apart) are one cluster
/// drawn near (605, 400); pin 3 at (100, 100) is alone.
final class ClusterMapTests: XCTestCase {
    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story({ $0.clusterRadius = 60; configure(&$0) }, zoom: 14)
        s.addPin(1, atScreen: 600, 400); s.addPin(2, atScreen: 610, 400)
        s.addPin(3, atScreen: 100, 100)
        return s
    }

    func drawnIDs(_ s: Story, at t: Double) -> Set<Int64> {
        try! s.map.frame(time: t)
        return Set(s.map.frameViews.map(\.id))
    }

    func testAClusteredViewDrawsTheClusterAndTheLonePin() throws {
        let s = story()
        XCTAssertEqual(drawnIDs(s, at: 0), [3])
        XCTAssertEqual(try s.map.frameClusters(time: 0), 1)
        let c = s.map.clusterViews[0]
        XCTAssertEqual(c.count, 2)
        XCTAssertEqual(c.x, 605, accuracy: 0.01); XCTAssertEqual(c.y, 400, accuracy: 0.01)
        XCTAssertEqual(Set(try s.map.clusterMembers(key: c.key)), [1, 2])
        // 10 points apart at zoom 14, 40 at zoom 16: together on every level, so they part at the max zoom.
        XCTAssertEqual(try s.map.clusterExpansionZoom(key: c.key), 17)
        // The clustered pins cannot be touched; the lone one can.
        XCTAssertNil(try s.map.hitTest(x: 600, y: 400))
        XCTAssertEqual(try s.map.hitTest(x: 100, y: 100), 3)
        XCTAssertThrowsError(try s.map.clusterMembers(key: c.key ^ 0xFFFF))
    }

    func testATapOnAClusterIsClusterTapped() throws {
        let s = story()
        try s.map.frameClusters(time: 0)
        let c = s.map.clusterViews[0]
        XCTAssertTrue(s.down(605, 400, at: 10))
        XCTAssertTrue(s.up(606, 401, at: 100))
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.clusterTapped])
        XCTAssertEqual(e[0].request, c.key)
        XCTAssertEqual(e[0].id, noID)
        XCTAssertEqual(e[0].lon, c.lon); XCTAssertEqual(e[0].lat, c.lat)
        XCTAssertEqual(s.map.selectedID, noID)
    }

    func testAPressOnAClusterNeverLiftsAndAMovePans() throws {
        let s = story()
        XCTAssertTrue(s.down(605, 400, at: 0))
        s.tick(250); s.tick(1000)
        XCTAssertFalse(s.move(640, 400, at: 1100), "beyond drag_threshold: the host pans")
        XCTAssertFalse(s.up(700, 400, at: 1200))
        XCTAssertEqual(s.kinds(), [], "no LIFTED, no tap")
        // A long press (past tap_max_ms) that stays put is not a tap either.
        XCTAssertTrue(s.down(605, 400, at: 2000))
        XCTAssertTrue(s.up(605, 400, at: 2600))
        XCTAssertEqual(s.kinds(), [])
    }

    func testSelectedEditedAndHeldPinsAreNeverClustered() throws {
        let s = story()
        try s.map.select(id: 1)
        XCTAssertEqual(drawnIDs(s, at: 0), [1, 2, 3], "the selected pin leaves its cluster; pin 2 is alone")
        XCTAssertEqual(try s.map.frameClusters(time: 0), 0)
        try s.map.select(id: noID)
        XCTAssertEqual(drawnIDs(s, at: 0), [3])

        try s.map.edit(id: 2, time: 10)
        XCTAssertEqual(drawnIDs(s, at: 10), [1, 2, 3])
        try s.map.cancelEdit(time: 20)
        XCTAssertEqual(drawnIDs(s, at: 20), [3])

        // Held: pin 3 pressed, then lifted, then dragged next to pins 1 and 2: still drawn.
        s.down(100, 100, at: 30)
        s.tick(280)
        s.move(600, 445, at: 500)  // lands lift_height (40 points) above the finger
        XCTAssertEqual(drawnIDs(s, at: 500), [3])
        XCTAssertEqual(try s.map.frameClusters(time: 500), 1)
        var members = try s.map.clusterMembers(key: s.map.clusterViews[0].key)
        XCTAssertEqual(Set(members), [1, 2])
        s.up(600, 445, at: 600)
        XCTAssertTrue(s.kinds().contains(.moved))
        // Dropped next to the others: clustered with them now.
        try s.map.frameClusters(time: 700)
        XCTAssertEqual(s.map.clusterViews.map(\.count), [3])
        members = try s.map.clusterMembers(key: s.map.clusterViews[0].key)
        XCTAssertEqual(Set(members), [1, 2, 3])
    }

    /// At and above cluster_max_zoom nothing is clustered: the frame is the unclustered map's.
    func testAtMaxZoomTheFrameIsTheUnclusteredOne() throws {
        let trees = try LATrees.city("lomita").prefix(3000)
        func map(_ radius: Double) throws -> Map {
            var o = Options(); o.clusterRadius = radius
            let m = try Map(options: o, factory: BruteForceFactory())
            for t in trees { try m.add(id: t.id, lon: t.lon, lat: t.lat) }
            return m
        }
        let on = try map(60), off = try map(0)
        let t = trees[trees.startIndex + 40]
        for zoom in [17.0, 18.5] {
            let cam = Camera(centerLon: t.lon, centerLat: t.lat, zoom: zoom, bearingDeg: 30, width: 1200, height: 800)
            try on.setCamera(cam); try off.setCamera(cam)
            try on.frame(time: 0); try off.frame(time: 0)
            XCTAssertFalse(on.frameViews.isEmpty)
            XCTAssertEqual(on.frameViews, off.frameViews)
            XCTAssertEqual(try on.frameClusters(time: 0), 0)
        }
        // Below it, the same view is clustered: fewer pins, and clusters hold the rest.
        let cam = Camera(centerLon: t.lon, centerLat: t.lat, zoom: 15, width: 1200, height: 800)
        try on.setCamera(cam); try off.setCamera(cam)
        try on.frame(time: 0); try off.frame(time: 0)
        let clusters = try on.frameClusters(time: 0)
        XCTAssertGreaterThan(clusters, 0)
        XCTAssertLessThan(on.frameViews.count, off.frameViews.count)
    }
}
