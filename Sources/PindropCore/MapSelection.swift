/// Several pins at once (behaviour 23, docs/editing.md "Several pins at once"): the selection as a
/// set, the modifiers the host's user holds, a selection by rectangle and the add-modifier tap.
/// What a drag or a nudge of a selection does is in MapGroupDrag.swift.
extension Map {
    // MARK: - Modifiers

    /// Sets the modifiers the host's user holds (PINDROP_MOD_* bits); they apply from the next
    /// call on. Unknown bits are INVALID_ARGUMENT and change nothing. Emits nothing.
    public func setModifiers(_ bits: UInt32) throws(PindropError) {
        let m = try Modifiers.checked(bits)
        modifiers = m
    }

    /// Sets the modifiers from Swift.
    public func setModifiers(_ m: Modifiers) throws(PindropError) {
        try setModifiers(m.rawValue)
    }

    // MARK: - The selection

    /// The selected ids in ascending order.
    public var selectedIDs: [Int64] { selection.ids }

    /// How many pins are selected.
    public var selectionCount: Int { selection.count }

    /// Whether the pin is selected.
    public func isSelected(id: Int64) -> Bool { selection.contains(id) }

    /// Changes the selection by `ids` (a repeated id counts once): DESELECTED for each pin that
    /// leaves it, then SELECTED for each that joins, each in ascending id order. All-or-nothing:
    /// an unknown id is NOT_FOUND and an unknown mode INVALID_ARGUMENT; either changes nothing.
    /// SET with no ids clears the selection.
    public func selectMany(_ ids: [Int64], mode: Int32) throws(PindropError) {
        try change(redraws: false, check: { () throws(PindropError) -> [Int64] in
            let m = try SelectMode.checked(mode)
            for id in ids where !pins.contains(id) {
                throw PindropError(.notFound, "no pin with id \(id)\(ids.count > 1 ? " (the selection is unchanged)" : "")")
            }
            return selection.applying(m, Selection.sortedUnique(ids))
        }, apply: { changeSelection(to: $0) })
    }

    /// `selectMany` with a mode from Swift.
    public func selectMany(_ ids: [Int64], mode: SelectMode) throws(PindropError) {
        try selectMany(ids, mode: mode.rawValue)
    }

    /// Changes the selection by the pins drawn inside the screen rectangle with corners (x0, y0)
    /// and (x1, y1), in either order, edges included: a pin counts where `frame(time:)` draws it
    /// at `time` (its place in a spread layout), a cluster or a collapsed stack drawn inside counts
    /// with all its members. INVALID_ARGUMENT for a corner that is not finite or beyond the
    /// viewport grown by 1e7 points, an unknown mode or a time earlier than the last; nothing
    /// changes then.
    public func selectInRect(x0: Double, y0: Double, x1: Double, y1: Double, mode: Int32,
                             time: Double) throws(PindropError) {
        try InputRange.checkScreenPoint(x0, y0, width: view.width, height: view.height, "rectangle corner (x0, y0)")
        try InputRange.checkScreenPoint(x1, y1, width: view.width, height: view.height, "rectangle corner (x1, y1)")
        let m = try SelectMode.checked(mode)
        try checkTime(time)
        _ = try viewportBox()
        // The pins and clusters as a frame draws them at `time` (this is that frame).
        try frame(time: time)
        let left = min(x0, x1), right = max(x0, x1), top = min(y0, y1), bottom = max(y0, y1)
        @inline(__always) func inside(_ x: Double, _ y: Double) -> Bool { x >= left && x <= right && y >= top && y <= bottom }
        var given: [Int64] = []
        for v in frame.views where inside(v.x, v.y) { given.append(v.id) }
        let markers = clusterViews
        for c in markers where inside(c.x, c.y) {
            guard let ids = try? clusterMembers(key: c.key) else { continue }
            given.append(contentsOf: ids)
        }
        changeSelection(to: selection.applying(m, Selection.sortedUnique(given)))
    }

    /// `selectInRect` with a mode from Swift.
    public func selectInRect(x0: Double, y0: Double, x1: Double, y1: Double, mode: SelectMode,
                             time: Double) throws(PindropError) {
        try selectInRect(x0: x0, y0: y0, x1: x1, y1: y1, mode: mode.rawValue, time: time)
    }

    /// Makes `next` (ascending, without repeats) the selection: DESELECTED for each pin that
    /// leaves it, then SELECTED for each that joins, each in ascending id order.
    func changeSelection(to next: [Int64]) {
        let old = selection.ids
        guard next != old else { return }
        for id in old where !Map.sortedContains(next, id) { emit(.deselected(id: id)) }
        for id in next where !Map.sortedContains(old, id) { emit(.selected(id: id)) }
        selection.replace(with: next)
    }

    @inline(__always)
    static func sortedContains(_ a: [Int64], _ id: Int64) -> Bool {
        let i = Selection.lowerBound(a, id)
        return i < a.count && a[i] == id
    }

    /// The selection becomes the one pin (noID: none), as `pindrop_map_select` and a tap on a pin
    /// make it; with the add modifier held, a tap on a pin adds it or takes it out instead and a
    /// tap on the map leaves the selection alone (`tapSelect`).
    func setSelected(_ id: Int64) {
        changeSelection(to: id == noID ? [] : [id])
    }

    /// What a tap selects (GestureEffect.select): with PINDROP_MOD_ADD held, the tapped pin joins
    /// the selection or leaves it, and a tap on the map (noID) changes nothing; without it, the
    /// tapped pin becomes the selection (or a tap on the map clears it).
    func tapSelect(_ id: Int64) {
        guard modifiers.contains(.add) else { return setSelected(id) }
        guard id != noID else { return }
        changeSelection(to: selection.applying(.toggle, [id]))
    }

    /// A removed pin leaves the selection (DESELECTED).
    func deselectRemoved(_ id: Int64) {
        selection.remove(id)
        emit(.deselected(id: id))
    }

    /// Appends the slots of the selected pins, and of the pins a held group drag moves: the pins
    /// kept out of the clusters and whose stacks stay open.
    func appendSelectedSlots(into out: inout [Int32]) {
        if selection.count == 1 {
            if let s = pins.slot(of: selection.lowest) { out.append(s) }
        } else if !selection.isEmpty {
            for id in selection.ids { if let s = pins.slot(of: id) { out.append(s) } }
        }
        if let g = group, g.isHeld(self) { g.appendMembers(into: &out) }
    }
}
