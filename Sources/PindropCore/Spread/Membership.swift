/// Which group of two or more pins a slot is in, and its rank there, kept only for the slots that
/// are in one (22,582 of the 916,114 LA trees): a bit per slot says whether it is, and an
/// open-addressing table (linear probing, deletion by backward shift, at most 3/4 full) holds the
/// (slot, group, rank) of those that are. 0.125 bytes per slot plus 12 bytes per cell of the table,
/// instead of 8 bytes per slot for two arrays. A pin alone, or not grouped yet, has no entry.
struct Membership {
    private var bits: [UInt64] = []
    private var keys = [Int32](repeating: -1, count: 16)    // slot, -1 empty
    private var values = [UInt64](repeating: 0, count: 16)  // group << 32 | rank
    private var mask = 15
    private(set) var count = 0

    @inline(__always)
    func contains(_ s: Int32) -> Bool {
        let w = Int(s) >> 6
        return w < bits.count && bits[w] >> UInt64(Int(s) & 63) & 1 != 0
    }

    @inline(__always)
    private func home(_ s: Int32) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: s)) &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    /// The cell of a slot that has an entry.
    @inline(__always)
    private func cell(_ s: Int32) -> Int {
        keys.withUnsafeBufferPointer { k in
            var i = home(s)
            while k[i] != s { i = (i + 1) & mask }
            return i
        }
    }

    /// The slot's group and rank, or nil when it is in no group of two or more.
    @inline(__always)
    func get(_ s: Int32) -> (group: Int32, rank: Int32)? {
        guard contains(s) else { return nil }
        let v = values[cell(s)]
        return (Int32(truncatingIfNeeded: v >> 32), Int32(truncatingIfNeeded: v))
    }

    @inline(__always)
    func group(_ s: Int32) -> Int32? { get(s)?.group }

    mutating func set(_ s: Int32, group: Int32, rank: Int32) {
        let v = UInt64(UInt32(bitPattern: group)) << 32 | UInt64(UInt32(bitPattern: rank))
        if contains(s) { values[cell(s)] = v; return }
        let w = Int(s) >> 6
        if w >= bits.count { bits.append(contentsOf: repeatElement(0, count: w + 1 - bits.count)) }
        bits[w] |= 1 << UInt64(Int(s) & 63)
        if 4 * (count + 1) > 3 * keys.count { rehash(2 * keys.count) }
        insert(s, v)
        count += 1
    }

    mutating func remove(_ s: Int32) {
        guard contains(s) else { return }
        bits[Int(s) >> 6] &= ~(1 << UInt64(Int(s) & 63))
        var i = cell(s)
        var j = i
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k < 0 { break }
            let h = home(k)
            // The entry at j stays when its home lies cyclically in (i, j].
            if i <= j ? (i < h && h <= j) : (i < h || h <= j) { continue }
            keys[i] = k; values[i] = values[j]
            i = j
        }
        keys[i] = -1
        count -= 1
    }

    private mutating func insert(_ s: Int32, _ v: UInt64) {
        var i = home(s)
        while keys[i] >= 0 { i = (i + 1) & mask }
        keys[i] = s; values[i] = v
    }

    private mutating func rehash(_ cells: Int) {
        let oldKeys = keys, oldValues = values
        keys = [Int32](repeating: -1, count: cells)
        values = [UInt64](repeating: 0, count: cells)
        mask = cells - 1
        for i in oldKeys.indices where oldKeys[i] >= 0 { insert(oldKeys[i], oldValues[i]) }
    }
}
