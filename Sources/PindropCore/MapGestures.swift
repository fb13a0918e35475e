/// Touches, nudges and the selection (docs/gestures.md): the map checks and classifies (a hit
/// test, the drag threshold), the gesture room decides what the pointers mean.
extension Map {
    // MARK: - Touches (classified here, handled by the gesture room)

    /// Feeds one touch (or mouse) event. Returns true when pindrop owns the gesture (the host must
    /// not pan or zoom with this event), false when the host's map should handle it. Bad input
    /// (a position that is not finite or beyond the viewport grown by 1e7 points, time going backwards, a DOWN for a pointer already down, a MOVE / UP /
    /// CANCEL for a pointer that is not down) throws and changes nothing. CANCEL ignores x and y.
    /// A DOWN is hit-tested (a pin, else a cluster, else off pins) and a MOVE or UP measured
    /// against the followed pointer's down point before the gesture room sees it.
    public func touch(pointer: Int32, phase: TouchPhase, x: Double, y: Double, time: Double) throws(PindropError) -> Bool {
        if phase != .cancel {
            try InputRange.checkScreenPoint(x, y, width: view.width, height: view.height, "touch position")
        }
        return try change(at: time, check: { () throws(PindropError) in
            try checkNoKeyboardDrag(touch: phase)
            let isDown = gesture.isDown(pointer)
            switch phase {
            case .down:
                guard !isDown else {
                    throw .invalid("pointer \(pointer) is already down (send PINDROP_TOUCH_UP or _CANCEL for it first)")
                }
                guard gesture.pointerCount < GestureMachine.maxPointers else {
                    throw .invalid("more than \(GestureMachine.maxPointers) pointers down at once")
                }
            case .move, .up, .cancel:
                guard isDown else { throw .invalid("pointer \(pointer) is not down (no PINDROP_TOUCH_DOWN for it)") }
            }
        }, apply: {
            gesture.runTimeouts(self)
            return feed(pointer: pointer, phase: phase, x: x, y: y)
        })
    }

    /// A checked touch, handed to the gesture room with what it landed on.
    private func feed(pointer: Int32, phase: TouchPhase, x: Double, y: Double) -> Bool {
        switch phase {
        case .down:
            // The nearest drawn target wins: a pin, or a cluster or stack item drawn nearer than
            // it (a tie goes to the pin).
            let input: GestureMachine.Input
            let pin = hitNearest(x, y)
            if let target = offPinsTarget(pointer: pointer, x: x, y: y, nearerThan: pin?.d2 ?? .infinity) {
                input = target
            } else if let pin, let slot = pins.slot(of: pin.id) {
                input = .downOnPin(pointer: pointer, slot: slot, id: pin.id, x: x, y: y)
            } else {
                input = .downOffPins(pointer: pointer, x: x, y: y)
            }
            return gesture.down(input, pointer: pointer, x: x, y: y, self)
        case .move:
            let beyond = gesture.beyondDownPoint(pointer, x, y)
            return gesture.handle(beyond ? .moveBeyondThreshold(pointer: pointer, x: x, y: y) : .move(pointer: pointer, x: x, y: y), self)
        case .up:
            let beyond = gesture.beyondDownPoint(pointer, x, y)
            return gesture.pointerLeft(.up(pointer: pointer, x: x, y: y, beyondThreshold: beyond), pointer: pointer, self)
        case .cancel:
            return gesture.pointerLeft(.cancel(pointer: pointer), pointer: pointer, self)
        }
    }

    /// Resolves the timeouts due at `time`: the lift delay, the double-tap window, auto-pan.
    public func tick(time: Double) throws(PindropError) {
        try change(at: time, check: {}, apply: {
            gesture.runTimeouts(self)
            gesture.tick(self)
        })
    }

    /// When the next tick is due (ms), +infinity when nothing is pending.
    public var nextDeadline: Double { gesture.nextDeadline(self) }

    /// Cancels the gesture in progress (the Esc key): a lifted pin goes back to where it was,
    /// a pending tap-to-move is forgotten. Nothing happens when there is no gesture.
    public func cancelGesture(time: Double) throws(PindropError) {
        try change(at: time, check: {}, apply: {
            gesture.runTimeouts(self)
            let underWay = gesture.isUnderWay
            gesture.cancelGesture(self)
            if !underWay { closeOpenStack() }  // Esc with no gesture closes the open stack
        })
    }

    /// The transitions of both gesture machines, for debugging (nil: off).
    public var gestureTrace: ((GestureTransition) -> Void)? {
        get { gesture.trace }
        set { gesture.trace = newValue }
    }

    /// The name of the pointer machine's state (for tests and debugging).
    public var gestureStateName: StaticString { gesture.state.name }

    // MARK: - Nudges

    /// Moves the selected pin by (dx, dy) screen points from where it is drawn (its place in a
    /// spread layout, else its true coordinate): the keyboard alternative to a drag (docs/editing.md, "Nudges").
    /// A user move: MOVED with cause NUDGE (SNAP when the allowed area snaps it), the callout, a
    /// geocode request and nearby warnings. Nudges of one pin less than 1000 ms apart are one undo
    /// step (`NudgeSeries`). (0, 0) moves nothing. STATE when nothing is selected or a gesture holds
    /// the pin; INVALID_ARGUMENT for an offset that is not finite or beyond ±1e7 points
    /// (`InputRange.checkNudge`), a point the view cannot place, or (policy REVERT) a target
    /// outside the allowed area.
    public func nudge(dx: Double, dy: Double, time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) -> Nudge in
            try InputRange.checkNudge(dx: dx, dy: dy)
            if gesture.keyboardSlot != nil { return try checkKeyNudge(dx: dx, dy: dy) }
            if selection.count >= 2 { return try checkGroupNudge(dx: dx, dy: dy) }
            guard selectedID != noID, let s = pins.slot(of: selectedID) else {
                throw PindropError(.state, "nothing is selected: select a pin to nudge it")
            }
            guard !gesture.holds(s) else {
                throw PindropError(.state, "pin \(selectedID) is held by a gesture; nudge it after it is dropped")
            }
            guard dx != 0 || dy != 0 else { return .nothing }
            let drawn = restingPosition(s)
            let p = try toScreen(lon: drawn.lon, lat: drawn.lat)
            guard p.x.isFinite, p.y.isFinite else {
                throw .invalid("pin \(selectedID) at (\(drawn.lon), \(drawn.lat)) has no point on the screen")
            }
            let target = try toLonLat(x: p.x + dx, y: p.y + dy)
            guard editing.resolveUserMove(lon: target.lon, lat: target.lat, cause: .nudge) != nil else {
                throw .invalid("(\(target.lon), \(target.lat)) is outside the allowed area (outside_policy is REVERT)")
            }
            return .userMove(slot: s, lon: target.lon, lat: target.lat)
        }, apply: { nudge in
            switch nudge {
            case .nothing: break
            case .userMove(let s, let lon, let lat):
                let id = selectedID
                let continues = editing.nudgeContinues(id: id, time: time)
                applyUserMove(s, lon: lon, lat: lat, cause: .nudge)
                editing.nudged(id: id, time: time, continues: continues)
            case .group(let move):
                applyGroupNudge(move, time: time)
            case .keyboardDrag(let x, let y, let dx, let dy):
                gesture.runTimeouts(self)
                gesture.keyHandle(.nudge(x: x, y: y, dx: dx, dy: dy), self)
            }
        })
    }

    /// What a checked nudge does: nothing (0, 0), a user move of the selected pin, or a move of
    /// the pin the keyboard holds (to the screen point it is to mark).
    enum Nudge {
        case nothing
        case userMove(slot: Int32, lon: Double, lat: Double)
        case keyboardDrag(x: Double, y: Double, dx: Double, dy: Double)
        /// A user move of every selected pin (behaviour 23, MapGroupDrag.swift).
        case group(GroupMove)
    }

    // MARK: - Selection

    /// Selects a pin (noID: none), emitting DESELECTED / SELECTED as the selection changes.
    public func select(id: Int64) throws(PindropError) {
        try change(redraws: false, check: { () throws(PindropError) in
            if id != noID { _ = try slot(id) }
        }, apply: { setSelected(id) })
    }

}

// MARK: - What the gesture room sees and does

extension Map: GestureContext {
    @inline(__always) func slotOf(_ id: Int64) -> Int32? { pins.slot(of: id) }
    @inline(__always) func truePosition(_ slot: Int32) -> (lon: Double, lat: Double) { pins.position(slot) }

    /// Where a pin is drawn without a gesture: its place on a spread ring, else its coordinate.
    @inline(__always)
    func restingPosition(_ slot: Int32) -> (lon: Double, lat: Double) {
        spread.drawnPosition(slot) ?? pins.position(slot)
    }

    func isDraggable(_ slot: Int32) -> Bool { pins.isAlive(slot) && pins.isDraggable(slot) }

    @discardableResult
    func apply(_ effect: GestureEffect) -> Bool {
        switch effect {
        case .emit(let e):
            emit(e)
            if case .lifted(let id, _) = e { groupLifted(id) }  // a drag of a selected pin moves the selection
        case .select(let id): tapSelect(id)
        case .userMove(let slot, let lon, let lat, let cause):
            if group != nil, let moved = groupDrop(slot, lon: lon, lat: lat, cause: cause) { return moved }
            return applyUserMove(slot, lon: lon, lat: lat, cause: cause)
        case .openStack(let key): openStackByTap(key)
        case .closeStack: closeOpenStack()
        }
        return true
    }
}
