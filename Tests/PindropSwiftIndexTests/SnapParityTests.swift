import Foundation
import XCTest
@testable import PindropCore
import PindropGEOSIndex
import PindropSwiftIndex
import PindropTestSupport

/// Snapping (behaviour 24) with the real trees: the same drags through GEOS (the native library's)
/// and PindropSwiftIndex (pindrop.wasm's) compared in every snapped point, target and flag; and
/// the snapped point of both against a brute force over every target written from its textbook
/// form (Web Mercator, the nearest point of a segment), on a street-like layer over Los Angeles.
final class SnapParityTests: XCTestCase {
    /// A layer as the test wrote it: features with their ids, parts of lon/lat vertices.
    struct Feature { var id: Int64; var parts: [[(lon: Double, lat: Double)]]; var lines: Bool }

    static let camera = Camera(centerLon: -118.3, centerLat: 34.0, zoom: 17, width: 1200, height: 800)

    /// Streets (lines of 2 to 6 vertices), parcels (closed rings) and hydrants (points), inside the
    /// view (and a little beyond), from screen points.
    static func layer(_ map: Map, _ rng: inout TestRng, lines: Int, rings: Int, points: Int, firstID: Int64) -> [Feature] {
        func ll(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) { try! map.toLonLat(x: x, y: y) }
        var out: [Feature] = []
        var id = firstID
        for _ in 0..<lines {
            var x = rng.uniform(-100, 1300), y = rng.uniform(-100, 900)
            var part = [ll(x, y)]
            for _ in 0..<Int(rng.uniform(1, 6)) {
                x += rng.uniform(-200, 200); y += rng.uniform(-200, 200); part.append(ll(x, y))
            }
            out.append(Feature(id: id, parts: [part], lines: true)); id += 3
        }
        for _ in 0..<rings {
            let x = rng.uniform(0, 1200), y = rng.uniform(0, 800), w = rng.uniform(10, 80), h = rng.uniform(10, 80)
            let ring = [ll(x, y), ll(x + w, y), ll(x + w, y + h), ll(x, y + h), ll(x, y)]
            out.append(Feature(id: id, parts: [ring], lines: true)); id += 3
        }
        for _ in 0..<points {
            out.append(Feature(id: id, parts: [[ll(rng.uniform(0, 1200), rng.uniform(0, 800))]], lines: false)); id += 3
        }
        return out
    }

    static func geoJSON(_ features: [Feature]) -> String {
        func pos(_ p: (lon: Double, lat: Double)) -> String { "[\(p.lon),\(p.lat)]" }
        let items = features.map { f -> String in
            let g: String
            if f.lines {
                let c = f.parts[0].map(pos).joined(separator: ",")
                g = f.parts[0].count > 2 && f.parts[0].first! == f.parts[0].last!
                    ? "{\"type\":\"Polygon\",\"coordinates\":[[\(c)]]}" : "{\"type\":\"LineString\",\"coordinates\":[\(c)]}"
            } else {
                g = "{\"type\":\"Point\",\"coordinates\":\(pos(f.parts[0][0]))}"
            }
            return "{\"type\":\"Feature\",\"id\":\(f.id),\"properties\":{},\"geometry\":\(g)}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\(items.joined(separator: ","))]}"
    }

    /// WKT without ids: the features must then be numbered 0, 1, ... (the test renumbers them).
    static func wkt(_ features: inout [Feature]) -> String {
        func pos(_ p: (lon: Double, lat: Double)) -> String { "\(p.lon) \(p.lat)" }
        var parts: [String] = []
        for k in features.indices {
            features[k].id = Int64(k)
            let f = features[k]
            let c = f.parts[0].map(pos).joined(separator: ", ")
            if !f.lines { parts.append("POINT (\(c))") }
            else if f.parts[0].count > 2 && f.parts[0].first! == f.parts[0].last! { parts.append("POLYGON ((\(c)))") }
            else { parts.append("LINESTRING (\(c))") }
        }
        return "GEOMETRYCOLLECTION (\(parts.joined(separator: ", ")))"
    }

    struct World {
        var layers: [(layer: UInt32, features: [Feature])] = []
        var pins: [(id: Int64, lon: Double, lat: Double)] = []
    }

    /// Two maps alike but for their factory, with the layers and pins of `world`.
    func maps(_ rng: inout TestRng, toPins: Bool = true) throws -> (geos: Map, swift: Map, world: World) {
        var o = Options()
        o.snapTolerance = 12; o.snapToPins = toPins; o.liftHeight = 0
        let geos = try Map(options: o, factory: try GEOSFactory())
        let swift = try Map(options: o, factory: SwiftIndexFactory())
        var world = World()
        for m in [geos, swift] { try m.setCamera(Self.camera) }
        var streets = Self.layer(geos, &rng, lines: 120, rings: 40, points: 60, firstID: 5)
        let text0 = Self.wkt(&streets)
        let sites = Self.layer(geos, &rng, lines: 30, rings: 60, points: 120, firstID: 1000)
        let text7 = Self.geoJSON(sites)
        world.layers = [(0, streets), (7, sites)]
        for k in 0..<200 {
            let p = try geos.toLonLat(x: rng.uniform(0, 1200), y: rng.uniform(0, 800))
            world.pins.append((Int64(k + 1), p.lon, p.lat))
        }
        for m in [geos, swift] {
            try m.setSnapLayer(0, text0)
            try m.setSnapLayer(7, text7)
            for p in world.pins { try m.add(id: p.id, lon: p.lon, lat: p.lat) }
        }
        return (geos, swift, world)
    }

    // MARK: - GEOS and Swift agree

    /// The same drags through both maps: every DRAGGED, target and SNAPPED flag compared.
    func testDragsSnapAlikeThroughGEOSAndSwift() throws {
        var rng = TestRng(state: 24)
        let (geos, swift, world) = try maps(&rng)
        var t = 0.0
        var snapped = 0, kinds = Set<Int32>()
        for drag in 0..<40 {
            let pin = world.pins[drag * 5]
            let start = try geos.toScreen(lon: pin.lon, lat: pin.lat)
            var x = start.x, y = start.y
            func both(_ phase: TouchPhase) throws {
                XCTAssertEqual(try geos.touch(pointer: 0, phase: phase, x: x, y: y, time: t),
                               try swift.touch(pointer: 0, phase: phase, x: x, y: y, time: t))
            }
            try both(.down)
            t += 300; try geos.tick(time: t); try swift.tick(time: t)
            for _ in 0..<30 {
                t += 16
                x = min(1150, max(50, x + rng.uniform(-25, 25))); y = min(750, max(50, y + rng.uniform(-25, 25)))
                try both(.move)
                let a = geos.snapTarget, b = swift.snapTarget
                XCTAssertEqual(a.kind, b.kind); XCTAssertEqual(a.layer, b.layer)
                XCTAssertEqual(a.feature, b.feature); XCTAssertEqual(a.index, b.index)
                XCTAssertEqual(a.lon, b.lon, accuracy: 1e-9); XCTAssertEqual(a.lat, b.lat, accuracy: 1e-9)
                let fa = try geos.frame(time: t), fb = try swift.frame(time: t)
                XCTAssertEqual(fa, fb)
                let va = geos.frameViews[0..<fa].first { $0.id == pin.id }, vb = swift.frameViews[0..<fb].first { $0.id == pin.id }
                XCTAssertNotNil(va, "the dragged pin is drawn")
                XCTAssertEqual(va?.flags, vb?.flags)
                XCTAssertEqual(va?.flags.contains(.snapped), a.kind != .none)
                if a.kind != .none { snapped += 1; kinds.insert(a.kind.rawValue) }
            }
            t += 16; try both(.up)
            var ea: [EventFields] = [], eb: [EventFields] = []
            while let e = geos.pollEventFields() { ea.append(e) }
            while let e = swift.pollEventFields() { eb.append(e) }
            XCTAssertEqual(ea.count, eb.count)
            for (p, q) in zip(ea, eb) {
                XCTAssertEqual(p.kind, q.kind); XCTAssertEqual(p.id, q.id)
                XCTAssertEqual(p.lon, q.lon, accuracy: 1e-9); XCTAssertEqual(p.lat, q.lat, accuracy: 1e-9)
            }
            t += 1000
        }
        XCTAssertGreaterThan(snapped, 100, "the drags met targets")
        XCTAssertEqual(kinds, [1, 2, 3], "pins, vertices and segments were all snapped to")
    }

    // MARK: - The oracle

    /// The textbook form: a point's Web Mercator world point at zoom z (Snyder).
    static func world(_ lon: Double, _ lat: Double, _ size: Double) -> (x: Double, y: Double) {
        let phi = lat * .pi / 180
        return ((lon + 180) / 360 * size, (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * size)
    }

    /// Every target, brute force: the best by behaviour 24's rules, and the gap to the runner-up
    /// (so that near ties, where rounding may decide, are not held against the library).
    static func oracle(_ world: World, lon: Double, lat: Double, skip: Int64, tolerance: Double,
                       zoom: Double) -> (kind: SnapHit.Kind, layer: UInt32, feature: Int64, index: Int64, x: Double, y: Double, gap: Double)? {
        let size = 256 * pow(2, zoom)
        let p = Self.world(lon, lat, size)
        typealias Cand = (kind: SnapHit.Kind, d: Double, layer: UInt32, feature: Int64, index: Int64, x: Double, y: Double)
        var all: [Cand] = []
        for pin in world.pins where pin.id != skip {
            let q = Self.world(pin.lon, pin.lat, size)
            all.append((.pin, hypot(q.x - p.x, q.y - p.y), 0, pin.id, 0, q.x, q.y))
        }
        for (layer, features) in world.layers {
            for f in features {
                let v = f.parts[0].map { Self.world($0.lon, $0.lat, size) }
                for (i, q) in v.enumerated() {
                    all.append((.vertex, hypot(q.x - p.x, q.y - p.y), layer, f.id, Int64(i), q.x, q.y))
                }
                guard f.lines else { continue }
                for i in 0..<(v.count - 1) {
                    // The foot of the perpendicular, or the nearer end.
                    let a = v[i], b = v[i + 1]
                    let len = hypot(b.x - a.x, b.y - a.y)
                    let along = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / len
                    let q: (x: Double, y: Double) = along <= 0 ? a : along >= len ? b
                        : (a.x + (b.x - a.x) * along / len, a.y + (b.y - a.y) * along / len)
                    all.append((.segment, hypot(q.x - p.x, q.y - p.y), layer, f.id, Int64(i), q.x, q.y))
                }
            }
        }
        let within = all.filter { $0.d <= tolerance }
        let points = within.filter { $0.kind != .segment }
        let pool = points.isEmpty ? within : points
        let ranked = pool.sorted { a, b in
            (a.d, a.layer, a.feature, a.index) < (b.d, b.layer, b.feature, b.index)
        }
        guard let best = ranked.first else { return nil }
        let gap = ranked.count > 1 ? ranked[1].d - best.d : .infinity
        return (best.kind, best.layer, best.feature, best.index, best.x, best.y, gap)
    }

    /// Random landing points near the layers: both maps' snapped point, target and kind against the
    /// brute force, in screen points within 1e-6 (the oracle's own arithmetic differs).
    func testSnappedPointsMatchABruteForceOverEveryTarget() throws {
        var rng = TestRng(state: 2024)
        let (geos, swift, world) = try maps(&rng)
        let skip = world.pins[0].id
        let slotG = geos.pins.slot(of: skip)!, slotS = swift.pins.slot(of: skip)!
        var checked = 0, segments = 0, vertices = 0, pins = 0, none = 0
        for _ in 0..<3000 {
            let x = rng.uniform(0, 1200), y = rng.uniform(0, 800)
            let raw = try geos.toLonLat(x: x, y: y)
            let want = Self.oracle(world, lon: raw.lon, lat: raw.lat, skip: skip, tolerance: 12, zoom: Self.camera.zoom)
            for (m, slot) in [(geos, slotG), (swift, slotS)] {
                let got = m.snappedLanding(slot, raw)
                let hit = m.snapping.hit
                guard let want else {
                    XCTAssertEqual(hit.kind, .none, "(\(x), \(y))")
                    XCTAssertTrue(got == raw)
                    none += 1
                    continue
                }
                guard want.gap > 1e-6 else { continue }  // a near tie: rounding decides
                XCTAssertEqual(hit.layer, want.layer, "(\(x), \(y))")
                XCTAssertEqual(hit.feature, want.feature, "(\(x), \(y))")
                XCTAssertEqual(hit.index, want.index, "(\(x), \(y))")
                XCTAssertEqual(hit.kind, want.kind, "(\(x), \(y))")
                let size = 256 * pow(2, Self.camera.zoom)
                let q = Self.world(got.lon, got.lat, size)
                XCTAssertEqual(q.x, want.x, accuracy: 1e-6, "(\(x), \(y))")
                XCTAssertEqual(q.y, want.y, accuracy: 1e-6, "(\(x), \(y))")
                checked += 1
                switch hit.kind {
                case .segment: segments += 1
                case .vertex: vertices += 1
                case .pin: pins += 1
                case .none: XCTFail("snapped to nothing at (\(x), \(y))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertGreaterThan(segments, 100); XCTAssertGreaterThan(vertices, 20); XCTAssertGreaterThan(pins, 20)
        XCTAssertGreaterThan(none, 100)
    }
}
