import XCTest
@testable import PindropCore
import PindropTestSupport

/// The map's scratch buffers give memory back: after a huge view, a normal view leaves no buffer
/// sized for the huge one, and steady use of a normal view keeps the buffer it has.
final class MapScratchTests: XCTestCase {
    /// 60 x 60 pins 0.003 degrees apart (about 140 points at zoom 16 on the equator): with
    /// cluster_radius 60 every pin is a single item of the zoom-16 level.
    func gridMap() throws -> Map {
        var o = Options(); o.clusterRadius = 60
        let m = try Map(options: o, factory: BruteForceFactory())
        for i in 0..<60 {
            for j in 0..<60 { try m.add(id: Int64(i * 60 + j + 1), lon: Double(i) * 0.003, lat: Double(j) * 0.003) }
        }
        return m
    }

    func testFrameClustersScratchShrinksAfterAHugeView() throws {
        let m = try gridMap()
        let centre = 0.0885
        try m.setCamera(Camera(centerLon: centre, centerLat: centre, zoom: 16, width: 12000, height: 12000))
        XCTAssertEqual(try m.frameClusters(time: 0), 0, "every pin is a single item")
        XCTAssertGreaterThanOrEqual(m.stackScratch.capacity, 3600, "the huge view's singles")

        try m.setCamera(Camera(centerLon: centre, centerLat: centre, zoom: 16, width: 1200, height: 800))
        try m.frameClusters(time: 1)
        let used = try m.frame(time: 1)  // the normal view's singles, as the frame draws them
        XCTAssertGreaterThan(used, 10)
        XCTAssertLessThanOrEqual(m.stackScratch.capacity, max(2 * FrameScratch.floor, 4 * used), "no buffer sized for the huge view")
        // Steady use keeps the buffer it has (no allocation from one call to the next).
        let kept = m.stackScratch.capacity
        for t in 2...5 { try m.frameClusters(time: Double(t)) }
        XCTAssertEqual(m.stackScratch.capacity, kept)
    }

    func testFitKeepsABufferWithinFourTimesItsUse() {
        var b = [Int32](repeating: 0, count: 20000)
        FrameScratch.fit(&b, need: 6000)
        XCTAssertEqual(b.count, 20000, "within 4 times its use: kept as it is")
        FrameScratch.fit(&b, need: 100)
        XCTAssertTrue(b.isEmpty)
        XCTAssertGreaterThanOrEqual(b.capacity, FrameScratch.floor)
        XCTAssertLessThan(b.capacity, 2 * FrameScratch.floor)
        var small = [Int32](repeating: 0, count: FrameScratch.floor / 2)
        FrameScratch.fit(&small, need: 1)
        XCTAssertEqual(small.count, FrameScratch.floor / 2, "the floor's room is always kept")
    }

    /// A buffer just fitted is not oversized for the same need (malloc's rounding of the room
    /// included), so a steady small view reallocates nothing from one call to the next.
    func testAFittedBufferIsKeptByTheNextFit() {
        for need in [0, 1, 100, 1023, 1024, 2048, 5000, 100_000] {
            var ints = [Int32](repeating: 0, count: 400_000)
            FrameScratch.fit(&ints, need: need)
            let c = ints.capacity
            ints.withUnsafeBufferPointer { p in
                let before = p.baseAddress
                var again = ints
                FrameScratch.fit(&again, need: need)
                XCTAssertEqual(again.capacity, c, "need \(need): refitted")
                again.withUnsafeBufferPointer { XCTAssertEqual($0.baseAddress, before, "need \(need): reallocated") }
            }
            struct View { var a, b, c, d, e: Double }  // 40 bytes, as large as a frame's view
            var views = [View](repeating: View(a: 0, b: 0, c: 0, d: 0, e: 0), count: 300_000)
            views.removeAll(keepingCapacity: true)
            FrameScratch.fit(keeping: &views, need: need)
            let vc = views.capacity
            FrameScratch.fit(keeping: &views, need: need)
            XCTAssertEqual(views.capacity, vc, "need \(need): views refitted")
        }
    }
}
