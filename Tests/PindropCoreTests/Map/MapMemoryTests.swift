import XCTest
@testable import PindropCore
import PindropTestSupport

/// A map's memory follows its pins (issue 34, "Memory that only grows"): the Mercator cache is
/// sized by the slots it has projected, and the hit grid by the views it grids, not by the largest
/// map or viewport. Oracles: `WebMercator.normalized` for every cached point, a twin map that
/// answers taps from the index, and the structures' own byte counts against bounds written from
/// their sizes. Tests/c/test_map_memory.c measures the same from outside (VmRSS).
final class MapMemoryTests: XCTestCase {
    func testAOnePinMapHoldsAFewMercatorEntries() {
        var pins = PinStore()
        let s = pins.insert(id: 7, lon: -118.2, lat: 34.0)
        XCTAssertEqual(pins.mercatorCacheBytes, 0, "nothing projected yet")
        let m = pins.mercator(s), want = WebMercator.normalized(lon: -118.2, lat: 34.0)
        XCTAssertEqual(m.x, want.x); XCTAssertEqual(m.y, want.y)
        XCTAssertLessThanOrEqual(pins.mercatorCacheBytes, 2 * 24, "one set of two entries")
    }

    /// The cache grows with the slots projected, up to 2^15 sets of two entries, and gives the
    /// exact points throughout (growth forgets what it held, it never answers wrongly).
    func testTheCacheGrowsWithTheSlotsAndStaysExact() {
        var pins = PinStore()
        var rng = TestRng(state: 34)
        var slots: [Int32] = [], ll: [(Double, Double)] = []
        for round in 0..<18 {
            // Twice the pins each round: the cache grows as higher slots are projected.
            let add = max(1, slots.count)
            for _ in 0..<add where slots.count < 100_000 {
                let lon = rng.uniform(-180, 180), lat = rng.uniform(-85, 85)
                slots.append(pins.insert(id: Int64(slots.count), lon: lon, lat: lat)); ll.append((lon, lat))
            }
            for _ in 0..<2 {
                for i in stride(from: 0, to: slots.count, by: max(1, slots.count / 500)) {
                    let m = pins.mercator(slots[i]), want = WebMercator.normalized(lon: ll[i].0, lat: ll[i].1)
                    if m.x != want.x || m.y != want.y { return XCTFail("round \(round): slot \(slots[i]) projected to \(m), not \(want)") }
                }
            }
            // Room for every slot projected, two a set, rounded up to a power of two sets.
            var sets = 1
            while 2 * sets < slots.count && sets < 1 << 15 { sets <<= 1 }
            XCTAssertLessThanOrEqual(pins.mercatorCacheBytes, 2 * sets * 24, "round \(round), \(slots.count) slots")
        }
        XCTAssertEqual(pins.mercatorCacheBytes, 2 * (1 << 15) * 24, "never more than 2^15 sets")
        // A moved pin is projected from its new latitude.
        pins.move(slots[3], lon: 10, lat: 20)
        XCTAssertEqual(pins.mercator(slots[3]).y, WebMercator.normalized(lon: 10, lat: 20).y)
    }

    /// A frame of few pins in a large viewport gets a grid of few cells, and the grid still
    /// answers every tap as the index does.
    func testAFewViewsInALargeViewportGetASmallGridThatAnswersAsTheIndex() throws {
        var o = Options(); o.spreadMode = .off
        for count in [1, 3, 40] {
            let grid = try Map(options: o, factory: BruteForceFactory())
            let index = try Map(options: o, factory: BruteForceFactory())
            var rng = TestRng(state: UInt64(count))
            for i in 0..<count {
                let lon = -118.2 + rng.uniform(-0.004, 0.004), lat = 34.0 + rng.uniform(-0.003, 0.003)
                try grid.add(id: Int64(i), lon: lon, lat: lat); try index.add(id: Int64(i), lon: lon, lat: lat)
            }
            let cam = Camera(centerLon: -118.2, centerLat: 34.0, zoom: 17, width: 3840, height: 2160)
            try grid.setCamera(cam); try index.setCamera(cam)
            XCTAssertEqual(try grid.frame(time: 0), count)
            var hits = 0
            for k in 0..<2000 {
                // Half the taps near a pin, half anywhere on screen.
                let v = grid.frameViews[rng.int(count)]
                let x = k % 2 == 0 ? v.x + rng.uniform(-30, 30) : rng.uniform(0, 3840)
                let y = k % 2 == 0 ? v.y + rng.uniform(-30, 30) : rng.uniform(0, 2160)
                XCTAssertTrue(grid.frame.hits.covers(x, y, version: grid.version) || x < 0 || y < 0 || x > 3840 || y > 2160)
                let a = try? grid.hitTest(x: x, y: y), b = try? index.hitTest(x: x, y: y)
                if a != b { return XCTFail("\(count) pins: tap (\(x), \(y)) hit \(String(describing: a)) from the grid, \(String(describing: b)) from the index") }
                if a != nil { hits += 1 }
            }
            XCTAssertGreaterThan(hits, 300, "\(count) pins")
            // Cells: at most four a view (64 at least), plus a row and a column of rounding; each
            // buffer may hold twice its use (an array's growth). Cells of hit_radius were 71 kB.
            let most = max(64, 4 * count), cells = most + 2 * Int((4 * Double(most)).squareRoot()) + 2
            XCTAssertLessThanOrEqual(grid.frame.hits.scratchBytes, 2 * cells * 4 + 2 * 24 * max(count, 8),
                                     "\(count) pins in a 3840 x 2160 viewport")
        }
    }
}
