import Foundation
import XCTest
@testable import PindropCore

/// The camera and the sphere against values computed elsewhere: mercantile and
/// sphericalmercator (the Python and JavaScript tile libraries), textbook formulas written here
/// independently of the code under test, and round trips.
final class GeometryTests: XCTestCase {
    // MARK: - Web Mercator against the tile libraries

    func testTileCornerMatchesMercantile() {
        // mercantile.ul(486, 332, 10) = LngLat(lng=-9.140625, lat=53.33087298301705)
        let ws = WebMercator.worldSize(zoom: 10)
        let p = WebMercator.unproject(x: 486 * 256, y: 332 * 256, worldSize: ws)
        XCTAssertEqual(p.lon, -9.140625, accuracy: 1e-12)
        XCTAssertEqual(p.lat, 53.33087298301705, accuracy: 1e-12)
    }

    func testWorldPixelsMatchSphericalMercator() {
        // sphericalmercator.px([-179, 85], 9) unrounded = [364.0889, 214.6848] (4 decimals)
        let ws = WebMercator.worldSize(zoom: 9)
        let px = WebMercator.project(lon: -179, lat: 85, worldSize: ws)
        XCTAssertEqual(px.x, 364.0889, accuracy: 5e-5)
        XCTAssertEqual(px.y, 214.6848, accuracy: 5e-5)
        // sphericalmercator.ll([200, 200], 9) = [-179.45068359375, 85.00351401304403]
        let ll = WebMercator.unproject(x: 200, y: 200, worldSize: ws)
        XCTAssertEqual(ll.lon, -179.45068359375, accuracy: 1e-12)
        XCTAssertEqual(ll.lat, 85.00351401304403, accuracy: 1e-11)
    }

    func testProjectionAgreesWithTheTextbookFormula() {
        // y = (1 - ln(tan φ + sec φ) / π) / 2 · size, the slippy-map tile formula.
        var rng = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-85, 85), zoom = rng.uniform(0, 24)
            let ws = 256 * pow(2, zoom)
            let phi = lat * .pi / 180
            let x = (lon + 180) / 360 * ws
            let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * ws
            let p = WebMercator.project(lon: lon, lat: lat, worldSize: ws)
            XCTAssertEqual(p.x, x, accuracy: 1e-9 * max(1, ws / 256))
            XCTAssertEqual(p.y, y, accuracy: 1e-9 * max(1, ws / 256))
        }
    }

    // MARK: - The camera

    /// What a double-precision coordinate resolves on screen at this zoom: a few ulps of the
    /// latitude and longitude times points per degree (about 2e-6 points at zoom 24 near 85°),
    /// and never below the 1e-6 points asked of every round trip.
    func tolerance(lat: Double, zoom: Double) -> Double {
        let ws = 256 * pow(2, zoom)
        let pointsPerDegree = ws / 360 / cos(min(abs(lat), 85.06) * .pi / 180)
        return max(1e-6, 4 * abs(lat).ulp * pointsPerDegree + 4 * 180.0.ulp * ws / 360)
    }

    func testScreenRoundTripsAtEveryZoomLatitudeAndBearing() {
        var rng = SplitMix(seed: 1)
        for zoom in stride(from: 0.0, through: 24.0, by: 1.0) {
            for _ in 0..<300 {
                let lat = rng.uniform(-85, 85)
                let bearing = rng.uniform(-720, 720)
                let cam = Camera(centerLon: rng.uniform(-180, 180), centerLat: lat, zoom: min(24, zoom + rng.uniform(0, 0.99)),
                                 bearingDeg: bearing, width: 800, height: 600)
                let t = CameraTransform(cam)
                let x = rng.uniform(-200, 1000), y = rng.uniform(-200, 800)
                let ll = t.toLonLat(x, y)
                // At low zoom the viewport shows more than one world: a point over half a world
                // from the centre is drawn on the nearer copy, so it does not come back to itself.
                guard abs(ll.lat) <= 85.05, abs(ll.lon - cam.centerLon) < 179.99 else { continue }
                let back = t.toScreen(Sphere.normalizeLon(ll.lon), ll.lat)
                let tol = tolerance(lat: ll.lat, zoom: cam.zoom)
                XCTAssertEqual(back.x, x, accuracy: tol, "zoom \(cam.zoom) lat \(ll.lat) bearing \(bearing)")
                XCTAssertEqual(back.y, y, accuracy: tol, "zoom \(cam.zoom) lat \(ll.lat) bearing \(bearing)")
            }
        }
    }

    func testRoundTripsNearTheMercatorLimitsAtHighZoom() {
        for lat in [85.0, -85.0, 84.9999, -84.9999] {
            for zoom in [22.0, 23.0, 24.0] {
                let t = CameraTransform(Camera(centerLon: 12.5, centerLat: lat, zoom: zoom, bearingDeg: 33, width: 640, height: 480))
                for (x, y) in [(0.0, 0.0), (640.0, 480.0), (123.25, 400.5), (320.0, 240.0)] {
                    let ll = t.toLonLat(x, y)
                    let back = t.toScreen(ll.lon, ll.lat)
                    XCTAssertEqual(back.x, x, accuracy: tolerance(lat: lat, zoom: zoom))
                    XCTAssertEqual(back.y, y, accuracy: tolerance(lat: lat, zoom: zoom))
                }
            }
        }
    }

    func testTheCentreIsInTheMiddleAndBearingTurnsClockwise() {
        let base = Camera(centerLon: -118.3, centerLat: 34.05, zoom: 16, bearingDeg: 0, width: 800, height: 600)
        let t0 = CameraTransform(base)
        let c = t0.toScreen(-118.3, 34.05)
        XCTAssertEqual(c.x, 400, accuracy: 1e-9); XCTAssertEqual(c.y, 300, accuracy: 1e-9)
        // A point due north of the centre is straight up at bearing 0 ...
        let n0 = t0.toScreen(-118.3, 34.051)
        XCTAssertEqual(n0.x, 400, accuracy: 1e-9); XCTAssertLessThan(n0.y, 300)
        // ... and with the map turned so that east is up (bearing 90), north points left.
        var turned = base; turned.bearingDeg = 90
        let n90 = CameraTransform(turned).toScreen(-118.3, 34.051)
        XCTAssertEqual(n90.y, 300, accuracy: 1e-9); XCTAssertLessThan(n90.x, 400)
        XCTAssertEqual(400 - n90.x, 300 - n0.y, accuracy: 1e-9)  // a rotation keeps distances
        let e90 = CameraTransform(turned).toScreen(-118.299, 34.05)
        XCTAssertEqual(e90.x, 400, accuracy: 1e-9); XCTAssertLessThan(e90.y, 300)
        // Bearing 30: the screen offset of a point is its world offset turned by -30°.
        var b30 = base; b30.bearingDeg = 30
        let ws = WebMercator.worldSize(zoom: 16)
        let w = WebMercator.project(lon: -118.29, lat: 34.06, worldSize: ws)
        let w0 = WebMercator.project(lon: -118.3, lat: 34.05, worldSize: ws)
        let th = 30 * Double.pi / 180
        let dx = w.x - w0.x, dy = w.y - w0.y
        let s = CameraTransform(b30).toScreen(-118.29, 34.06)
        XCTAssertEqual(s.x, 400 + dx * cos(th) + dy * sin(th), accuracy: 1e-6)
        XCTAssertEqual(s.y, 300 - dx * sin(th) + dy * cos(th), accuracy: 1e-6)
    }

    func testViewsAcrossTheAntimeridianUseTheNearestCopyOfTheWorld() {
        let t = CameraTransform(Camera(centerLon: 179.999, centerLat: -17, zoom: 18, width: 800, height: 600))
        let east = t.toScreen(-179.999, -17)  // 0.002° east of the centre, across the line
        let ws = WebMercator.worldSize(zoom: 18)
        XCTAssertEqual(east.x - 400, 0.002 / 360 * ws, accuracy: 1e-5)
        XCTAssertEqual(east.y, 300, accuracy: 1e-6)
        // The reverse gives an unwrapped longitude past 180 that normalises back.
        let back = t.toLonLat(east.x, east.y)
        XCTAssertGreaterThan(back.lon, 180)
        XCTAssertEqual(Sphere.normalizeLon(back.lon), -179.999, accuracy: 1e-9)
        // The view's box of the screen crosses the line and splits into two boxes inside the world.
        let box = View.camera(t).box(x0: 0, y0: 0, x1: 800, y1: 600)!
        var parts: [GeoBox] = []
        box.split { parts.append($0) }
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[0].maxLon, 180); XCTAssertEqual(parts[1].minLon, -180)
        XCTAssertTrue(parts.contains { $0.minLon <= -179.999 && $0.maxLon >= -179.999 })
        XCTAssertTrue(parts.contains { $0.minLon <= 179.999 && $0.maxLon >= 179.999 })
    }

    func testTheHitDiscBoxHoldsTheWholeDiscAtAnyBearing() {
        var rng = SplitMix(seed: 21)
        for _ in 0..<500 {
            let cam = Camera(centerLon: rng.uniform(-179, 179), centerLat: rng.uniform(-80, 80), zoom: rng.uniform(2, 22),
                             bearingDeg: rng.uniform(0, 360), width: 800, height: 600)
            let view = View.camera(CameraTransform(cam))
            let x = rng.uniform(0, 800), y = rng.uniform(0, 600), r = rng.uniform(1, 40)
            let box = view.discBox(x: x, y: y, r: r)!
            // The disc's box is never larger than the box of the turned square around it.
            let square = view.box(x0: x - r, y0: y - r, x1: x + r, y1: y + r)!
            XCTAssertLessThanOrEqual((box.maxLon - box.minLon) * (box.maxLat - box.minLat),
                                     (square.maxLon - square.minLon) * (square.maxLat - square.minLat) * (1 + 1e-9))
            for k in 0..<16 {
                let a = Double(k) / 16 * 2 * .pi
                let p = CameraTransform(cam).toLonLat(x + r * 0.999999 * cos(a), y + r * 0.999999 * sin(a))
                XCTAssertTrue(p.lon >= box.minLon && p.lon <= box.maxLon && p.lat >= box.minLat && p.lat <= box.maxLat,
                              "a point of the disc is outside its box at bearing \(cam.bearingDeg)")
            }
        }
    }

    func testCameraValidation() {
        let good = Camera(centerLon: 0, centerLat: 0, zoom: 3, width: 10, height: 10)
        XCTAssertNoThrow(try good.validate())
        for f in 0..<8 {
            var c = good
            switch f {
            case 0: c.centerLon = .nan
            case 1: c.centerLat = 86
            case 2: c.zoom = -1
            case 3: c.zoom = 31
            case 4: c.bearingDeg = .infinity
            case 5: c.width = 0
            case 6: c.height = -3
            default: c.centerLon = 181
            }
            XCTAssertThrowsError(try c.validate()) { XCTAssertEqual(($0 as? PindropError)?.status, .invalidArgument) }
        }
    }

    // MARK: - The sphere

    /// Vincenty's formula for the sphere (the atan2 form), written independently of the haversine.
    func vincentySphere(_ lon1: Double, _ lat1: Double, _ lon2: Double, _ lat2: Double) -> Double {
        let f1 = lat1 * .pi / 180, f2 = lat2 * .pi / 180, dl = (lon2 - lon1) * .pi / 180
        let a = cos(f2) * sin(dl), b = cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl)
        let c = sin(f1) * sin(f2) + cos(f1) * cos(f2) * cos(dl)
        return 6378137 * atan2((a * a + b * b).squareRoot(), c)
    }

    func testDistanceAgreesWithVincentyOnTheSphere() {
        var rng = SplitMix(seed: 3)
        for i in 0..<5000 {
            let lon1 = rng.uniform(-180, 180), lat1 = rng.uniform(-90, 90)
            // Half the pairs close together (metres), half anywhere.
            let near = i % 2 == 0
            let lon2 = near ? max(-180, min(180, lon1 + rng.uniform(-0.01, 0.01))) : rng.uniform(-180, 180)
            let lat2 = near ? max(-90, min(90, lat1 + rng.uniform(-0.01, 0.01))) : rng.uniform(-90, 90)
            let d = Sphere.distance(lon1, lat1, lon2, lat2)
            XCTAssertEqual(d, vincentySphere(lon1, lat1, lon2, lat2), accuracy: 1e-6 + 1e-9 * d)
        }
        // A degree of the equator, a quarter meridian, and a short hop across the antimeridian.
        XCTAssertEqual(Sphere.distance(0, 0, 1, 0), 6378137 * .pi / 180, accuracy: 1e-8)
        XCTAssertEqual(Sphere.distance(10, 0, 10, 90), 6378137 * .pi / 2, accuracy: 1e-6)
        XCTAssertEqual(Sphere.distance(179.9995, 0, -179.9995, 0), 6378137 * .pi / 180 * 0.001, accuracy: 1e-6)
    }

    func testDestination() {
        let quarter = 6378137 * Double.pi / 2
        let east = Sphere.destination(lon: 0, lat: 0, bearing: .pi / 2, distance: quarter)
        XCTAssertEqual(east.lon, 90, accuracy: 1e-9); XCTAssertEqual(east.lat, 0, accuracy: 1e-9)
        let north = Sphere.destination(lon: 30, lat: 0, bearing: 0, distance: quarter / 2)
        XCTAssertEqual(north.lon, 30, accuracy: 1e-9); XCTAssertEqual(north.lat, 45, accuracy: 1e-9)
        let across = Sphere.destination(lon: 179.9, lat: 0, bearing: .pi / 2, distance: 6378137 * .pi / 180 * 0.2)
        XCTAssertEqual(across.lon, -179.9, accuracy: 1e-9)
        // Anywhere: the distance back is the distance asked for, and the initial bearing (the
        // textbook forward-azimuth formula) is the bearing asked for.
        var rng = SplitMix(seed: 5)
        for _ in 0..<3000 {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-80, 80)
            let b = rng.uniform(0, 2 * .pi), d = rng.uniform(0.1, 2000)
            let p = Sphere.destination(lon: lon, lat: lat, bearing: b, distance: d)
            XCTAssertEqual(vincentySphere(lon, lat, p.lon, p.lat), d, accuracy: 1e-6)
            let f1 = lat * .pi / 180, f2 = p.lat * .pi / 180, dl = (p.lon - lon) * .pi / 180
            let azimuth = atan2(sin(dl) * cos(f2), cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl))
            var diff = abs(azimuth - b).truncatingRemainder(dividingBy: 2 * .pi)
            diff = min(diff, 2 * .pi - diff)
            XCTAssertLessThan(diff, 1e-6)
        }
    }

    func testBoundingBoxHoldsEveryPointWithinTheRadius() {
        var rng = SplitMix(seed: 11)
        for _ in 0..<3000 {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-89, 89), r = rng.uniform(0, 50000)
            let box = Sphere.boundingBox(lon: lon, lat: lat, meters: r)
            let p = Sphere.destination(lon: lon, lat: lat, bearing: rng.uniform(0, 2 * .pi), distance: r * rng.uniform(0, 1))
            var inside = false
            box.split { b in
                if p.lon >= b.minLon && p.lon <= b.maxLon && p.lat >= b.minLat && p.lat <= b.maxLat { inside = true }
            }
            XCTAssertTrue(inside, "(\(p.lon), \(p.lat)) within \(r) m of (\(lon), \(lat)) is outside \(box)")
        }
    }

    func testNormalizeLon() {
        XCTAssertEqual(Sphere.normalizeLon(180), 180)
        XCTAssertEqual(Sphere.normalizeLon(-180), -180)
        XCTAssertEqual(Sphere.normalizeLon(190), -170, accuracy: 1e-12)
        XCTAssertEqual(Sphere.normalizeLon(-190), 170, accuracy: 1e-12)
        XCTAssertEqual(Sphere.normalizeLon(720 + 45), 45, accuracy: 1e-12)
    }
}

/// A small deterministic generator for tests (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { Double.random(in: a...b, using: &self) }
    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &self) }
}
