import Foundation
import XCTest
@testable import PindropCore
import PindropTestSupport

/// Behaviour 23, the selection itself: select_many's modes, the lowest id, the flags, the add
/// modifier's tap, a rectangle with clusters, and bad input that changes nothing. Explicit times.
final class SelectionTests: XCTestCase {
    func story(_ configure: (inout Options) -> Void = { _ in }) -> Story {
        let s = Story({ $0.liftDelayMs = 0; $0.liftHeight = 0; configure(&$0) }, zoom: 19)
        s.addPin(1, atScreen: 500, 400)
        s.addPin(2, atScreen: 600, 420)
        s.addPin(3, atScreen: 700, 380)
        s.addPin(4, atScreen: 200, 200)
        _ = s.events()
        return s
    }

    func failure(_ body: () throws -> Void) -> Status? {
        do { try body(); return nil } catch { return (error as? PindropError)?.status }
    }

    func testModesAndTheirEventsInAscendingOrder() throws {
        let s = story()
        try s.map.selectMany([3, 1, 2, 3], mode: .set)
        XCTAssertEqual(s.map.selectedIDs, [1, 2, 3])
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["selected 1", "selected 2", "selected 3"])
        XCTAssertEqual(s.map.selectedID, 1, "selected() is the lowest id")
        try s.map.selectMany([2, 4], mode: .toggle)
        XCTAssertEqual(s.map.selectedIDs, [1, 3, 4])
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["deselected 2", "selected 4"])
        try s.map.selectMany([1, 4], mode: .remove)
        XCTAssertEqual(s.map.selectedIDs, [3])
        XCTAssertEqual(s.map.selectedID, 3)
        try s.map.selectMany([2], mode: .add)
        XCTAssertEqual(s.map.selectedIDs, [2, 3])
        XCTAssertEqual(s.map.selectedID, 2)
        _ = s.events()
        try s.map.selectMany([2, 3], mode: .add)    // nothing new: no events
        XCTAssertEqual(s.events().count, 0)
        try s.map.selectMany([], mode: .set)        // SET with none clears
        XCTAssertEqual(s.map.selectedIDs, [])
        XCTAssertEqual(s.map.selectedID, noID)
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["deselected 2", "deselected 3"])
    }

    func testSelectIsASetOfOne() throws {
        let s = story()
        try s.map.selectMany([1, 2, 3], mode: .set)
        _ = s.events()
        try s.map.select(id: 2)
        XCTAssertEqual(s.map.selectedIDs, [2])
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["deselected 1", "deselected 3"])
        try s.map.select(id: noID)
        XCTAssertEqual(s.map.selectedIDs, [])
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["deselected 2"])
    }

    func testEverySelectedPinIsFlaggedAndARemovedPinLeavesTheSelection() throws {
        let s = story()
        try s.map.selectMany([1, 3], mode: .set)
        let n = try s.map.frame(time: 10)
        let views = s.map.frameViews[0..<n]
        XCTAssertEqual(views.filter { $0.flags.contains(.selected) }.map(\.id).sorted(), [1, 3])
        XCTAssertEqual(Array(views.suffix(2)).map(\.id).sorted(), [1, 3], "selected pins are drawn after the others")
        _ = s.events()
        try s.map.remove(id: 1)
        XCTAssertEqual(s.map.selectedIDs, [3])
        XCTAssertEqual(s.events().map { "\($0.kind) \($0.id)" }, ["deselected 1"])
    }

    func testTheAddModifierTapTogglesAndAPlainTapSelectsOne() throws {
        let s = story()
        try s.map.select(id: 1)
        try s.map.setModifiers(Modifiers.add)
        let p2 = s.screenOf(2)
        s.down(p2.x, p2.y, at: 100); s.up(p2.x, p2.y, at: 150)
        XCTAssertEqual(s.map.selectedIDs, [1, 2], "an unselected pin joins")
        let p1 = s.screenOf(1)
        s.down(p1.x, p1.y, at: 200); s.up(p1.x, p1.y, at: 250)
        XCTAssertEqual(s.map.selectedIDs, [2], "a selected pin leaves")
        // A tap on the map with the modifier held leaves the selection alone.
        s.down(1000, 700, at: 300); s.up(1000, 700, at: 320); s.tick(1000)
        XCTAssertEqual(s.map.selectedIDs, [2])
        try s.map.setModifiers(0)
        s.down(p1.x, p1.y, at: 1100); s.up(p1.x, p1.y, at: 1150)
        XCTAssertEqual(s.map.selectedIDs, [1], "without the modifier a tap selects that pin alone")
        try s.map.selectMany([1, 2, 3], mode: .set)
        s.down(1000, 700, at: 1200); s.up(1000, 700, at: 1220); s.tick(2000)
        XCTAssertEqual(s.map.selectedIDs, [], "a tap on the map clears the whole selection")
    }

    func testARectangleSelectsThePinsDrawnInside() throws {
        let s = story()
        try s.map.selectInRect(x0: 650, y0: 450, x1: 450, y1: 350, mode: .set, time: 10)   // corners in any order
        XCTAssertEqual(s.map.selectedIDs, [1, 2])
        try s.map.selectInRect(x0: 690, y0: 370, x1: 710, y1: 390, mode: .add, time: 20)
        XCTAssertEqual(s.map.selectedIDs, [1, 2, 3])
        try s.map.selectInRect(x0: 0, y0: 0, x1: 1200, y1: 800, mode: .toggle, time: 30)
        XCTAssertEqual(s.map.selectedIDs, [4])
        try s.map.selectInRect(x0: 0, y0: 0, x1: 10, y1: 10, mode: .set, time: 40)     // none inside
        XCTAssertEqual(s.map.selectedIDs, [])
    }

    func testARectangleAroundAClusterSelectsAllItsMembers() throws {
        let s = Story({ $0.clusterRadius = 60; $0.clusterMaxZoom = 17 }, zoom: 14)
        // Five pins a few points apart: one cluster at zoom 14; and one pin far away.
        for k in 0..<5 { s.addPin(Int64(10 + k), atScreen: 600 + 3 * Double(k), 400 + 2 * Double(k)) }
        s.addPin(99, atScreen: 100, 100)
        XCTAssertEqual(try s.map.frameClusters(time: 5), 1)
        let c = s.map.clusterViews[0]
        try s.map.selectInRect(x0: c.x - 5, y0: c.y - 5, x1: c.x + 5, y1: c.y + 5, mode: .set, time: 10)
        XCTAssertEqual(s.map.selectedIDs, [10, 11, 12, 13, 14])
        // Selected pins are never in a cluster: the frame now draws them as pins, flagged.
        let n = try s.map.frame(time: 20)
        let selected = s.map.frameViews[0..<n].filter { $0.flags.contains(.selected) }.map(\.id).sorted()
        XCTAssertEqual(selected, [10, 11, 12, 13, 14])
        XCTAssertEqual(try s.map.frameClusters(time: 21), 0)
    }

    func testSelectedPinsKeepTheirStackOpen() throws {
        let s = Story({ $0.spreadOnTap = true }, zoom: 18)
        s.addPin(1, atScreen: 600, 400)
        let p = s.position(1)
        try s.map.add(id: 2, lon: p.lon, lat: p.lat)
        try s.map.add(id: 3, lon: p.lon, lat: p.lat)
        XCTAssertEqual(try s.map.frameClusters(time: 5), 1, "a collapsed stack")
        try s.map.selectMany([2, 3], mode: .set)
        XCTAssertEqual(try s.map.frameClusters(time: 10), 0, "the stack of a selected pin is open")
        let n = try s.map.frame(time: 11)
        XCTAssertEqual(s.map.frameViews[0..<n].filter { $0.flags.contains(.spread) }.count, 3)
    }

    func testBadInputChangesNothing() throws {
        let s = story()
        try s.map.selectMany([1, 2], mode: .set)
        _ = s.events()
        XCTAssertEqual(failure { try s.map.selectMany([3, 42], mode: .set) }, .notFound)
        XCTAssertEqual(failure { try s.map.selectMany([3], mode: 7) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.selectMany([], mode: -1) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.setModifiers(UInt32(4)) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.setModifiers(UInt32(1 | 8)) }, .invalidArgument)
        XCTAssertEqual(s.map.modifiers, [])
        XCTAssertEqual(failure { try s.map.selectInRect(x0: .nan, y0: 0, x1: 10, y1: 10, mode: 0, time: 10) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.selectInRect(x0: 0, y0: 0, x1: 10, y1: .infinity, mode: 0, time: 10) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.selectInRect(x0: 0, y0: 0, x1: 2e7, y1: 10, mode: 0, time: 10) }, .invalidArgument)
        XCTAssertEqual(failure { try s.map.selectInRect(x0: 0, y0: 0, x1: 1200, y1: 800, mode: 4, time: 10) }, .invalidArgument)
        try s.map.tick(time: 50)
        XCTAssertEqual(failure { try s.map.selectInRect(x0: 0, y0: 0, x1: 1200, y1: 800, mode: 0, time: 40) }, .invalidArgument)
        XCTAssertEqual(s.map.selectedIDs, [1, 2])
        XCTAssertEqual(s.events().count, 0)
        try s.map.setModifiers(UInt32(3))
        XCTAssertEqual(s.map.modifiers, [.add, .noSnap])
    }

    /// The modes against Swift's Set algebra, written apart from the sorted-array merge.
    func testModesAgreeWithSetAlgebra() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let a = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Int64.random(in: -5...20, using: &rng) }
            let b = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Int64.random(in: -5...20, using: &rng) }
            var sel = Selection()
            for id in a { sel.insert(id) }
            XCTAssertEqual(sel.ids, Set(a).sorted())
            XCTAssertEqual(sel.lowest, a.min() ?? noID)
            let given = Selection.sortedUnique(b)
            XCTAssertEqual(given, Set(b).sorted())
            let sa = Set(a), sb = Set(b)
            XCTAssertEqual(sel.applying(.set, given), sb.sorted())
            XCTAssertEqual(sel.applying(.add, given), sa.union(sb).sorted())
            XCTAssertEqual(sel.applying(.remove, given), sa.subtracting(sb).sorted())
            XCTAssertEqual(sel.applying(.toggle, given), sa.symmetricDifference(sb).sorted())
            for id in b { XCTAssertEqual(sel.contains(id), sa.contains(id)) }
            if let first = b.first { sel.remove(first); XCTAssertEqual(sel.ids, sa.subtracting([first]).sorted()) }
        }
    }
}
