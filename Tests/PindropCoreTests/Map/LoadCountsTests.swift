import XCTest
@testable import PindropCore
import PindropTestSupport

/// add_many counts its batch's coordinates in one pass after the inserts (issue 34, "The load
/// fell behind"): the counting filter must still never miss a pin that shares its coordinate, and
/// a batch that fails (a repeated id) must leave the counts as they were. Oracle: the coordinates
/// themselves, grouped by exact value.
final class LoadCountsTests: XCTestCase {
    func testABulkLoadCountsEverySharedCoordinate() throws {
        var rng = TestRng(state: 341)
        var o = Options(); o.spreadMode = .off
        let m = try Map(options: o, factory: BruteForceFactory())
        var ids: [Int64] = [], ll: [Double] = []
        for i in 0..<20_000 {
            ids.append(Int64(i))
            if i > 0 && rng.int(8) == 0 {
                let j = rng.int(i)
                ll.append(ll[2 * j]); ll.append(ll[2 * j + 1])  // stacked on an earlier pin
            } else {
                ll.append(rng.uniform(-118.5, -118.0)); ll.append(rng.uniform(33.8, 34.2))
            }
        }
        ids.withUnsafeBufferPointer { i in ll.withUnsafeBufferPointer { try! m.addMany(ids: i, lonlat: $0) } }
        var at: [String: Int] = [:]
        for i in 0..<ids.count { at["\(ll[2 * i]),\(ll[2 * i + 1])", default: 0] += 1 }
        var lone = 0, told = 0
        for i in 0..<ids.count {
            let s = m.pins.slot(of: ids[i])!
            let shared = at["\(ll[2 * i]),\(ll[2 * i + 1])"]! > 1
            if shared {
                XCTAssertTrue(m.pins.mayShareCoordinate(s), "pin \(i) shares its coordinate but is told it does not")
            } else {
                lone += 1
                if !m.pins.mayShareCoordinate(s) { told += 1 }
            }
        }
        // The filter tells most lone pins that they are alone (it did so before the bulk count).
        XCTAssertGreaterThan(told, lone * 9 / 10, "\(told) of \(lone) lone pins told they are alone")

        // A second batch that fails half-way changes no count: a lone pin stays lone, even when the
        // failed batch had a pin on its coordinate.
        let s0 = m.pins.slot(of: ids.indices.first { at["\(ll[2 * $0]),\(ll[2 * $0 + 1])"]! == 1 && !m.pins.mayShareCoordinate(m.pins.slot(of: ids[$0])!) }.map { ids[$0] }!)!
        let p = m.pins.position(s0)
        let bad: [Int64] = [100_000, 100_001, 5], badLL = [p.lon, p.lat, p.lon, p.lat, 0.0, 0.0]
        XCTAssertThrowsError(try bad.withUnsafeBufferPointer { i in try badLL.withUnsafeBufferPointer { try m.addMany(ids: i, lonlat: $0) } })
        XCTAssertFalse(m.pins.mayShareCoordinate(s0), "a failed batch left its counts behind")
        XCTAssertEqual(m.count, ids.count)
    }
}
