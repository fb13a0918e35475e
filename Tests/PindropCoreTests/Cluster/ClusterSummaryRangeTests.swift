import XCTest
@testable import PindropCore
import PindropTestSupport

/// A cluster's value sum at the ends of the Double range: values near 1e308 sum to ±∞ only when
/// the true sum is out of range, never to NaN (NaN is "no value"), and the sum comes back exact
/// once the big values change; the smallest values still add up within the promised 1e-12.
final class ClusterSummaryRangeTests: XCTestCase {
    private func clusterKey(_ s: Story, at t: Double) throws -> UInt64 {
        try s.map.frameClusters(time: t)
        let clusters = s.map.clusterViews
        XCTAssertEqual(clusters.count, 1)
        return try XCTUnwrap(clusters.first).key
    }

    private func setValues(_ s: Story, _ values: [Double]) throws {
        let ids: [Int64] = [1, 2, 3]
        try ids.withUnsafeBufferPointer { i in
            try values.withUnsafeBufferPointer { v in try s.map.setAttributes(ids: i, values: v, categories: nil) }
        }
    }

    func testSumsOutOfRangeAreInfiniteAndComeBack() throws {
        let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
        s.addPin(1, atScreen: 600, 400); s.addPin(2, atScreen: 605, 400); s.addPin(3, atScreen: 610, 400)
        try setValues(s, [1e308, 1e308, 5])
        XCTAssertEqual(try s.map.clusterSummary(key: try clusterKey(s, at: 0)).valueSum, .infinity)
        try setValues(s, [-1e308, -1e308, 5])
        XCTAssertEqual(try s.map.clusterSummary(key: try clusterKey(s, at: 1)).valueSum, -.infinity)
        // Back in range: the sum is exact again (it was NaN for good once ∞ − ∞ got in).
        try setValues(s, [1e308, -1e308, 5])
        XCTAssertEqual(try s.map.clusterSummary(key: try clusterKey(s, at: 2)).valueSum, 5)
        try setValues(s, [1.5e308, 1e308, -1e308])
        let summary = try s.map.clusterSummary(key: try clusterKey(s, at: 3))
        XCTAssertEqual(summary.valueSum, 1.5e308, "an intermediate sum out of range, the total in range")
        XCTAssertEqual(summary.valueMax, 1.5e308)
        XCTAssertEqual(summary.valueMin, -1e308)
    }

    func testTinyValuesStillSumWithinTheBound() throws {
        let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
        s.addPin(1, atScreen: 600, 400); s.addPin(2, atScreen: 605, 400); s.addPin(3, atScreen: 610, 400)
        let values = [3e-300, -1e-300, 7.5e-301]
        try setValues(s, values)
        let sum = try s.map.clusterSummary(key: try clusterKey(s, at: 0)).valueSum
        let bound = 1e-12 * values.reduce(0) { $0 + abs($1) }
        XCTAssertEqual(sum, values.reduce(0, +), accuracy: bound)
    }

    func testAStacksSumIsScaledAlike() throws {
        let s = Story({ $0.spreadOnTap = true }, zoom: 18)
        for id: Int64 in 1...3 {
            let p = try s.map.toLonLat(x: 600, y: 400)
            try s.map.add(id: id, lon: p.lon, lat: p.lat)
        }
        try setValues(s, [1e308, 1e308, 5])
        try s.map.frameClusters(time: 0)
        let stack = try XCTUnwrap(s.map.clusterViews.first { $0.flags & ClusterFlags.stack.rawValue != 0 })
        XCTAssertEqual(try s.map.clusterSummary(key: stack.key).valueSum, .infinity)
        try setValues(s, [1e308, -1e308, 5])
        XCTAssertEqual(try s.map.clusterSummary(key: stack.key).valueSum, 5)
    }
}
