/// Placing and editing pins (docs/editing.md): the editing room keeps the rules, the map checks
/// and applies them in the order of `change`.
extension Map {
    /// Adds pin `id` at (lon, lat) and starts placing it: tap-to-move applies to it until commit
    /// (MOVED with cause PLACE) or cancel_edit (the pin is removed). An edit in progress is
    /// committed first. The placed pin gets its coordinate subtitle, a geocode request and the
    /// nearby warnings at once; it is not saved (no MOVED) until the commit. Outside the allowed
    /// area the placement is refused (policy REVERT: INVALID_ARGUMENT, nothing changes) or
    /// placed at the nearest point inside (policy SNAP).
    public func place(id: Int64, lon: Double, lat: Double, time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) -> (lon: Double, lat: Double) in
            try checkNewPin(id: id, lon: lon, lat: lat)
            return try editing.placement(lon: lon, lat: lat)
        }, apply: { target in
            editing.commit(self)
            let s = insertPin(id: id, lon: target.lon, lat: target.lat)
            editing.begin(s, placed: true, self)
        })
    }

    /// Starts editing an existing pin: tap-to-move applies to it; cancel_edit restores where it
    /// was now. An edit of another pin in progress is committed first; editing the pin already
    /// being edited changes nothing.
    public func edit(id: Int64, time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) in try slot(id) }, apply: { s in
            if editing.session?.id == id { return }
            editing.commit(self)
            editing.begin(s, placed: false, self)
        })
    }

    /// Ends the session keeping the pin where it is. STATE when nothing is being edited.
    public func commit(time: Double) throws(PindropError) {
        try change(at: time, check: checkSession, apply: { editing.commit(self) })
    }

    /// Ends the session undoing it: a placed pin is removed (DESELECTED first if it was
    /// selected); an edited pin goes back to where it was when the edit began (MOVED with cause
    /// UNDO when it had moved). The session's moves leave the history. STATE when nothing is
    /// being edited.
    public func cancelEdit(time: Double) throws(PindropError) {
        try change(at: time, check: checkSession, apply: { editing.cancel(self) })
    }

    private func checkSession() throws(PindropError) {
        guard editing.session != nil else { throw PindropError(.state, "nothing is being placed or edited") }
    }

    /// The pin being placed or edited, and whether it is a placement.
    public var editSession: (id: Int64, placed: Bool)? {
        editing.session.map { ($0.id, $0.placed) }
    }

    /// Takes back the latest user move still on the map: the pin returns to exactly where it was
    /// (MOVED with cause UNDO, then its callout, geocode request and nearby warnings). Moves of
    /// pins removed since are skipped (they left the history with their pin). STATE when there is
    /// nothing to undo, or when a gesture holds the pin.
    public func undo(time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) in try editing.replayable(undo: true, self) },
                   apply: { editing.replay(undo: true, $0, self) })
    }

    /// Replays the latest undone move (MOVED with cause REDO). STATE when there is nothing to
    /// redo (any new user move clears what could be redone) or when a gesture holds the pin.
    public func redo(time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) in try editing.replayable(undo: false, self) },
                   apply: { editing.replay(undo: false, $0, self) })
    }

    /// How many steps undo / redo could take back / replay now (a group moved as one is one step).
    public var undoCount: Int { Editor.steps(in: editing.undoStack) }
    public var redoCount: Int { Editor.steps(in: editing.redoStack) }

    /// Sets (or with nil clears) a pin's title; CALLOUT_CHANGED when it changes.
    public func setTitle(id: Int64, _ title: String?) throws(PindropError) {
        try change(redraws: false, check: { () throws(PindropError) in try slot(id) }, apply: { editing.setTitle($0, title, self) })
    }

    public enum CalloutPart: Int32, Sendable, CaseIterable { case title = 0, subtitle = 1 }

    /// A pin's title or subtitle ("" when there is none).
    public func callout(id: Int64, _ part: CalloutPart) throws(PindropError) -> String {
        _ = try slot(id)
        switch part {
        case .title: return editing.titles[id] ?? ""
        case .subtitle: return editing.subtitles[id] ?? ""
        }
    }

    /// Answers a GEOCODE_REQUEST: `.ok` when the subtitle was replaced, `.stale` when the pin has
    /// moved (or was removed) since the request — nothing changes then. An unknown request
    /// number (never issued) is NOT_FOUND.
    public func answerGeocode(request: UInt64, _ subtitle: String) throws(PindropError) -> Status {
        // The editing room checks the request and changes nothing when it throws.
        try editing.answerGeocode(request: request, subtitle, self)
    }

    /// Sets the allowed area from WKT or GeoJSON text (read by the map's factory), or clears it
    /// with nil. Pins already outside stay where they are.
    public func setAllowedArea(text: String?) throws(PindropError) {
        try change(redraws: false, check: { () throws(PindropError) -> AllowedArea? in
            guard let text else { return nil }
            return try factory.parseArea(text)
        }, apply: { editing.area = $0 })
    }

    /// Sets an area built in Swift (or clears it).
    public func setAllowedArea(_ area: AllowedArea?) { editing.area = area }  // moves nothing drawn

    public var allowedArea: AllowedArea? { editing.area }
}

// MARK: - What the editing room sees and does

extension Map: EditingContext {
    @inline(__always) func pinID(_ slot: Int32) -> Int64 { pins.id(slot) }

    func pins(within meters: Double, ofLon lon: Double, lat: Double, into out: inout [Int32]) {
        Sphere.boundingBox(lon: lon, lat: lat, meters: meters).split { index.query($0, into: &out) }
    }

    func isHeld(_ slot: Int32) -> Bool { slot == gesture.heldSlot }

    @discardableResult
    func apply(_ effect: EditingEffect) -> Bool {
        switch effect {
        case .emit(let e): emit(e)
        case .userMove(let slot, let lon, let lat, let cause): return applyUserMove(slot, lon: lon, lat: lat, cause: cause)
        case .remove(let id):
            do { try remove(id: id) } catch { return false }
        }
        return true
    }
}
