import XCTest
@testable import PindropCore

/// `ClusterGrid` on its `OpenTable` under random insertions, removals and moves of items, against
/// a brute-force scan of where every live item is: the 3×3 walk and the box walk return exactly
/// the items of their cells, and a grid whose items keep moving does not keep the cells they left.
final class ClusterGridTests: XCTestCase {
    func testWalksMatchAScanUnderChurn() { walksMatchAScanUnderChurn(lists: .unordered) }

    /// The same with the lists linked both ways (the pins' grid), whose removals do not walk.
    func testDoublyLinkedWalksMatchAScanUnderChurn() { walksMatchAScanUnderChurn(lists: .linkedBothWays) }

    /// The same with the lists by key (a clustered level's grid): every list stays in key order,
    /// and a walk for keys below a bound meets exactly the items of the nine cells below it, also
    /// when the bound falls during the walk.
    func testListsByKeyStayInOrderUnderChurn() { walksMatchAScanUnderChurn(lists: .byKey) }

    /// A clustered level's walk (2×2 cells twice its reach): every item within the reach of the
    /// point, whichever quarter of its cell the point lies in (the middle and the edges included),
    /// each once, from at most four cells; and two points whose walks read the same cells
    /// (`sameWalk`) are given the same items.
    func testTwoByTwoWalkReachesHalfACell() {
        var rng = SplitMix(seed: 19)
        let cell = 0.25, n = 3000
        var grid = ClusterGrid(cell: cell, lists: .byKey, walk: .twoByTwo)
        XCTAssertEqual(grid.reach, cell / 2)
        var items = (0..<n).map { _ in
            ClusterItem(x: Double(rng.next() % 4_000_000) / 1_000_000 - 2, y: Double(rng.next() % 4_000_000) / 1_000_000 - 2,
                        key: rng.next(), parent: 0, next: ClusterGrid.end)
        }
        for i in 0..<n { grid.insert(UInt32(i), x: items[i].x, y: items[i].y, &items) }
        func coordinate(_ v: Double) -> Int64 { Int64((v / cell).rounded(.down)) }
        func walk(_ x: Double, _ y: Double) -> [Int] {
            var met: [Int] = []
            items.withUnsafeBufferPointer { it in grid.forEachNear(x, y, it) { met.append(Int($0)) } }
            return met
        }
        for q in 0..<4000 {
            // Anywhere, or on a cell's middle or edge along one axis or both.
            var x = Double(rng.next() % 3_000_000) / 1_000_000 - 1.5, y = Double(rng.next() % 3_000_000) / 1_000_000 - 1.5
            switch q % 4 {
            case 1: x = (x / cell).rounded(.down) * cell + cell / 2
            case 2: y = (y / cell).rounded(.down) * cell
            case 3: x = (x / cell).rounded(.down) * cell + cell / 2; y = (y / cell).rounded(.down) * cell + cell / 2
            default: break
            }
            let met = walk(x, y)
            XCTAssertEqual(Set(met).count, met.count, "each once, query \(q)")
            let within = (0..<n).filter { i in
                let dx = items[i].x - x, dy = items[i].y - y
                return dx * dx + dy * dy <= grid.reach * grid.reach * (1 - 1e-9)
            }
            XCTAssertTrue(Set(within).isSubset(of: Set(met)), "every item within the reach, query \(q) at (\(x), \(y))")
            // Cells by their keys: (-1, -1) shares its list with (-1, -2) (`ClusterGrid.hash`).
            let cells = Set(met.map { ClusterGrid.hash(coordinate(items[$0].x), coordinate(items[$0].y)) })
            XCTAssertLessThanOrEqual(cells.count, 4, "query \(q)")
            // A point a little away whose walk reads the same cells meets the same items.
            let (x2, y2) = (x + Double(rng.next() % 100) / 10_000, y - Double(rng.next() % 100) / 10_000)
            if grid.sameWalk(x, y, x2, y2) { XCTAssertEqual(walk(x2, y2).sorted(), met.sorted(), "query \(q)") }
        }
    }

    /// A refill of a grid by key puts each list in key order whatever the slots' order.
    func testRefillByKeyOrdersEveryList() {
        var rng = SplitMix(seed: 5)
        let n = 300
        var grid = ClusterGrid(cell: 0.5, lists: .byKey)
        var items = (0..<n).map { _ in
            ClusterItem(x: Double(rng.next() % 1000) / 1000, y: Double(rng.next() % 1000) / 1000,
                        key: rng.next(), parent: 0, next: ClusterGrid.end)
        }
        grid.refill(&items, member: 0)
        var walked = 0
        for cy in 0..<2 {
            for cx in 0..<2 {
                var keys: [UInt64] = []
                items.withUnsafeBufferPointer { it in
                    _ = grid.forEachInBox(minX: Double(cx) * 0.5 + 0.1, minY: Double(cy) * 0.5 + 0.1,
                                          maxX: Double(cx) * 0.5 + 0.2, maxY: Double(cy) * 0.5 + 0.2, maxCells: 1, it) {
                        keys.append(it[Int($0)].key)
                    }
                }
                XCTAssertEqual(keys, keys.sorted(), "cell (\(cx), \(cy))")
                walked += keys.count
            }
        }
        XCTAssertEqual(walked, n)
    }

    /// Removals and moves also go through `refill` now and then (a rebuild refills the pins' grid).
    func testRefilledDoublyLinkedGridKeepsItsLinks() {
        var rng = SplitMix(seed: 11)
        let n = 400
        var grid = ClusterGrid(cell: 0.25, lists: .linkedBothWays)
        var items = [ClusterItem](repeating: ClusterItem(x: 0, y: 0, key: 0, parent: 0, next: ClusterGrid.end), count: n)
        // Cells with coordinates ≥ 0: no two of them share a list (`ClusterGrid.hash`).
        func place(_ i: Int) { items[i].x = Double(rng.next() % 2000) / 1000; items[i].y = Double(rng.next() % 2000) / 1000 }
        // Inserted one by one first, so that every item has a predecessor the refill must replace.
        for i in (0..<n).reversed() { place(i); grid.insert(UInt32(i), x: items[i].x, y: items[i].y, &items) }
        for i in 0..<n { place(i) }
        grid.refill(&items, member: 0)
        var live = [Bool](repeating: true, count: n)
        // Take out every other item, head of its list or not, then walk everything.
        for i in stride(from: 0, to: n, by: 2) {
            grid.remove(UInt32(i), x: items[i].x, y: items[i].y, &items)
            live[i] = false
        }
        var seen: [Int] = []
        items.withUnsafeBufferPointer { it in
            _ = grid.forEachInBox(minX: 0, minY: 0, maxX: 2, maxY: 2, maxCells: 1000, it) { seen.append(Int($0)) }
        }
        XCTAssertEqual(seen.sorted(), (0..<n).filter { live[$0] })
    }

    private func walksMatchAScanUnderChurn(lists: ClusterGrid.Lists) {
        var rng = SplitMix(seed: 7), keys = SplitMix(seed: 8)
        let cell = 0.25
        var grid = ClusterGrid(cell: cell, lists: lists)
        let n = 600
        var items = [ClusterItem](repeating: ClusterItem(x: 0, y: 0, key: 0, parent: 0, next: ClusterGrid.end), count: n)
        var live = [Bool](repeating: false, count: n)
        func coordinate(_ v: Double) -> Int64 { Int64((v / cell).rounded(.down)) }
        func random(_ r: inout SplitMix) -> Double { Double(r.next() % 4000) / 1000 - 2 }   // [-2, 2)
        var largest = 0
        for step in 0..<30_000 {
            let i = Int(rng.next() % UInt64(n))
            if !live[i] {
                items[i].x = random(&rng); items[i].y = random(&rng)
                // A new key each time (an item's key is fixed while it is in the grid).
                items[i].key = keys.next()
                grid.insert(UInt32(i), x: items[i].x, y: items[i].y, &items)
                live[i] = true
            } else if rng.next() % 3 == 0 {
                grid.remove(UInt32(i), x: items[i].x, y: items[i].y, &items)
                live[i] = false
            } else {
                // A move: a short one may stay in its cell, a long one leaves it.
                let nx = rng.next() % 2 == 0 ? items[i].x + 0.01 : random(&rng), ny = random(&rng)
                if !grid.sameCell(items[i].x, items[i].y, nx, ny) {
                    grid.remove(UInt32(i), x: items[i].x, y: items[i].y, &items)
                    items[i].x = nx; items[i].y = ny
                    grid.insert(UInt32(i), x: nx, y: ny, &items)
                } else {
                    items[i].x = nx; items[i].y = ny
                }
            }
            largest = max(largest, grid.slotCount)
            guard step % 500 == 0 else { continue }
            let qx = random(&rng), qy = random(&rng)
            var near: [Int] = []
            items.withUnsafeBufferPointer { it in grid.forEachNear(qx, qy, it) { near.append(Int($0)) } }
            // The cells' keys, not the cells: (-1, -1) shares its list with (-1, -2) (`ClusterGrid.hash`).
            func key(_ i: Int) -> UInt64 { ClusterGrid.hash(coordinate(items[i].x), coordinate(items[i].y)) }
            var nine = Set<UInt64>()
            for dy: Int64 in -1...1 { for dx: Int64 in -1...1 { nine.insert(ClusterGrid.hash(coordinate(qx) + dx, coordinate(qy) + dy)) } }
            let expected = (0..<n).filter { live[$0] && nine.contains(key($0)) }
            XCTAssertEqual(near.sorted(), expected, "3×3 walk, step \(step)")
            if lists == .byKey {
                // Below a bound that falls to each item's key as it is met: the items met are the
                // smallest keys of each list, ending at the first one past the bound of the moment.
                let start = keys.next()
                var bound = start, met: [UInt64] = []
                items.withUnsafeBufferPointer { it in
                    grid.forEachNear(qx, qy, it, whileKeyBelow: { bound }) { k in
                        XCTAssertLessThan(it[Int(k)].key, bound)
                        met.append(it[Int(k)].key)
                        if keys.next() % 2 == 0 { bound = it[Int(k)].key }
                    }
                }
                XCTAssertEqual(met.min(), expected.map { items[$0].key }.filter { $0 < start }.min(), "bounded walk, step \(step)")
                // A bound that does not fall: every item of the nine cells below it, each once.
                var below: [Int] = []
                items.withUnsafeBufferPointer { it in
                    grid.forEachNear(qx, qy, it, whileKeyBelow: { start }) { below.append(Int($0)) }
                }
                XCTAssertEqual(below.sorted(), expected.filter { items[$0].key < start }, "walk below a key, step \(step)")
            }
            var boxed: [Int] = []
            let (x0, x1) = (min(qx, qx + 0.6), qx + 0.6), (y0, y1) = (qy - 0.3, qy)
            let walked = items.withUnsafeBufferPointer { it in
                grid.forEachInBox(minX: x0, minY: y0, maxX: x1, maxY: y1, maxCells: 100, it) { boxed.append(Int($0)) }
            }
            XCTAssertTrue(walked)
            var boxKeys = Set<UInt64>()
            for cy in coordinate(y0)...coordinate(y1) { for cx in coordinate(x0)...coordinate(x1) { boxKeys.insert(ClusterGrid.hash(cx, cy)) } }
            let inBox = (0..<n).filter { live[$0] && boxKeys.contains(key($0)) }
            XCTAssertEqual(boxed.sorted(), inBox, "box walk, step \(step)")
        }
        // 256 cells in the square at most, so at most 512 slots half full: the cells items left
        // are given back, not carried until a growth. Slots, not bytes: the bytes follow the
        // array's capacity, which malloc may round up by a slot or two depending on the heap.
        XCTAssertLessThanOrEqual(largest, 512)
        grid.removeAll()
        var none = 0
        items.withUnsafeBufferPointer { it in grid.forEachNear(0, 0, it) { _ in none += 1 } }
        XCTAssertEqual(none, 0)
    }
}
