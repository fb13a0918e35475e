import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Cluster keys and collapsed stacks' keys side by side at every zoom (SPEC 16, 19 and 22;
/// docs/clusters.md, docs/spreading.md "Stacks that open on demand"): with clustering and
/// spread_on_tap on together each key reaches what it names, a stack's key is never taken for a
/// cluster's or the other way round, and every pin is drawn exactly once, as a pin, in a cluster
/// or in a stack. At zooms 15 and 16 a cluster's level once reached bit 63, a stack's tag.
final class ClusterStackKeyTests: XCTestCase {
    /// Lawndale: a stack of three trees on one address, and a pair 2 m apart 200 m west (a
    /// cluster at every zoom below cluster_max_zoom, never a stack: they do not share a coordinate),
    /// from zoom 0 to 18.
    let lon = -118.3535, lat = 33.8871
    var pins: [(id: Int64, lon: Double, lat: Double)] {
        [(1, lon, lat), (2, lon, lat), (3, lon, lat), (10, lon - 0.00216, lat), (11, lon - 0.00214, lat)]
    }

    func testEveryKeyReachesWhatItNamesAtEveryZoom() throws {
        var o = Options(); o.clusterRadius = 60; o.spreadOnTap = true
        let m = try Map(options: o, factory: BruteForceFactory())
        for p in pins { try m.add(id: p.id, lon: p.lon, lat: p.lat) }
        var sawStack = false
        for zoom in 0...18 {
            try m.setCamera(Camera(centerLon: lon - 0.001, centerLat: lat, zoom: Double(zoom) + 0.5, width: 1200, height: 800))
            let n = try m.frameClusters(time: Double(zoom))
            let items = Array(m.clusterViews[0..<n])
            let drawnPins = try m.frame(time: Double(zoom))
            let singles = m.frameViews[0..<drawnPins].map(\.id)
            XCTAssertGreaterThanOrEqual(items.count, 1, "zoom \(zoom)")
            var drawn = singles
            var clusters = 0
            for v in items {
                let members = try m.clusterMembers(key: v.key)
                XCTAssertEqual(members.count, Int(v.count), "zoom \(zoom) key \(v.key)")
                XCTAssertEqual(members, members.sorted())
                drawn += members
                if ClusterFlags(rawValue: v.flags).contains(.stack) {
                    sawStack = true
                    XCTAssertEqual(v.key >> 63, 1, "zoom \(zoom): a stack's key carries the stack tag")
                    XCTAssertEqual(members, [1, 2, 3], "zoom \(zoom): the stack is the three trees on one address")
                } else {
                    clusters += 1
                    XCTAssertEqual(v.key >> 63, 0, "zoom \(zoom): a cluster's key never carries the stack tag")
                    XCTAssertEqual(try m.clusterSummary(key: v.key).count, v.count, "zoom \(zoom)")
                    XCTAssertThrowsError(try m.openStack(key: v.key, time: Double(zoom)), "zoom \(zoom): a cluster is no stack") {
                        XCTAssertEqual(($0 as? PindropError)?.status, .notFound)
                    }
                }
            }
            if Double(zoom) + 0.5 < o.clusterMaxZoom {
                XCTAssertGreaterThanOrEqual(clusters, 1, "zoom \(zoom): the pair 2 m apart is a cluster")
            } else {
                XCTAssertEqual(clusters, 0, "zoom \(zoom): nothing is clustered at or above cluster_max_zoom")
                XCTAssertEqual(items.count, 1, "zoom \(zoom): the stack alone is collapsed")
            }
            XCTAssertEqual(drawn.sorted(), pins.map(\.id).sorted(), "zoom \(zoom): every pin drawn exactly once")
        }
        XCTAssertTrue(sawStack, "at and above cluster_max_zoom the three trees are a collapsed stack")
    }
}
