import PindropCore

/// The tree over the snap layers' vertices and segments in plain Swift (pindrop.wasm's; natively
/// PindropGEOSIndex's GEOSSnapIndex answers): a packed sort-tile-recursive R-tree, built once per
/// change of the layers, returning exactly the items whose boxes meet the query box, as GEOS's
/// STRtree does.
public final class SwiftSnapIndex: SnapIndex {
    /// Items in leaf order, and their boxes in that order (4 doubles each).
    private var order: [Int32] = []
    private var boxes: [Double] = []
    /// The boxes of the nodes of each level above the items: node k of level 0 covers items
    /// k·fanout ..< (k+1)·fanout (in leaf order), node k of level l + 1 covers nodes of level l.
    private var levels: [[Double]] = []
    private var stack: [(level: Int, node: Int)] = []
    static let fanout = 16

    public init() {}

    public func build(boxes input: UnsafeBufferPointer<Double>) {
        let n = input.count / 4
        let m = SwiftSnapIndex.fanout
        var ids = [Int32](repeating: 0, count: n)
        var cx = [Double](repeating: 0, count: n), cy = [Double](repeating: 0, count: n)
        for i in 0..<n {
            ids[i] = Int32(i)
            cx[i] = input[4 * i] + input[4 * i + 2]; cy[i] = input[4 * i + 1] + input[4 * i + 3]
        }
        // Sort-tile-recursive: vertical slices by centre x, each sorted by centre y.
        SwiftSnapIndex.sort(&ids, 0, n, by: cx)
        let leaves = (n + m - 1) / m
        var slices = 1
        while slices * slices < leaves { slices += 1 }
        let perSlice = slices * m
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            SwiftSnapIndex.sort(&ids, start, end, by: cy)
            start = end
        }
        order = ids
        boxes = [Double](repeating: 0, count: 4 * n)
        for (k, i) in ids.enumerated() {
            for j in 0..<4 { boxes[4 * k + j] = input[4 * Int(i) + j] }
        }
        levels.removeAll()
        var below = boxes
        while below.count > 4 || levels.isEmpty {
            let count = below.count / 4
            var up: [Double] = []
            up.reserveCapacity(4 * ((count + m - 1) / m))
            var g = 0
            while g < count {
                var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                for k in g..<min(count, g + m) {
                    b = (min(b.0, below[4 * k]), min(b.1, below[4 * k + 1]), max(b.2, below[4 * k + 2]), max(b.3, below[4 * k + 3]))
                }
                up.append(b.0); up.append(b.1); up.append(b.2); up.append(b.3)
                g += m
            }
            levels.append(up)
            below = up
            if count == 0 { break }
        }
    }

    /// Sorts ids[start ..< end] by key[id], then id: an in-place heap sort, not generic (the
    /// standard library's sort would add its code to pindrop.wasm for one call site).
    static func sort(_ ids: inout [Int32], _ start: Int, _ end: Int, by key: [Double]) {
        let n = end - start
        guard n > 1 else { return }
        ids.withUnsafeMutableBufferPointer { all in
            let a = UnsafeMutableBufferPointer(rebasing: all[start..<end])
            @inline(__always) func before(_ i: Int32, _ j: Int32) -> Bool {
                let ki = key[Int(i)], kj = key[Int(j)]
                return ki < kj || (ki == kj && i < j)
            }
            func sift(_ from: Int, _ end: Int) {
                var root = from
                while 2 * root + 1 < end {
                    var child = 2 * root + 1
                    if child + 1 < end && before(a[child], a[child + 1]) { child += 1 }
                    guard before(a[root], a[child]) else { return }
                    a.swapAt(root, child)
                    root = child
                }
            }
            var s = n / 2 - 1
            while s >= 0 { sift(s, n); s -= 1 }
            var e = n - 1
            while e > 0 { a.swapAt(0, e); sift(0, e); e -= 1 }
        }
    }

    public func query(minX: Double, minY: Double, maxX: Double, maxY: Double, into out: inout [Int32]) {
        guard !order.isEmpty, let top = levels.last else { return }
        let m = SwiftSnapIndex.fanout
        @inline(__always) func meets(_ b: [Double], _ k: Int) -> Bool {
            b[4 * k] <= maxX && b[4 * k + 2] >= minX && b[4 * k + 1] <= maxY && b[4 * k + 3] >= minY
        }
        stack.removeAll(keepingCapacity: true)
        for k in 0..<(top.count / 4) where meets(top, k) { stack.append((levels.count - 1, k)) }
        while let e = stack.popLast() {
            let level = e.level, node = e.node
            if level == 0 {
                for k in (node * m)..<min(order.count, (node + 1) * m) where meets(boxes, k) { out.append(order[k]) }
            } else {
                let below = levels[level - 1]
                for k in (node * m)..<min(below.count / 4, (node + 1) * m) where meets(below, k) { stack.append((level - 1, k)) }
            }
        }
    }
}
