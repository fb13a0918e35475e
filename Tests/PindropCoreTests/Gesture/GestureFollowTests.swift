import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A dragged pin follows the finger point for point (SPEC behaviour 6, "No jitter at any zoom"): at every
/// zoom and latitude, and on a rotated map.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureFollowTests: XCTestCase {
    func testOnePointStepsMoveTheDrawnPinByOnePointAtEveryZoomAndLatitude() {
        for zoom in [0.0, 10, 18, 22, 24] {
            for lat in [0.0, 60, 85, -85] {
                let s = Story(lon: 13.4, lat: lat, zoom: zoom)
                s.addPin(1, atScreen: 600, 400)
                let t = s.liftAndStartDrag(600, 400, at: 0)
                var prev = s.view(1, at: t)!
                for i in 1...20 {
                    let dx = i <= 10 ? 1.0 : 0.0, dy = i <= 10 ? 0.0 : 1.0
                    let fx = 610 + Double(min(i, 10)), fy = 400 + Double(max(0, i - 10))
                    s.move(fx, fy, at: t + Double(i))
                    let v = s.view(1, at: t + Double(i))!
                    XCTAssertEqual(v.x - prev.x, dx, accuracy: 1e-5, "zoom \(zoom) lat \(lat) step \(i)")
                    XCTAssertEqual(v.y - prev.y, dy, accuracy: 1e-5, "zoom \(zoom) lat \(lat) step \(i)")
                    prev = v
                }
            }
        }
    }

    func testOnARotatedMapThePinStillFollowsTheFingerPointForPoint() {
        let s = Story()
        try! s.map.setCamera(Camera(centerLon: 151.2, centerLat: -33.87, zoom: 19, bearingDeg: 30, width: 1200, height: 800))
        s.addPin(1, atScreen: 600, 400)
        let t = s.liftAndStartDrag(600, 400, at: 0)
        for i in 1...10 {
            s.move(610 + Double(i), 400 - Double(i), at: t + Double(i))
            let v = s.view(1, at: t + Double(i))!
            XCTAssertEqual(v.x, 610 + Double(i), accuracy: 1e-6)
            XCTAssertEqual(v.y, 400 - Double(i) - 40, accuracy: 1e-6)
        }
    }
}
