import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// A map, a camera and a pen: the stories below touch it at explicit times and read the events.
final class Story {
    let map: Map
    var log: [EventFields] = []

    init(_ configure: (inout Options) -> Void = { _ in },
         lon: Double = -118.2, lat: Double = 33.8, zoom: Double = 18, width: Double = 1200, height: Double = 800) {
        var o = Options()
        configure(&o)
        map = try! Map(options: o, factory: BruteForceFactory())
        try! map.setCamera(Camera(centerLon: lon, centerLat: lat, zoom: zoom, width: width, height: height))
    }

    @discardableResult func down(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .down, x: x, y: y, time: t)
    }
    @discardableResult func move(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .move, x: x, y: y, time: t)
    }
    @discardableResult func up(_ x: Double, _ y: Double, at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .up, x: x, y: y, time: t)
    }
    @discardableResult func cancel(at t: Double, pointer: Int32 = 0) -> Bool {
        try! map.touch(pointer: pointer, phase: .cancel, x: .nan, y: .nan, time: t)
    }
    func tick(_ t: Double) { try! map.tick(time: t) }

    /// The events since the last call.
    func events() -> [EventFields] {
        var out: [EventFields] = []
        while let e = map.pollEventFields() { out.append(e); log.append(e) }
        return out
    }
    func kinds() -> [Event.Kind] { events().map(\.kind) }

    func screen(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) { try! map.toScreen(lon: lon, lat: lat) }
    func screenOf(_ id: Int64) -> (x: Double, y: Double) {
        let p = try! map.displayPosition(id: id)
        return screen(p.lon, p.lat)
    }
    /// The pin's view in a frame at time t.
    func view(_ id: Int64, at t: Double) -> Map.PinView? {
        let n = try! map.frame(time: t)
        return map.frameViews[0..<n].first { $0.id == id }
    }
    func position(_ id: Int64) -> (lon: Double, lat: Double) { try! map.position(id: id) }

    /// Adds pin `id` under screen point (x, y).
    func addPin(_ id: Int64, atScreen x: Double, _ y: Double) {
        let p = try! map.toLonLat(x: x, y: y)
        try! map.add(id: id, lon: p.lon, lat: p.lat)
    }

    /// Touch profile: press at (x, y) at t, hold until the lift, wait for the lift animation,
    /// then move past the threshold to (x + 10, y). Returns the time after.
    func liftAndStartDrag(_ x: Double, _ y: Double, at t: Double) -> Double {
        down(x, y, at: t)
        tick(t + map.options.liftDelayMs)
        let t2 = t + map.options.liftDelayMs + map.options.liftDurationMs
        move(x + 10, y, at: t2)
        return t2
    }
}

/// Web Mercator inverse in its textbook form (Snyder: φ = 2·atan(e^(π(1 − 2y))) − π/2), written
/// apart from the library's, for a camera without bearing.
func textbookLonLat(centerLon: Double, centerLat: Double, zoom: Double, width: Double, height: Double,
                    x: Double, y: Double) -> (lon: Double, lat: Double) {
    let size = 256 * pow(2, zoom)
    let cx = (centerLon + 180) / 360 * size
    let phi = centerLat * .pi / 180
    let cy = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * size
    let wx = cx + (x - width / 2), wy = cy + (y - height / 2)
    let lon = wx / size * 360 - 180
    let lat = (2 * atan(exp(.pi * (1 - 2 * wy / size))) - .pi / 2) * 180 / .pi
    return (lon, lat)
}
