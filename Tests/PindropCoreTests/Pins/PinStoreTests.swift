import XCTest
@testable import PindropCore
import PindropTestSupport

/// The pin store's id table against a Swift dictionary kept alongside, over long random sequences
/// of inserts (new and repeated ids), removals, slot reuse and batches taken back; ids are chosen
/// to collide in the table (multiples of a large power of two) as well as at random.
final class PinStoreTests: XCTestCase {
    typealias Rng = TestRng

    /// A batch into an empty store takes its exact size; later batches grow the storage by
    /// doubling, so that a load in chunks does not copy every pin on the map at each chunk.
    func testBatchesAfterTheFirstGrowTheStorageByDoubling() {
        var store = PinStore()
        store.reserve(1000)
        for i in 0..<1000 { store.insert(id: Int64(i), lon: 0, lat: 0) }
        let first = store.ids.capacity
        XCTAssertLessThan(first, 1100, "the first batch is not rounded up much")
        var copies = 0
        for chunk in 1...40 {
            let before = store.ids.capacity
            store.reserve(100)
            for i in 0..<100 { store.insert(id: Int64(1000 * chunk + i + 1_000_000), lon: 1, lat: 1) }
            if store.ids.capacity != before { copies += 1 }
        }
        XCTAssertEqual(store.count, 5000)
        XCTAssertLessThanOrEqual(copies, 3, "40 batches of 100 after 1000 pins: the storage doubles (1000 -> 5000), not regrown per batch")
        XCTAssertEqual(store.slot(of: 1_000_000 + 1000), 1000)
    }

    func randomID(_ rng: inout Rng) -> Int64 {
        switch rng.int(3) {
        case 0: return Int64(rng.int(3000))
        case 1: return Int64(rng.int(64)) << 40  // same low bits: long probe runs
        default: return Int64(bitPattern: rng.next() &* 0x9E37_79B9_7F4A_7C15) | 1
        }
    }

    func check(_ store: PinStore, _ oracle: [Int64: Int32], _ where_: String) -> Bool {
        guard store.count == oracle.count else { XCTFail("\(where_): count \(store.count) != \(oracle.count)"); return false }
        for (id, slot) in oracle where store.slot(of: id) != slot {
            XCTFail("\(where_): id \(id) has slot \(String(describing: store.slot(of: id))), want \(slot)")
            return false
        }
        return true
    }

    func testIdTableAgainstADictionary() {
        var rng = TestRng(state: 7)
        var store = PinStore()
        var oracle: [Int64: Int32] = [:]
        var position: [Int32: (Double, Double)] = [:]
        for step in 0..<40_000 {
            switch rng.int(10) {
            case 0..<5:
                let id = randomID(&rng), x = Double(rng.int(360)) - 180, y = Double(rng.int(180)) - 90
                let got = store.insertIfNew(id: id, lon: x, lat: y)
                if oracle[id] != nil {
                    XCTAssertNil(got, "step \(step): id \(id) is already there")
                } else if let s = got {
                    XCTAssertEqual(store.id(s), id)
                    oracle[id] = s; position[s] = (x, y)
                } else {
                    XCTFail("step \(step): new id \(id) refused"); return
                }
            case 5..<8:
                guard let (id, s) = oracle.randomElement(using: &rng) else { continue }
                store.remove(s)
                oracle[id] = nil; position[s] = nil
                XCTAssertNil(store.slot(of: id))
            case 8:
                // A batch that fails half-way is taken back.
                let before = store.capacity
                var made: [Int32] = [], ids: [Int64] = []
                for _ in 0..<rng.int(20) {
                    let id = randomID(&rng)
                    guard oracle[id] == nil, !ids.contains(id), let s = store.insertIfNew(id: id, lon: 1, lat: 2) else { continue }
                    made.append(s); ids.append(id)
                }
                store.undoInserts(made, previousCapacity: before)
                XCTAssertEqual(store.capacity, before)
            default:
                guard let (_, s) = oracle.randomElement(using: &rng) else { continue }
                let x = Double(rng.int(100)), y = Double(rng.int(80))
                store.move(s, lon: x, lat: y)
                position[s] = (x, y)
            }
            if step % 500 == 0 && !check(store, oracle, "step \(step)") { return }
        }
        XCTAssertTrue(check(store, oracle, "end"))
        for (s, p) in position {
            XCTAssertEqual(store.position(s).lon, p.0); XCTAssertEqual(store.position(s).lat, p.1)
            XCTAssertEqual(store.coordinates.position(s).lon, p.0)
        }
    }

    /// `mayShareCoordinate` against an exact count of the pins at each coordinate, over random
    /// inserts (single and batches, some taken back), moves and removals on a few spots (stacks of
    /// up to 40 pins, -0.0 and 0.0) and random coordinates, through the table's growth: it is never
    /// false while another pin stands at the coordinate, and mostly false for a pin alone.
    func testCoordinateCountsNeverMissAPinSharingACoordinate() {
        var rng = Rng(state: 99)
        var store = PinStore()
        var alive: [Int64: Int32] = [:]
        let spots: [(Double, Double)] = [(1, 2), (0.0, -0.0), (-0.0, 0.0), (-118.3, 33.9), (180, 0), (-180, 0)]
        var nextID: Int64 = 0
        var aloneSaidShared = 0, alone = 0
        func place() -> (Double, Double) {
            rng.int(3) == 0 ? spots[rng.int(spots.count)] : (rng.uniform(-180, 180), rng.uniform(-90, 90))
        }
        for step in 0..<6000 {
            switch rng.int(5) {
            case 0, 1:
                let p = place(); nextID += 1
                alive[nextID] = store.insert(id: nextID, lon: p.0, lat: p.1)
            case 2 where !alive.isEmpty:
                let (id, s) = alive.randomElement(using: &rng)!
                store.remove(s); alive[id] = nil
            case 3 where !alive.isEmpty:
                let s = alive.randomElement(using: &rng)!.value, p = place()
                store.move(s, lon: p.0, lat: p.1)
            default:
                // A batch, sometimes taken back.
                let before = store.capacity
                store.reserve(20)
                var made: [(Int64, Int32)] = []
                for _ in 0..<rng.int(20) { let p = place(); nextID += 1; made.append((nextID, store.insert(id: nextID, lon: p.0, lat: p.1))) }
                if rng.int(2) == 0 { store.undoInserts(made.map { $0.1 }, previousCapacity: before) } else { for (id, s) in made { alive[id] = s } }
            }
            guard step % 50 == 0 else { continue }
            var exact: [Pair: Int] = [:]
            for s in alive.values { let p = store.position(s); exact[Pair(p.lon + 0, p.lat + 0), default: 0] += 1 }
            for s in alive.values {
                let p = store.position(s), n = exact[Pair(p.lon + 0, p.lat + 0)]!
                if n > 1 { XCTAssertTrue(store.mayShareCoordinate(s), "step \(step): \(n) pins at \(p)") } else {
                    alone += 1
                    if store.mayShareCoordinate(s) { aloneSaidShared += 1 }
                }
            }
        }
        XCTAssertGreaterThan(alone, 10_000)
        XCTAssertLessThan(Double(aloneSaidShared), 0.5 * Double(alone), "the counts should rule out most lone pins")
    }

    private struct Pair: Hashable {
        let x, y: Double
        init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    }
}

extension Dictionary {
    func randomElement(using rng: inout TestRng) -> Element? {
        guard !isEmpty else { return nil }
        return self[index(startIndex, offsetBy: rng.int(count))]
    }
}
