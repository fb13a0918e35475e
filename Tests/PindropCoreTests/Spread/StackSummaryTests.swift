import XCTest
@testable import PindropCore
import PindropTestSupport

/// What a collapsed stack holds (behaviours 19 and 22 together): a stack's key answers
/// `clusterSummary` and `clusterCategories` as a cluster's does, from its pins' values and
/// categories, against sums and counts written out here.
final class StackSummaryTests: XCTestCase {
    static let lon = -118.2, lat = 33.8

    func setAttributes(_ map: Map, _ ids: [Int64], values: [Double]? = nil, categories: [UInt32]? = nil) throws {
        try ids.withUnsafeBufferPointer { i throws(PindropError) in
            let v = values.map { Array($0) }, c = categories.map { Array($0) }
            try v.withOptionalBuffer { vb throws(PindropError) in
                try c.withOptionalBuffer { cb throws(PindropError) in
                    try map.setAttributes(ids: i, values: vb, categories: cb)
                }
            }
        }
    }

    func stackKey(_ s: Story) throws -> UInt64 {
        let n = try s.map.frameClusters(time: 0)
        let stack = Array(s.map.clusterViews[0..<n]).first { $0.flags & ClusterFlags.stack.rawValue != 0 }
        return try XCTUnwrap(stack).key
    }

    func testAStacksSummaryAndCategoriesComeFromItsPins() throws {
        let s = Story({ $0.spreadOnTap = true }, zoom: 18)
        for id: Int64 in [4, 1, 3, 2] { try s.map.add(id: id, lon: Self.lon, lat: Self.lat) }
        s.addPin(9, atScreen: 900, 400)
        let values = [1.5, Double.nan, 3.0, -2.0], categories: [UInt32] = [7, 7, 3, 7]
        try setAttributes(s.map, [1, 2, 3, 4], values: values, categories: categories)
        let key = try stackKey(s)
        let summary = try s.map.clusterSummary(key: key)
        XCTAssertEqual(summary.count, 4)
        XCTAssertEqual(summary.valued, 3)
        XCTAssertEqual(summary.valueSum, 1.5 + 3.0 - 2.0)
        XCTAssertEqual(summary.valueMin, -2.0)
        XCTAssertEqual(summary.valueMax, 3.0)
        XCTAssertEqual(summary.category, PinAttributes.mixed)
        XCTAssertEqual(summary.flags, ClusterSummary.oneSpot, "one coordinate: zooming cannot part them")
        var counts: [CategoryCount] = []
        try s.map.clusterCategories(key: key, into: &counts)
        XCTAssertEqual(counts, [CategoryCount(category: 7, count: 3), CategoryCount(category: 3, count: 1)])

        // One category for all, no values.
        try setAttributes(s.map, [1, 2, 3, 4], values: [.nan, .nan, .nan, .nan], categories: [5, 5, 5, 5])
        let again = try s.map.clusterSummary(key: key)
        XCTAssertEqual(again.category, 5)
        XCTAssertEqual(again.valued, 0)
        XCTAssertTrue(again.valueSum.isNaN && again.valueMin.isNaN && again.valueMax.isNaN)

        // A pin joining the stack makes the key stale, for the summary as for the members.
        try s.map.add(id: 5, lon: Self.lon, lat: Self.lat)
        XCTAssertThrowsError(try s.map.clusterSummary(key: key)) { XCTAssertEqual(($0 as? PindropError)?.status, .notFound) }
        var none: [CategoryCount] = []
        XCTAssertThrowsError(try s.map.clusterCategories(key: key, into: &none))
        XCTAssertEqual(try s.map.clusterSummary(key: try stackKey(s)).count, 5)
    }

    func testAToleranceGroupIsNotOneSpot() throws {
        let s = Story({ $0.spreadOnTap = true; $0.spreadToleranceM = 50 }, zoom: 18)
        try s.map.add(id: 1, lon: Self.lon, lat: Self.lat)
        try s.map.add(id: 2, lon: Self.lon + 0.0001, lat: Self.lat)
        let summary = try s.map.clusterSummary(key: try stackKey(s))
        XCTAssertEqual(summary.count, 2)
        XCTAssertEqual(summary.flags, 0, "two coordinates 9 m apart")
        XCTAssertEqual(summary.category, 0)
    }
}

private extension Optional {
    /// The array's buffer, or nil when there is no array.
    func withOptionalBuffer<E, R>(_ body: (UnsafeBufferPointer<E>?) throws(PindropError) -> R) throws(PindropError) -> R
    where Wrapped == [E] {
        guard let a = self else { return try body(nil) }
        return try a.withUnsafeBufferPointer { (b) throws(PindropError) -> R in try body(b) }
    }
}
