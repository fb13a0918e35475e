import XCTest
@testable import PindropCore
import PindropTestSupport

/// The keyboard focus on a collapsed stack (behaviours 20 and 22 together): a stack item is one
/// of the items a frame draws, so Tab reaches it and the next frames keep the focus on it, with
/// clustering on or off, whichever of frame and frame_clusters the host calls first.
final class StackFocusTests: XCTestCase {
    static let lon = -118.2, lat = 33.8

    func testTheFocusStaysOnAStackAcrossFrames() throws {
        for radius in [0.0, 60.0] {
            // Zoom 18 >= cluster_max_zoom 17: nothing clusters even with a radius; the stack stands.
            let s = Story({ $0.spreadOnTap = true; $0.clusterRadius = radius }, zoom: 18)
            for id: Int64 in 1...4 { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }   // at (600, 400)
            s.addPin(9, atScreen: 300, 400)
            try s.map.frame(time: 0)
            let n = try s.map.frameClusters(time: 0)
            let stack = try XCTUnwrap(s.map.clusterViews[0..<n].first { $0.flags & ClusterFlags.stack.rawValue != 0 })
            XCTAssertEqual(try s.map.focusStep(1).id, 9, "radius \(radius): reading order, the tree at x 300 first")
            let f = try s.map.focusStep(1)
            XCTAssertEqual(f.kind, .cluster, "radius \(radius)")
            XCTAssertEqual(f.key, stack.key)
            for t in [16.0, 32, 48] {
                try s.map.frame(time: t)
                XCTAssertEqual(s.map.focus.key, stack.key, "radius \(radius), frame at \(t): the stack keeps the focus")
                try s.map.frameClusters(time: t)
                XCTAssertEqual(s.map.focus.key, stack.key, "radius \(radius), clusters at \(t)")
            }
            XCTAssertEqual(s.map.focusRank.index, 1)
            XCTAssertEqual(s.map.focusRank.total, 2)
        }
    }

    func testTheFocusStaysOnAStackInAClusteredView() throws {
        // Zoom 15, radius 20, clusters of 4 pins at least: the stack of 3 is no cluster, and its
        // pins are single items of the level, drawn as the stack; the tree 300 points west too.
        let s = Story({ $0.spreadOnTap = true; $0.clusterRadius = 20; $0.clusterMinPoints = 4 }, zoom: 15)
        for id: Int64 in 1...3 { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }
        s.addPin(9, atScreen: 300, 400)
        try s.map.frame(time: 0)
        let n = try s.map.frameClusters(time: 0)
        let stack = try XCTUnwrap(s.map.clusterViews[0..<n].first { $0.flags & ClusterFlags.stack.rawValue != 0 })
        _ = try s.map.focusStep(1)
        XCTAssertEqual(try s.map.focusStep(1).key, stack.key)
        try s.map.frame(time: 16)
        XCTAssertEqual(s.map.focus.key, stack.key, "a frame keeps the focus on the stack")
    }
}
