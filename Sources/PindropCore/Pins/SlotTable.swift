/// The id → slot table of the pin store: an `OpenTable` of slots (4 bytes a cell, at most 3/4
/// full); the id of a cell is read from the store's `ids`, so the table holds no keys. About 9
/// bytes per pin at 916k pins, against 27.5 for `[Int64: Int32]`.
struct SlotTable {
    private struct Cell: OpenTableEntry {
        var slot: Int32
        static let vacant = Cell(slot: -1)
        var isVacant: Bool { slot < 0 }
    }
    private var table = OpenTable<Cell>()

    var count: Int { table.count }

    /// The slot of `id`, reading candidate ids from `ids`.
    @inline(__always)
    func find(_ id: Int64, _ ids: UnsafeBufferPointer<Int64>) -> Int32? {
        table.find(OpenHash.of(id)) { ids[Int($0.slot)] == id }.map { table[$0].slot }
    }

    /// Stores `slot` for `id` unless the id is there: then returns the slot it has (one probe).
    /// `ids[slot]` need not hold `id` yet.
    @inline(__always)
    mutating func insertIfAbsent(_ id: Int64, slot: Int32, _ ids: UnsafeBufferPointer<Int64>) -> Int32? {
        let r = table.insert(OpenHash.of(id), { Cell(slot: slot) }, matches: { ids[Int($0.slot)] == id },
                             hashOf: { OpenHash.of(ids[Int($0.slot)]) })
        return r.inserted ? nil : table[r.index].slot
    }

    /// Forgets `id` (whose slot is `slot`).
    mutating func remove(_ id: Int64, slot: Int32, _ ids: UnsafeBufferPointer<Int64>) {
        table.remove(OpenHash.of(id), matches: { $0.slot == slot }, hashOf: { OpenHash.of(ids[Int($0.slot)]) })
    }

    /// Makes room for `n` entries without growing again.
    mutating func reserve(_ n: Int, _ ids: UnsafeBufferPointer<Int64>) {
        table.reserve(n) { OpenHash.of(ids[Int($0.slot)]) }
    }

    var bytes: Int { table.bytes }
}
