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
}
