/// A drag or a nudge of a selection (behaviour 23, docs/editing.md "Several pins at once"): the
/// grabbed pin follows the finger (or the keyboard) exactly as a single pin does, the other
/// selected pins keep their Web Mercator offset from it (`GroupDrag`), and the drop is one user
/// move of the whole group: one MOVED per pin in ascending id order, callouts, geocode requests
/// and nearby warnings for each, one undo step. With an allowed area, a group that would leave any
/// pin outside is reverted as a whole, whatever outside_policy says (QGIS's Move Feature moves
/// a selection as a whole or not at all).
extension Map {
    // MARK: - The drag (hooks of the gesture room's effects, MapGestures.swift)

    /// A pin lifted (by a finger or the keyboard): when it is selected with others, the others go
    /// with it. Any earlier group ends here.
    func groupLifted(_ id: Int64) {
        group = nil
        guard selection.count >= 2, selection.contains(id), let g = pins.slot(of: id) else { return }
        let origin: (x: Double, y: Double)
        if let p = spread.drawnPosition(g) {
            origin = WebMercator.unclamped(lon: p.lon, lat: p.lat)  // lifted from its place on a ring
        } else {
            origin = pins.mercator(g)
        }
        var members: [(slot: Int32, id: Int64, x: Double, y: Double)] = []
        members.reserveCapacity(selection.count - 1)
        for other in selection.ids where other != id {
            // A pin the host made not draggable stays where it is, as it does under a finger.
            guard let s = pins.slot(of: other), pins.isDraggable(s) else { continue }
            let m = pins.mercator(s)
            members.append((s, other, m.x, m.y))
        }
        guard !members.isEmpty else { return }
        group = GroupDrag(grabbed: g, id: id, origin: origin, members: members)
    }

    /// Where a member of a held group is drawn: the grabbed pin's drawn point plus its offset.
    func groupDrawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? {
        guard let g = group, let i = g.member(slot), g.isHeld(self), let a = groupAnchor() else { return nil }
        return GroupDrag.lonLat(g.point(i, anchorX: a.x, anchorY: a.y))
    }

    /// The grabbed pin's drawn Mercator point now (computed once per change and time).
    private func groupAnchor() -> (x: Double, y: Double)? {
        guard let g = group else { return nil }
        if let a = g.cachedAnchor(version: version, time: now) { return a }
        guard let p = gesture.drawnPosition(g.grabbed, self) else { return nil }
        let m = WebMercator.unclamped(lon: p.lon, lat: p.lat)
        group?.cacheAnchor(version: version, time: now, m)
        return m
    }

    /// DRAGGING for every member of a held group, INVALID for one drawn outside the allowed area.
    func groupFlags(_ slot: Int32) -> PinFlags {
        guard let g = group, g.member(slot) != nil, g.isHeld(self) else { return [] }
        var f: PinFlags = .dragging
        if editing.area != nil, let p = groupDrawnPosition(slot), editing.isOutside(p) { f.insert(.invalid) }
        return f
    }

    /// The drop of a group: the user move of the grabbed pin (cause DRAG, or KEYBOARD for the
    /// keyboard's drop) becomes the move of the whole group. Nil when `slot`'s move is not a
    /// group's drop (the single-pin path applies); else whether the group moved.
    func groupDrop(_ slot: Int32, lon: Double, lat: Double, cause: Event.Cause) -> Bool? {
        guard let g = group, slot == g.grabbed, cause == .drag || cause == .keyboard else { return nil }
        group = nil
        let a = WebMercator.unclamped(lon: lon, lat: lat)
        // The members are in ascending id order: the grabbed pin goes in its place among them.
        var move = GroupMove()
        move.slots.reserveCapacity(g.count + 1); move.lon.reserveCapacity(g.count + 1); move.lat.reserveCapacity(g.count + 1)
        var placed = false
        for i in 0..<g.count {
            if !placed && g.grabbedID < g.ids[i] {
                move.slots.append(slot); move.lon.append(lon); move.lat.append(lat)
                placed = true
            }
            // A member that would land where no coordinate is (beyond a pole) reverts the group.
            guard let p = GroupDrag.lonLat(g.point(i, anchorX: a.x, anchorY: a.y)) else { return false }
            move.slots.append(g.slots[i]); move.lon.append(p.lon); move.lat.append(p.lat)
        }
        if !placed { move.slots.append(slot); move.lon.append(lon); move.lat.append(lat) }
        return applyGroupMove(move, cause: cause)
    }

    /// A member of the group (or its grabbed pin) is about to be removed.
    func groupPinWillBeRemoved(_ slot: Int32) {
        guard let g = group else { return }
        if g.grabbed == slot { group = nil } else { group?.remove(slot) }
    }

    // MARK: - The move of a group

    /// Whether every target lies inside the allowed area (or there is none).
    func groupMoveAllowed(_ m: GroupMove) -> Bool {
        guard editing.area != nil else { return true }
        for i in m.slots.indices where editing.isOutside((m.lon[i], m.lat[i])) { return false }
        return true
    }

    /// One user move of several pins, in the order given (ascending id): each MOVED with its
    /// callout, geocode request and nearby warnings, and one history step for all. Nothing moves
    /// when any target is outside the allowed area.
    @discardableResult
    func applyGroupMove(_ m: GroupMove, cause: Event.Cause) -> Bool {
        guard groupMoveAllowed(m) else { return false }
        editing.beginStep()
        for i in m.slots.indices { applyUserMove(m.slots[i], lon: m.lon[i], lat: m.lat[i], cause: cause) }
        editing.endStep()
        return true
    }

    // MARK: - Nudges of a selection

    /// A nudge of a selection of two or more: the lowest selected pin moves from where it is drawn
    /// by (dx, dy) points, exactly as a single pin's nudge, and every other selected pin keeps its
    /// Web Mercator offset from it. STATE when a gesture holds one of them; INVALID_ARGUMENT when
    /// the view cannot place a pin or any target lies outside the allowed area (whatever
    /// outside_policy says: the selection moves as a whole or not at all).
    func checkGroupNudge(dx: Double, dy: Double) throws(PindropError) -> Nudge {
        let anchorID = selection.lowest
        var order: [(id: Int64, slot: Int32)] = []
        order.reserveCapacity(selection.count)
        for id in selection.ids {  // ascending
            guard let s = pins.slot(of: id) else { throw PindropError(.notFound, "no pin with id \(id)") }
            guard !gesture.holds(s) else {
                throw PindropError(.state, "pin \(id) is held by a gesture; nudge the selection after it is dropped")
            }
            order.append((id, s))
        }
        guard dx != 0 || dy != 0 else { return .nothing }
        let a = order[0].slot
        let drawn = restingPosition(a)
        let p = try toScreen(lon: drawn.lon, lat: drawn.lat)
        guard p.x.isFinite, p.y.isFinite else {
            throw .invalid("pin \(anchorID) at (\(drawn.lon), \(drawn.lat)) has no point on the screen")
        }
        let target = try toLonLat(x: p.x + dx, y: p.y + dy)
        let origin = spread.drawnPosition(a).map { WebMercator.unclamped(lon: $0.lon, lat: $0.lat) } ?? pins.mercator(a)
        let t = WebMercator.unclamped(lon: target.lon, lat: target.lat)
        var move = GroupMove()
        move.slots.reserveCapacity(order.count); move.lon.reserveCapacity(order.count); move.lat.reserveCapacity(order.count)
        for (id, s) in order {
            let q: (lon: Double, lat: Double)
            if s == a {
                q = target
            } else {
                let m = pins.mercator(s)
                guard let r = GroupDrag.lonLat((m.x + t.x - origin.x, m.y + t.y - origin.y)) else {
                    throw .invalid("pin \(id) would leave the map (beyond a pole): the selection is not moved")
                }
                q = r
            }
            move.slots.append(s); move.lon.append(q.lon); move.lat.append(q.lat)
        }
        guard groupMoveAllowed(move) else {
            throw .invalid("a pin of the selection would leave the allowed area: the selection is not moved"
                           + " (a selection moves as a whole or not at all, whatever outside_policy says)")
        }
        return .group(move)
    }

    /// Applies a checked nudge of a selection: one history step, and nudges of the same selection
    /// less than 1000 ms apart are one step (as a single pin's, `NudgeSeries`).
    func applyGroupNudge(_ m: GroupMove, time: Double) {
        let id = selection.lowest
        let continues = editing.nudgeContinues(id: id, time: time)
        applyGroupMove(m, cause: .nudge)
        if continues { editing.mergeLatestHistoryEntries() }
        if let latest = editing.undoStack.last { editing.nudges.record(id: id, time: time, serial: latest.serial) }
    }
}
