/// Which group of two or more pins a slot is in, and its rank there, kept only for the slots that
/// are in one (22,582 of the 916,114 LA trees): a bit per slot says whether it is, and an
/// `OpenTable` of 12-byte entries holds the (slot, group, rank) of those that are. 0.125 bytes per
/// slot plus 12 bytes per cell of the table, instead of 8 bytes per slot for two arrays. A pin
/// alone, or not grouped yet, has no entry.
struct Membership {
    private struct Member: OpenTableEntry {
        var slot: Int32, group: Int32, rank: Int32
        static let vacant = Member(slot: -1, group: 0, rank: 0)
        var isVacant: Bool { slot < 0 }
    }

    private var bits: [UInt64] = []
    private var table = OpenTable<Member>()
    var count: Int { table.count }

    @inline(__always)
    func contains(_ s: Int32) -> Bool {
        let w = Int(s) >> 6
        return w < bits.count && bits[w] >> UInt64(Int(s) & 63) & 1 != 0
    }

    @inline(__always)
    private static func hash(_ s: Int32) -> UInt64 { OpenHash.of(UInt64(UInt32(bitPattern: s))) }

    @inline(__always)
    private static func hash(_ m: Member) -> UInt64 { hash(m.slot) }

    /// The slot's group and rank, or nil when it is in no group of two or more.
    @inline(__always)
    func get(_ s: Int32) -> (group: Int32, rank: Int32)? {
        guard contains(s), let i = table.find(Self.hash(s), { $0.slot == s }) else { return nil }
        let m = table[i]
        return (m.group, m.rank)
    }

    @inline(__always)
    func group(_ s: Int32) -> Int32? { get(s)?.group }

    mutating func set(_ s: Int32, group: Int32, rank: Int32) {
        let m = Member(slot: s, group: group, rank: rank)
        if contains(s), let i = table.find(Self.hash(s), { $0.slot == s }) { table[i] = m; return }
        let w = Int(s) >> 6
        if w >= bits.count { bits.append(contentsOf: repeatElement(0, count: w + 1 - bits.count)) }
        bits[w] |= 1 << UInt64(Int(s) & 63)
        table.insertNew(Self.hash(s), m, hashOf: Self.hash)
    }

    mutating func remove(_ s: Int32) {
        guard contains(s) else { return }
        bits[Int(s) >> 6] &= ~(1 << UInt64(Int(s) & 63))
        table.remove(Self.hash(s), matches: { $0.slot == s }, hashOf: Self.hash)
    }
}
