/// The edit session (place, edit, commit, cancel), the selection calls and undo / redo.
/// docs/editing.md describes the rules these functions follow.
extension Map {
    // MARK: - Session

    /// Adds pin `id` at (lon, lat) and starts placing it: tap-to-move applies to it until commit
    /// (MOVED with cause PLACE) or cancel_edit (the pin is removed). An edit in progress is
    /// committed first. The placed pin gets its coordinate subtitle, a geocode request and the
    /// nearby warnings at once; it is not saved (no MOVED) until the commit. Outside the allowed
    /// area the placement is refused (policy REVERT: INVALID_ARGUMENT, nothing changes) or
    /// placed at the nearest point inside (policy SNAP).
    public func place(id: Int64, lon: Double, lat: Double, time: Double) throws(PindropError) {
        try checkTime(time)
        guard id != noID else { throw .invalid("PINDROP_NO_ID is not a valid pin id") }
        try checkLonLat(lon, lat)
        guard !pins.contains(id) else { throw PindropError(.duplicateID, "a pin with id \(id) already exists") }
        var target = (lon: lon, lat: lat)
        if let area = editing.area, !area.contains(lon: lon, lat: lat) {
            switch options.outsidePolicy {
            case .revert:
                throw .invalid("(\(lon), \(lat)) is outside the allowed area (outside_policy is REVERT)")
            case .snap:
                target = area.nearestInside(lon: lon, lat: lat)
            }
        }
        try advance(to: time)
        if editing.session != nil { commitSession() }
        try add(id: id, lon: target.lon, lat: target.lat)
        let s = try slot(id)
        editingID = id
        editing.session = EditSession(id: id, placed: true, originLon: target.lon, originLat: target.lat,
                                      firstSerial: editing.nextSerial)
        landed(s)
    }

    /// Starts editing an existing pin: tap-to-move applies to it; cancel_edit restores where it
    /// was now. An edit of another pin in progress is committed first; editing the pin already
    /// being edited changes nothing.
    public func edit(id: Int64, time: Double) throws(PindropError) {
        try checkTime(time)
        let s = try slot(id)
        try advance(to: time)
        if editing.session?.id == id { return }
        if editing.session != nil { commitSession() }
        let p = pins.position(s)
        editingID = id
        editing.session = EditSession(id: id, placed: false, originLon: p.lon, originLat: p.lat,
                                      firstSerial: editing.nextSerial)
    }

    /// Ends the session keeping the pin where it is. STATE when nothing is being edited.
    public func commit(time: Double) throws(PindropError) {
        try checkTime(time)
        guard editing.session != nil else { throw PindropError(.state, "nothing is being placed or edited") }
        try advance(to: time)
        commitSession()
    }

    /// The session's moves of its pin become one history entry (origin → where it is now), so
    /// that one undo takes the whole edit back; a placement is saved with MOVED cause PLACE.
    func commitSession() {
        guard let session = editing.session else { return }
        editing.session = nil
        editingID = noID
        guard let s = pins.slot(of: session.id) else { return }
        let origin = (lon: session.originLon, lat: session.originLat)
        let here = pins.position(s)
        dropEntries(of: session.id, since: session.firstSerial)
        if here.lon != origin.lon || here.lat != origin.lat {
            clearRedo()
            pushUndo(HistoryEntry(id: session.id, fromLon: origin.lon, fromLat: origin.lat,
                                  toLon: here.lon, toLat: here.lat, serial: takeSerial()))
        }
        if session.placed { pushMoved(session.id, from: origin, to: here, cause: .place) }
    }

    /// Ends the session undoing it: a placed pin is removed (DESELECTED first if it was
    /// selected); an edited pin goes back to where it was when the edit began (MOVED with cause
    /// UNDO when it had moved). The session's moves leave the history. STATE when nothing is
    /// being edited.
    public func cancelEdit(time: Double) throws(PindropError) {
        try checkTime(time)
        guard let session = editing.session else { throw PindropError(.state, "nothing is being placed or edited") }
        try advance(to: time)
        editing.session = nil
        editingID = noID
        guard let s = pins.slot(of: session.id) else { return }
        dropEntries(of: session.id, since: session.firstSerial)
        if session.placed {
            try remove(id: session.id)
            return
        }
        let p = pins.position(s)
        if p.lon != session.originLon || p.lat != session.originLat {
            applyUserMove(s, lon: session.originLon, lat: session.originLat, cause: .undo)
        }
    }

    /// The pin being placed or edited, and whether it is a placement.
    public var editSession: (id: Int64, placed: Bool)? {
        editing.session.map { ($0.id, $0.placed) }
    }

    // MARK: - Selection

    /// Selects a pin (noID: none), emitting DESELECTED / SELECTED as the selection changes.
    public func select(id: Int64) throws(PindropError) {
        if id != noID { _ = try slot(id) }
        setSelected(id)
    }

    // MARK: - Undo / redo

    /// Takes back the latest user move still on the map: the pin returns to exactly where it was
    /// (MOVED with cause UNDO, then its callout, geocode request and nearby warnings). Moves of
    /// pins removed since are skipped (they left the history with their pin). STATE when there is
    /// nothing to undo, or when a gesture holds the pin.
    public func undo(time: Double) throws(PindropError) {
        try replay(from: \.undoStack, to: \.redoStack, cause: .undo, time: time)
    }

    /// Replays the latest undone move (MOVED with cause REDO). STATE when there is nothing to
    /// redo (any new user move clears what could be redone) or when a gesture holds the pin.
    public func redo(time: Double) throws(PindropError) {
        try replay(from: \.redoStack, to: \.undoStack, cause: .redo, time: time)
    }

    /// Moves the latest entry of one stack to the other and moves its pin: back to where the move
    /// started (undo) or again to where it ended (redo).
    private func replay(from: WritableKeyPath<EditingState, [HistoryEntry]>, to: WritableKeyPath<EditingState, [HistoryEntry]>,
                        cause: Event.Cause, time: Double) throws(PindropError) {
        try checkTime(time)
        guard let e = editing[keyPath: from].last else {
            throw PindropError(.state, (cause == .undo ? "nothing to undo" : "nothing to redo") + droppedNote())
        }
        let s = try historySlot(e)
        try advance(to: time)
        editing[keyPath: from].removeLast()
        editing[keyPath: to].append(e)
        if cause == .undo {
            applyUserMove(s, lon: e.fromLon, lat: e.fromLat, cause: .undo)
        } else {
            applyUserMove(s, lon: e.toLon, lat: e.toLat, cause: .redo)
        }
    }

    private func historySlot(_ e: HistoryEntry) throws(PindropError) -> Int32 {
        // Entries leave the history with their pin, so the pin is there; checked all the same.
        guard let s = pins.slot(of: e.id) else {
            throw PindropError(.notFound, "pin \(e.id) of the latest move is no longer on the map")
        }
        // Only a finger holding the pin refuses an undo; an animation (the glide after a
        // tap-to-move, a drop's bounce) never blocks an edit.
        guard s != gesture.heldSlot else {
            throw PindropError(.state, "pin \(e.id) is held by a gesture; undo or redo after it is dropped")
        }
        return s
    }

    private func droppedNote() -> String {
        let n = editing.droppedWithRemovedPins
        return n == 0 ? "" : " (\(n) move\(n == 1 ? "" : "s") of removed pins left the history with them)"
    }
}
