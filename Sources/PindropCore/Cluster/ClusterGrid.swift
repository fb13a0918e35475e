/// One slot of a cluster level: the fields a walk of a cell's neighbours reads for every item it
/// meets, side by side (32 bytes: two to a cache line, none split across two).
struct ClusterItem {
    var x: Double, y: Double
    var key: UInt64
    var parent: UInt32
    /// The item after this one in its cell's list (`ClusterGrid`).
    var next: UInt32
}

/// The cell lists of one cluster level: items hashed into square cells of a fixed side (in
/// normalised Web Mercator units), each cell a singly linked list threaded through the items'
/// `next` (the level's `ClusterItem`s, passed in). How a list is kept is the grid's `Lists`.
///
/// An `OpenTable` of 12-byte slots (at most half full, no per-cell allocation) maps a cell's key
/// to the head of its list. Two cells whose keys collide share one list; that is harmless,
/// because every query checks distances, never cell membership. A cell whose list empties leaves
/// the table.
struct ClusterGrid {
    static let end = UInt32.max
    private static let vacant = UInt64.max

    /// Side of a cell. A walk around a point (`forEachNear`) reads every item within `reach` of it.
    let cell: Double
    /// Which cells a walk around a point reads.
    enum Walk {
        /// The 3×3 cells around the point's own: every item within `cell` of it.
        case threeByThree
        /// The 2×2 cells nearest to the point (its own, and the neighbours on the sides of the
        /// half it lies in): every item within `cell / 2` of it. For the same reach the cells are
        /// twice as large: four cells to find instead of nine, and lists kept `byKey` are left
        /// early whatever their length.
        case twoByTwo
    }
    let walk: Walk
    /// How far from a point a walk reaches (at least).
    var reach: Double { walk == .threeByThree ? cell : cell / 2 }
    /// A slot of the table: a cell's key (in two halves, so a slot is 12 bytes) and the head of
    /// its list, side by side so that a probe reads one cache line.
    struct Slot: OpenTableEntry {
        var hi: UInt32, lo: UInt32, head: UInt32
        static let vacant = Slot(hi: .max, lo: .max, head: ClusterGrid.end)
        @inline(__always) var isVacant: Bool { hi == .max && lo == .max }
        @inline(__always) var key: UInt64 { UInt64(hi) << 32 | UInt64(lo) }
        @inline(__always) init(hi: UInt32, lo: UInt32, head: UInt32) { self.hi = hi; self.lo = lo; self.head = head }
        @inline(__always) init(key: UInt64, head: UInt32) {
            hi = UInt32(truncatingIfNeeded: key >> 32); lo = UInt32(truncatingIfNeeded: key); self.head = head
        }
    }
    /// How a cell's list is kept.
    enum Lists {
        /// In no order, linked one way.
        case unordered
        /// In no order, linked both ways (`prev`).
        case linkedBothWays
        /// By the items' order keys, smallest first: a walk for keys below a bound stops at the
        /// first item past it (`forEachNear(_:_:_:whileKeyBelow:_:)`). An item's key must not
        /// change while it is in the grid.
        case byKey
    }

    private var table: OpenTable<Slot>
    let lists: Lists
    /// Whether the lists are linked both ways (`prev`).
    var doublyLinked: Bool { lists == .linkedBothWays }
    /// Per item of a doubly linked grid (the pins'), the item before it in its cell's list (`end`
    /// for a list's head). Taking an item out of its cell then writes its two neighbours, where a
    /// singly linked list is walked from its head: a county's dense cells hold a hundred pins and
    /// more in the host's order, and a pin that moved into the next cell walked half of them, a
    /// trip to memory each.
    private var prev: [UInt32] = []

    init(cell: Double, capacity: Int = 16, lists: Lists = .unordered, walk: Walk = .threeByThree) {
        self.cell = cell
        self.lists = lists
        self.walk = walk
        table = OpenTable(capacity: capacity, loadEighths: 4)
    }

    var bytes: Int { table.bytes + prev.capacity * MemoryLayout<UInt32>.stride }
    /// The number of slots in the table (a power of two), whatever malloc rounded its array up to.
    var slotCount: Int { table.cellCount }

    /// The cell coordinate of a position, clamped so that no radius or position can overflow it.
    @inline(__always)
    func coordinate(_ v: Double) -> Int64 {
        let q = v / cell
        // floor(q) without a call to libm's floor (x86-64's baseline has no rounding
        // instruction): inside the clamp, the truncation is exact, and one less for a negative
        // non-integer. The same value as the general path below.
        if q > -4.0e18 && q < 4.0e18 {
            let t = Int64(q)
            return Double(t) > q ? t - 1 : t
        }
        let c = q.rounded(.down)
        if c.isNaN { return 0 }
        return Int64(Swift.max(-4.0e18, Swift.min(4.0e18, c)))
    }

    /// The key of a cell: its two coordinates side by side, each taken modulo 2^32, so distinct
    /// cells have distinct keys while the coordinates lie in [-1, 2^32 - 1) (every cell of the
    /// world down to 2^-31 of its width). Farther out, keys of distinct cells may coincide; lists
    /// then merge, which queries tolerate (`forEachNear` walks a list once even if two of its
    /// cells share it).
    @inline(__always)
    static func hash(_ cx: Int64, _ cy: Int64) -> UInt64 {
        let h = UInt64(UInt32(truncatingIfNeeded: cx)) << 32 | UInt64(UInt32(truncatingIfNeeded: cy))
        return h == vacant ? vacant - 1 : h
    }

    /// The table's hash of a key: the hash of the cell's row and its x coordinate's group of
    /// four. The four cells of a group share a home, so linear probing lays them in consecutive
    /// slots, and the cells of a row of a walk are read from one or two cache lines instead of
    /// one each.
    @inline(__always)
    private static func spread(_ key: UInt64) -> UInt64 { OpenHash.of(key & ~(UInt64(3) << 32)) }

    @inline(__always)
    private static func spread(_ s: Slot) -> UInt64 { spread(s.key) }

    /// The slot of the table holding key h, or nil.
    @inline(__always)
    private func find(_ h: UInt64) -> Int? { table.find(Self.spread(h)) { $0.key == h } }

    /// The slot of key h, made (with an empty list) when the cell has none.
    @inline(__always)
    private mutating func slot(_ h: UInt64) -> Int {
        table.insert(Self.spread(h), { Slot(key: h, head: Self.end) }, matches: { $0.key == h }, hashOf: Self.spread).index
    }

    /// The first item of the cell with this hash, or `end`.
    @inline(__always)
    func head(_ h: UInt64) -> UInt32 {
        guard let i = find(h) else { return Self.end }
        return table[i].head
    }

    /// Adds item `item` at (x, y).
    mutating func insert(_ item: UInt32, x: Double, y: Double, _ items: inout [ClusterItem]) {
        let i = slot(Self.hash(coordinate(x), coordinate(y)))
        let head = table[i].head
        if lists == .byKey {
            let key = items[Int(item)].key
            guard head != Self.end, items[Int(head)].key < key else {
                items[Int(item)].next = head
                table[i].head = item
                return
            }
            // A clustered level's cell holds few items: their seeds lie more than a radius apart
            // (per category, with `byCategory`).
            var before = head
            while case let n = items[Int(before)].next, n != Self.end, items[Int(n)].key < key { before = n }
            items[Int(item)].next = items[Int(before)].next
            items[Int(before)].next = item
            return
        }
        items[Int(item)].next = head
        if doublyLinked {
            linkBackRoom(items.count)
            prev[Int(item)] = Self.end
            if head != Self.end { prev[Int(head)] = item }
        }
        table[i].head = item
    }

    /// Makes `prev` as long as the items (`count`).
    @inline(__always)
    private mutating func linkBackRoom(_ count: Int) {
        if prev.count < count { prev.append(contentsOf: repeatElement(Self.end, count: count - prev.count)) }
    }

    /// Takes item `item` out of the list of the cell holding (x, y), its position when inserted.
    mutating func remove(_ item: UInt32, x: Double, y: Double, _ items: inout [ClusterItem]) {
        if doublyLinked {
            let before = prev[Int(item)], after = items[Int(item)].next
            if after != Self.end { prev[Int(after)] = before }
            if before != Self.end {
                items[Int(before)].next = after
                return
            }
        }
        guard let i = find(Self.hash(coordinate(x), coordinate(y))) else {
            preconditionFailure("cluster grid: item \(item) is not in its cell")
        }
        var cur = table[i].head
        if cur == item {
            table[i].head = items[Int(item)].next
            if table[i].head == Self.end { table.remove(at: i, hashOf: Self.spread) }
            return
        }
        while cur != Self.end {
            let n = items[Int(cur)].next
            if n == item { items[Int(cur)].next = items[Int(item)].next; return }
            cur = n
        }
        preconditionFailure("cluster grid: item \(item) is not in its cell")
    }

    /// Whether (x0, y0) and (x1, y1) lie in the same cell.
    @inline(__always)
    func sameCell(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
        coordinate(x0) == coordinate(x1) && coordinate(y0) == coordinate(y1)
    }

    /// Whether walks around (x0, y0) and (x1, y1) read the same cells.
    @inline(__always)
    func sameWalk(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
        walkSpan(x0).start == walkSpan(x1).start && walkSpan(y0).start == walkSpan(y1).start
    }

    /// The cells a walk around v reads along one axis: the first one's coordinate, and how many.
    @inline(__always)
    private func walkSpan(_ v: Double) -> (start: Int64, width: Int64) {
        let c = coordinate(v)
        guard walk == .twoByTwo else { return (c &- 1, 3) }
        // The half of its cell v lies in (v's offset in cells, exact below 2^52 cells; cell sides
        // carry a slack beyond the reach that rounding at the middle cannot eat). Outside the
        // clamp (no point of the world lies there) both halves' neighbours are read instead.
        let q = v / cell
        guard q > -4.0e18 && q < 4.0e18 else { return (c &- 1, 3) }
        return (q - Double(c) < 0.5 ? c &- 1 : c, 2)
    }

    /// Empties the grid, then adds the items with `parent == member` at their points:
    /// one table probe per run of consecutive items in the same cell (a bulk load's pins come
    /// in the host's order, which is usually by place).
    mutating func refill(_ items: inout [ClusterItem], member: UInt32) {
        removeAll()
        if lists == .byKey {
            // Backwards: a level just built is in key order within each cell, so each item goes
            // to the head of its list.
            for i in items.indices.reversed() where items[i].parent == member {
                insert(UInt32(i), x: items[i].x, y: items[i].y, &items)
            }
            return
        }
        if doublyLinked { linkBackRoom(items.count) }
        // The head of the current run's list is kept here and written to the table once a run.
        var last = Self.vacant, at = 0, head = Self.end
        let linksBack = doublyLinked
        // Out of `self` while the table is written (one exclusive access at a time).
        var links: [UInt32] = []
        swap(&links, &prev)
        defer { swap(&links, &prev) }
        items.withUnsafeMutableBufferPointer { it in
            links.withUnsafeMutableBufferPointer { back in
                for i in it.indices where it[i].parent == member {
                    let h = Self.hash(coordinate(it[i].x), coordinate(it[i].y))
                    if h != last {
                        if last != Self.vacant { table[at].head = head }
                        at = slot(h); last = h; head = table[at].head
                    }
                    it[i].next = head
                    if linksBack {
                        back[i] = Self.end
                        if head != Self.end { back[Int(head)] = UInt32(i) }
                    }
                    head = UInt32(i)
                }
            }
        }
        if last != Self.vacant { table[at].head = head }
    }

    mutating func removeAll() { table.removeAll() }

    /// Calls `body` with every item in the cells a walk around (x, y) reads (`Walk`): a superset of
    /// the items within `reach` of it, each once.
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, _ items: UnsafeBufferPointer<ClusterItem>,
                     _ body: (UInt32) -> Void) {
        forEachNear(x, y, next: { items[Int($0)].next }, body)
    }

    /// `forEachNear` for the items whose order keys are below `bound()`, read again after every
    /// item (`body` may lower it): lists kept `byKey` are left at their first item past it.
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, _ items: UnsafeBufferPointer<ClusterItem>,
                     whileKeyBelow bound: () -> UInt64, _ body: (UInt32) -> Void) {
        assert(lists == .byKey)
        forEachNear(x, y, next: { k in
            let n = items[Int(k)].next
            return n != Self.end && items[Int(n)].key < bound() ? n : Self.end
        }, first: { k in items[Int(k)].key < bound() ? k : Self.end }, body)
    }

    /// `forEachNear` with the lists' links read through `next` (a dense copy of them, say).
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, next: (UInt32) -> UInt32, _ body: (UInt32) -> Void) {
        forEachNear(x, y, next: next, first: { $0 }, body)
    }

    /// `forEachNear` where a list starts at `first(head)` (`end`: nothing of it is walked).
    @inline(__always)
    private func forEachNear(_ x: Double, _ y: Double, next: (UInt32) -> UInt32, first: (UInt32) -> UInt32,
                             _ body: (UInt32) -> Void) {
        let (x0, w) = walkSpan(x), (y0, t) = walkSpan(y)
        // Consecutive integers are distinct modulo 2^32, so the keys of a block differ unless it
        // holds the one key `hash` moves, (-1, -1) mod 2^32, and the key it moves it to, (-1, -2):
        // only when its rows include both, so that its first row is 2^32 - 3 or 2^32 - 2 (mod 2^32).
        if UInt32(truncatingIfNeeded: y0) >= 0xFFFF_FFFD {
            forEachNearDistinct(x0, y0, w, t, next, first, body)
            return
        }
        for dy: Int64 in 0..<t {
            for dx: Int64 in 0..<w {
                let h = head(Self.hash(x0 &+ dx, y0 &+ dy))
                var item = h == Self.end ? h : first(h)
                while item != Self.end { body(item); item = next(item) }
            }
        }
    }

    /// `forEachNear` where keys may coincide: a key met twice names a list already walked.
    private func forEachNearDistinct(_ x0: Int64, _ y0: Int64, _ w: Int64, _ t: Int64, _ next: (UInt32) -> UInt32,
                                     _ first: (UInt32) -> UInt32, _ body: (UInt32) -> Void) {
        var seen: [UInt64] = []
        for dy: Int64 in 0..<t {
            for dx: Int64 in 0..<w {
                let h = Self.hash(x0 &+ dx, y0 &+ dy)
                if seen.contains(h) { continue }
                seen.append(h)
                let l = head(h)
                var i = l == Self.end ? l : first(l)
                while i != Self.end { body(i); i = next(i) }
            }
        }
    }

    /// Calls `body` with every item in the cells that cover the box (a superset of the items
    /// inside it). Returns false without calling anything when the box spans more than `maxCells`
    /// cells (the caller then scans its items instead).
    func forEachInBox(minX: Double, minY: Double, maxX: Double, maxY: Double, maxCells: Int,
                      _ items: UnsafeBufferPointer<ClusterItem>, _ body: (UInt32) -> Void) -> Bool {
        let x0 = coordinate(minX), x1 = coordinate(maxX), y0 = coordinate(minY), y1 = coordinate(maxY)
        guard x1 >= x0, y1 >= y0 else { return true }
        let w = Double(x1 - x0) + 1, h = Double(y1 - y0) + 1
        guard w * h <= Double(maxCells) else { return false }
        var cy = y0
        while cy <= y1 {
            var cx = x0
            while cx <= x1 {
                var i = head(Self.hash(cx, cy))
                while i != Self.end { body(i); i = items[Int(i)].next }
                cx += 1
            }
            cy += 1
        }
        return true
    }
}
