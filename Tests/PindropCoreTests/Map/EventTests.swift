import XCTest
@testable import PindropCore
import PindropTestSupport

/// Core's events are an enum whose cases carry their own data (the C layer flattens them).
final class EventTests: XCTestCase {
    /// A mouse drag, told as the events it must produce, each compared whole.
    func testADragIsToldByEventsThatCarryTheirOwnData() {
        let s = Story { $0.liftDelayMs = 0; $0.liftHeight = 0 }
        s.addPin(1, atScreen: 600, 400)
        let home = LonLat(s.position(1))
        s.down(600, 400, at: 0)
        s.move(650, 400, at: 10)
        s.up(650, 400, at: 20)
        var got: [TimedEvent] = []
        while let e = s.map.pollEvent() { got.append(e) }
        guard got.count == 6, case .dragged(1, let to) = got[1].event else { return XCTFail("\(got)") }
        let finger = try! s.map.toLonLat(x: 650, y: 400)
        XCTAssertEqual(to.lon, finger.lon, accuracy: 1e-9)
        XCTAssertEqual(to.lat, finger.lat, accuracy: 1e-9)
        XCTAssertEqual(got.prefix(4).map(\.event), [
            .lifted(id: 1, at: home), .dragged(id: 1, to: to), .dropped(id: 1, at: to),
            .moved(id: 1, from: home, to: to, cause: .drag),
        ])
        XCTAssertEqual(got[4].event, .calloutChanged(id: 1, at: to))
        guard case .geocodeRequest(1, to, let request) = got[5].event else { return XCTFail("\(got[5])") }
        XCTAssertNotEqual(request, 0)
        XCTAssertEqual(got.map(\.time), [10, 10, 20, 20, 20, 20])
        XCTAssertEqual(got.map(\.event.kind), [.lifted, .dragged, .dropped, .moved, .calloutChanged, .geocodeRequest])
    }
}
