import XCTest
@testable import PindropCore

/// `ClusterGrid` on its `OpenTable` under random insertions, removals and moves of items, against
/// a brute-force scan of where every live item is: the 3×3 walk and the box walk return exactly
/// the items of their cells, and a grid whose items keep moving does not keep the cells they left.
final class ClusterGridTests: XCTestCase {
    func testWalksMatchAScanUnderChurn() { walksMatchAScanUnderChurn(doublyLinked: false) }

    /// The same with the lists linked both ways (the pins' grid), whose removals do not walk.
    func testDoublyLinkedWalksMatchAScanUnderChurn() { walksMatchAScanUnderChurn(doublyLinked: true) }

    /// Removals and moves also go through `refill` now and then (a rebuild refills the pins' grid).
    func testRefilledDoublyLinkedGridKeepsItsLinks() {
        var rng = SplitMix(seed: 11)
        let n = 400
        var grid = ClusterGrid(cell: 0.25, doublyLinked: true)
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

    private func walksMatchAScanUnderChurn(doublyLinked: Bool) {
        var rng = SplitMix(seed: 7)
        let cell = 0.25
        var grid = ClusterGrid(cell: cell, doublyLinked: doublyLinked)
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
