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

    // MARK: - Internals

    private func grow(to slot: Int32) {
        let need = Int(slot) + 1
        if home.count < need {
            home.append(contentsOf: repeatElement(0, count: need - home.count))
            at.append(contentsOf: repeatElement(0, count: need - at.count))
        }
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
        let l = leafOf(x, y)
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
}
