import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Which pin a press lands on (SPEC behaviour 1, "Grab easily"): the hit radius, and the nearest drawn pin
/// winning with ties going to the edited, then the selected, then the higher id.
/// Stories with explicit times on a `Story` (Story.swift).
final class HitTestTests: XCTestCase {
    func testATouchWithinHitRadiusGrabsThePinAndOneBeyondDoesNot() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        XCTAssertTrue(s.down(600 + 21.9, 400, at: 0), "21.9 points away is within hit_radius 22")
        s.up(600 + 21.9, 400, at: 50)
        XCTAssertEqual(s.kinds(), [.selected])
        XCTAssertFalse(s.down(600, 400 + 22.1, at: 1000), "22.1 points away is beyond hit_radius")
        XCTAssertEqual("\(s.map.gestureStateName)", "mapTouch")
        s.up(600, 422.1, at: 1050)
    }

    func testTheNearestDrawnPinWinsAndTiesGoToTheEditedThenSelectedThenHigherID() {
        let s = Story()
        s.addPin(1, atScreen: 590, 400)
        s.addPin(2, atScreen: 610, 400)
        s.addPin(3, atScreen: 603, 400)
        s.down(605, 400, at: 0); s.up(605, 400, at: 10)
        XCTAssertEqual(s.map.selectedID, 3, "pin 3 is 2 points away, pin 2 5, pin 1 15")
        // 600: pins 1 and 2 are both 10 away, pin 3 is 3 away → 3; at 600 without 3:
        try! s.map.remove(id: 3)
        _ = s.events()
        s.down(600, 400, at: 1000); s.up(600, 400, at: 1010)
        XCTAssertEqual(s.map.selectedID, 2, "a tie between 1 and 2 goes to the higher id")
        s.map.editingID = 1
        s.down(600, 400, at: 2000); s.up(600, 400, at: 2010)
        XCTAssertEqual(s.map.selectedID, 1, "a tie goes to the pin being edited first")
    }
}
