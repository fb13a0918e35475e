/// The keyboard path of behaviour 20 (docs/gestures.md, "The keyboard machine"; docs/accessibility.md):
/// the map's entry points check and classify, the gesture room's keyboard machine drags, and the
/// frame room keeps the focus (it knows what the last frame drew).
extension Map {
    // MARK: - Focus (the frame room)

    /// Moves the keyboard focus one step through what the last frame drew (pins and clusters whose
    /// drawn point is inside the viewport), in reading order: by row floor(y / hit_radius), then
    /// x, then pins before clusters, then id or key; wrapping at either end. `step` is +1 (next)
    /// or -1 (previous); anything else is INVALID_ARGUMENT. Returns the new focus (`.none` when
    /// the last frame drew nothing focusable, or no frame was drawn yet).
    @discardableResult
    public func focusStep(_ step: Int32) throws(PindropError) -> Focus {
        guard step == 1 || step == -1 else {
            throw .invalid("focus step \(step) must be +1 (next) or -1 (previous)")
        }
        refreshFocus()
        var focus = frame.focus
        let f = focus.step(forward: step == 1, pins: frame.views, clusters: clusterViews,
                           rowHeight: options.hitRadius, width: view.width, height: view.height,
                           alive: { pins.contains($0) })
        frame.focus = focus
        return f
    }

    /// What has the keyboard focus, as the last frame drew it (a frame moves the focus on when its
    /// item is no longer drawn; a removal, at once).
    public var focus: Focus {
        refreshFocus()
        return frame.focus.current
    }

    /// Where the focus stands in reading order among the items the last frame offers it: `index`
    /// items come before it of `total` ("4 of 27" is index 3, total 27); `index == total` when
    /// nothing there has the focus.
    public var focusRank: (index: Int, total: Int) {
        refreshFocus()
        return frame.focus.rank(pins: frame.views, clusters: clusterViews, rowHeight: options.hitRadius,
                                width: view.width, height: view.height, alive: { pins.contains($0) })
    }

    /// A focused pin removed since the last frame hands the focus on to the next item that frame
    /// drew: neither a step nor the focus ever names a pin that is gone.
    private func refreshFocus() {
        let f = frame.focus.current
        guard f.kind == .pin, !pins.contains(f.id) else { return }
        var focus = frame.focus
        focus.pinGone(pins: frame.views, clusters: clusterViews, rowHeight: options.hitRadius,
                      width: view.width, height: view.height, alive: { pins.contains($0) })
        frame.focus = focus
    }

    /// After a frame is built: the focus follows its item, or moves on from where it was; the
    /// focused pin's view is flagged FOCUSED and drawn above the other ordinary pins.
    func settleFocus(width: Double, height: Double) {
        guard frame.focus.current.kind != .none else { return }
        let held = gesture.keyboardSlot.map { pins.id($0) } ?? noID
        var focus = frame.focus
        let i = focus.settle(pins: frame.views, clusters: clusterViews, held: held,
                             rowHeight: options.hitRadius, width: width, height: height)
        frame.focus = focus
        if let i { frame.markFocused(i) }
    }

    // MARK: - The keyboard drag (the gesture room's keyboard machine)

    /// Lifts the selected pin by keyboard, as a held finger would (LIFTED; drawn lifted where it
    /// was, lift_height not applied). The pin takes the keyboard focus. Nudges then move it as a
    /// drag, `keyDrop` drops it, `cancelGesture` puts it back. STATE, changing nothing: nothing
    /// is selected; the keyboard already holds a pin; a pointer is down (a finger on a pin, or the
    /// host's pan: lift once it is up); the selected pin is not draggable; or a tap on the map
    /// due by `time` would clear the selection first.
    public func keyLift(time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) -> Int32 in
            if let s = gesture.keyboardSlot {
                throw PindropError(.state, "pin \(pins.id(s)) is already lifted by the keyboard: drop it (key_drop) or cancel (cancel_gesture) first")
            }
            if let s = gesture.fingerSlot {
                throw PindropError(.state, "pin \(pins.id(s)) is held by a finger; lift by keyboard once it is released")
            }
            if gesture.pointerCount > 0 {
                throw PindropError(.state, "\(gesture.pointerCount) pointer(s) down (the host's gesture); lift by keyboard once they are up")
            }
            guard selectedID != noID, let s = pins.slot(of: selectedID) else {
                throw PindropError(.state, "nothing is selected: select a pin (e.g. the focused one) to lift it")
            }
            guard pins.isDraggable(s) else {
                throw PindropError(.state, "pin \(selectedID) is not draggable")
            }
            if gesture.tapClearsSelection(by: time, selected: selectedID) {
                throw PindropError(.state, "a tap on the map due by \(time) ms clears the selection first: nothing is selected to lift")
            }
            return s
        }, apply: { s in
            gesture.runTimeouts(self)
            let id = selectedID
            gesture.keyLift(slot: s, id: id, self)
            let drawn = drawnPosition(s)
            if let q = view.toScreen(drawn.lon, drawn.lat) {
                var focus = frame.focus
                focus.focus(pin: id, x: q.x, y: q.y)
                frame.focus = focus
            }
        })
    }

    /// Drops the pin the keyboard holds: DROPPED, then (if it moved) MOVED with cause KEYBOARD and
    /// its follow-ups (callout, geocode request, nearby warnings, the allowed area's revert or
    /// snap): one undo step. A pin lifted and never moved falls back (DROPPED, no MOVED). STATE
    /// when the keyboard holds no pin.
    public func keyDrop(time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) in
            guard gesture.keyboardSlot != nil else {
                throw PindropError(.state, "no keyboard drag to drop (key_lift lifts the selected pin)")
            }
        }, apply: {
            gesture.runTimeouts(self)
            gesture.keyHandle(.keyDrop, self)
        })
    }

    /// Checks a nudge while the keyboard holds a pin: the pin is to move as a drag (DRAGGED, no
    /// MOVED), by (dx, dy) screen points from where it is drawn. INVALID_ARGUMENT when the view
    /// cannot place the new point.
    func checkKeyNudge(dx: Double, dy: Double) throws(PindropError) -> Nudge {
        guard dx != 0 || dy != 0 else { return .nothing }
        guard let p = gesture.keyNudgeTarget(dx: dx, dy: dy, self) else {
            throw .invalid("the held pin has no point on the screen in this view")
        }
        guard p.x.isFinite, p.y.isFinite, let q = view.toLonLatUnwrapped(p.x, p.y), q.lon.isFinite, q.lat.isFinite else {
            throw .invalid("screen point (\(p.x), \(p.y)) is too far outside the view for a coordinate")
        }
        return .keyboardDrag(x: p.x, y: p.y, dx: dx, dy: dy)
    }

    /// A touch while the keyboard holds a pin is refused (STATE): one gesture at a time.
    func checkNoKeyboardDrag(touch phase: TouchPhase) throws(PindropError) {
        guard let s = gesture.keyboardSlot else { return }
        let name = switch phase { case .down: "DOWN"; case .move: "MOVE"; case .up: "UP"; case .cancel: "CANCEL" }
        throw PindropError(.state, "pin \(pins.id(s)) is being dragged by keyboard: touch \(name) refused (drop it or cancel first)")
    }
}
