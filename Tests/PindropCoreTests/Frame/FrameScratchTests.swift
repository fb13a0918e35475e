import XCTest
@testable import PindropCore
import PindropTestSupport

/// The frame room's buffers after frames of very different sizes (scratch that gives memory
/// back), the draw order of crowded rows (pins along an east–west street share a sliver of y),
/// and the Mercator cache's sets shared by several drawn pins. Oracles: an independent sort of the
/// views, the pins' screen points from the view itself, and the room's own byte count.
final class FrameScratchTests: XCTestCase {
    func map(spread: Bool = false) -> Map {
        var o = Options()
        if !spread { o.spreadMode = .off }
        return try! Map(options: o, factory: BruteForceFactory())
    }

    func add(_ m: Map, _ ll: [Double], firstID: Int64 = 0) {
        let ids = (0..<(ll.count / 2)).map { firstID + Int64($0) }
        ids.withUnsafeBufferPointer { i in ll.withUnsafeBufferPointer { try! m.addMany(ids: i, lonlat: $0) } }
    }

    /// `n` pins spread over a square of `side` degrees around (-118.2, 34.0).
    func scattered(_ n: Int, side: Double, _ rng: inout TestRng) -> [Double] {
        var ll: [Double] = []
        for _ in 0..<n {
            ll.append(-118.2 + rng.uniform(-side / 2, side / 2)); ll.append(34.0 + rng.uniform(-side / 2, side / 2))
        }
        return ll
    }

    // MARK: - Scratch given back

    func testAFrameOfEveryPinLeavesNoScratchOnceANormalViewIsDrawn() {
        var rng = TestRng(state: 23)
        let m = map()
        let n = 60_000
        let ll = scattered(n, side: 0.2, &rng)
        add(m, ll)
        // Every pin in one frame, then a tap (the hit grid sorts the views into its cells).
        try! m.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 10, bearingDeg: 0, width: 1200, height: 800))
        XCTAssertEqual(try! m.frame(time: 0), n)
        _ = try! m.hitTest(x: 600, y: 400)
        let big = m.frame.scratchBytes
        XCTAssertGreaterThan(big, n * MemoryLayout<PinView>.stride, "the views (sorted in place) at least")
        XCTAssertGreaterThanOrEqual(m.candidates.capacity, n)
        // A normal view: a few hundred pins.
        try! m.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 16, bearingDeg: 0, width: 1200, height: 800))
        let shown = try! m.frame(time: 16)
        XCTAssertGreaterThan(shown, 50)
        XCTAssertLessThan(shown, FrameScratch.floor / 4)
        _ = try! m.hitTest(x: 600, y: 400)
        // What the room may keep: room for the floor's worth of views, keys, bucket starts and
        // grid copies, and the grid's cells (a 1200 x 800 view in cells of hit_radius).
        let perView = 2 * MemoryLayout<PinView>.stride + 2 * 24 /* a sort key of (y, id, index) */
            + 2 * MemoryLayout<Int>.stride + 3 * MemoryLayout<Double>.stride
        let cells = (Int(1200 / m.options.hitRadius) + 3) * (Int(800 / m.options.hitRadius) + 3)
        let bound = 2 * FrameScratch.floor * perView + 2 * cells * MemoryLayout<Int32>.stride
        XCTAssertLessThanOrEqual(m.frame.scratchBytes, bound, "a frame of \(n) pins left \(m.frame.scratchBytes) bytes (\(big) after it)")
        XCTAssertLessThanOrEqual(m.candidates.capacity, 2 * FrameScratch.floor)
        // The hit grid answers from the new frame as the index does.
        let twin = map()
        add(twin, ll)
        try! twin.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 16, bearingDeg: 0, width: 1200, height: 800))
        for _ in 0..<200 {
            let x = rng.uniform(0, 1200), y = rng.uniform(0, 800)
            XCTAssertTrue(m.frame.hits.covers(x, y, version: m.version))
            XCTAssertEqual(try! m.hitTest(x: x, y: y), try! twin.hitTest(x: x, y: y), "tap (\(x), \(y))")
        }
    }

    func testASteadyViewKeepsItsRoom() {
        var rng = TestRng(state: 24)
        let m = map()
        add(m, scattered(30_000, side: 0.1, &rng))
        try! m.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 13, bearingDeg: 0, width: 1200, height: 800))
        let shown = try! m.frame(time: 0)
        XCTAssertGreaterThan(shown, 5 * FrameScratch.floor)
        _ = try! m.hitTest(x: 600, y: 400)
        let room = m.frame.scratchBytes, candidates = m.candidates.capacity
        // The same pins drawn again from panned cameras: nothing is given back or grown, so these
        // frames allocate nothing.
        for k in 0..<12 {
            let lon = -118.2 + Double(k % 4) * 0.002
            try! m.setCamera(Camera(centerLon: lon, centerLat: 34.0, zoom: 13, bearingDeg: 0, width: 1200, height: 800))
            try! m.frame(time: Double(k + 1) * 16)
            _ = try! m.hitTest(x: 600, y: 400)
            XCTAssertEqual(m.frame.scratchBytes, room, "frame \(k)")
            XCTAssertEqual(m.candidates.capacity, candidates, "frame \(k)")
        }
    }

    /// The per-slot stamp that draws a pin once though it is a candidate twice (by its true and by
    /// its spread position) is one byte, cleared when it wraps every 255 frames. Two places far
    /// apart, each drawn in turn with gaps around the wrap: a pin last stamped 255 frames earlier
    /// must not be taken for one already drawn, and every pin is drawn exactly once.
    func testEachPinIsDrawnOnceAcrossTheStampsWraps() {
        var rng = TestRng(state: 27)
        let m = map(spread: true)
        var ll: [Double] = []
        for place in [(-118.2, 34.0), (-118.3, 34.1)] {
            for i in 0..<300 {
                if i % 3 == 1 { ll.append(ll[ll.count - 2]); ll.append(ll[ll.count - 2]) }  // pairs: spread rings
                else { ll.append(place.0 + rng.uniform(-0.002, 0.002)); ll.append(place.1 + rng.uniform(-0.0015, 0.0015)) }
            }
        }
        add(m, ll)
        let a = Camera(centerLon: -118.2, centerLat: 34.0, zoom: 17, bearingDeg: 0, width: 1200, height: 800)
        let b = Camera(centerLon: -118.3, centerLat: 34.1, zoom: 17, bearingDeg: 0, width: 1200, height: 800)
        var t = 0.0
        func draw(_ c: Camera, _ label: String) {
            t += 1
            try! m.setCamera(c)
            XCTAssertEqual(try! m.frame(time: t), 300, label)
            XCTAssertEqual(Set(m.frameViews.map(\.id)).count, 300, label)
        }
        draw(a, "first")
        XCTAssertTrue(m.frameViews.contains { $0.flags.contains(.spread) })
        for gap in 250..<262 {
            for _ in 0..<gap { draw(b, "gap \(gap)") }
            draw(a, "after a gap of \(gap) frames")
        }
    }

    // MARK: - Draw order of crowded rows

    /// Rows of pins along east–west streets: each row's latitudes lie within 1e-7° (a sliver of a
    /// point at zoom 14), some rows on exactly one latitude, and a stack of pins on one coordinate.
    /// The ordinary views must come by y, then id, as an independent sort puts them.
    func testCrowdedRowsAreDrawnByYThenId() {
        var rng = TestRng(state: 25)
        let m = map()
        var ll: [Double] = []
        for row in 0..<30 {
            let lat = 34.0 + Double(row - 15) * 0.0008, exact = row % 5 == 0
            for _ in 0..<300 {
                ll.append(-118.2 + rng.uniform(-0.03, 0.03))
                ll.append(exact ? lat : lat + rng.uniform(0, 1e-7))
            }
        }
        for _ in 0..<2000 { ll.append(-118.2 + rng.uniform(-0.03, 0.03)); ll.append(34.0 + rng.uniform(-0.012, 0.012)) }
        for _ in 0..<80 { ll.append(-118.21); ll.append(34.003) }  // stacked on one coordinate
        // Ids not in the order of the slots, so that the id order is not the candidates' order.
        let n = ll.count / 2
        var ids = (0..<n).map { Int64($0) }
        for i in stride(from: n - 1, to: 0, by: -1) { ids.swapAt(i, rng.int(i + 1)) }
        ids.withUnsafeBufferPointer { i in ll.withUnsafeBufferPointer { try! m.addMany(ids: i, lonlat: $0) } }
        for bearing in [0.0, 30.0] {
            try! m.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 14, bearingDeg: bearing, width: 1200, height: 800))
            try! m.select(id: ids[7])
            let shown = try! m.frame(time: bearing)
            XCTAssertGreaterThan(shown, 5000)
            let views = m.frameViews
            let ordinary = views.filter { FrameBuilder.drawRank($0) == 0 }
            let oracle = ordinary.sorted { a, b in a.y + 0 != b.y + 0 ? a.y + 0 < b.y + 0 : a.id < b.id }
            XCTAssertEqual(ordinary.map(\.id), oracle.map(\.id), "bearing \(bearing)")
            XCTAssertEqual(views.last?.id, ids[7], "the selected pin last")
            // Every pin drawn within the margin, each once, at its own screen point.
            let r = m.options.hitRadius
            var expected = Set<Int64>()
            for s in 0..<n {
                let p = m.view.toScreen(ll[2 * s], ll[2 * s + 1])!
                if p.x >= -r && p.x <= 1200 + r && p.y >= -r && p.y <= 800 + r { expected.insert(ids[s]) }
            }
            XCTAssertEqual(Set(views.map(\.id)), expected)
            XCTAssertEqual(views.count, expected.count)
        }
    }

    // MARK: - The Mercator cache

    /// Pins whose slots share a set of the cache (slots 2^15 apart), drawn and moved in turn: every
    /// view's screen point is bit for bit the view's projection of the pin's coordinate.
    func testPinsSharingACacheSetAreProjectedExactly() {
        var rng = TestRng(state: 26)
        let m = map()
        let n = 3 * (1 << 15) + 10
        var ll: [Double] = []
        for _ in 0..<n { ll.append(rng.uniform(-170, 170)); ll.append(rng.uniform(-60, 60)) }
        // Three pins in one set (slots 5, 5 + 2^15, 5 + 2^16) and two in another, near each other.
        for (k, s) in [5, 5 + (1 << 15), 5 + (1 << 16), 9, 9 + (1 << 15)].enumerated() {
            ll[2 * s] = -118.2 + Double(k) * 0.0003; ll[2 * s + 1] = 34.0 + Double(k) * 0.0002
        }
        add(m, ll)
        try! m.setCamera(Camera(centerLon: -118.2, centerLat: 34.0, zoom: 15, bearingDeg: 0, width: 800, height: 600))
        for round in 0..<6 {
            try! m.frame(time: Double(round))
            XCTAssertGreaterThanOrEqual(m.frameViews.count, 5)
            for v in m.frameViews {
                let s = m.pins.slot(of: v.id)!, p = m.pins.position(s)
                let q = m.view.toScreen(p.lon, p.lat)!
                XCTAssertEqual(v.anchorX.bitPattern, q.x.bitPattern, "round \(round), id \(v.id)")
                XCTAssertEqual(v.anchorY.bitPattern, q.y.bitPattern, "round \(round), id \(v.id)")
            }
            // Move one of them (the cache must not answer with its old point).
            let s = [5, 5 + (1 << 15), 5 + (1 << 16), 9, 9 + (1 << 15)][round % 5]
            let p = m.pins.position(Int32(s))
            try! m.setPosition(id: Int64(s), lon: p.lon + 0.0001, lat: p.lat - 0.00007)
        }
    }
}
