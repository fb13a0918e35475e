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

/// The selected pins (behaviour 23): a set of ids with its lowest id kept at hand, which is what
/// `pindrop_map_selected` reports and what a single-pin call (a nudge, the keyboard lift) acts on.
/// `version` changes with every change, so that what follows from the selection (the pins kept out
/// of the clusters, the stacks kept open) is brought up to date once per change.
struct Selection {
    private(set) var ids: Set<Int64> = []
    /// The lowest selected id (PINDROP_NO_ID when none).
    private(set) var lowest: Int64 = noID
    private(set) var version: UInt64 = 0

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }

    @inline(__always)
    func contains(_ id: Int64) -> Bool { !ids.isEmpty && ids.contains(id) }

    /// The selected ids in ascending order.
    func sorted() -> [Int64] { ids.sorted() }

    mutating func insert(_ id: Int64) {
        guard ids.insert(id).inserted else { return }
        if lowest == noID || id < lowest { lowest = id }
        version &+= 1
    }

    mutating func remove(_ id: Int64) {
        guard ids.remove(id) != nil else { return }
        if id == lowest { lowest = ids.min() ?? noID }
        version &+= 1
    }

    /// The selection that `mode` makes of this one and `given` (ids that all exist).
    func applying(_ mode: SelectMode, _ given: Set<Int64>) -> Set<Int64> {
        switch mode {
        case .set: return given
        case .add: return ids.union(given)
        case .remove: return ids.subtracting(given)
        case .toggle: return ids.symmetricDifference(given)
        }
    }
}
