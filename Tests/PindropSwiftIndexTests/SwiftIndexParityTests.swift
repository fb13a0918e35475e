import Foundation
import XCTest
import PindropCore
import PindropGEOSIndex
import PindropSwiftIndex
import PindropTestSupport

/// The WebAssembly module's index and allowed area (PindropSwiftIndex) against the native
/// library's (GEOS), on the same workloads: every answer compared, not sampled.
final class SwiftIndexParityTests: XCTestCase {

    // MARK: - Data

    /// The LA tree inventory (../shared/data/la_trees.csv), every `stride`-th tree; ids are the
    /// line numbers.
    static func laTrees(stride: Int = 1) throws -> (ids: [Int64], lonlat: [Double]) {
        guard let trees = LATreesFile.every(stride) else {
            throw XCTSkip("the LA tree inventory is not at ../shared/data/la_trees.csv")
        }
        return trees
    }

    func sortedQuery(_ index: SpatialIndex, _ box: GeoBox) -> [Int32] {
        var out: [Int32] = []
        box.split { index.query($0, into: &out) }
        return out.sorted()
    }

    // MARK: - The index alone

    /// Box queries over the LA trees, then after moves (some across the antimeridian and onto the
    /// poles), removals and re-adds, against GEOS and against a scan of the positions.
    func testBoxQueriesMatchGEOSOnTheLATreesThroughMovesAndRemovals() throws {
        let (ids, lonlat) = try Self.laTrees(stride: 4)
        let n = ids.count
        let geos = try GEOSFactory().makeIndex(), swift = SwiftIndexFactory().makeIndex()
        let slots = (0..<n).map { Int32($0) }
        var pos = lonlat
        lonlat.withUnsafeBufferPointer { geos.insert(slots: slots, lonlat: $0); swift.insert(slots: slots, lonlat: $0) }
        var live = Set(slots)
        var rng = TestRng(state: 19)
        func compareBoxes(_ count: Int) {
            for q in 0..<count {
                let box: GeoBox
                if q % 4 == 0 {
                    // Around the antimeridian or a pole.
                    let lon = rng.uniform(170, 190), lat = rng.uniform(-90, 90)
                    let w = rng.uniform(0, 30)
                    box = GeoBox(minLon: lon - w, minLat: lat - w, maxLon: lon + w, maxLat: lat + w)
                } else {
                    let lon = rng.uniform(-118.8, -117.9), lat = rng.uniform(33.7, 34.4)
                    let w = pow(10, rng.uniform(-5, -0.5)), h = pow(10, rng.uniform(-5, -0.5))
                    box = GeoBox(minLon: lon, minLat: lat, maxLon: lon + w, maxLat: lat + h)
                }
                let a = sortedQuery(geos, box), b = sortedQuery(swift, box)
                XCTAssertEqual(a, b, "box \(box)")
                // And, every 16th box, both against the positions themselves.
                if q % 16 == 0 {
                    var expected: [Int32] = []
                    box.split { part in
                        for s in live where pos[2 * Int(s)] >= part.minLon && pos[2 * Int(s)] <= part.maxLon
                            && pos[2 * Int(s) + 1] >= part.minLat && pos[2 * Int(s) + 1] <= part.maxLat { expected.append(s) }
                    }
                    XCTAssertEqual(b, expected.sorted(), "box \(box) against a scan")
                }
                if a != b { return }
            }
        }
        compareBoxes(400)
        for round in 0..<3 {
            for _ in 0..<5000 {
                let s = Int32(rng.int(n))
                switch rng.int(10) {
                case 0:
                    if live.contains(s) { geos.remove(s); swift.remove(s); live.remove(s) }
                case 1:
                    // Onto the antimeridian, a pole, or an exact stack.
                    let choices: [(Double, Double)] = [(180, rng.uniform(-90, 90)), (-180, rng.uniform(-90, 90)),
                                                       (rng.uniform(-180, 180), 90), (-118.3, 34.0)]
                    let (x, y) = choices[rng.int(choices.count)]
                    pos[2 * Int(s)] = x; pos[2 * Int(s) + 1] = y
                    geos.set(s, lon: x, lat: y); swift.set(s, lon: x, lat: y); live.insert(s)
                default:
                    let x = pos[2 * Int(s)] + rng.uniform(-0.01, 0.01), y = pos[2 * Int(s) + 1] + rng.uniform(-0.01, 0.01)
                    let cx = min(180, max(-180, x)), cy = min(90, max(-90, y))
                    pos[2 * Int(s)] = cx; pos[2 * Int(s) + 1] = cy
                    geos.set(s, lon: cx, lat: cy); swift.set(s, lon: cx, lat: cy); live.insert(s)
                }
            }
            geos.maintain(inserts: 1 << 20)
            compareBoxes(300)
            _ = round
        }
        // A whole-world box returns every live slot, once.
        let all = sortedQuery(swift, GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90))
        XCTAssertEqual(all, live.sorted())
        swift.removeAll()
        XCTAssertEqual(sortedQuery(swift, GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)), [])
    }

    /// A batch into an empty index that names a slot twice: the slot is indexed once, at its
    /// last position, as GEOS does.
    func testARepeatedSlotInABatchTakesItsLastPosition() throws {
        let geos = try GEOSFactory().makeIndex(), swift = SwiftIndexFactory().makeIndex()
        var slots: [Int32] = [], lonlat: [Double] = []
        for i in 0..<200 { slots.append(Int32(i)); lonlat.append(Double(i) * 0.01); lonlat.append(1) }
        slots.append(5); lonlat.append(-50); lonlat.append(-20)
        for index in [geos, swift] { lonlat.withUnsafeBufferPointer { index.insert(slots: slots, lonlat: $0) } }
        let world = GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)
        XCTAssertEqual(sortedQuery(swift, world), (0..<200).map { Int32($0) })
        XCTAssertEqual(sortedQuery(swift, GeoBox(minLon: -51, minLat: -21, maxLon: -49, maxLat: -19)), [5])
        for box in [world, GeoBox(minLon: -51, minLat: -21, maxLon: -49, maxLat: -19), GeoBox(minLon: 0, minLat: 0, maxLon: 0.06, maxLat: 2)] {
            XCTAssertEqual(sortedQuery(geos, box), sortedQuery(swift, box))
        }
    }

    // MARK: - Whole maps

    struct Pair {
        let geos: Map, swift: Map
        init(_ o: Options) throws {
            geos = try Map(options: o, factory: GEOSFactory())
            swift = try Map(options: o, factory: SwiftIndexFactory())
        }
        func both(_ body: (Map) throws -> Void) rethrows { try body(geos); try body(swift) }
    }

    /// Everything a host reads from a map, for comparison.
    func snapshot(_ m: Map, _ t: Double, _ rng: inout TestRng, hits: Int = 300) throws -> [String] {
        var out: [String] = []
        let n = try m.frame(time: t)
        out.append("frame \(n)")
        for v in m.frameViews { out.append("\(v.id) \(v.x) \(v.y) \(v.anchorX) \(v.anchorY) \(v.lift) \(v.flags.rawValue)") }
        let c = try m.frameClusters(time: t)
        out.append("clusters \(c)")
        for v in m.clusterViews {
            out.append("\(v.key) \(v.x) \(v.y) \(v.lon) \(v.lat) \(v.count)")
        }
        if let first = m.clusterViews.first {
            out.append("members \(try m.clusterMembers(key: first.key)) zoom \(try m.clusterExpansionZoom(key: first.key))")
        }
        for _ in 0..<hits {
            let x = rng.uniform(-30, 830), y = rng.uniform(-30, 630)
            out.append("hit \(x) \(y) \(String(describing: try m.hitTest(x: x, y: y)))")
        }
        return out
    }

    func compare(_ p: Pair, _ t: Double, _ seed: UInt64, _ label: String) throws {
        var r1 = TestRng(state: seed), r2 = TestRng(state: seed)
        let a = try snapshot(p.geos, t, &r1), b = try snapshot(p.swift, t, &r2)
        XCTAssertEqual(a.count, b.count, label)
        for (x, y) in zip(a, b) where x != y { XCTFail("\(label): GEOS \(x) / Swift \(y)"); return }
    }

    /// The LA trees in two maps, one per factory: frames, clusters, hit tests and nearby queries
    /// at many cameras, after host moves and removals, equal to the last bit.
    func testMapsOnTheLATreesAnswerAlike() throws {
        let (ids, lonlat) = try Self.laTrees(stride: 8)
        var o = Options(); o.clusterRadius = 60; o.spreadMode = .spiral
        let p = try Pair(o)
        try ids.withUnsafeBufferPointer { i in
            try lonlat.withUnsafeBufferPointer { l in try p.both { try $0.addMany(ids: i, lonlat: l) } }
        }
        var rng = TestRng(state: 7)
        var t = 0.0
        for step in 0..<40 {
            let zoom = [9.0, 12, 15, 17, 18, 19][step % 6]
            let cam = Camera(centerLon: rng.uniform(-118.6, -118.0), centerLat: rng.uniform(33.8, 34.3), zoom: zoom,
                             bearingDeg: step % 5 == 0 ? rng.uniform(0, 360) : 0, width: 800, height: 600)
            try p.both { try $0.setCamera(cam) }
            t += 100
            try compare(p, t, UInt64(step), "step \(step) zoom \(zoom)")
            let lon = rng.uniform(-118.6, -118.0), lat = rng.uniform(33.8, 34.3), radius = pow(10, rng.uniform(0, 3))
            let na = try p.geos.nearby(lon: lon, lat: lat, radius: radius), nb = try p.swift.nearby(lon: lon, lat: lat, radius: radius)
            XCTAssertEqual(na, nb); XCTAssertEqual(p.geos.nearbyResults, p.swift.nearbyResults, "nearby \(lon) \(lat) \(radius)")
            // Host changes between views.
            for _ in 0..<200 {
                let k = rng.int(ids.count)
                if rng.int(8) == 0 {
                    if (try? p.geos.position(id: ids[k])) != nil { try p.both { try $0.remove(id: ids[k]) } }
                } else {
                    let x = lonlat[2 * k] + rng.uniform(-0.002, 0.002), y = lonlat[2 * k + 1] + rng.uniform(-0.002, 0.002)
                    if (try? p.geos.position(id: ids[k])) != nil { try p.both { try $0.setPosition(id: ids[k], lon: x, lat: y) } }
                    else { try p.both { try $0.add(id: ids[k], lon: x, lat: y) } }
                }
            }
        }
    }

    /// Pins on both sides of the antimeridian and exact stacks (spread rings), seen from a camera
    /// across it, dragged by touches, with the same events.
    func testAntimeridianStacksAndDragsAnswerAlike() throws {
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0
        let p = try Pair(o)
        var rng = TestRng(state: 180)
        var id: Int64 = 1
        for _ in 0..<400 {
            let lon = rng.int(2) == 0 ? rng.uniform(179.9, 180) : rng.uniform(-180, -179.9)
            let lat = rng.uniform(-0.05, 0.05)
            let copies = rng.int(6) == 0 ? 1 + rng.int(5) : 1
            for _ in 0..<copies { try p.both { try $0.add(id: id, lon: lon, lat: lat) }; id += 1 }
        }
        try p.both { try $0.add(id: id, lon: 180, lat: 0); try $0.add(id: id + 1, lon: -180, lat: 0) }
        var t = 0.0
        for step in 0..<30 {
            let cam = Camera(centerLon: [180.0, -180, 179.95, -179.95][step % 4], centerLat: rng.uniform(-0.03, 0.03),
                             zoom: rng.uniform(10, 15), width: 800, height: 600)
            try p.both { try $0.setCamera(cam) }
            t += 50
            try compare(p, t, UInt64(100 + step), "antimeridian step \(step)")
            // A drag from a random point.
            let x0 = rng.uniform(0, 800), y0 = rng.uniform(0, 600), x1 = rng.uniform(0, 800), y1 = rng.uniform(0, 600)
            var owned: [Bool] = []
            try p.both { m in
                owned.append(try m.touch(pointer: 0, phase: .down, x: x0, y: y0, time: t + 1))
                _ = try m.touch(pointer: 0, phase: .move, x: (x0 + x1) / 2, y: (y0 + y1) / 2, time: t + 10)
                _ = try m.touch(pointer: 0, phase: .up, x: x1, y: y1, time: t + 20)
                try m.tick(time: t + 400)
            }
            XCTAssertEqual(owned[0], owned[1])
            var ea: [TimedEvent] = [], eb: [TimedEvent] = []
            while let e = p.geos.pollEvent() { ea.append(e) }
            while let e = p.swift.pollEvent() { eb.append(e) }
            XCTAssertEqual(ea, eb, "events of drag \(step)")
            t += 400
        }
    }

    // MARK: - Allowed areas

    static let areas: [String] = [
        // A square, a polygon with two holes, a multipolygon with an island in a lake.
        "POLYGON((-118.36 33.89, -118.34 33.89, -118.34 33.91, -118.36 33.91, -118.36 33.89))",
        "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 4, 2 2), (6 6, 8 6, 7 8, 6 6))",
        "MULTIPOLYGON(((0 0, 20 0, 20 20, 0 20, 0 0), (5 5, 15 5, 15 15, 5 15, 5 5)), ((8 8, 12 8, 10 12, 8 8)))",
        // Touching the antimeridian from both sides, and a thin sliver.
        "MULTIPOLYGON(((170 -10, 180 -10, 180 10, 170 10, 170 -10)), ((-180 -10, -170 -10, -170 10, -180 10, -180 -10)))",
        "POLYGON((0 0, 1 1e-9, 2 0, 1 -1e-9, 0 0))",
        // A star with many vertices (not convex) in GeoJSON, with a hole.
        AllowedAreaShapes.starGeoJSON(points: 40, holes: true),
        // A FeatureCollection of two disjoint features.
        """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-1,-1],[1,-1],[1,1],[-1,1],[-1,-1]]]}},
          {"type":"Feature","properties":{"name":"b"},"geometry":{"type":"Polygon","coordinates":[[[3,3],[5,3],[4,5],[3,3]]]}}]}
        """,
    ]

    /// Containment and snapping: random points, the vertices, points on edges and a hair off them.
    func testAreasContainAndSnapAsGEOS() throws {
        let g = try GEOSFactory()
        let s = SwiftIndexFactory()
        var rng = TestRng(state: 4)
        for text in Self.areas {
            let a = try g.parseArea(text), b = try s.parseArea(text)
            let rings = (b as! SwiftArea).rings
            let collection = text.contains("FeatureCollection")
            var points: [(Double, Double)] = []
            for _ in 0..<4000 {
                let w = max(rings.maxLon - rings.minLon, 1e-6), h = max(rings.maxLat - rings.minLat, 1e-6)
                points.append((min(180, max(-180, rng.uniform(rings.minLon - w / 4, rings.maxLon + w / 4))),
                               min(90, max(-90, rng.uniform(rings.minLat - h / 4, rings.maxLat + h / 4)))))
            }
            for i in 0..<(rings.vertexCount - 1) {
                let x0 = rings.lon[i], y0 = rings.lat[i], x1 = rings.lon[i + 1], y1 = rings.lat[i + 1]
                points.append((x0, y0))
                let t = rng.uniform(0, 1)
                let x = x0 + t * (x1 - x0), y = y0 + t * (y1 - y0)
                points.append((x, y))
                points.append((x.nextUp, y)); points.append((x, y.nextDown)); points.append(((x0 + x1) / 2, (y0 + y1) / 2))
            }
            var inside = 0
            for (x, y) in points {
                let ca = a.contains(lon: x, lat: y), cb = b.contains(lon: x, lat: y)
                XCTAssertEqual(ca, cb, "contains(\(x), \(y)) in \(text.prefix(60))")
                if ca { inside += 1 }
                let na = a.nearestInside(lon: x, lat: y), nb = b.nearestInside(lon: x, lat: y)
                if collection {
                    // GEOS unites a collection's features, rewriting their rings (another start
                    // vertex, the other direction): the interpolation rounds differently.
                    XCTAssertTrue(abs(na.lon - nb.lon) <= 1e-12 && abs(na.lat - nb.lat) <= 1e-12,
                                  "nearestInside(\(x), \(y)): GEOS \(na), Swift \(nb)")
                    XCTAssertTrue(b.contains(lon: nb.lon, lat: nb.lat))
                } else {
                    XCTAssertTrue(na.lon == nb.lon && na.lat == nb.lat, "nearestInside(\(x), \(y)): GEOS \(na), Swift \(nb)")
                }
            }
            XCTAssertGreaterThan(inside, 0, "some points fall inside \(text.prefix(60))")
            XCTAssertLessThan(inside, points.count, "and some outside")
        }
    }

    /// What GEOS refuses, the Swift reader refuses with the same status.
    func testAreaTextRefusedAlike() throws {
        let g = try GEOSFactory()
        let s = SwiftIndexFactory()
        let texts = [
            "", "   ", "POLYGON", "POLYGON((0 0, 1 0, 1 1, 0 0)) trailing", "POLYGON((0 0, 1 0, 1 1))",
            "POLYGON((0 0, 1 0, 1 1, 0 1))", "POLYGON EMPTY", "MULTIPOLYGON EMPTY", "POINT(1 2)", "LINESTRING(0 0, 1 1)",
            "POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))",                               // a bow tie
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (20 20, 21 20, 21 21, 20 20))",  // a hole outside
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 9 1, 9 9, 1 9, 1 1), (2 2, 3 2, 3 3, 2 2))",  // nested holes
            "MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((1 1, 2 1, 2 2, 1 1)))",  // nested shells
            "MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 15 5, 15 15, 5 15, 5 5)))",  // overlapping
            "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0), (0 0, 1 0, 1 1, 0 1, 0 0))",
            "POLYGON((0 0, 200 0, 200 1, 0 1, 0 0))", "POLYGON((0 0, 1 0, 1 95, 0 0))",
            "{", "{\"type\": \"Polygon\"}", "{\"type\": \"Point\", \"coordinates\": [1, 2]}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1]]]}",
            "{\"type\": \"FeatureCollection\", \"features\": []}",
            "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, 0]]]} x",
            "GEOMETRYCOLLECTION(POLYGON((0 0, 1 0, 1 1, 0 0)), POINT(1 1))",
            "POLYGON((0 0, 1 0, 1 1, 0 0)", "POLYGON((0 0, 1 0, 1 x, 0 0))", "CIRCLE(1 2 3)",
            "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 1, 0 0)), ((1 0, 2 0, 2 1, 1 1, 1 0)))",      // sharing an edge
            "POLYGON((0 0, 2 0, 1 1, 2 2, 0 2, 1 1, 0 0))",                                // a figure 8
            "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0, 0 0))",                                     // a repeated point: valid
            "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (0 0, 2 1, 1 2, 0 0))",                    // a hole touching at a vertex
            "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 1, 0 0)), ((1 1, 2 1, 2 2, 1 2, 1 1)))",      // touching at a point
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1), (2 2, 3 2, 3 3, 2 2))",  // holes touching
            "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 3 1, 3 3, 1 3, 1 1), (1.5 1.5, 2.5 1.5, 2 2.5, 1.5 1.5))",
            "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 5 1, 5 3, 1 3, 1 1))",              // a hole crossing the shell
            "POLYGON Z((0 0 1, 1 0 1, 1 1 1, 0 0 1))", "polygon((0 0, 1 0, 1 1, 0 0))",
        ]
        for text in texts {
            var ga: PindropError?, sa: PindropError?
            do { _ = try g.parseArea(text) } catch { ga = error }
            do { _ = try s.parseArea(text) } catch { sa = error }
            XCTAssertEqual(ga?.status, sa?.status, "\(text): GEOS \(ga?.message ?? "accepted") / Swift \(sa?.message ?? "accepted")")
        }
        for text in Self.areas {
            XCTAssertNoThrow(try s.parseArea(text), text)
        }
    }

    /// Snapping drops through maps with allowed areas (OUTSIDE_SNAP): the same MOVED events.
    func testSnappedDropsAlike() throws {
        var o = Options(); o.liftDelayMs = 0; o.liftHeight = 0; o.outsidePolicy = .snap
        let p = try Pair(o)
        try p.both { m in
            try m.setAllowedArea(text: Self.areas[1])
            try m.setCamera(Camera(centerLon: 5, centerLat: 5, zoom: 6, width: 800, height: 600))
            for i in 0..<50 { try m.add(id: Int64(i), lon: 0.5 + Double(i % 10), lat: 0.5 + Double(i / 10) * 2) }
        }
        var rng = TestRng(state: 11)
        var t = 0.0
        var causes: [Event.Cause: Int] = [:]
        for i in 0..<60 {
            let pin = Int64(i % 50)
            let (x0, y0) = try p.geos.toScreen(lon: try p.geos.displayPosition(id: pin).lon, lat: try p.geos.displayPosition(id: pin).lat)
            let x1 = rng.uniform(0, 800), y1 = rng.uniform(0, 600)
            try p.both { m in
                _ = try m.touch(pointer: 0, phase: .down, x: x0, y: y0, time: t + 1)
                _ = try m.touch(pointer: 0, phase: .move, x: x1, y: y1, time: t + 20)
                _ = try m.touch(pointer: 0, phase: .up, x: x1, y: y1, time: t + 40)
                try m.tick(time: t + 400)
            }
            var ea: [TimedEvent] = [], eb: [TimedEvent] = []
            while let e = p.geos.pollEvent() { ea.append(e) }
            while let e = p.swift.pollEvent() { eb.append(e) }
            XCTAssertEqual(ea, eb, "drop \(i)")
            for e in ea { if case .moved(_, _, _, let cause) = e.event { causes[cause, default: 0] += 1 } }
            t += 500
        }
        XCTAssertGreaterThan(causes[.snap, default: 0], 5, "drops outside were snapped: \(causes)")
        XCTAssertGreaterThan(causes[.drag, default: 0], 5, "drops inside were kept: \(causes)")
    }
}

/// Shapes for the area tests.
enum AllowedAreaShapes {
    /// A star of `points` tips around (-118.3, 34.0), as a GeoJSON Polygon, with a small square hole.
    static func starGeoJSON(points: Int, holes: Bool) -> String {
        var ring: [String] = []
        for k in 0...(2 * points) {
            let a = Double(k % (2 * points)) * Double.pi / Double(points)
            let r = k % 2 == 0 ? 0.05 : 0.02
            ring.append("[\(-118.3 + r * sin(a)), \(34.0 + r * cos(a))]")
        }
        var text = "{\"type\": \"Polygon\", \"coordinates\": [[\(ring.joined(separator: ","))]"
        if holes { text += ", [[-118.305, 33.995], [-118.295, 33.995], [-118.295, 34.005], [-118.305, 34.005], [-118.305, 33.995]]" }
        return text + "]}"
    }
}
