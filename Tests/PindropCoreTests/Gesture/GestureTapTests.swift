import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Taps (SPEC behaviour 9, "Tap to move without stealing double-tap"): selecting and deselecting after the
/// double-tap window, double taps that keep the selection, and tap-to-move of the edited pin.
/// Stories with explicit times on a `Story` (Story.swift).
final class GestureTapTests: XCTestCase {
    func testATapOnAPinSelectsItAndATapOnTheMapDeselectsAfterTheDoubleTapWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        s.down(600, 400, at: 0); s.up(600, 400, at: 80)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] }, [[Event.Kind.selected.rawValue, 1]])
        s.down(300, 300, at: 500); s.up(300, 300, at: 580)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] },
                       [[Event.Kind.deselected.rawValue, 1], [Event.Kind.selected.rawValue, 2]])
        XCTAssertFalse(s.down(900, 700, at: 1000)); XCTAssertFalse(s.up(900, 700, at: 1080))
        XCTAssertEqual(s.map.nextDeadline, 1380)
        s.tick(1379)
        XCTAssertEqual(s.kinds(), [])
        s.tick(1380)
        XCTAssertEqual(s.kinds(), [.deselected])
        XCTAssertEqual(s.map.selectedID, noID)
    }

    func testADoubleTapOnTheMapKeepsTheSelection() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0); s.up(600, 400, at: 80)
        _ = s.events()
        s.down(900, 700, at: 1000); s.up(900, 700, at: 1060)
        s.down(905, 690, at: 1200); s.up(905, 690, at: 1260)
        s.tick(5000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertEqual(s.map.selectedID, 1)
    }

    func testATapOnTheMapThenAQuickTapOnAFarPinKeepsTheNewSelection() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 100, 100)
        s.down(600, 400, at: 0); s.up(600, 400, at: 50)
        _ = s.events()
        s.down(900, 700, at: 1000); s.up(900, 700, at: 1050)   // would deselect pin 1 at 1350
        s.down(100, 100, at: 1150); s.up(100, 100, at: 1200)   // far away: selects pin 2 at once
        s.tick(2000)
        XCTAssertEqual(s.events().map { [$0.kind.rawValue, Int32($0.id)] },
                       [[Event.Kind.deselected.rawValue, 1], [Event.Kind.selected.rawValue, 2]])
        XCTAssertEqual(s.map.selectedID, 2, "the window acts on the selection it saw, not on a newer one")
    }

    func testTapToMoveDoesNothingIfTheEditEndedInTheWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.map.editingID = noID  // the host committed the edit before the window closed
        s.tick(1000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
    }

    func testAHeldPressThatIsNeitherTapNorLiftSelectsNothing() {
        let s = Story { $0.liftDelayMs = 600 }
        s.addPin(1, atScreen: 600, 400)
        s.down(600, 400, at: 0); s.up(600, 400, at: 400)  // longer than tap_max_ms, shorter than the lift delay
        XCTAssertEqual(s.kinds(), [])
    }

    func testTapToMoveMovesTheEditedPinOnlyAfterTheDoubleTapWindow() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0)
        s.up(302, 201, at: 90)
        XCTAssertEqual(s.map.nextDeadline, 390)
        s.tick(389.999)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
        s.tick(390)
        let e = s.events()
        XCTAssertEqual(e.map(\.kind), [.moved, .calloutChanged, .geocodeRequest])
        let want = try! s.map.toLonLat(x: 302, y: 201)
        XCTAssertEqual(e[0].cause, .tap)
        XCTAssertEqual(e[0].lon, want.lon, accuracy: 1e-12)
        XCTAssertEqual(e[0].lat, want.lat, accuracy: 1e-12)
        XCTAssertEqual(e[0].fromLon.bitPattern, home.lon.bitPattern)
        XCTAssertTrue(s.position(1) == (e[0].lon, e[0].lat))
        XCTAssertEqual(s.view(1, at: 390 + 250)!.x, 302, accuracy: 1e-6, "it glides to the tapped point")
    }

    /// An animation never blocks an edit: a tap-to-move can be undone while the pin still glides
    /// to the tapped point, and it is then drawn at its restored coordinate, not mid-glide.
    func testUndoRightAfterATapToMoveWorksAtOnce() {
        let s = Story()
        s.addPin(1, atScreen: 500, 300); s.map.editingID = 1
        let home = s.position(1)
        s.down(200, 600, at: 0); s.up(200, 600, at: 80)
        s.tick(380)  // the double-tap window closed: the pin moves to the tapped point
        XCTAssertEqual(s.kinds(), [.moved, .calloutChanged, .geocodeRequest])
        XCTAssertNotEqual(s.view(1, at: 381)!.x, 200, "the glide to the tapped point is still running")
        XCTAssertNoThrow(try s.map.undo(time: 382))
        let e = s.events()
        XCTAssertEqual(e.first?.kind, .moved)
        XCTAssertEqual(e.first?.cause, .undo)
        XCTAssertTrue(s.position(1) == home)
        let back = s.screen(home.lon, home.lat)
        let v = s.view(1, at: 393)!
        XCTAssertEqual(v.x, back.x, accuracy: 1e-6, "drawn where it was restored to")
        XCTAssertEqual(v.y, back.y, accuracy: 1e-6)
        XCTAssertNoThrow(try s.map.redo(time: 394), "redo at once too")
        XCTAssertEqual(s.events().first?.cause, .redo)
    }

    func testADoubleTapNeverMovesTheEditedPin() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.down(330, 220, at: 250)  // within double_tap_slop (40) and double_tap_ms (300)
        s.up(330, 220, at: 300)
        s.tick(2000)
        XCTAssertEqual(s.kinds(), [])
        XCTAssertTrue(s.position(1) == home)
        XCTAssertEqual(s.map.nextDeadline, .infinity)
    }

    func testASecondTouchBeyondTheSlopDoesNotCancelTheTap() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.map.editingID = 1
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.down(1000, 700, at: 200)  // far away: not a double tap
        s.tick(360)
        XCTAssertEqual(s.kinds(), [.moved, .calloutChanged, .geocodeRequest])
        s.up(1000, 700, at: 400)
    }

    func testATapOnAnotherPinWhileEditingSelectsAndMovesNothing() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 200)
        s.map.editingID = 1
        let home = s.position(1)
        s.down(300, 200, at: 0); s.up(300, 200, at: 60)
        s.tick(1000)
        XCTAssertEqual(s.kinds(), [.selected])
        XCTAssertTrue(s.position(1) == home)
    }
}
