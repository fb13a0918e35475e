import XCTest
@testable import PindropCore

/// `OpenTable` against Swift's `Dictionary` under random histories of insertions, value changes,
/// removals, lookups and clears, with keys chosen to hurt it: hashes that collide in part or in
/// full, runs that wrap around the end of the table, negative ids, coordinates with ±0.0, and
/// growth through many sizes and load factors.
final class OpenTableTests: XCTestCase {
    /// A key stored in its cell with a value; Int64.min marks a vacant cell.
    struct Pair: OpenTableEntry, Equatable {
        var key: Int64, value: Int64
        static let vacant = Pair(key: .min, value: 0)
        var isVacant: Bool { key == .min }
    }

    /// A map from Int64 to Int64 on the table, with the hash function under test.
    struct Keyed {
        var table: OpenTable<Pair>
        let hash: (Int64) -> UInt64

        init(loadEighths: Int = 6, hash: @escaping (Int64) -> UInt64) {
            table = OpenTable(loadEighths: loadEighths); self.hash = hash
        }

        func get(_ k: Int64) -> Int64? { table.find(hash(k)) { $0.key == k }.map { table[$0].value } }

        /// Stores the value; returns whether the key was new.
        mutating func set(_ k: Int64, _ v: Int64) -> Bool {
            let hash = self.hash
            let r = table.insert(hash(k), { Pair(key: k, value: v) }, matches: { $0.key == k }, hashOf: { hash($0.key) })
            if !r.inserted { table[r.index].value = v }
            return r.inserted
        }

        mutating func remove(_ k: Int64) -> Int64? {
            let hash = self.hash
            return table.remove(hash(k), matches: { $0.key == k }, hashOf: { hash($0.key) })?.value
        }

        func contents() -> [Int64: Int64] {
            var d: [Int64: Int64] = [:]
            table.forEach { e in
                XCTAssertNil(d[e.key], "key \(e.key) stored twice")
                d[e.key] = e.value
            }
            return d
        }
    }

    /// Checks that every probe sequence is unbroken: each entry is reachable from its home
    /// without crossing a vacant cell, and the load stays within the factor.
    func checkInvariants(_ m: Keyed, _ oracle: [Int64: Int64], _ note: String) {
        XCTAssertEqual(m.table.count, oracle.count, note)
        XCTAssertLessThanOrEqual(8 * m.table.count, m.table.loadEighths * m.table.cellCount, note)
        let n = m.table.cellCount
        if n > 0 { XCTAssertEqual(n & (n - 1), 0, "cells not a power of two: \(note)") }
        for i in 0..<n where !m.table[i].isVacant {
            var j = m.table.home(m.hash(m.table[i].key))
            while j != i {
                XCTAssertFalse(m.table[j].isVacant, "entry at \(i) cut off from its home: \(note)")
                if m.table[j].isVacant { break }
                j = (j + 1) & (n - 1)
            }
        }
        XCTAssertEqual(m.contents(), oracle, note)
    }

    /// Random history of `steps` operations on keys from `key`, checked against a dictionary.
    func runHistory(seed: UInt64, steps: Int, loadEighths: Int = 6, clearEvery: Int = 0,
                    key: (inout SplitMix) -> Int64, hash: @escaping (Int64) -> UInt64, _ note: String) {
        var rng = SplitMix(seed: seed)
        var m = Keyed(loadEighths: loadEighths, hash: hash)
        var oracle: [Int64: Int64] = [:]
        for step in 0..<steps {
            let k = key(&rng)
            switch rng.next() % 10 {
            case 0...2:
                let v = Int64(bitPattern: rng.next())
                XCTAssertEqual(m.set(k, v), oracle.updateValue(v, forKey: k) == nil, "\(note) step \(step)")
            case 3:
                // A key known to be absent goes in without a search for it.
                let v = Int64(bitPattern: rng.next())
                if oracle[k] == nil {
                    let hash = m.hash
                    let i = m.table.insertNew(hash(k), Pair(key: k, value: v), hashOf: { hash($0.key) })
                    XCTAssertEqual(m.table[i], Pair(key: k, value: v))
                    oracle[k] = v
                }
            case 4...6:
                XCTAssertEqual(m.remove(k), oracle.removeValue(forKey: k), "\(note) step \(step)")
            default:
                XCTAssertEqual(m.get(k), oracle[k], "\(note) step \(step)")
            }
            if clearEvery > 0 && step % clearEvery == clearEvery - 1 {
                let cells = m.table.cellCount
                m.table.removeAll(); oracle.removeAll()
                XCTAssertEqual(m.table.cellCount, cells, "clear keeps the cells")
                XCTAssertNil(m.get(k))
            }
            if step % 97 == 0 { checkInvariants(m, oracle, "\(note) step \(step)") }
        }
        checkInvariants(m, oracle, "\(note) end")
        for (k, v) in oracle { XCTAssertEqual(m.get(k), v, note) }
    }

    static let fibonacci: (Int64) -> UInt64 = { OpenHash.of($0) }

    func testRandomHistoriesWithSmallNegativeAndPositiveIds() {
        for seed: UInt64 in 1...6 {
            runHistory(seed: seed, steps: 6000, key: { Int64($0.next() % 400) - 200 }, hash: Self.fibonacci,
                       "small ids, seed \(seed)")
        }
    }

    func testRandomHistoriesWithWideIds() {
        // Ids anywhere in Int64 (but the vacant mark), ids differing only in their high bits, and
        // the extremes.
        let pool: [Int64] = [.max, .min + 1, -1, 0, 1, 1 << 62, -(1 << 62), 1 << 40, 2 << 40, 3 << 40]
        for seed: UInt64 in 10...14 {
            runHistory(seed: seed, steps: 6000, key: { r in
                switch r.next() % 3 {
                case 0: return pool[Int(r.next() % UInt64(pool.count))]
                case 1: return Int64(r.next() % 300) << 40
                default: return Int64(bitPattern: r.next() | 1)
                }
            }, hash: Self.fibonacci, "wide ids, seed \(seed)")
        }
    }

    func testHashesThatCollideInFullOrInPart() {
        // Every key one hash: one run holding all entries, ending wherever insertion left it.
        runHistory(seed: 20, steps: 3000, key: { Int64($0.next() % 60) - 30 }, hash: { _ in 12345 },
                   "one hash")
        // The top hash: every home is the last cell, so every run wraps around to cell 0.
        runHistory(seed: 21, steps: 3000, key: { Int64($0.next() % 60) - 30 }, hash: { _ in .max },
                   "runs wrapping at the end")
        // Eight homes close together (the same at small sizes, a few cells apart at larger):
        // runs that meet and merge.
        runHistory(seed: 22, steps: 6000, key: { Int64($0.next() % 200) - 100 },
                   hash: { UInt64($0 & 7) << 58 }, "merging runs")
        // Hashes with no top bits: every home is cell 0 at every size.
        runHistory(seed: 23, steps: 6000, key: { Int64($0.next() % 500) },
                   hash: { UInt64(bitPattern: $0) & 0xFF }, "homes all 0")
    }

    func testClearingKeepsCellsAndTheTableWorksAfter() {
        for seed: UInt64 in 30...33 {
            runHistory(seed: seed, steps: 5000, clearEvery: 700, key: { Int64($0.next() % 1000) - 500 },
                       hash: Self.fibonacci, "clears, seed \(seed)")
        }
    }

    func testLoadFactors() {
        for load in 1...7 {
            runHistory(seed: 40 + UInt64(load), steps: 4000, loadEighths: load,
                       key: { Int64($0.next() % 700) - 350 }, hash: Self.fibonacci, "load \(load)/8")
        }
    }

    func testGrowthThroughManySizes() {
        var rng = SplitMix(seed: 50)
        for n in [0, 1, 2, 11, 12, 13, 24, 25, 47, 48, 49, 96, 97, 193, 1000, 3072, 3073, 20000] {
            var m = Keyed(hash: Self.fibonacci)
            var oracle: [Int64: Int64] = [:]
            while oracle.count < n {
                let k = Int64(bitPattern: rng.next()) >> 20
                if k == .min { continue }
                let v = Int64(oracle.count)
                XCTAssertEqual(m.set(k, v), oracle.updateValue(v, forKey: k) == nil)
            }
            checkInvariants(m, oracle, "n \(n)")
            XCTAssertGreaterThanOrEqual(m.table.capacity, n)
            // Removing all but a few, in random order, then growing back.
            for k in oracle.keys.shuffled(using: &rng).prefix(max(0, n - 3)) {
                XCTAssertEqual(m.remove(k), oracle.removeValue(forKey: k))
            }
            checkInvariants(m, oracle, "n \(n) after removals")
        }
    }

    func testReservedTableDoesNotGrowUntilItsCapacity() {
        var t = OpenTable<Pair>(capacity: 100)
        let cells = t.cellCount
        XCTAssertGreaterThanOrEqual(t.capacity, 100)
        for k in 0..<Int64(t.capacity) {
            _ = t.insert(OpenHash.of(k), { Pair(key: k, value: k) }, matches: { $0.key == k }, hashOf: { OpenHash.of($0.key) })
        }
        XCTAssertEqual(t.cellCount, cells, "no growth up to the capacity")
        let k = Int64(t.capacity)
        _ = t.insert(OpenHash.of(k), { Pair(key: k, value: k) }, matches: { $0.key == k }, hashOf: { OpenHash.of($0.key) })
        XCTAssertEqual(t.cellCount, 2 * cells, "one past the capacity doubles the cells")
        t.removeAll()
        XCTAssertEqual(t.cellCount, 2 * cells)
        XCTAssertTrue(t.isEmpty)
        var n = 0
        t.forEach { _ in n += 1 }
        XCTAssertEqual(n, 0)
        var r = OpenTable<Pair>()
        r.reserve(1000, hashOf: { OpenHash.of($0.key) })
        XCTAssertGreaterThanOrEqual(r.capacity, 1000)
        XCTAssertLessThan(r.capacity, 2000)
    }

    /// Keys kept outside the table: the cells hold slots of an id array, as the pin store's do.
    func testKeysReadThroughTheEntry() {
        struct Slot: OpenTableEntry { var s: Int32; static let vacant = Slot(s: -1); var isVacant: Bool { s < 0 } }
        var rng = SplitMix(seed: 60)
        var ids: [Int64] = []
        var free: [Int32] = []
        var table = OpenTable<Slot>()
        var oracle: [Int64: Int32] = [:]
        for step in 0..<20000 {
            let id = Int64(rng.next() % 3000) - 1500
            if rng.next() % 2 == 0 {
                let slot = free.popLast() ?? Int32(ids.count)
                if Int(slot) == ids.count { ids.append(0) }
                let r = ids.withUnsafeBufferPointer { p in
                    table.insert(OpenHash.of(id), { Slot(s: slot) }, matches: { p[Int($0.s)] == id },
                                 hashOf: { OpenHash.of(p[Int($0.s)]) })
                }
                if r.inserted { ids[Int(slot)] = id; oracle[id] = slot } else { free.append(slot) }
                XCTAssertEqual(table[r.index].s, oracle[id], "step \(step)")
            } else {
                let removed = ids.withUnsafeBufferPointer { p in
                    table.remove(OpenHash.of(id), matches: { p[Int($0.s)] == id }, hashOf: { OpenHash.of(p[Int($0.s)]) })
                }
                XCTAssertEqual(removed?.s, oracle.removeValue(forKey: id), "step \(step)")
                if let s = removed?.s { free.append(s) }
            }
        }
        XCTAssertEqual(table.count, oracle.count)
        for (id, slot) in oracle {
            XCTAssertEqual(table.find(OpenHash.of(id)) { ids[Int($0.s)] == id }.map { table[$0].s }, slot)
        }
    }

    /// Exact coordinates as keys: -0.0 and 0.0 are one key, as `==` says; no NaN.
    func testCoordinateKeys() {
        struct Point: OpenTableEntry {
            var x: Double, y: Double, value: Int
            static let vacant = Point(x: .nan, y: 0, value: 0)
            var isVacant: Bool { x.isNaN }
        }
        struct Bits: Hashable { var x: UInt64, y: UInt64 }
        let values: [Double] = [0.0, -0.0, 1, -1, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                .greatestFiniteMagnitude, .infinity, -.infinity, 0.1, 0.1 + 1e-17,
                                180, -180, 90, -90, 1e-300, 2.5e-7]
        var rng = SplitMix(seed: 70)
        var table = OpenTable<Point>(loadEighths: 4)
        var oracle: [Bits: Int] = [:]
        let hashOf: (Point) -> UInt64 = { OpenHash.of($0.x, $0.y) }
        for step in 0..<20000 {
            let x = values[Int(rng.next() % UInt64(values.count))] + (rng.next() % 4 == 0 ? Double(rng.next() % 50) : 0)
            let y = values[Int(rng.next() % UInt64(values.count))]
            let key = Bits(x: (x + 0).bitPattern, y: (y + 0).bitPattern)
            switch rng.next() % 3 {
            case 0:
                let r = table.insert(OpenHash.of(x, y), { Point(x: x, y: y, value: step) },
                                     matches: { $0.x == x && $0.y == y }, hashOf: hashOf)
                XCTAssertEqual(r.inserted, oracle[key] == nil)
                if r.inserted { oracle[key] = step }
                XCTAssertEqual(table[r.index].value, oracle[key])
            case 1:
                XCTAssertEqual(table.remove(OpenHash.of(x, y), matches: { $0.x == x && $0.y == y }, hashOf: hashOf)?.value,
                               oracle.removeValue(forKey: key))
            default:
                XCTAssertEqual(table.find(OpenHash.of(x, y)) { $0.x == x && $0.y == y }.map { table[$0].value }, oracle[key])
            }
        }
        XCTAssertEqual(table.count, oracle.count)
        XCTAssertEqual(OpenHash.of(0.0, -0.0), OpenHash.of(-0.0, 0.0))
    }
}
