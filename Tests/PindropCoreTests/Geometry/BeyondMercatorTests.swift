import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A pin beyond Web Mercator's ±85.0511° (valid data, latitude 89.9) is stored and reported as
/// given, and in the Web Mercator camera it is drawn, hit, clustered and spread on the world's
/// edge at its own longitude, as if at ±85.0511° (include/pindrop.h's conventions;
/// docs/robustness.md, "Beyond ±85.0511°"). The edge points are computed here from the
/// textbook formula: y = 0 (north) or the world's height (south) at the camera's scale.
final class BeyondMercatorTests: XCTestCase {
    let camera = Camera(centerLon: 10, centerLat: 80, zoom: 3, width: 800, height: 600)

    /// The screen point of the world's north (or south) edge at `lon`: world y 0 (or 2048 at
    /// zoom 3), x from the longitude, relative to the camera's centre.
    func edge(_ lon: Double, north: Bool = true) -> (x: Double, y: Double) {
        let world = 256 * pow(2, camera.zoom)
        let cx = (camera.centerLon + 180) / 360 * world
        let phi = camera.centerLat * .pi / 180
        let cy = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * world
        return (400 + (lon + 180) / 360 * world - cx, 300 + (north ? 0 : world) - cy)
    }

    func makeMap(_ configure: (inout Options) -> Void = { _ in }) throws -> Map {
        var o = Options()
        configure(&o)
        let m = try Map(options: o, factory: BruteForceFactory())
        try m.setCamera(camera)
        return m
    }

    func testAPinAt89Point9IsKeptAsGivenAndDrawnAndHitOnTheWorldsEdge() throws {
        let m = try makeMap()
        try m.add(id: 1, lon: 10, lat: 89.9)
        try m.add(id: 2, lon: 20, lat: 86)
        try m.add(id: 3, lon: 0, lat: 85.0511287798066)
        let kept = try m.position(id: 1)
        XCTAssertEqual(kept.lon, 10)
        XCTAssertEqual(kept.lat, 89.9)
        let n = try m.frame(time: 0)
        let views = Array(m.frameViews[0..<n])
        for (id, lon) in [(Int64(1), 10.0), (2, 20), (3, 0)] {
            let e = edge(lon)
            let s = try m.toScreen(lon: lon, lat: id == 3 ? 85.0511287798066 : (id == 1 ? 89.9 : 86))
            XCTAssertEqual(s.x, e.x, accuracy: 1e-6, "pin \(id)")
            XCTAssertEqual(s.y, e.y, accuracy: 1e-6, "pin \(id)")
            guard let v = views.first(where: { $0.id == id }) else { XCTFail("pin \(id) is not drawn"); continue }
            XCTAssertEqual(v.x, e.x, accuracy: 1e-6, "pin \(id)")
            XCTAssertEqual(v.y, e.y, accuracy: 1e-6, "pin \(id)")
            XCTAssertEqual(v.anchorY, e.y, accuracy: 1e-6, "pin \(id)")
            XCTAssertEqual(try m.hitTest(x: e.x, y: e.y + 3), id, "pin \(id) is hit where it is drawn")
        }
        // Nothing is drawn or hit above the edge, where the formula would put 89.9°.
        let unclamped = WebMercator.unclamped(lon: 10, lat: 89.9).y * 256 * 8 - (edge(10).y - 300)
        XCTAssertLessThan(unclamped, -100)
        XCTAssertNil(try m.hitTest(x: edge(10).x, y: edge(10).y - 100))
        // The index path (no frame since the change) answers the same.
        try m.setPosition(id: 2, lon: 20, lat: 88)
        XCTAssertEqual(try m.hitTest(x: edge(20).x, y: edge(20).y + 2), 2)
    }

    func testTheSouthEdgeToo() throws {
        let m = try makeMap()
        try m.setCamera(Camera(centerLon: 10, centerLat: -80, zoom: 3, width: 800, height: 600))
        try m.add(id: 1, lon: 10, lat: -89.9)
        let s = try m.toScreen(lon: 10, lat: -89.9)
        let bottom = try m.toScreen(lon: 10, lat: -85.0511287798066)
        XCTAssertEqual(s.x, bottom.x, accuracy: 1e-9)
        XCTAssertEqual(s.y, bottom.y, accuracy: 1e-6)
        _ = try m.frame(time: 0)
        XCTAssertEqual(try m.hitTest(x: s.x, y: s.y), 1)
    }

    func testPinsBeyondTheEdgeAtOneLongitudeClusterAsOneSpotOnTheEdge() throws {
        let m = try makeMap { $0.clusterRadius = 40 }
        try m.add(id: 1, lon: 10, lat: 89.9)
        try m.add(id: 2, lon: 10, lat: 87)
        try m.add(id: 3, lon: 10, lat: 85.2)
        _ = try m.frame(time: 0)
        let n = try m.frameClusters(time: 0)
        let clusters = Array(m.clusterViews[0..<n])
        XCTAssertEqual(clusters.count, 1)
        guard let c = clusters.first else { return }
        XCTAssertEqual(c.count, 3)
        XCTAssertEqual(c.flags & ClusterFlags.oneSpot.rawValue, ClusterFlags.oneSpot.rawValue)
        XCTAssertEqual(c.x, edge(10).x, accuracy: 1e-6)
        XCTAssertEqual(c.y, edge(10).y, accuracy: 1e-6)
    }

    func testAStackBeyondTheEdgeIsSpreadAroundItsEdgePoint() throws {
        let m = try makeMap { $0.spreadMode = .spiral; $0.spreadSpacing = 25 }
        try m.add(id: 1, lon: 10, lat: 89.9)
        try m.add(id: 2, lon: 10, lat: 89.9)
        try m.add(id: 3, lon: 10, lat: 89.9)
        let n = try m.frame(time: 0)
        let views = Array(m.frameViews[0..<n]).filter { [1, 2, 3].contains($0.id) }
        XCTAssertEqual(views.count, 3)
        let e = edge(10)
        for v in views {
            XCTAssertEqual(v.anchorX, e.x, accuracy: 1e-6)
            XCTAssertEqual(v.anchorY, e.y, accuracy: 1e-6)
            // A circle of radius max(spacing, spacing·(n+2)/2π) = 25 points around the edge point.
            XCTAssertEqual(hypot(v.x - e.x, v.y - e.y), 25, accuracy: 1e-6, "pin \(v.id)")
            XCTAssertEqual(try m.hitTest(x: v.x, y: v.y), v.id)
        }
    }

    /// A ring (PINDROP_SPREAD_RING, laid out in metres) of pins beyond the edge is centred where
    /// it reaches the edge: its first pin (bearing 0, or π in the south) on the edge point the
    /// stack's pins are anchored at, every other pin inside the map, at one distance from the
    /// ring's centre, drawn and hit where it lies (from the frame's grid and from the index).
    func testARingBeyondTheEdgeIsLaidOutOnTheMapAroundItsEdgePoint() throws {
        for north in [true, false] {
            let lat = north ? 89.9 : -89.9
            // Zoom 16 at 85°: 0.21 m a point, so the ring of 8 (12 m) has a radius of about 58 points;
            // the edge is about 120 points above the view's centre.
            let cam = Camera(centerLon: 10, centerLat: north ? 85.0509 : -85.0509, zoom: 16, width: 800, height: 600)
            let m = try makeMap { $0.spreadMode = .ring }
            try m.setCamera(cam)
            for id: Int64 in 1...8 { try m.add(id: id, lon: 10, lat: lat) }
            let e = try m.toScreen(lon: 10, lat: lat)
            let edgeY = try m.toScreen(lon: 10, lat: north ? WebMercator.maxLatitude : -WebMercator.maxLatitude).y
            XCTAssertEqual(e.y, edgeY, accuracy: 1e-6)
            // The index path first (no frame yet), then the frame and its grid.
            for id: Int64 in 1...8 {
                let p = try m.displayPosition(id: id)
                XCTAssertLessThanOrEqual(abs(p.lat), WebMercator.maxLatitude + 1e-12, "pin \(id) lies on the map")
                let q = try m.toScreen(lon: p.lon, lat: p.lat)
                XCTAssertEqual(try m.hitTest(x: q.x, y: q.y), id, "pin \(id) is hit where it is drawn")
            }
            let n = try m.frame(time: 0)
            let views = Array(m.frameViews[0..<n])
            XCTAssertEqual(views.count, 8, north ? "north" : "south")
            let cx = views.map(\.x).reduce(0, +) / 8, cy = views.map(\.y).reduce(0, +) / 8
            let radius = hypot(views[0].x - cx, views[0].y - cy)
            XCTAssertGreaterThan(radius, 20, "a ring tens of points across")
            for v in views {
                XCTAssertTrue(v.flags.contains(.spread))
                XCTAssertEqual(v.anchorX, e.x, accuracy: 1e-6)
                XCTAssertEqual(v.anchorY, e.y, accuracy: 1e-6)
                if north {
                    XCTAssertGreaterThanOrEqual(v.y, edgeY - 1e-6, "pin \(v.id) is not beyond the north edge")
                } else {
                    XCTAssertLessThanOrEqual(v.y, edgeY + 1e-6, "pin \(v.id) is not beyond the south edge")
                }
                XCTAssertEqual(hypot(v.x - cx, v.y - cy), radius, accuracy: radius * 0.01, "pin \(v.id) is on the ring")
                XCTAssertEqual(try m.hitTest(x: v.x, y: v.y), v.id)
            }
            // Pin 1, bearing 0 (north) or its opposite pin (south), touches the edge point.
            let onEdge = north ? views.first { $0.id == 1 }! : views.first { $0.id == 5 }!
            XCTAssertEqual(onEdge.x, e.x, accuracy: 1e-3)
            XCTAssertEqual(onEdge.y, e.y, accuracy: 1e-3)
        }
    }
}
