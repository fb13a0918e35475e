import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// The map's pins and queries, with the plain brute-force index, against oracles written here:
/// the slippy-map projection formula and Vincenty's sphere distance, scanning every pin.
final class MapTests: XCTestCase {
    func makeMap(_ configure: (inout Options) -> Void = { _ in }) -> Map {
        var o = Options()
        o.spreadMode = .off  // drawn positions are the true ones: the subject here is the index
        configure(&o)
        return try! Map(options: o, factory: BruteForceFactory())
    }

    /// Everything a failed call must leave alone.
    struct Snapshot: Equatable {
        var pins: [Int64: [Double]]
        var draggable: [Int64: Bool]
        var now: Double
        var selected: Int64
        var events: Int
    }

    func snapshot(_ m: Map) -> Snapshot {
        var pins: [Int64: [Double]] = [:], draggable: [Int64: Bool] = [:]
        for s in 0..<m.pins.capacity where m.pins.isAlive(Int32(s)) {
            let id = m.pins.id(Int32(s)), p = m.pins.position(Int32(s))
            pins[id] = [p.lon, p.lat]
            draggable[id] = m.pins.isDraggable(Int32(s))
        }
        return Snapshot(pins: pins, draggable: draggable, now: m.now, selected: m.selectedID, events: m.events.count)
    }

    func assertFails(_ status: Status, _ m: Map, file: StaticString = #filePath, line: UInt = #line,
                     _ body: () throws(PindropError) -> Void) {
        let before = snapshot(m)
        do {
            try body()
            XCTFail("expected \(status), the call succeeded", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, status, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        }
        XCTAssertEqual(snapshot(m), before, "a failed call changed the map", file: file, line: line)
    }

    // MARK: - Pins

    func testPinsAreAddedMovedAndRemoved() throws {
        let m = makeMap()
        try m.add(id: 7, lon: -118.35, lat: 33.9)
        try m.add(id: -3, lon: 180, lat: -90)
        XCTAssertEqual(m.count, 2)
        XCTAssertEqual(try m.position(id: 7).lon, -118.35)
        XCTAssertEqual(try m.displayPosition(id: 7).lat, 33.9)
        try m.setPosition(id: 7, lon: 2.35, lat: 48.85)
        XCTAssertEqual(try m.position(id: 7).lon, 2.35)
        XCTAssertEqual(try m.nearby(lon: 2.35, lat: 48.85, radius: 1), 1)
        XCTAssertEqual(m.nearbyResults.first?.id, 7)
        XCTAssertEqual(try m.nearby(lon: -118.35, lat: 33.9, radius: 1000), 0)
        try m.setDraggable(id: 7, false)
        XCTAssertFalse(m.pins.isDraggable(m.pins.slot(of: 7)!))
        try m.setDraggable(id: 7, true)
        XCTAssertTrue(m.pins.isDraggable(m.pins.slot(of: 7)!))
        try m.remove(id: 7)
        XCTAssertEqual(m.count, 1)
        XCTAssertThrowsError(try m.position(id: 7))
        XCTAssertEqual(try m.nearby(lon: 2.35, lat: 48.85, radius: 1), 0)
        // The id can be used again, and the reused slot is found at its new place.
        try m.add(id: 7, lon: 10, lat: 10)
        XCTAssertEqual(try m.nearby(lon: 10, lat: 10, radius: 0), 1)
        XCTAssertEqual(m.count, 2)
    }

    func testAddManyIsAllOrNothing() throws {
        let m = makeMap()
        try m.add(id: 1, lon: 1, lat: 1)
        try m.add(id: 2, lon: 2, lat: 2)
        try m.remove(id: 1)  // leaves a free slot that a batch would reuse first
        func addMany(_ ids: [Int64], _ ll: [Double]) throws(PindropError) {
            try ids.withUnsafeBufferPointer { i throws(PindropError) in
                try ll.withUnsafeBufferPointer { l throws(PindropError) in try m.addMany(ids: i, lonlat: l) }
            }
        }
        let ids: [Int64] = [10, 11, 12, 13]
        let ll = [10.0, 10, 11, 11, 12, 12, 13, 13]
        assertFails(.duplicateID, m) { () throws(PindropError) in try addMany([10, 11, 12, 11], ll) }
        assertFails(.duplicateID, m) { () throws(PindropError) in try addMany([10, 11, 12, 2], ll) }
        assertFails(.invalidArgument, m) { () throws(PindropError) in try addMany([10, 11, 12, noID], ll) }
        for bad in [Double.nan, .infinity, 180.5, -181] {
            var l = ll; l[6] = bad
            assertFails(.invalidArgument, m) { () throws(PindropError) in try addMany(ids, l) }
        }
        var l = ll; l[7] = 90.0001
        assertFails(.invalidArgument, m) { () throws(PindropError) in try addMany(ids, l) }
        assertFails(.invalidArgument, m) { () throws(PindropError) in try addMany(ids, Array(ll.prefix(6))) }
        // The failed batches left nothing behind: the free slot and the ids are still usable.
        try addMany(ids, ll)
        XCTAssertEqual(m.count, 5)
        for (i, id) in ids.enumerated() {
            XCTAssertEqual(try m.position(id: id).lon, ll[2 * i])
            XCTAssertEqual(try m.nearby(lon: ll[2 * i], lat: ll[2 * i + 1], radius: 0), 1)
        }
        try addMany([], [])
        XCTAssertEqual(m.count, 5)
    }

    func testBadInputLeavesTheMapUnchanged() throws {
        let m = makeMap()
        try m.add(id: 1, lon: 0, lat: 0)
        try m.add(id: 2, lon: 1, lat: 1)
        _ = try m.frame(time: 100)
        for (lon, lat) in [(Double.nan, 0.0), (0, .nan), (.infinity, 0), (0, -.infinity), (180.0001, 0),
                           (-180.0001, 0), (0, 90.0001), (0, -90.0001)] {
            assertFails(.invalidArgument, m) { () throws(PindropError) in try m.add(id: 3, lon: lon, lat: lat) }
            assertFails(.invalidArgument, m) { () throws(PindropError) in try m.setPosition(id: 1, lon: lon, lat: lat) }
            assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.nearby(lon: lon, lat: lat, radius: 10) }
            assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.toScreen(lon: lon, lat: lat) }
        }
        assertFails(.invalidArgument, m) { () throws(PindropError) in try m.add(id: noID, lon: 0, lat: 0) }
        assertFails(.duplicateID, m) { () throws(PindropError) in try m.add(id: 2, lon: 5, lat: 5) }
        assertFails(.notFound, m) { () throws(PindropError) in try m.remove(id: 3) }
        assertFails(.notFound, m) { () throws(PindropError) in try m.setPosition(id: 3, lon: 0, lat: 0) }
        assertFails(.notFound, m) { () throws(PindropError) in _ = try m.position(id: 3) }
        assertFails(.notFound, m) { () throws(PindropError) in _ = try m.displayPosition(id: noID) }
        assertFails(.notFound, m) { () throws(PindropError) in try m.setDraggable(id: 3, false) }
        for r in [-1.0, .nan, .infinity] {
            assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.nearby(lon: 0, lat: 0, radius: r) }
        }
        for (x, y) in [(Double.nan, 0.0), (0, .infinity)] {
            assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.hitTest(x: x, y: y) }
            assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.toLonLat(x: x, y: y) }
        }
        var out = [Int64](repeating: 42, count: 3)
        let xy = [128.0, 128, 1, 1, 2, .nan]
        assertFails(.invalidArgument, m) { () throws(PindropError) in
            try xy.withUnsafeBufferPointer { p throws(PindropError) in
                try out.withUnsafeMutableBufferPointer { o throws(PindropError) in try m.hitTestMany(xy: p, out: o) }
            }
        }
        XCTAssertEqual(out, [42, 42, 42], "a failed hit_test_many wrote its output")
        assertFails(.invalidArgument, m) { () throws(PindropError) in
            try m.setCamera(Camera(centerLon: 0, centerLat: 89, zoom: 3, width: 100, height: 100))
        }
        assertFails(.invalidArgument, m) { () throws(PindropError) in
            try m.setProjection(HostProjection(width: 0, height: 10, project: { ($0, $1) }, unproject: { ($0, $1) }))
        }
        var o = Options(); o.hitRadius = 0
        XCTAssertThrowsError(try Map(options: o, factory: BruteForceFactory()))
        o = Options(); o.liftDelayMs = -1
        XCTAssertThrowsError(try Map(options: o, factory: BruteForceFactory()))
        o = Options(); o.minSpacingM = .nan
        XCTAssertThrowsError(try Map(options: o, factory: BruteForceFactory()))
    }

    func testTimeNeverGoesBackwards() throws {
        let m = makeMap()
        try m.setCamera(Camera(centerLon: 0, centerLat: 0, zoom: 10, width: 400, height: 300))
        try m.add(id: 1, lon: 0, lat: 0)
        XCTAssertEqual(try m.frame(time: 1000), 1)
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.frame(time: 999.999) }
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.frame(time: .nan) }
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.frame(time: .infinity) }
        XCTAssertEqual(m.now, 1000)
        XCTAssertEqual(try m.frame(time: 1000), 1)  // the same time again is fine
        XCTAssertEqual(try m.frame(time: 1000.5), 1)
        XCTAssertEqual(m.now, 1000.5)
    }

    // MARK: - Queries against brute force

    /// Screen point of (lon, lat) for a camera, from the slippy-map formula and a rotation by the
    /// bearing, on the copy of the world nearest the centre.
    func oracleScreen(_ c: Camera, _ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, c.zoom)
        func world(_ lon: Double, _ lat: Double) -> (Double, Double) {
            let phi = lat * .pi / 180
            return ((lon + 180) / 360 * size, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * size)
        }
        let p = world(lon, lat), o = world(c.centerLon, c.centerLat)
        var dx = p.0 - o.0
        if dx > size / 2 { dx -= size } else if dx < -size / 2 { dx += size }
        let dy = p.1 - o.1, b = c.bearingDeg * .pi / 180
        return (c.width / 2 + dx * cos(b) + dy * sin(b), c.height / 2 - dx * sin(b) + dy * cos(b))
    }

    func vincenty(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let f1 = lat1 * .pi / 180, f2 = lat2 * .pi / 180, dl = (lon2 - lon1) * .pi / 180
        let a = cos(f2) * sin(dl), b = cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl)
        return 6378137 * atan2((a * a + b * b).squareRoot(), sin(f1) * sin(f2) + cos(f1) * cos(f2) * cos(dl))
    }

    /// Checks hit tests and nearby queries on `m` against a scan of `model`.
    func checkQueries(_ m: Map, _ model: [Int64: (Double, Double)], camera c: Camera, rng: inout SplitMix,
                      queries: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try m.setCamera(c)
        let r = m.options.hitRadius
        let keys = Array(model.keys)
        var hits = 0
        for q in 0..<queries {
            let k = keys[rng.int(keys.count)], p = model[k]!
            let s = oracleScreen(c, p.0, p.1)
            let x = s.x + rng.uniform(-1.5 * r, 1.5 * r), y = s.y + rng.uniform(-1.5 * r, 1.5 * r)
            // Brute force: nearest within r, ties to the higher id.
            var scored: [(d: Double, id: Int64)] = []
            for (id, p) in model {
                let s = oracleScreen(c, p.0, p.1)
                let d = ((s.x - x) * (s.x - x) + (s.y - y) * (s.y - y)).squareRoot()
                if d <= r + 1e-6 { scored.append((d, id)) }
            }
            scored.sort { $0.d != $1.d ? $0.d < $1.d : $0.id > $1.id }
            let got = try m.hitTest(x: x, y: y)
            if let best = scored.first, best.d < r - 1e-6 {
                let near = scored.filter { $0.d <= best.d + 1e-7 }
                if near.allSatisfy({ model[$0.id]! == model[best.id]! }) {
                    XCTAssertEqual(got, best.id, "query \(q) at (\(x), \(y))", file: file, line: line)
                } else {
                    XCTAssertTrue(near.contains { $0.id == got }, "query \(q): \(String(describing: got)) not among \(near)", file: file, line: line)
                }
                hits += 1
            } else if scored.isEmpty {
                XCTAssertNil(got, "query \(q) at (\(x), \(y))", file: file, line: line)
            }
            // Nearby: every pin within the radius by Vincenty's formula, nearest first.
            let radius = rng.uniform(0, 300)
            let total = try m.nearby(lon: p.0, lat: p.1, radius: radius)
            var expect: [(d: Double, id: Int64)] = []
            for (id, t) in model {
                let d = vincenty(p.0, p.1, t.0, t.1)
                if d <= radius + 1e-6 { expect.append((d, id)) }
            }
            let sure = Set(expect.filter { $0.d < radius - 1e-6 }.map(\.id))
            let gotIDs = m.nearbyResults.map(\.id)
            XCTAssertEqual(total, gotIDs.count, file: file, line: line)
            XCTAssertTrue(sure.isSubset(of: Set(gotIDs)), "nearby \(q) missed \(sure.subtracting(gotIDs))", file: file, line: line)
            XCTAssertTrue(Set(gotIDs).isSubset(of: Set(expect.map(\.id))), "nearby \(q) found extra pins", file: file, line: line)
            for (i, h) in m.nearbyResults.enumerated() {
                let t = model[h.id]!
                XCTAssertEqual(h.distance, vincenty(p.0, p.1, t.0, t.1), accuracy: 1e-6, file: file, line: line)
                if i > 0 {
                    let prev = m.nearbyResults[i - 1]
                    XCTAssertTrue(prev.distance < h.distance || (prev.distance == h.distance && prev.id < h.id),
                                  "nearby \(q) is not nearest first", file: file, line: line)
                }
            }
        }
        XCTAssertGreaterThan(hits, queries / 4, "too few hits to mean anything", file: file, line: line)
    }

    func testQueriesMatchBruteForceAsPinsChange() throws {
        var rng = SplitMix(seed: 2024)
        let m = makeMap()
        var model: [Int64: (Double, Double)] = [:]
        // A dense town, stacks of pins on one spot, and a town across the antimeridian.
        func place() -> (Double, Double) {
            switch rng.int(10) {
            case 0: return (rng.uniform(179.99, 180), rng.uniform(-17.01, -17))
            case 1: return (rng.uniform(-180, -179.99), rng.uniform(-17.01, -17))
            case 2: return [(-118.301, 34.051), (-118.305, 34.052)][rng.int(2)]
            default: return (rng.uniform(-118.32, -118.29), rng.uniform(34.04, 34.06))
            }
        }
        var ids: [Int64] = [], ll: [Double] = []
        for i in 0..<1500 {
            let p = place()
            let id = Int64(i) * 7 - 3000
            ids.append(id); ll += [p.0, p.1]; model[id] = p
        }
        try ids.withUnsafeBufferPointer { i in try ll.withUnsafeBufferPointer { l in try m.addMany(ids: i, lonlat: l) } }
        let town = Camera(centerLon: -118.303, centerLat: 34.05, zoom: 17, bearingDeg: 0, width: 800, height: 600)
        let turned = Camera(centerLon: -118.303, centerLat: 34.05, zoom: 18.5, bearingDeg: 37, width: 800, height: 600)
        let pacific = Camera(centerLon: 180, centerLat: -17.005, zoom: 17, bearingDeg: -20, width: 800, height: 600)
        try checkQueries(m, model, camera: town, rng: &rng, queries: 150)
        // Moves, removals and adds after the first queries.
        var next: Int64 = 100_000
        for _ in 0..<600 {
            let keys = Array(model.keys)
            switch rng.int(3) {
            case 0:
                let id = keys[rng.int(keys.count)], p = place()
                try m.setPosition(id: id, lon: p.0, lat: p.1); model[id] = p
            case 1:
                let id = keys[rng.int(keys.count)]
                try m.remove(id: id); model[id] = nil
            default:
                let p = place()
                try m.add(id: next, lon: p.0, lat: p.1); model[next] = p; next += 1
            }
        }
        XCTAssertEqual(m.count, model.count)
        try checkQueries(m, model, camera: turned, rng: &rng, queries: 150)
        try checkQueries(m, model, camera: pacific, rng: &rng, queries: 150)
    }

    func testHitTestTiesGoToTheEditedThenSelectedThenHigherID() throws {
        let m = makeMap()
        try m.setCamera(Camera(centerLon: 0, centerLat: 0, zoom: 12, width: 400, height: 400))
        for id: Int64 in [5, 9, 2] { try m.add(id: id, lon: 0.001, lat: 0.001) }
        let s = try m.toScreen(lon: 0.001, lat: 0.001)
        XCTAssertEqual(try m.hitTest(x: s.x + 3, y: s.y), 9)
        m.setSelected(2)
        XCTAssertEqual(try m.hitTest(x: s.x + 3, y: s.y), 2)
        m.editingID = 5
        XCTAssertEqual(try m.hitTest(x: s.x + 3, y: s.y), 5)
        // A nearer pin still wins over the tie rules.
        try m.add(id: 1, lon: 0.0011, lat: 0.001)
        let s1 = try m.toScreen(lon: 0.0011, lat: 0.001)
        XCTAssertEqual(try m.hitTest(x: s1.x, y: s1.y), 1)
        // Exactly hit_radius away still counts; a hair further does not.
        XCTAssertEqual(try m.hitTest(x: s.x - 22, y: s.y), 5)
        XCTAssertNil(try m.hitTest(x: s.x - 22.001, y: s.y))
    }

    func testHostProjectionDrivesQueriesAndAFailingOneFailsCleanly() throws {
        let m = makeMap()
        // A plate carrée host: 1000 points per degree, origin at (10, 50), y down.
        var fail = false
        try m.setProjection(HostProjection(
            width: 500, height: 500,
            project: { lon, lat in fail ? nil : ((lon - 10) * 1000, (50 - lat) * 1000) },
            unproject: { x, y in fail ? nil : (10 + x / 1000, 50 - y / 1000) }))
        try m.add(id: 1, lon: 10.1, lat: 49.9)
        try m.add(id: 2, lon: 10.3, lat: 49.8)
        XCTAssertEqual(try m.hitTest(x: 105, y: 95), 1)
        XCTAssertEqual(try m.hitTest(x: 300, y: 210), 2)
        XCTAssertNil(try m.hitTest(x: 200, y: 200))
        let p = try m.toLonLat(x: 250, y: 250)
        XCTAssertEqual(p.lon, 10.25, accuracy: 1e-12); XCTAssertEqual(p.lat, 49.75, accuracy: 1e-12)
        XCTAssertEqual(try m.frame(time: 0), 2)
        fail = true
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.toScreen(lon: 10, lat: 50) }
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.toLonLat(x: 1, y: 1) }
        XCTAssertNil(try m.hitTest(x: 105, y: 95))
        assertFails(.invalidArgument, m) { () throws(PindropError) in _ = try m.frame(time: 1) }
    }

    // MARK: - Frame

    func testFrameListsThePinsInViewAtRestInDrawingOrder() throws {
        let m = makeMap()
        let cam = Camera(centerLon: -118.3, centerLat: 34.05, zoom: 16, width: 640, height: 480)
        try m.setCamera(cam)
        var rng = SplitMix(seed: 9)
        var inView: [Int64: (Double, Double)] = [:]
        for id in 0..<400 {
            let lon = rng.uniform(-118.31, -118.29), lat = rng.uniform(34.045, 34.055)
            try m.add(id: Int64(id), lon: lon, lat: lat)
            let s = oracleScreen(cam, lon, lat)
            if s.x >= -22, s.x <= 662, s.y >= -22, s.y <= 502 { inView[Int64(id)] = s }
        }
        let n = try m.frame(time: 5)
        let views = m.frameViews
        XCTAssertEqual(n, views.count)
        XCTAssertEqual(Set(views.map(\.id)), Set(inView.keys))
        for v in views {
            XCTAssertEqual(v.x, inView[v.id]!.0, accuracy: 1e-6); XCTAssertEqual(v.y, inView[v.id]!.1, accuracy: 1e-6)
            XCTAssertEqual(v.anchorX, v.x); XCTAssertEqual(v.anchorY, v.y)
            XCTAssertEqual(v.lift, 0); XCTAssertEqual(v.flags, [])
        }
        for (a, b) in zip(views, views.dropFirst()) { XCTAssertTrue(a.y < b.y || (a.y == b.y && a.id < b.id)) }
        // The selected pin is drawn after the others.
        let chosen = views[0].id
        m.setSelected(chosen)
        _ = try m.frame(time: 6)
        XCTAssertEqual(m.frameViews.last?.id, chosen)
        XCTAssertEqual(m.frameViews.last?.flags, .selected)
    }
}
