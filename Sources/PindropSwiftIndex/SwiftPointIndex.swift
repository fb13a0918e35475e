import PindropCore

/// A point index over pin slots in plain Swift: a quadtree over the world whose leaves hold up to
/// `leafCapacity` slots (a leaf splits into quadrants when it grows past that, down to
/// `maxDepth`, below which it just grows: a stack of pins on one coordinate stays one leaf).
///
/// The WebAssembly module's index (GEOS does not build for wasm32); the native library keeps
/// GEOSPointIndex. It answers every box query with the same set of slots (the map sorts what it
/// needs sorted), which PindropSwiftIndexTests checks against GEOS. Every change is O(depth):
/// a slot records its leaf and its place in the leaf's list, so a move or a removal is a
/// swap-remove there and an append in the new leaf; nothing is deferred, so `maintain` has
/// nothing to do. Leaves are not merged when they empty (a leaf costs one node and one list).
public final class SwiftPointIndex: SpatialIndex {
    public static let leafCapacity = 64
    static let maxDepth: Int32 = 40

    /// Positions by slot: the pin store's (shared) or the index's own.
    let coords: SlotCoordinates
    let ownsCoordinates: Bool

    /// A cell: four children (`child` ... `child + 3`: south-west, south-east, north-west,
    /// north-east) or a leaf (`leaf` >= 0). A position on a split line goes to the east / north
    /// child, so every slot of a cell lies inside its closed bounds.
    private struct Node {
        var minX, minY, maxX, maxY: Double
        var child: Int32 = -1
        var leaf: Int32 = -1
        var depth: Int32
    }
    private var nodes: [Node] = []
    private var leafSlots: [[Int32]] = []
    private var leafNode: [Int32] = []
    /// Per slot: its leaf + 1 (0 = not indexed) and its index in that leaf's list.
    private var home: [Int32] = []
    private var at: [Int32] = []
    private var stack: [Int32] = []
    public private(set) var count = 0

    /// An index keeping its own copy of the positions it is given.
    public init() {
        coords = SlotCoordinates()
        ownsCoordinates = true
        reset()
    }

    /// An index reading the positions from `coordinates`, which the owner updates before each call.
    public init(sharing coordinates: SlotCoordinates) {
        coords = coordinates
        ownsCoordinates = false
        reset()
    }

    private func reset() {
        nodes = [Node(minX: -180, minY: -90, maxX: 180, maxY: 90, leaf: 0, depth: 0)]
        leafSlots = [[]]
        leafNode = [0]
    }

    public func removeAll() {
        reset()
        home.removeAll(); at.removeAll(); count = 0
        if ownsCoordinates { coords.removeAll() }
    }

    public func insert(slots: [Int32], lonlat: UnsafeBufferPointer<Double>) {
        guard let m = slots.max() else { return }
        grow(to: m)
        if count == 0 && slots.count > SwiftPointIndex.leafCapacity && allDistinct(slots) {
            bulkLoad(slots: slots, lonlat: lonlat)
            return
        }
        for i in slots.indices {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            if ownsCoordinates { coords.set(slots[i], lon: x, lat: y) }
            place(slots[i], x, y)
        }
    }

    public func set(_ slot: Int32, lon x: Double, lat y: Double) {
        grow(to: slot)
        if ownsCoordinates { coords.set(slot, lon: x, lat: y) }
        place(slot, x, y)
    }

    public func remove(_ slot: Int32) {
        let s = Int(slot)
        guard s < home.count, home[s] != 0 else { return }
        leave(slot)
        count -= 1
    }

    public func query(_ box: GeoBox, into out: inout [Int32]) {
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        coords.withBuffer { p in
            while let n = stack.popLast() {
                let node = nodes[Int(n)]
                guard node.minX <= box.maxLon, node.maxX >= box.minLon,
                      node.minY <= box.maxLat, node.maxY >= box.minLat else { continue }
                if node.leaf < 0 {
                    for c in 0..<Int32(4) { stack.append(node.child + c) }
                    continue
                }
                let inside = node.minX >= box.minLon && node.maxX <= box.maxLon
                    && node.minY >= box.minLat && node.maxY <= box.maxLat
                leafSlots[Int(node.leaf)].withUnsafeBufferPointer { slots in
                    if inside {
                        out.append(contentsOf: slots)
                        return
                    }
                    for s in slots {
                        let x = p[2 * Int(s)], y = p[2 * Int(s) + 1]
                        if x >= box.minLon && x <= box.maxLon && y >= box.minLat && y <= box.maxLat { out.append(s) }
                    }
                }
            }
        }
    }

    // MARK: - Bulk load

    /// Builds the tree of an empty index from many slots at once: the slots are partitioned in
    /// place into quadrants (north / south, then east / west, by the rule `leafOf` follows), level
    /// by level, and each final range becomes a leaf: the tree incremental inserts would have
    /// built, for a fraction of their bookkeeping.
    private func bulkLoad(slots: [Int32], lonlat: UnsafeBufferPointer<Double>) {
        var ss = slots
        var xs = [Double](repeating: 0, count: slots.count), ys = xs
        for i in slots.indices {
            xs[i] = lonlat[2 * i]; ys[i] = lonlat[2 * i + 1]
            if ownsCoordinates { coords.set(slots[i], lon: xs[i], lat: ys[i]) }
        }
        nodes = [Node(minX: -180, minY: -90, maxX: 180, maxY: 90, depth: 0)]
        leafSlots = []; leafNode = []
        count = slots.count
        // The slots' box: down to the first cell that splits it, the levels above hold all of
        // them in one quadrant and need no partition pass.
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for i in xs.indices {
            box = (min(box.minX, xs[i]), min(box.minY, ys[i]), max(box.maxX, xs[i]), max(box.maxY, ys[i]))
        }
        // The partitions run on the arrays' buffers: no bounds or uniqueness check per swap (they
        // were most of a bulk load's time in WebAssembly).
        ss.withUnsafeMutableBufferPointer { ss in
            xs.withUnsafeMutableBufferPointer { xs in
                ys.withUnsafeMutableBufferPointer { ys in buildTree(ss, xs, ys, box: box) }
            }
        }
    }

    /// bulkLoad's partitions: ss, xs, ys are the slots and their positions, `box` their bounds.
    private func buildTree(_ ss: UnsafeMutableBufferPointer<Int32>, _ xs: UnsafeMutableBufferPointer<Double>,
                           _ ys: UnsafeMutableBufferPointer<Double>,
                           box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        // (node, lo, hi): the node's slots are ss[lo ..< hi]; `whole`: all of them, in `box`.
        var work: [(Int32, Int, Int, Bool)] = [(0, 0, ss.count, true)]
        while let (n, lo, hi, whole) = work.popLast() {
            let node = nodes[Int(n)]
            if hi - lo <= SwiftPointIndex.leafCapacity || node.depth >= SwiftPointIndex.maxDepth {
                let leaf = Int32(leafSlots.count)
                nodes[Int(n)].leaf = leaf
                leafNode.append(n)
                leafSlots.append(Array(UnsafeBufferPointer(rebasing: ss[lo..<hi])))
                for i in lo..<hi { home[Int(ss[i])] = leaf + 1; at[Int(ss[i])] = Int32(i - lo) }
                continue
            }
            let mx = node.minX + (node.maxX - node.minX) * 0.5, my = node.minY + (node.maxY - node.minY) * 0.5
            if whole && (box.minX >= mx || box.maxX < mx) && (box.minY >= my || box.maxY < my) {
                let q = Int32((box.minX >= mx ? 1 : 0) + (box.minY >= my ? 2 : 0))
                let child = appendChildren(n, node, mx, my)
                for c in 0..<Int32(4) { work.append((child + c, c == q ? lo : hi, hi, c == q)) }
                continue
            }
            let north = partition(ss, xs, ys, lo, hi) { _, y in y >= my }
            let southEast = partition(ss, xs, ys, lo, north) { x, _ in x >= mx }
            let northEast = partition(ss, xs, ys, north, hi) { x, _ in x >= mx }
            let child = appendChildren(n, node, mx, my)
            work.append((child, lo, southEast, false)); work.append((child + 1, southEast, north, false))
            work.append((child + 2, north, northEast, false)); work.append((child + 3, northEast, hi, false))
        }
    }

    /// Makes node n a parent of four new cells split at (mx, my); returns the first.
    private func appendChildren(_ n: Int32, _ node: Node, _ mx: Double, _ my: Double) -> Int32 {
        let child = Int32(nodes.count)
        let d = node.depth + 1
        nodes[Int(n)].child = child
        nodes.append(Node(minX: node.minX, minY: node.minY, maxX: mx, maxY: my, depth: d))
        nodes.append(Node(minX: mx, minY: node.minY, maxX: node.maxX, maxY: my, depth: d))
        nodes.append(Node(minX: node.minX, minY: my, maxX: mx, maxY: node.maxY, depth: d))
        nodes.append(Node(minX: mx, minY: my, maxX: node.maxX, maxY: node.maxY, depth: d))
        return child
    }

    /// Whether no slot repeats in a batch for an empty index (a repeated slot takes its last
    /// position, one at a time). `home` is all zero here, so it serves as the mark.
    private func allDistinct(_ slots: [Int32]) -> Bool {
        var distinct = true
        for s in slots {
            if home[Int(s)] != 0 { distinct = false; break }
            home[Int(s)] = 1
        }
        for s in slots { home[Int(s)] = 0 }
        return distinct
    }

    /// Moves the entries of lo ..< hi for which `upper` holds to the end; returns where they start.
    @inline(__always)
    private func partition(_ ss: UnsafeMutableBufferPointer<Int32>, _ xs: UnsafeMutableBufferPointer<Double>,
                           _ ys: UnsafeMutableBufferPointer<Double>, _ lo: Int, _ hi: Int,
                           _ upper: (Double, Double) -> Bool) -> Int {
        var i = lo, j = hi
        while true {
            while i < j && !upper(xs[i], ys[i]) { i += 1 }
            while i < j && upper(xs[j - 1], ys[j - 1]) { j -= 1 }
            if i >= j { return i }
            let s = ss[i], x = xs[i], y = ys[i]
            ss[i] = ss[j - 1]; xs[i] = xs[j - 1]; ys[i] = ys[j - 1]
            ss[j - 1] = s; xs[j - 1] = x; ys[j - 1] = y
            i += 1; j -= 1
        }
    }

    // MARK: - Internals

    private func grow(to slot: Int32) {
        let need = Int(slot) + 1
        if home.count < need {
            home.append(contentsOf: repeatElement(0, count: need - home.count))
            at.append(contentsOf: repeatElement(0, count: need - at.count))
        }
    }

    /// The leaf whose cell holds (x, y), for a slot whose `home` is `h`: its own leaf when that
    /// leaf's cell holds the point (a small move stays in its leaf), without the walk down from
    /// the root. Cells are half-open, [min, mid) and [mid, max) of their parent's, so a point
    /// inside the leaf's cell is one the walk would bring there.
    @inline(__always)
    private func leafOf(_ x: Double, _ y: Double, from h: Int32) -> Int32 {
        if h > 0 {
            let node = nodes[Int(leafNode[Int(h - 1)])]
            if node.leaf == h - 1 && x >= node.minX && x < node.maxX && y >= node.minY && y < node.maxY { return h - 1 }
        }
        return leafOf(x, y)
    }

    /// The leaf whose cell holds (x, y).
    @inline(__always)
    private func leafOf(_ x: Double, _ y: Double) -> Int32 {
        var n = 0
        while nodes[n].leaf < 0 {
            let node = nodes[n]
            let mx = node.minX + (node.maxX - node.minX) * 0.5, my = node.minY + (node.maxY - node.minY) * 0.5
            n = Int(node.child) + (x >= mx ? 1 : 0) + (y >= my ? 2 : 0)
        }
        return nodes[n].leaf
    }

    /// Records that a slot is now at (x, y): moved to that position's leaf unless it is there.
    @inline(__always)
    private func place(_ slot: Int32, _ x: Double, _ y: Double) {
        let s = Int(slot)
        let l = leafOf(x, y, from: home[s])
        if home[s] == l + 1 { return }
        if home[s] == 0 { count += 1 } else { leave(slot) }
        append(slot, to: l)
        if leafSlots[Int(l)].count > SwiftPointIndex.leafCapacity { split(l) }
    }

    @inline(__always)
    private func append(_ slot: Int32, to l: Int32) {
        home[Int(slot)] = l + 1
        at[Int(slot)] = Int32(leafSlots[Int(l)].count)
        leafSlots[Int(l)].append(slot)
    }

    /// Takes a slot out of its leaf's list (the list's last slot fills its place).
    @inline(__always)
    private func leave(_ slot: Int32) {
        let s = Int(slot)
        let l = Int(home[s] - 1), i = Int(at[s])
        let last = leafSlots[l].removeLast()
        if last != slot {
            leafSlots[l][i] = last
            at[Int(last)] = Int32(i)
        }
        home[s] = 0
    }

    /// Splits an over-full leaf into quadrants, and any quadrant still over-full after that.
    private func split(_ first: Int32) {
        var work: [Int32] = [first]
        while let l = work.popLast() {
            let n = Int(leafNode[Int(l)])
            let node = nodes[n]
            guard node.depth < SwiftPointIndex.maxDepth,
                  leafSlots[Int(l)].count > SwiftPointIndex.leafCapacity else { continue }
            let mx = node.minX + (node.maxX - node.minX) * 0.5, my = node.minY + (node.maxY - node.minY) * 0.5
            let child = Int32(nodes.count)
            let d = node.depth + 1
            let boxes = [(node.minX, node.minY, mx, my), (mx, node.minY, node.maxX, my),
                         (node.minX, my, mx, node.maxY), (mx, my, node.maxX, node.maxY)]
            var leaves: [Int32] = []
            for (i, b) in boxes.enumerated() {
                // The old leaf becomes the south-west child; three new leaves for the others.
                let leaf: Int32
                if i == 0 { leaf = l } else { leaf = Int32(leafSlots.count); leafSlots.append([]); leafNode.append(0) }
                leafNode[Int(leaf)] = child + Int32(i)
                nodes.append(Node(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3, leaf: leaf, depth: d))
                leaves.append(leaf)
            }
            nodes[n].leaf = -1
            nodes[n].child = child
            let moving = leafSlots[Int(l)]
            leafSlots[Int(l)] = []
            coords.withBuffer { p in
                for s in moving {
                    let x = p[2 * Int(s)], y = p[2 * Int(s) + 1]
                    append(s, to: leaves[(x >= mx ? 1 : 0) + (y >= my ? 2 : 0)])
                }
            }
            for leaf in leaves where leafSlots[Int(leaf)].count > SwiftPointIndex.leafCapacity { work.append(leaf) }
        }
    }
}

/// The factory of the WebAssembly module: the pure Swift index and allowed area, nothing native.
public final class SwiftIndexFactory: IndexFactory {
    public init() {}
    public func makeIndex() -> SpatialIndex { SwiftPointIndex() }
    public func makeIndex(sharing coordinates: SlotCoordinates) -> SpatialIndex {
        SwiftPointIndex(sharing: coordinates)
    }
    public func parseArea(_ text: String) throws(PindropError) -> AllowedArea {
        try SwiftArea(text: text)
    }
    public func makeSnapIndex() -> SnapIndex { SwiftSnapIndex() }
}
