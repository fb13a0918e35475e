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
        for i in 0..<n { ids[i] = Int32(i) }
        @inline(__always) func cx(_ i: Int32) -> Double { input[4 * Int(i)] + input[4 * Int(i) + 2] }
        @inline(__always) func cy(_ i: Int32) -> Double { input[4 * Int(i) + 1] + input[4 * Int(i) + 3] }
        // Sort-tile-recursive: vertical slices by centre x, each sorted by centre y.
        ids.sort { cx($0) < cx($1) || (cx($0) == cx($1) && $0 < $1) }
        let leaves = (n + m - 1) / m
        var slices = 1
        while slices * slices < leaves { slices += 1 }
        let perSlice = slices * m
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            ids[start..<end].sort { cy($0) < cy($1) || (cy($0) == cy($1) && $0 < $1) }
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
