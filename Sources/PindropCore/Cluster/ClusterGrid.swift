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
/// `next` (the level's `ClusterItem`s, passed in).
///
/// The table maps a cell's hash to the head of its list by open addressing (linear probing over
/// one array of 12-byte slots, no per-cell allocation). Two cells whose hashes collide share
/// one list; that is harmless, because every query checks distances, never cell membership.
/// Emptied cells keep their slot until the next growth drops them.
struct ClusterGrid {
    static let end = UInt32.max
    private static let vacant = UInt64.max

    /// Side of a cell; a query of radius `cell` around a point needs the 3×3 cells around its own.
    let cell: Double
    /// A slot of the table: a cell's key (in two halves, so a slot is 12 bytes) and the head of
    /// its list, side by side so that a probe reads one cache line.
    struct Slot {
        var hi: UInt32, lo: UInt32, head: UInt32
        static let vacant = Slot(hi: .max, lo: .max, head: ClusterGrid.end)
        @inline(__always) var key: UInt64 { UInt64(hi) << 32 | UInt64(lo) }
        @inline(__always) init(hi: UInt32, lo: UInt32, head: UInt32) { self.hi = hi; self.lo = lo; self.head = head }
        @inline(__always) init(key: UInt64, head: UInt32) {
            hi = UInt32(truncatingIfNeeded: key >> 32); lo = UInt32(truncatingIfNeeded: key); self.head = head
        }
    }
    private(set) var table: [Slot]
    private var used = 0

    init(cell: Double, capacity: Int = 16) {
        self.cell = cell
        var c = 16
        while c < 2 * capacity { c <<= 1 }
        table = [Slot](repeating: .vacant, count: c)
    }

    var bytes: Int { table.capacity * MemoryLayout<Slot>.stride }

    /// The cell coordinate of a position, clamped so that no radius or position can overflow it.
    @inline(__always)
    func coordinate(_ v: Double) -> Int64 {
        let c = (v / cell).rounded(.down)
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

    /// The slot of the table holding key h, or the vacant slot where it would go.
    @inline(__always)
    private static func probe(_ t: UnsafeBufferPointer<Slot>, _ h: UInt64) -> Int {
        let mask = t.count - 1
        // Fibonacci hashing of the cell's row and its x coordinate's group of four, plus the cell's
        // place in its group: four cells side by side start at consecutive slots, so the three
        // cells of a row of a 3×3 walk are read from one or two cache lines instead of three.
        let group = h & ~(UInt64(3) << 32)
        var i = (Int(truncatingIfNeeded: (group &* 0x9E37_79B9_7F4A_7C15) >> 32) &+ Int(truncatingIfNeeded: (h >> 32) & 3)) & mask
        while true {
            let k = t[i].key
            if k == h || k == vacant { return i }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    private func find(_ h: UInt64) -> Int { table.withUnsafeBufferPointer { Self.probe($0, h) } }

    /// The first item of the cell with this hash, or `end`.
    @inline(__always)
    func head(_ h: UInt64) -> UInt32 {
        let i = find(h)
        return table[i].key == h ? table[i].head : Self.end
    }

    /// Adds item `item` at (x, y).
    mutating func insert(_ item: UInt32, x: Double, y: Double, _ items: inout [ClusterItem]) {
        let h = Self.hash(coordinate(x), coordinate(y))
        var i = find(h)
        if table[i].key != h {
            if 2 * (used + 1) > table.count { grow(); i = find(h) }
            table[i] = Slot(key: h, head: Self.end); used += 1
        }
        items[Int(item)].next = table[i].head
        table[i].head = item
    }

    /// Takes item `item` out of the list of the cell holding (x, y), its position when inserted.
    mutating func remove(_ item: UInt32, x: Double, y: Double, _ items: inout [ClusterItem]) {
        let i = find(Self.hash(coordinate(x), coordinate(y)))
        var cur = table[i].head
        if cur == item { table[i].head = items[Int(item)].next; return }
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

    /// Empties the grid, then adds the items with `parent == member` at their points:
    /// one table probe per run of consecutive items in the same cell (a bulk load's pins come
    /// in the host's order, which is usually by place).
    mutating func refill(_ items: inout [ClusterItem], member: UInt32) {
        removeAll()
        var last = Self.vacant, at = 0
        items.withUnsafeMutableBufferPointer { it in
            for i in it.indices where it[i].parent == member {
                let h = Self.hash(coordinate(it[i].x), coordinate(it[i].y))
                if h != last {
                    at = find(h)
                    if table[at].key != h {
                        if 2 * (used + 1) > table.count { grow(); at = find(h) }
                        table[at] = Slot(key: h, head: Self.end); used += 1
                    }
                    last = h
                }
                it[i].next = table[at].head
                table[at].head = UInt32(i)
            }
        }
    }

    mutating func removeAll() {
        for i in table.indices { table[i] = .vacant }
        used = 0
    }

    /// Doubles the table, dropping cells that have become empty.
    private mutating func grow() {
        let old = table
        var live = 0
        for o in old where o.head != Self.end { live += 1 }
        var c = 16
        while c < 4 * (live + 1) { c <<= 1 }
        table = [Slot](repeating: .vacant, count: c)
        used = 0
        for o in old where o.head != Self.end {
            let j = find(o.key)
            table[j] = o; used += 1
        }
    }

    /// Calls `body` with every item in the 3×3 cells around (x, y): a superset of the items within
    /// `cell` of it, each once.
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, _ items: UnsafeBufferPointer<ClusterItem>,
                     _ body: (UInt32) -> Void) {
        forEachNear(x, y, next: { items[Int($0)].next }, body)
    }

    /// `forEachNear` with the lists' links read through `next` (a dense copy of them, say).
    @inline(__always)
    func forEachNear(_ x: Double, _ y: Double, next: (UInt32) -> UInt32, _ body: (UInt32) -> Void) {
        let cx = coordinate(x), cy = coordinate(y)
        // Three consecutive integers are distinct modulo 2^32, so the nine keys of a 3×3 block
        // differ unless the block holds the one key `hash` moves, (-1, -1) mod 2^32, and the key it
        // moves it to, (-1, -2): only when cy mod 2^32 is 2^32 - 2 or 2^32 - 1.
        if UInt32(truncatingIfNeeded: cy) >= 0xFFFF_FFFE {
            forEachNearDistinct(cx, cy, next, body)
            return
        }
        table.withUnsafeBufferPointer { t in
            for dy: Int64 in -1...1 {
                for dx: Int64 in -1...1 {
                    let h = Self.hash(cx + dx, cy + dy)
                    let i = Self.probe(t, h)
                    var item = t[i].key == h ? t[i].head : Self.end
                    while item != Self.end { body(item); item = next(item) }
                }
            }
        }
    }

    /// `forEachNear` where keys may coincide: a key met twice names a list already walked.
    private func forEachNearDistinct(_ cx: Int64, _ cy: Int64, _ next: (UInt32) -> UInt32,
                                     _ body: (UInt32) -> Void) {
        var seen: [UInt64] = []
        for dy: Int64 in -1...1 {
            for dx: Int64 in -1...1 {
                let h = Self.hash(cx &+ dx, cy &+ dy)
                if seen.contains(h) { continue }
                seen.append(h)
                var i = head(h)
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
