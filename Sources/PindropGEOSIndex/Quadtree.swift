import PindropCore

/// The quadtree of `GEOSPointIndex`: cells over the world, each leaf with its own small GEOS trees
/// and lists. A change finds its leaf here, a query the leaves its box meets, and a leaf that
/// grew beyond `leafCapacity` is split into quadrants.
extension GEOSPointIndex {
    /// A quadtree cell: four children (`child` ... `child + 3`: south-west, south-east,
    /// north-west, north-east) or a leaf. Cells on the world's edge reach to infinity in the
    /// intersection test, so no finite position is ever outside the root.
    struct Node {
        var minX, minY, maxX, maxY: Double
        var child: Int32 = -1
        var leaf: Int32 = -1
        var depth: Int32
    }
    struct Leaf {
        var node: Int32
        var queued = false
        /// The leaf's GEOS tree: all its built points, or those west of `eastFrom` when `east`
        /// holds the others (see `Job`).
        var tree: OpaquePointer?
        var east: OpaquePointer?
        /// Every point of `tree` has lon <= eastFrom, every point of `east` lon >= eastFrom.
        var eastFrom = 0.0
        /// The slots of a leaf whose tree is not built yet (current when home == leaf + 1).
        var entries: [Int32] = []
        /// Slots whose position changed into this leaf since its tree was built.
        var pending: [Int32] = []
        /// Current slots (home is this leaf, pending or not), and stale entries in tree/entries.
        var count = 0
        var stale = 0
    }
    static let maxDepth: Int32 = 40

    /// The leaf whose cell holds (x, y), for a slot whose place is `h` (its `home`): the leaf it
    /// is in when that leaf's cell holds the point too (a small move stays in its leaf), without
    /// the walk down from the root, a node a level (about 16 under a county's trees) and most of
    /// them cache misses. The cells are half-open, [min, mid) and [mid, max) of their parent's, as
    /// `quadrant` divides it, so a point inside the leaf's cell is one the walk would bring there.
    @inline(__always)
    func leafOf(_ x: Double, _ y: Double, from h: UInt32) -> Int32 {
        if h != 0 {
            let l = Int32(GEOSPointIndex.leaf(of: h))
            let node = nodes[Int(leaves[Int(l)].node)]
            if node.child < 0 && node.leaf == l && x >= node.minX && x < node.maxX && y >= node.minY && y < node.maxY {
                return l
            }
        }
        return leafOf(x, y)
    }

    /// The leaf whose cell holds (x, y).
    @inline(__always)
    func leafOf(_ x: Double, _ y: Double) -> Int32 {
        nodes.withUnsafeBufferPointer { nd in
            var n = 0
            while nd[n].child >= 0 { n = Int(nd[n].child) + quadrant(nd[n], x, y) }
            return nd[n].leaf
        }
    }

    @inline(__always)
    private func quadrant(_ node: Node, _ x: Double, _ y: Double) -> Int {
        (x >= (node.minX + node.maxX) / 2 ? 1 : 0) + (y >= (node.minY + node.maxY) / 2 ? 2 : 0)
    }

    /// Turns leaf node n into an inner node and deals the gathered slots out to new leaves, which
    /// are built when a query needs them. It first goes down through the cells that hold all of
    /// them (their other quadrants become empty leaves: a dense city far below the root is reached
    /// without a pass per level), then divides that cell into 4^k leaves at once, k chosen so that
    /// an even spread would fill a leaf to half its capacity (a crowded leaf splits again later).
    /// False (nothing changed) when the slots all share one position.
    func split(_ n: Int) -> Bool {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for s in gather {
            let p = coords.position(s)
            x0 = min(x0, p.lon); x1 = max(x1, p.lon); y0 = min(y0, p.lat); y1 = max(y1, p.lat)
        }
        guard x0 < x1 || y0 < y1 else { return false }
        freeLeaf(nodes[n].leaf)
        nodes[n].leaf = -1
        var cur = n
        while nodes[cur].depth + 1 < GEOSPointIndex.maxDepth
                && quadrant(nodes[cur], x0, y0) == quadrant(nodes[cur], x1, y1) {
            let c = Int(makeChildren(cur)) + quadrant(nodes[cur], x0, y0)
            freeLeaf(nodes[c].leaf)
            nodes[c].leaf = -1
            cur = c
        }
        var k: Int32 = 1
        while k < 7 && nodes[cur].depth + k + 1 < GEOSPointIndex.maxDepth && gather.count >> (2 * Int(k)) > leafCapacity / 2 { k += 1 }
        makeSubtree(cur, levels: k)
        // Each slot's leaf (kept in `home`, which is where it ends up) and the new leaves'
        // counts (they start at 0), then the leaves' lists.
        nodes.withUnsafeBufferPointer { nd in
            home.withUnsafeMutableBufferPointer { h in
                leaves.withUnsafeMutableBufferPointer { lv in
                    coords.withBuffer { ll in
                        for s in gather {
                            let x = ll[2 * Int(s)], y = ll[2 * Int(s) + 1]
                            var c = cur
                            while nd[c].child >= 0 { c = Int(nd[c].child) + quadrant(nd[c], x, y) }
                            let l = Int(nd[c].leaf)
                            h[Int(s)] = UInt32(l + 1)
                            lv[l].count += 1
                        }
                    }
                }
            }
        }
        // The new leaves in the order the slots first reach them (each leaf's list starts empty).
        var reached: [Int32] = []
        home.withUnsafeBufferPointer { h in
            leaves.withUnsafeMutableBufferPointer { lv in
                for s in gather {
                    let l = Int(h[Int(s)] - 1)
                    if lv[l].entries.isEmpty {
                        lv[l].entries.reserveCapacity(lv[l].count)
                        reached.append(Int32(l))
                    }
                    lv[l].entries.append(s)
                }
            }
        }
        var crowded: [Int32] = []
        for l32 in reached {
            let l = Int(l32)
            if leaves[l].count > leafCapacity && !leaves[l].queued {
                leaves[l].queued = true  // a mark, cleared below
                crowded.append(Int32(l))
            } else {
                enqueueIfNeeded(l)
            }
        }
        splits += 1
        // The scratch of a bulk load's split (4 bytes per pin) goes back to the allocator.
        if gather.capacity > 16 * (leafCapacity + pendingLimit) { gather = [] }
        // A leaf that is still crowded (a dense district) is split again now, so that no leaf
        // left for the slices holds more than about `leafCapacity` distinct positions.
        for l in crowded {
            leaves[Int(l)].queued = false
            swap(&gather, &leaves[Int(l)].entries)
            leaves[Int(l)].entries.removeAll()
            let n = Int(leaves[Int(l)].node)
            if nodes[n].depth + 1 >= GEOSPointIndex.maxDepth || !split(n) {
                swap(&gather, &leaves[Int(l)].entries)
                enqueueIfNeeded(Int(l))
            }
        }
        return true
    }

    /// Node n (with no leaf) gets a complete subtree of `levels` levels of leaf cells.
    private func makeSubtree(_ n: Int, levels: Int32) {
        let first = Int(makeChildren(n))
        guard levels > 1 else { return }
        for c in first..<first + 4 {
            freeLeaf(nodes[c].leaf)
            nodes[c].leaf = -1
            makeSubtree(c, levels: levels - 1)
        }
    }

    /// A leaf record no node uses any more (its tree already destroyed).
    private func freeLeaf(_ l: Int32) {
        leaves[Int(l)] = Leaf(node: -1)
        freeLeaves.append(l)
    }

    /// Gives node n four leaf children; returns the first child's node index.
    private func makeChildren(_ n: Int) -> Int32 {
        let p = nodes[n]
        let mx = (p.minX + p.maxX) / 2, my = (p.minY + p.maxY) / 2
        let first = Int32(nodes.count)
        for q in 0..<4 {
            let west = q & 1 == 0, south = q & 2 == 0
            let l: Int32
            let leaf = Leaf(node: Int32(nodes.count))
            if let f = freeLeaves.popLast() { l = f; leaves[Int(l)] = leaf } else { l = Int32(leaves.count); leaves.append(leaf) }
            nodes.append(Node(minX: west ? p.minX : mx, minY: south ? p.minY : my,
                              maxX: west ? mx : p.maxX, maxY: south ? my : p.maxY,
                              leaf: l, depth: p.depth + 1))
        }
        nodes[n].child = first
        return first
    }

    /// The leaves whose cells meet the box, in `visit` (a leaf with lists too long to scan is
    /// dealt out first, and the walk starts again).
    func leavesMeeting(_ box: GeoBox) {
        if inLastLeaf(box) { return }
        var st = stack
        stack = []
        defer { stack = st }
        // A leaf GEOS could not settle is scanned as it is (no endless retry within one query).
        var scanAll = false
        while true {
            if !visit.isEmpty { visit.removeAll(keepingCapacity: true) }
            if !st.isEmpty { st.removeAll(keepingCapacity: true) }
            var crowded: Int32 = -1
            let limit = scanAll ? Int.max : scanLimit
            nodes.withUnsafeBufferPointer { nd in
                leaves.withUnsafeBufferPointer { lv in
                    // Cells on the world's edge reach to infinity.
                    @inline(__always) func meets(_ node: Node) -> Bool {
                        !(node.minX > -180 && box.maxLon < node.minX) && !(node.maxX < 180 && box.minLon > node.maxX)
                            && !(node.minY > -90 && box.maxLat < node.minY) && !(node.maxY < 90 && box.minLat > node.maxY)
                    }
                    // A small box (a tap's) meets one child of most cells on the way down: the
                    // walk goes straight down while only one does, and the stack takes over
                    // below (the leaves come in the same order as from the root). A child's cell
                    // is its parent's halved at the midpoint (`makeChildren`), and the box meets
                    // the parent: whether it meets a child is a comparison with the midpoint, the
                    // same one `meets` makes on the child's stored edge, so only the parent is read.
                    var top = 0
                    while nd[top].child >= 0 {
                        let p = nd[top]
                        let mx = (p.minX + p.maxX) / 2, my = (p.minY + p.maxY) / 2
                        let west = box.minLon <= mx, east = box.maxLon >= mx
                        let south = box.minLat <= my, north = box.maxLat >= my
                        if (west && east) || (south && north) { break }
                        top = Int(p.child) + (east ? 1 : 0) + (north ? 2 : 0)
                    }
                    if nd[top].child < 0 { lastLeafNode = top }
                    st.append(Int32(top))
                    while let n = st.popLast() {
                        let node = nd[Int(n)]
                        if !meets(node) { continue }
                        if node.child >= 0 {
                            st.append(node.child); st.append(node.child + 1); st.append(node.child + 2); st.append(node.child + 3)
                            continue
                        }
                        // Read in place: a copy of the leaf would retain and release its lists.
                        let leaf = lv.baseAddress! + Int(node.leaf)
                        if leaf.pointee.entries.count + leaf.pointee.pending.count > limit { crowded = node.leaf; return }
                        if leaf.pointee.count > 0 { visit.append(node.leaf) }
                    }
                }
            }
            guard crowded >= 0 else { return }
            if !settle(Int(crowded)) { scanAll = true }
        }
    }

    /// Whether the box lies strictly inside the cell of `lastLeafNode`, still a leaf: it then
    /// meets no other cell (a box touching a cell's edge meets the neighbour too), and `visit`
    /// is set to that leaf without a walk down the quadtree. A host's taps on one view mostly
    /// fall in one leaf. False when the leaf's lists need dealing out first (`settle`).
    @inline(__always)
    private func inLastLeaf(_ box: GeoBox) -> Bool {
        guard lastLeafNode < nodes.count else { return false }
        return nodes.withUnsafeBufferPointer { nd in
            let node = nd[lastLeafNode]
            // Cells on the world's edge reach to infinity.
            guard node.child < 0, node.leaf >= 0,
                  node.minX <= -180 || box.minLon > node.minX, node.maxX >= 180 || box.maxLon < node.maxX,
                  node.minY <= -90 || box.minLat > node.minY, node.maxY >= 90 || box.maxLat < node.maxY else { return false }
            return leaves.withUnsafeBufferPointer { lv in
                let leaf = lv.baseAddress! + Int(node.leaf)
                if leaf.pointee.entries.count + leaf.pointee.pending.count > scanLimit { return false }
                if !visit.isEmpty { visit.removeAll(keepingCapacity: true) }
                if leaf.pointee.count > 0 { visit.append(node.leaf) }
                return true
            }
        }
    }
}
