/// The keyboard machine (behaviour 20; docs/gestures.md, "The keyboard machine"): the whole drag
/// by keys, as Google Maps' draggable markers have it. `key_lift` lifts the selected pin as a held
/// finger would (LIFTED; it rises in place, lift_height is not applied: no finger hides it),
/// nudges move it as a drag (DRAGGED, auto-pan near the edges), `key_drop` drops it (DROPPED, then
/// MOVED with cause KEYBOARD through the map's single user-move path: one undo step), and
/// `cancel_gesture` puts it back (DRAG_CANCELLED).
///
/// It runs beside the pointer machine and the tap window, with its own states and inputs. The map
/// keeps the two apart: no pointer is down while the keyboard holds a pin (`key_lift` refuses
/// while one is, `touch` refuses while the keyboard holds one). Its inputs come classified like
/// the pointer machine's: a nudge arrives as the screen point the pin is to mark
/// (`keyNudgeTarget`), already checked to be one the view can place.
///
/// The held pin is the machine's `heldSlot`, as a finger's is, so everything that asks whether a
/// gesture holds a pin (drawn positions, frames, hit tests, the editing room, the clusters) sees a
/// keyboard drag without knowing it is one.
extension GestureMachine {
    /// What the keyboard is doing. Each case has one handler below.
    enum KeyState {
        /// The keyboard holds nothing.
        case keyIdle
        /// `key_lift` lifted the pin; no nudge has moved it yet. It is drawn where it was.
        case keyLifted(KeyHold)
        /// Nudges move the pin: it marks `KeyHold.x, y` on the screen, and its landing point is
        /// the coordinate under that point in the current view (it stays at that screen point as
        /// the map pans under it, as a dragged pin stays under the finger).
        case keyDragging(KeyHold)

        var name: StaticString {
            switch self {
            case .keyIdle: "keyIdle"
            case .keyLifted: "keyLifted"
            case .keyDragging: "keyDragging"
            }
        }
    }

    /// What the keyboard machine reacts to. `keyLift` comes only in keyIdle with no pointer down
    /// (the map checks); the others only while the keyboard holds a pin.
    enum KeyInput {
        /// pindrop_map_key_lift on the selected pin.
        case keyLift(slot: Int32, id: Int64)
        /// A nudge of (dx, dy) that moves the pin: (x, y) is the screen point it is to mark.
        case nudge(x: Double, y: Double, dx: Double, dy: Double)
        /// pindrop_map_key_drop.
        case keyDrop
        /// A tick (auto-pan accounting).
        case tick
        case cancelGesture
        case viewChanged
        case pinRemoved(slot: Int32)

        var name: StaticString {
            switch self {
            case .keyLift: "keyLift"
            case .nudge: "nudge"
            case .keyDrop: "keyDrop"
            case .tick: "tick"
            case .cancelGesture: "cancelGesture"
            case .viewChanged: "viewChanged"
            case .pinRemoved: "pinRemoved"
            }
        }
    }

    /// A pin the keyboard holds.
    struct KeyHold {
        var slot: Int32
        var id: Int64
        /// Where the pin was drawn when it lifted (its spread position, or mid-way through a glide).
        var originLon, originLat: Double
        /// When the lift animation started, and the lift it started from.
        var liftStart, liftFrom: Double
        /// The screen point the pin marks while dragged: where the first nudge took it from its
        /// drawn point, plus every nudge since (screen points, never a coordinate plus a delta).
        var x = 0.0, y = 0.0
        /// The last landing point reported by DRAGGED (meaningful once `dragged`).
        var landingLon = 0.0, landingLat = 0.0
        var dragged = false
        var autopan = Autopan()
        /// The last nudge (points): auto-pan runs toward an edge only while it pushed the pin
        /// toward that edge (`keyFollow`).
        var pushX = 0.0, pushY = 0.0
    }

    /// The pin the keyboard holds, if any.
    var keyHold: KeyHold? {
        switch keyboard {
        case .keyLifted(let h), .keyDragging(let h): h
        case .keyIdle: nil
        }
    }

    /// The slot the keyboard holds, if any.
    var keyboardSlot: Int32? { keyHold?.slot }

    // MARK: - Entry points (the map checks, the machine transitions)

    /// Lifts the pin in `slot` by keyboard. A tap on the map still waiting for its double-tap
    /// window is dropped (the newer gesture wins, as when a finger lifts the edited pin).
    func keyLift<C: GestureContext>(slot: Int32, id: Int64, _ c: C) {
        tapHandle(.keyLift, c)
        keyHandle(.keyLift(slot: slot, id: id), c)
    }

    /// The screen point a nudge of (dx, dy) takes the held pin to: from where it is drawn for
    /// the first nudge, from the point it marks after that. Nil when the keyboard holds nothing
    /// or the view cannot place the pin.
    func keyNudgeTarget<C: GestureContext>(dx: Double, dy: Double, _ c: C) -> (x: Double, y: Double)? {
        switch keyboard {
        case .keyIdle: return nil
        case .keyLifted(let h):
            guard let q = c.view.toScreen(h.originLon, h.originLat) else { return nil }
            return (q.x + dx, q.y + dy)
        case .keyDragging(let h): return (h.x + dx, h.y + dy)
        }
    }

    /// Runs the keyboard machine's handler on `input` and traces the transition.
    func keyHandle<C: GestureContext>(_ input: KeyInput, _ c: C) {
        let from: StaticString = isTracing ? keyboard.name : ""
        switch keyboard {
        case .keyIdle: keyIdleHandle(input, c)
        case .keyLifted(let h): keyLiftedHandle(h, input, c)
        case .keyDragging(let h): keyDraggingHandle(h, input, c)
        }
        if isTracing { traceTransition("keyboard", from, input.name, keyboard.name, c.now) }
    }

    /// Whether the tap window, resolved by `time`, would clear the selection `selected` (a single
    /// tap on the map with nothing being edited): `key_lift` refuses then rather than lift a pin
    /// the user has just deselected.
    func tapClearsSelection(by time: Double, selected: Int64) -> Bool {
        guard case .open(let t) = tapWindow, t.deadline <= time else { return false }
        return t.editing == noID && t.selected == selected
    }

    // MARK: - Handlers

    func keyIdleHandle<C: GestureContext>(_ input: KeyInput, _ c: C) {
        switch input {
        case .keyLift(let slot, let id):
            let origin = drawnPosition(slot, c) ?? c.restingPosition(slot)
            let liftFrom = max(0, lift(slot, at: c.now))
            if let d = drop, d.slot == slot { drop = nil }
            heldSlot = slot
            keyboard = .keyLifted(KeyHold(slot: slot, id: id, originLon: origin.lon, originLat: origin.lat,
                                          liftStart: c.now, liftFrom: liftFrom))
            c.apply(.emit(.lifted(id: id, at: LonLat(c.truePosition(slot)))))
        case .nudge, .keyDrop, .tick, .cancelGesture, .viewChanged, .pinRemoved:
            break  // unreachable: the map sends these only while the keyboard holds a pin
        }
    }

    func keyLiftedHandle<C: GestureContext>(_ hold: KeyHold, _ input: KeyInput, _ c: C) {
        var h = hold
        switch input {
        case .nudge(let x, let y, let dx, let dy):
            h.x = x; h.y = y
            h.pushX = dx; h.pushY = dy
            h.autopan = Autopan(last: c.now)
            keyFollow(&h, c)
            keyboard = .keyDragging(h)
        case .keyDrop:
            endKeyHold(h, cancelled: false, animate: true, c)  // never moved: nothing changes
        case .cancelGesture:
            endKeyHold(h, cancelled: true, animate: true, c)
        case .pinRemoved(let slot):
            if slot == h.slot { endKeyHold(h, cancelled: true, animate: false, c) }
        case .keyLift, .tick, .viewChanged:
            break  // a lifted pin stays where it was drawn
        }
    }

    func keyDraggingHandle<C: GestureContext>(_ hold: KeyHold, _ input: KeyInput, _ c: C) {
        var h = hold
        switch input {
        case .nudge(let x, let y, let dx, let dy):
            h.x = x; h.y = y
            h.pushX = dx; h.pushY = dy
            keyFollow(&h, c)
            keyboard = .keyDragging(h)
        case .keyDrop:
            keyDropDragged(h, c)
        case .tick:
            keyFollow(&h, c)
            accountAutopan(&h.autopan, now: c.now)
            if h.autopan.owedX != 0 || h.autopan.owedY != 0 {
                c.apply(.emit(.autopan(id: h.id, dx: h.autopan.owedX, dy: h.autopan.owedY)))
                h.autopan.owedX = 0; h.autopan.owedY = 0
            }
            keyboard = .keyDragging(h)
        case .viewChanged:
            keyFollow(&h, c)
            keyboard = .keyDragging(h)
        case .cancelGesture:
            endKeyHold(h, cancelled: true, animate: true, c)
        case .pinRemoved(let slot):
            if slot == h.slot { endKeyHold(h, cancelled: true, animate: false, c) }
        case .keyLift:
            break  // unreachable: the map refuses a second key lift
        }
    }

    // MARK: - Steps

    /// Recomputes the landing point from the screen point the pin marks (never from earlier
    /// positions), reports it with DRAGGED when it changed, and updates the auto-pan velocity.
    func keyFollow<C: GestureContext>(_ h: inout KeyHold, _ c: C) {
        if let p = lonLat(h.x, h.y, c), !h.dragged || p.lon != h.landingLon || p.lat != h.landingLat {
            h.landingLon = p.lon; h.landingLat = p.lat; h.dragged = true
            c.apply(.emit(.dragged(id: h.id, to: LonLat(p))))
        }
        accountAutopan(&h.autopan, now: c.now)
        let v = autopanVelocity(fingerX: h.x, fingerY: h.y, landingX: h.x, landingY: h.y, c)
        // Unlike a finger, a key cannot be held still at the edge and then taken away: a pin
        // focused inside the band (Tab reaches the top of the view first) and nudged along it
        // would set the map panning until another key stopped it. So an axis pans only while
        // the last nudge pushed the pin toward that edge; a nudge along it or away stops it.
        h.autopan.vx = Self.toward(v.vx, h.pushX)
        h.autopan.vy = Self.toward(v.vy, h.pushY)
    }

    /// An auto-pan velocity on one axis, kept when the last nudge on that axis went its way.
    private static func toward(_ v: Double, _ push: Double) -> Double {
        (v > 0 && push > 0) || (v < 0 && push < 0) ? v : 0
    }

    /// Drops a pin the keyboard moved: DROPPED at its last landing point, then the user move
    /// (MOVED with cause KEYBOARD, bit for bit the last DRAGGED, through the editing rules), then
    /// the lift falls (and the pin glides where the editing rules or a spread ring put it).
    func keyDropDragged<C: GestureContext>(_ h: KeyHold, _ c: C) {
        guard h.dragged else { return endKeyHold(h, cancelled: false, animate: true, c) }
        keyboard = .keyIdle
        heldSlot = -1
        land(slot: h.slot, id: h.id, at: (h.landingLon, h.landingLat), fromLift: max(0, keyVisualLift(h, at: c.now)),
             cause: .keyboard, c)
    }

    /// Ends a keyboard hold that leaves the pin at its true coordinate: DROPPED (a drop that never
    /// moved) or DRAG_CANCELLED carries that coordinate, and the pin glides there from where it
    /// was drawn (not when its pin is being removed).
    func endKeyHold<C: GestureContext>(_ h: KeyHold, cancelled: Bool, animate: Bool, _ c: C) {
        let drawn = keyDrawnPosition(h, c)
        keyboard = .keyIdle
        heldSlot = -1
        let fromLift = max(0, keyVisualLift(h, at: c.now))
        let at = LonLat(c.truePosition(h.slot))
        c.apply(.emit(cancelled ? .dragCancelled(id: h.id, at: at) : .dropped(id: h.id, at: at)))
        if animate {
            startDropAnimation(h.slot, fromLift: fromLift, before: c.view.toScreen(drawn.lon, drawn.lat), c)
        }
    }

    // MARK: - Where the held pin is drawn

    /// Where the keyboard's pin is drawn: where it was when lifted, then its landing point (the
    /// last one, if the view cannot place the point it marks).
    func keyDrawnPosition<C: GestureContext>(_ h: KeyHold, _ c: C) -> (lon: Double, lat: Double) {
        guard case .keyDragging = keyboard else { return (h.originLon, h.originLat) }
        return lonLat(h.x, h.y, c) ?? (h.dragged ? (h.landingLon, h.landingLat) : (h.originLon, h.originLat))
    }

    /// The lift value a host draws for the keyboard's pin (it rises from where a drop left it).
    func keyVisualLift(_ h: KeyHold, at t: Double) -> Double {
        h.liftFrom + (1 - h.liftFrom) * liftProgress(from: h.liftStart, at: t)
    }
}
