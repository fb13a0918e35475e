/// How `Map.selectMany` and `Map.selectInRect` change the selection (PINDROP_SELECT_*).
public enum SelectMode: Int32, Sendable, CaseIterable {
    /// The pins given become the selection.
    case set = 0
    /// The pins given join the selection.
    case add = 1
    /// The pins given leave the selection.
    case remove = 2
    /// Each pin given joins the selection if it was not in it, else leaves it.
    case toggle = 3

    /// The mode of a host's number; any other number is INVALID_ARGUMENT.
    public static func checked(_ raw: Int32) throws(PindropError) -> SelectMode {
        guard let m = SelectMode(rawValue: raw) else {
            throw .invalid("selection mode \(raw) is not PINDROP_SELECT_SET (0), _ADD (1), _REMOVE (2) or _TOGGLE (3)")
        }
        return m
    }
}

/// The selected pins (behaviour 23): their ids in ascending order, without repeats. The lowest is
/// what `pindrop_map_selected` reports and what a single-pin call (a nudge, the keyboard lift)
/// acts on. A sorted array: membership by binary search, the ascending order every listing and
/// every batch of SELECTED / DESELECTED events needs for free. `version` changes with every
/// change, so that what follows from the selection (the pins kept out of the clusters, the stacks
/// kept open) is brought up to date once per change.
struct Selection {
    private(set) var ids: [Int64] = []
    private(set) var version: UInt64 = 0

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }
    /// The lowest selected id (PINDROP_NO_ID when none).
    var lowest: Int64 { ids.first ?? noID }

    /// The index of the first id >= `id` in a sorted array.
    @inline(__always)
    static func lowerBound(_ a: [Int64], _ id: Int64) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    @inline(__always)
    func contains(_ id: Int64) -> Bool {
        if ids.isEmpty { return false }
        let i = Selection.lowerBound(ids, id)
        return i < ids.count && ids[i] == id
    }

    mutating func insert(_ id: Int64) {
        let i = Selection.lowerBound(ids, id)
        guard i == ids.count || ids[i] != id else { return }
        ids.insert(id, at: i)
        version &+= 1
    }

    mutating func remove(_ id: Int64) {
        let i = Selection.lowerBound(ids, id)
        guard i < ids.count, ids[i] == id else { return }
        ids.remove(at: i)
        version &+= 1
    }

    /// The selection becomes `next` (ascending, without repeats).
    mutating func replace(with next: [Int64]) {
        ids = next
        version &+= 1
    }

    /// `ids` sorted ascending without repeats.
    static func sortedUnique(_ ids: [Int64]) -> [Int64] {
        var a = ids
        a.sort()
        var n = 0
        for v in a where n == 0 || a[n - 1] != v { a[n] = v; n += 1 }
        a.removeLast(a.count - n)
        return a
    }

    /// The selection that `mode` makes of this one and `given` (sorted, without repeats; ids that
    /// all exist), in ascending order.
    func applying(_ mode: SelectMode, _ given: [Int64]) -> [Int64] {
        if mode == .set { return given }
        var out: [Int64] = []
        out.reserveCapacity(mode == .remove ? ids.count : ids.count + given.count)
        var i = 0, j = 0
        while i < ids.count || j < given.count {
            let a = i < ids.count ? ids[i] : Int64.max, b = j < given.count ? given[j] : Int64.max
            if i < ids.count && (j == given.count || a < b) {           // only selected
                out.append(a); i += 1
            } else if j < given.count && (i == ids.count || b < a) {    // only given
                if mode != .remove { out.append(b) }
                j += 1
            } else {                                                    // both
                if mode == .add { out.append(a) }
                i += 1; j += 1
            }
        }
        return out
    }
}
