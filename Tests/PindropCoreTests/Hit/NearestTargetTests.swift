import XCTest
@testable import PindropCore
import PindropTestSupport

/// A press goes to the nearest drawn target within hit_radius, whether a pin, a cluster or a
/// collapsed stack: a stack's marker or a cluster's circle with a tree drawn beside it takes the
/// press made on it (a tie goes to the pin).
final class NearestTargetTests: XCTestCase {
    static let lon = -118.2, lat = 33.8

    func testAPressOnAStackBesideAPinOpensTheStack() throws {
        let s = Story({ $0.spreadOnTap = true }, zoom: 18)
        for id: Int64 in 1...4 { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }  // drawn at (600, 400)
        s.addPin(9, atScreen: 615, 400)                                                  // 15 points east
        _ = try s.map.frameClusters(time: 0)
        _ = s.events()
        // Nearer the tree (3 points) than the stack's marker (12 points): the tree.
        s.down(612, 400, at: 0); s.up(612, 400, at: 40)
        s.tick(400)
        XCTAssertEqual(s.events().first { $0.kind == .selected }?.id, 9)
        // Nearer the stack's marker (2 points) than the tree (13 points): the stack opens.
        _ = try s.map.frameClusters(time: 450)
        s.down(602, 400, at: 500); s.up(602, 400, at: 540)
        s.tick(900)
        XCTAssertTrue(s.kinds().contains(.stackOpened), "the stack's marker 2 points away, not the tree 13 points away")
    }

    func testAPinAtTheSameDistanceAsAStackTakesThePress() throws {
        let s = Story({ $0.spreadOnTap = true }, zoom: 18)
        for id: Int64 in 1...2 { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }
        s.addPin(9, atScreen: 620, 400)
        _ = try s.map.frameClusters(time: 0)
        _ = s.events()
        let pin = s.screenOf(9)
        s.down((600 + pin.x) / 2, 400, at: 0); s.up((600 + pin.x) / 2, 400, at: 40)
        s.tick(400)
        XCTAssertEqual(s.events().first { $0.kind == .selected }?.id, 9, "a tie goes to the pin")
    }

    func testAPressOnAClusterBesideAPinTapsTheCluster() throws {
        // Zoom 14, radius 40: pins 1-3 within a few metres cluster; pin 9, 30 points east of them,
        // is too far from the cluster's point to join at this radius? It joins if within 40 points:
        // keep it out of the cluster by selecting it (the selected pin is never clustered).
        let s = Story({ $0.clusterRadius = 40 }, zoom: 14)
        for (i, dx) in [0.0, 2, 4].enumerated() { s.addPin(Int64(i + 1), atScreen: 600 + dx, 400) }
        s.addPin(9, atScreen: 618, 400)
        try s.map.select(id: 9)
        let n = try s.map.frameClusters(time: 0)
        let cluster = try XCTUnwrap(s.map.clusterViews[0..<n].first)
        XCTAssertEqual(cluster.count, 3)
        _ = s.events()
        s.down(cluster.x, cluster.y, at: 0); s.up(cluster.x, cluster.y, at: 40)
        s.tick(400)
        XCTAssertEqual(s.kinds().first, .clusterTapped, "the cluster under the finger, not the selected pin 16 points away")
    }
}
