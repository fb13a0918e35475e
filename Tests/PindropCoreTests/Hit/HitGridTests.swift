import XCTest
@testable import PindropCore
import PindropTestSupport

/// Hit tests answered from the frame's grid must be exactly the index's answers: a map that drew
/// a frame (grid) and a twin that never draws one (index) hold the same pins and camera and are
/// asked the same taps, including after changes that must make the grid stale (moves, adds,
/// removals, camera changes, a drag), with spreading on (drawn positions that are not the true
/// ones) and at a bearing.
final class HitGridTests: XCTestCase {
    typealias Rng = TestRng

    func twins(spread: Bool) -> (grid: Map, index: Map) {
        var o = Options()
        if !spread { o.spreadMode = .off }
        return (try! Map(options: o, factory: BruteForceFactory()), try! Map(options: o, factory: BruteForceFactory()))
    }

    /// 1,500 pins in a 600 m square, a fifth of them stacked in pairs and triples (spread rings).
    func load(_ maps: [Map], _ rng: inout Rng) {
        var ids: [Int64] = [], ll: [Double] = []
        for i in 0..<1500 {
            ids.append(Int64(i))
            if i > 0 && rng.int(5) == 0 { ll.append(ll[ll.count - 2]); ll.append(ll[ll.count - 2]) }
            else { ll.append(rng.uniform(-118.25, -118.244)); ll.append(rng.uniform(34.05, 34.0554)) }
        }
        for m in maps {
            ids.withUnsafeBufferPointer { i in ll.withUnsafeBufferPointer { try! m.addMany(ids: i, lonlat: $0) } }
        }
    }

    func assertSameHits(_ a: Map, _ b: Map, _ rng: inout Rng, _ label: String, grid: Bool = false, taps: Int = 150) {
        var usedGrid = 0
        for _ in 0..<taps {
            // Mostly on screen (the grid's area), some off screen (the index answers both maps).
            let x = rng.uniform(-60, 860), y = rng.uniform(-60, 660)
            if a.frame.hits.covers(x, y, version: a.version) { usedGrid += 1 }
            let ha = try! a.hitTest(x: x, y: y), hb = try! b.hitTest(x: x, y: y)
            if ha != hb { XCTFail("\(label): tap (\(x), \(y)) hit \(String(describing: ha)) from the grid, \(String(describing: hb)) from the index"); return }
        }
        if grid { XCTAssertGreaterThan(usedGrid, taps / 2, label) } else { XCTAssertEqual(usedGrid, 0, label) }
    }

    func testTheGridAnswersAsTheIndexDoes() {
        for spread in [false, true] {
            var rng = TestRng(state: spread ? 5 : 6)
            let (a, b) = twins(spread: spread)
            load([a, b], &rng)
            for round in 0..<8 {
                let cam = Camera(centerLon: rng.uniform(-118.249, -118.245), centerLat: rng.uniform(34.051, 34.054),
                                 zoom: rng.uniform(17, 20), bearingDeg: round % 3 == 0 ? rng.uniform(0, 360) : 0,
                                 width: 800, height: 600)
                try! a.setCamera(cam); try! b.setCamera(cam)
                try! a.frame(time: Double(round))
                XCTAssertTrue(a.frame.hits.covers(400, 300, version: a.version))
                assertSameHits(a, b, &rng, "spread \(spread) round \(round)", grid: true)
                // Changes after the frame: the grid must not answer for them.
                for _ in 0..<5 {
                    let id = Int64(rng.int(1500)), lon = rng.uniform(-118.25, -118.244), lat = rng.uniform(34.05, 34.0554)
                    try! a.setPosition(id: id, lon: lon, lat: lat); try! b.setPosition(id: id, lon: lon, lat: lat)
                }
                XCTAssertFalse(a.frame.hits.covers(400, 300, version: a.version))
                assertSameHits(a, b, &rng, "after moves, round \(round)")
                try! a.frame(time: Double(round)); assertSameHits(a, b, &rng, "moves redrawn, round \(round)", grid: true)
                let id = Int64(10_000 + round)
                try! a.add(id: id, lon: cam.centerLon, lat: cam.centerLat); try! b.add(id: id, lon: cam.centerLon, lat: cam.centerLat)
                assertSameHits(a, b, &rng, "after an add, round \(round)")
                try! a.frame(time: Double(round))
                try! a.remove(id: id); try! b.remove(id: id)
                assertSameHits(a, b, &rng, "after a removal, round \(round)")
                try! a.frame(time: Double(round))
                try! a.select(id: Int64(rng.int(1500))); try! b.select(id: a.selectedID)  // ties read the selection at tap time
                assertSameHits(a, b, &rng, "after a selection, round \(round)", grid: true)
            }
        }
    }

    func testACameraChangeWithoutAFrameFallsBackToTheIndex() {
        var rng = TestRng(state: 9)
        let (a, b) = twins(spread: true)
        load([a, b], &rng)
        let c1 = Camera(centerLon: -118.247, centerLat: 34.0527, zoom: 18, bearingDeg: 0, width: 800, height: 600)
        let c2 = Camera(centerLon: -118.2465, centerLat: 34.052, zoom: 19, bearingDeg: 30, width: 800, height: 600)
        try! a.setCamera(c1); try! b.setCamera(c2)
        try! a.frame(time: 0)
        try! a.setCamera(c2)
        XCTAssertFalse(a.frame.hits.covers(400, 300, version: a.version))
        assertSameHits(a, b, &rng, "new camera, no frame")
    }

    /// A drag moves where a pin is drawn without moving the pin until it is dropped: touches make
    /// the grid stale.
    func testADragMakesTheGridStale() {
        var o = Options(); o.spreadMode = .off
        let a = try! Map(options: o, factory: BruteForceFactory())
        try! a.add(id: 1, lon: -118.247, lat: 34.0527)
        try! a.setCamera(Camera(centerLon: -118.247, centerLat: 34.0527, zoom: 19, bearingDeg: 0, width: 800, height: 600))
        try! a.frame(time: 0)
        XCTAssertEqual(try! a.hitTest(x: 400, y: 300), 1)
        _ = try! a.touch(pointer: 0, phase: .down, x: 400, y: 300, time: 10)
        XCTAssertFalse(a.frame.hits.covers(400, 300, version: a.version))
    }
    /// Viewports of any finite size: the grid never converts an out-of-range number to an index
    /// (a 1e300-point viewport used to trap in `build`), never grows past a bounded number of
    /// cells, and still answers as the index does.
    func testHugeViewportsAnswerAsTheIndexDoes() {
        for (w, h) in [(1e300, 1e300), (1e300, 1.0), (1.0, 1e300), (1e9, 800.0), (1e15, 1e15)] {
            let (a, b) = twins(spread: false)
            for m in [a, b] {
                try! m.add(id: 1, lon: 0, lat: 0)
                try! m.add(id: 2, lon: 1e-9, lat: 0)
                try! m.setCamera(Camera(centerLon: 0, centerLat: 0, zoom: 0, bearingDeg: 0, width: w, height: h))
            }
            _ = try! a.frame(time: 0)
            let c = try! a.toScreen(lon: 0, lat: 0)
            for (x, y) in [(c.x, c.y), (0.0, 0.0), (w, h), (w / 2, h / 2), (c.x + 10, c.y - 10)] {
                XCTAssertEqual(try! a.hitTest(x: x, y: y), try! b.hitTest(x: x, y: y), "\(w)x\(h) at (\(x), \(y))")
            }
        }
    }
}
