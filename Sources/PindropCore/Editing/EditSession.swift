/// The edit session (place, edit, commit, cancel), undo / redo and the nudge series, as the
/// editing room's own methods. `Map` checks the arguments and the time, then calls these.
/// docs/editing.md describes the rules they follow.
extension Editor {
    // MARK: - Session

    /// Where a placement at (lon, lat) goes: there, or (policy SNAP) the nearest point inside the
    /// allowed area. Policy REVERT refuses a point outside: INVALID_ARGUMENT, nothing changes.
    func placement(lon: Double, lat: Double) throws(PindropError) -> (lon: Double, lat: Double) {
        guard let area, !area.contains(lon: lon, lat: lat) else { return (lon, lat) }
        switch options.outsidePolicy {
        case .revert:
            throw .invalid("(\(lon), \(lat)) is outside the allowed area (outside_policy is REVERT)")
        case .snap:
            return area.nearestInside(lon: lon, lat: lat)
        }
    }

    /// Starts placing (`placed`) or editing the pin in `slot`: its coordinate now is the session's
    /// origin. A placed pin gets its coordinate subtitle, a geocode request and the nearby warnings
    /// at once; it is not saved (no MOVED) until the commit.
    func begin<C: EditingContext>(_ slot: Int32, placed: Bool, _ c: C) {
        let p = c.truePosition(slot)
        session = EditSession(id: c.pinID(slot), placed: placed, originLon: p.lon, originLat: p.lat, firstSerial: nextSerial)
        editingID = c.pinID(slot)
        if placed { landed(slot, c) }
    }

    /// The session's moves of its pin become one history entry (origin → where it is now), so
    /// that one undo takes the whole edit back; a placement is saved with MOVED cause PLACE.
    func commit<C: EditingContext>(_ c: C) {
        guard let session else { return }
        self.session = nil
        editingID = noID
        guard let s = c.slotOf(session.id) else { return }
        let origin = (lon: session.originLon, lat: session.originLat)
        let here = c.truePosition(s)
        dropEntries(of: session.id, since: session.firstSerial)
        if here.lon != origin.lon || here.lat != origin.lat {
            clearRedo()
            pushUndo(HistoryEntry(id: session.id, fromLon: origin.lon, fromLat: origin.lat,
                                  toLon: here.lon, toLat: here.lat, serial: takeSerial()))
        }
        if session.placed {
            c.apply(.emit(.moved(id: session.id, from: LonLat(origin), to: LonLat(here), cause: .place)))
        }
    }

    /// Ends the session undoing it: a placed pin is removed (DESELECTED first if it was
    /// selected); an edited pin goes back to where it was when the edit began (MOVED with cause
    /// UNDO when it had moved). The session's moves leave the history.
    func cancel<C: EditingContext>(_ c: C) {
        guard let session else { return }
        self.session = nil
        editingID = noID
        guard let s = c.slotOf(session.id) else { return }
        dropEntries(of: session.id, since: session.firstSerial)
        if session.placed {
            c.apply(.remove(id: session.id))
            return
        }
        let p = c.truePosition(s)
        if p.lon != session.originLon || p.lat != session.originLat {
            c.apply(.userMove(slot: s, lon: session.originLon, lat: session.originLat, cause: .undo))
        }
    }

    // MARK: - Undo / redo

    /// The slot of the pin that undo (or redo) would move now (for a group moved as one, the
    /// step's last entry; every pin of the step is checked); STATE when there is nothing to take
    /// back (or replay), or when a finger holds one of the pins. Changes nothing.
    func replayable<C: EditingContext>(undo: Bool, _ c: C) throws(PindropError) -> Int32 {
        let stack = undo ? undoStack : redoStack
        guard let e = stack.last else {
            throw PindropError(.state, (undo ? "nothing to undo" : "nothing to redo") + droppedNote())
        }
        var last: Int32 = -1
        for i in latestStep(in: stack) {
            let id = stack[i].id
            // Entries leave the history with their pin, so the pin is there; checked all the same.
            guard let s = c.slotOf(id) else {
                throw PindropError(.notFound, "pin \(id) of the latest move is no longer on the map")
            }
            // Only a finger holding the pin refuses an undo; an animation (the glide after a
            // tap-to-move, a drop's bounce) never blocks an edit.
            guard !c.isHeld(s) else {
                throw PindropError(.state, "pin \(id) is held by a gesture; undo or redo after it is dropped")
            }
            if stack[i].id == e.id { last = s }
        }
        return last
    }

    /// Moves the latest step of one stack to the other and moves its pins, in ascending id order:
    /// back to where the move started (undo, MOVED cause UNDO) or again to where it ended (redo,
    /// cause REDO). A step is one entry, or the entries of a group moved as one (behaviour 23).
    func replay<C: EditingContext>(undo: Bool, _ slot: Int32, _ c: C) {
        nudges.end()
        let range = latestStep(in: undo ? undoStack : redoStack)
        let step = Array((undo ? undoStack : redoStack)[range])
        if undo {
            undoStack.removeSubrange(range)
            redoStack.append(contentsOf: step)
        } else {
            redoStack.removeSubrange(range)
            undoStack.append(contentsOf: step)
        }
        if step.count == 1 {
            let e = step[0]
            c.apply(.userMove(slot: slot, lon: undo ? e.fromLon : e.toLon, lat: undo ? e.fromLat : e.toLat,
                              cause: undo ? .undo : .redo))
            return
        }
        for e in step {  // a group's entries were pushed in ascending id order (`applyGroupMove`)
            guard let s = c.slotOf(e.id) else { continue }
            c.apply(.userMove(slot: s, lon: undo ? e.fromLon : e.toLon, lat: undo ? e.fromLat : e.toLat,
                              cause: undo ? .undo : .redo))
        }
    }

    private func droppedNote() -> String {
        let n = droppedWithRemovedPins
        return n == 0 ? "" : " (\(n) move\(n == 1 ? "" : "s") of removed pins left the history with them)"
    }

    // MARK: - Steps of several pins

    /// The user moves until `endStep` are one history step (a group drag, a nudge of a selection):
    /// their entries share one serial.
    func beginStep() { stepSerial = takeSerial() }

    func endStep() { stepSerial = nil }

    /// The steps of a history stack: its runs of entries that share a serial.
    static func steps(in stack: [HistoryEntry]) -> Int {
        var n = 0, last: UInt64? = nil
        for e in stack where e.serial != last { n += 1; last = e.serial }
        return n
    }

    // MARK: - Nudges

    /// Whether a nudge of `id` at `time` continues the latest run of nudges (`NudgeSeries`).
    func nudgeContinues(id: Int64, time: Double) -> Bool {
        nudges.continues(id: id, time: time, latest: undoStack.last)
    }

    /// After a nudge's user move: a continuing run joins its history entry to the previous one,
    /// and the series remembers the entry that stands for it.
    func nudged(id: Int64, time: Double, continues: Bool) {
        if continues { mergeLatestHistoryEntries() }
        if let latest = undoStack.last, latest.id == id {
            nudges.record(id: id, time: time, serial: latest.serial)
        }
    }
}
