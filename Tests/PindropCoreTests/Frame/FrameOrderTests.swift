import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// What a frame says about gestures (pindrop_map_frame in SPEC section 3): the dragged pin is drawn last, the
/// drop falls with a small bounce, and the editing and selected flags show.
/// Stories with explicit times on a `Story` (Story.swift).
final class FrameOrderTests: XCTestCase {
    func testTheDraggedPinIsDrawnLastAndTheDropFallsWithABounce() {
        let s = Story()
        for i in 0..<20 { s.addPin(Int64(i), atScreen: 500 + Double(i) * 10, 400 + Double(i) * 5) }
        let t = s.liftAndStartDrag(500, 400, at: 0)
        s.move(700, 100, at: t + 10)
        var n = try! s.map.frame(time: t + 10)
        XCTAssertEqual(s.map.frameViews[n - 1].id, 0)
        XCTAssertEqual(s.map.frameViews[n - 1].flags, .dragging)
        s.up(700, 100, at: t + 20)
        var lifts: [Double] = []
        for dt in stride(from: 0.0, through: 250, by: 5) {
            n = try! s.map.frame(time: t + 20 + dt)
            let v = s.map.frameViews[0..<n].first { $0.id == 0 }!
            XCTAssertEqual(v.flags.intersection(.dragging), [])
            XCTAssertEqual(v.y, 60, accuracy: 1e-6, "the pin stays where it landed while the lift falls")
            lifts.append(v.lift)
        }
        XCTAssertEqual(lifts.first!, 1)
        XCTAssertEqual(lifts.last!, 0)
        XCTAssertLessThan(lifts.min()!, -0.05, "a bounce below 0")
        XCTAssertGreaterThan(lifts.min()!, -0.2, "a small one")
        let lowest = lifts.firstIndex(of: lifts.min()!)!
        XCTAssertTrue(zip(lifts[..<lowest], lifts[1...lowest]).allSatisfy { $0 >= $1 }, "falls, then settles")
    }

    func testEditingAndSelectedFlagsShowInTheFrame() {
        let s = Story()
        s.addPin(1, atScreen: 600, 400)
        s.addPin(2, atScreen: 300, 300)
        s.map.editingID = 1
        s.down(300, 300, at: 0); s.up(300, 300, at: 50)
        XCTAssertEqual(s.view(1, at: 60)!.flags, .editing)
        XCTAssertEqual(s.view(2, at: 60)!.flags, .selected)
    }
}
