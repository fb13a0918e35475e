/// What an `OpenTable` stores in a cell: an entry, or the vacant value that marks an empty cell.
/// An entry may carry its key (`ClusterGrid`'s cells) or only a number that leads to it (the pin
/// store's slots, whose ids live in the store): the table never reads a key itself, it asks the
/// caller through the closures of each call.
protocol OpenTableEntry {
    /// The value of an empty cell.
    static var vacant: Self { get }
    /// Whether this cell is empty.
    var isVacant: Bool { get }
}

/// The hash functions of the open tables: Fibonacci hashing (a multiply by 2^64 / φ), whose top
/// bits depend on every bit of the key. A table takes a cell's home from a hash's top bits, so
/// consecutive keys (slots, ids handed out in order) land evenly spread, farther apart than a
/// random hash would put them, and their probes stay short.
enum OpenHash {
    static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The hash of a 64-bit key.
    @inline(__always)
    static func of(_ k: UInt64) -> UInt64 { k &* golden }

    @inline(__always)
    static func of(_ k: Int64) -> UInt64 { of(UInt64(bitPattern: k)) }

    /// The hash of a 128-bit key: both halves mixed, so that keys differing in either half only
    /// (grid cells side by side) spread over the table.
    @inline(__always)
    static func of(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var h = a &* golden ^ (b &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return h &* golden
    }

    /// The hash of an exact coordinate; -0.0 and 0.0 hash alike (they compare equal).
    @inline(__always)
    static func of(_ x: Double, _ y: Double) -> UInt64 { of((x + 0).bitPattern, (y + 0).bitPattern) }
}

/// The one open-addressing hash table of the core: a power-of-two array of cells, linear probing
/// from the home cell (the hash's top log2(cells) bits), growth to twice the size when an
/// insertion would pass the load factor (`loadEighths` / 8, 3/4 unless the owner says otherwise),
/// deletion by backward shift (no tombstones: a lookup never walks past a dead cell,
/// and a table that churns never needs rebuilding). Clearing keeps the capacity.
///
/// The table knows neither keys nor their hashes: each call hands in the key's hash, how to tell
/// whether a cell holds the key (`matches`), and, for calls that move entries (growth, deletion),
/// how to hash a stored entry (`hashOf`). So one table serves keys stored in the cell, keys read
/// from elsewhere through the entry (a slot's id in the pin store), and keys checked only in part.
/// All closures are non-escaping and the calls inline, so a table is specialised for its owner.
/// Lookups and insertions that do not grow the table allocate nothing. The closures must not
/// touch the table itself.
struct OpenTable<Entry: OpenTableEntry> {
    private var cells: [Entry] = []
    /// 64 - log2(cells.count): a home is `hash >> shift`.
    private var shift: UInt64 = 64
    private(set) var count = 0
    /// How many entries the table holds before an insertion grows it (kept, so that an insertion
    /// compares two stored numbers instead of working out a product).
    private(set) var capacity = 0
    /// The load factor, in eighths, past which an insertion grows the table.
    let loadEighths: Int

    /// An empty table (no cells until the first insertion) that grows past `loadEighths` / 8 full.
    init(loadEighths: Int = 6) {
        precondition(loadEighths >= 1 && loadEighths <= 7, "open table: load factor out of range")
        self.loadEighths = loadEighths
    }

    /// An empty table with room for `capacity` entries before it grows.
    init(capacity: Int, loadEighths: Int = 6) {
        self.init(loadEighths: loadEighths)
        if capacity > 0 { cells = [Entry](repeating: .vacant, count: Self.size(for: capacity, loadEighths)); resized() }
    }

    /// The number of cells (a power of two, or 0 before the first insertion).
    var cellCount: Int { cells.count }
    var isEmpty: Bool { count == 0 }
    /// The bytes the cells take.
    var bytes: Int { cells.capacity * MemoryLayout<Entry>.stride }

    /// The smallest power of two, at least 16, whose load stays within the factor with n entries.
    private static func size(for n: Int, _ loadEighths: Int) -> Int {
        var size = 16
        while 8 * n > loadEighths * size { size <<= 1 }
        return size
    }

    private mutating func resized() {
        shift = UInt64(64 - cells.count.trailingZeroBitCount)
        capacity = cells.count * loadEighths / 8
    }

    /// The cell a hash starts probing at: its top bits.
    @inline(__always)
    func home(_ hash: UInt64) -> Int { Self.home(hash, shift) }

    @inline(__always)
    private static func home(_ hash: UInt64, _ shift: UInt64) -> Int { Int(truncatingIfNeeded: hash >> shift) }

    /// The cell holding the entry that `matches`, or nil.
    @inline(__always)
    func find(_ hash: UInt64, _ matches: (Entry) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        let start = home(hash)
        return cells.withUnsafeBufferPointer { c in
            let mask = c.count - 1
            var i = start
            while true {
                let e = c[i]
                if e.isVacant { return nil }
                if matches(e) { return i }
                i = (i + 1) & mask
            }
        }
    }

    /// The entry in cell `index` (a cell `find` or `insert` returned). Setting it must keep its
    /// key: it changes the value the entry carries.
    @inline(__always)
    subscript(index: Int) -> Entry {
        get { cells[index] }
        set { cells[index] = newValue }
    }

    /// The cell of the entry that `matches`, after storing `entry()` (which must match) in a
    /// vacant cell when none does; `inserted` says which. Grows the table first when one more
    /// entry would pass the load factor.
    @inline(__always)
    mutating func insert(_ hash: UInt64, _ entry: () -> Entry, matches: (Entry) -> Bool,
                         hashOf: (Entry) -> UInt64) -> (index: Int, inserted: Bool) {
        if count >= capacity { grow(minimum: count + 1, hashOf) }
        let start = home(hash)
        let found: (Int, Bool) = cells.withUnsafeMutableBufferPointer { c in
            let mask = c.count - 1
            var i = start
            while true {
                let e = c[i]
                if e.isVacant { c[i] = entry(); return (i, true) }
                if matches(e) { return (i, false) }
                i = (i + 1) & mask
            }
        }
        if found.1 { count += 1 }
        return found
    }

    /// Stores `entry` for a key the caller knows is absent (no entry matches it: a bit of the
    /// owner's says so), probing only for the first vacant cell; returns its cell.
    @inline(__always)
    @discardableResult
    mutating func insertNew(_ hash: UInt64, _ entry: Entry, hashOf: (Entry) -> UInt64) -> Int {
        if count >= capacity { grow(minimum: count + 1, hashOf) }
        let start = home(hash)
        let i: Int = cells.withUnsafeMutableBufferPointer { c in
            let mask = c.count - 1
            var i = start
            while !c[i].isVacant { i = (i + 1) & mask }
            c[i] = entry
            return i
        }
        count += 1
        return i
    }

    /// Empties cell `index` (holding an entry), then moves each entry of the run after it back
    /// into the hole when the hole lies between the entry's home and its cell, so that every
    /// probe sequence stays unbroken.
    mutating func remove(at index: Int, hashOf: (Entry) -> UInt64) {
        let shift = self.shift
        cells.withUnsafeMutableBufferPointer { c in
            let mask = c.count - 1
            var hole = index
            var j = (index + 1) & mask
            while !c[j].isVacant {
                let home = Self.home(hashOf(c[j]), shift)
                // The entry at j may fill the hole when its home is no nearer to j than the hole.
                if (j &- home) & mask >= (j &- hole) & mask {
                    c[hole] = c[j]
                    hole = j
                }
                j = (j + 1) & mask
            }
            c[hole] = .vacant
        }
        count -= 1
    }

    /// Removes the entry that `matches` and returns it, or nil when there is none.
    @discardableResult
    mutating func remove(_ hash: UInt64, matches: (Entry) -> Bool, hashOf: (Entry) -> UInt64) -> Entry? {
        guard let i = find(hash, matches) else { return nil }
        let e = cells[i]
        remove(at: i, hashOf: hashOf)
        return e
    }

    /// Empties the table and keeps its cells.
    mutating func removeAll() {
        guard count > 0 else { return }
        cells.withUnsafeMutableBufferPointer { c in
            for i in c.indices { c[i] = .vacant }
        }
        count = 0
    }

    /// Makes room for `n` entries without growing again.
    mutating func reserve(_ n: Int, hashOf: (Entry) -> UInt64) {
        if n > capacity { grow(minimum: n, hashOf) }
    }

    /// Calls `body` with every entry, in cell order.
    @inline(__always)
    func forEach(_ body: (Entry) -> Void) {
        guard count > 0 else { return }
        cells.withUnsafeBufferPointer { c in
            for e in c where !e.isVacant { body(e) }
        }
    }

    /// Moves the entries into a table of the size `n` entries need (at least twice the old one).
    private mutating func grow(minimum n: Int, _ hashOf: (Entry) -> UInt64) {
        let size = max(Self.size(for: n, loadEighths), 2 * cells.count)
        let old = cells
        cells = [Entry](repeating: .vacant, count: size)
        resized()
        let shift = self.shift
        cells.withUnsafeMutableBufferPointer { c in
            let mask = c.count - 1
            for e in old where !e.isVacant {
                var i = Self.home(hashOf(e), shift)
                while !c[i].isVacant { i = (i + 1) & mask }
                c[i] = e
            }
        }
    }
}
