/// One handler per state of the pointer machine and of the tap window, each an exhaustive switch
/// over the inputs. The pointer machine's inputs come classified (`Map.touch` hit-tests a DOWN and
/// measures a MOVE or UP against the down point), so a handler never hit-tests or measures.
/// A handler sets the next state, hands what it does to the map to `c.apply`, and returns whether
/// pindrop owns the event (the return value of `touch`; ignored for the other inputs).
/// docs/gestures.md draws the same transitions; GestureDiagramTests checks that the two agree.
extension GestureMachine {
    // MARK: - Pointer machine

    func idleHandle<C: GestureContext>(_ input: Input, _ c: C) -> Bool {
        switch input {
        case .downOnPin(let pointer, let slot, let id, let x, let y):
            state = .pressed(.init(pointer: pointer, slot: slot, id: id, downX: x, downY: y, downTime: c.now))
            return true
        case .downOffPins(let pointer, let x, let y):
            state = .mapTouch(.init(pointer: pointer, downX: x, downY: y, downTime: c.now, secondTap: downIsSecondTap))
            return false
        case .downOnCluster(let pointer, let cluster, let x, let y):
            state = .clusterPress(.init(pointer: pointer, marker: cluster, downX: x, downY: y, downTime: c.now))
            return true
        case .downOnStack(let pointer, let stack, let x, let y):
            state = .stackPress(.init(pointer: pointer, marker: stack, downX: x, downY: y, downTime: c.now))
            return true
        case .move, .moveBeyondThreshold, .up, .cancel:
            return false  // unreachable: in idle no pointer is down, and touch checks the pointer
        case .liftTimeout, .tick, .cancelGesture, .viewChanged, .pinRemoved:
            return false
        }
    }

    func pressedHandle<C: GestureContext>(_ p: Press, _ input: Input, _ c: C) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            // A second pointer while the pin is only pressed: a pinch or a two-finger pan.
            state = .hostGesture
            return false
        case .move(let pointer, _, _):
            return pointer == p.pointer
        case .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == p.pointer else { return false }
            if options.liftDelayMs == 0 && c.isDraggable(p.slot) {
                // Mouse profile: press and move drags at once.
                var h = startHold(p, liftStart: c.now, c)
                h.fingerX = x; h.fingerY = y
                startDragging(&h, c)
                return true
            }
            // Touch profile: a quick swipe that starts on a pin pans the map.
            state = .hostGesture
            return false
        case .up(let pointer, _, _, let beyond):
            guard pointer == p.pointer else { return false }
            state = .idle
            if c.now - p.downTime <= options.tapMaxMs && !beyond {
                c.apply(.select(p.id))  // a tap on a pin selects it
            }
            return true
        case .cancel(let pointer):
            guard pointer == p.pointer else { return false }
            state = .idle
            return true
        case .liftTimeout:
            guard let deadline = liftDeadline(p, c) else { return false }
            state = .lifted(startHold(p, liftStart: deadline, c))
            return true
        case .tick, .viewChanged:
            return false
        case .cancelGesture:
            state = .finished(pointer: p.pointer)
            return false
        case .pinRemoved(let slot):
            if slot == p.slot { state = .finished(pointer: p.pointer) }
            return false
        }
    }

    func liftedHandle<C: GestureContext>(_ hold: Hold, _ input: Input, _ c: C) -> Bool {
        var h = hold
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            return false  // other pointers belong to the host during a hold
        case .move(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            state = .lifted(h)
            return true
        case .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            startDragging(&h, c)
            return true
        case .up(let pointer, let x, let y, let beyond):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            if beyond {
                // The release point is the last move: follow it, then drop there.
                startDragging(&h, c)
                drop(h, c)
            } else {
                releaseUnmoved(h, c)
            }
            return true
        case .liftTimeout, .tick, .viewChanged:
            return false
        case .cancel, .cancelGesture, .pinRemoved:
            return holdInterrupted(h, input, c)
        }
    }

    func draggingHandle<C: GestureContext>(_ hold: Hold, _ input: Input, _ c: C) -> Bool {
        var h = hold
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            return false  // other pointers belong to the host during a drag
        case .move(let pointer, let x, let y), .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            follow(&h, c)
            state = .dragging(h)
            return true
        case .up(let pointer, let x, let y, _):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            follow(&h, c)
            drop(h, c)
            return true
        case .liftTimeout:
            return false
        case .tick:
            follow(&h, c)
            accountAutopan(&h, now: c.now)
            if h.autopan.owedX != 0 || h.autopan.owedY != 0 {
                c.apply(.emit(.autopan(id: h.id, dx: h.autopan.owedX, dy: h.autopan.owedY)))
                h.autopan.owedX = 0; h.autopan.owedY = 0
            }
            state = .dragging(h)
            return false
        case .viewChanged:
            follow(&h, c)
            state = .dragging(h)
            return false
        case .cancel, .cancelGesture, .pinRemoved:
            return holdInterrupted(h, input, c)
        }
    }

    /// The ways a hold ends without a drop, shared by lifted and dragging: the holding pointer's
    /// cancel (the rest is the host's if other pointers are down), cancel_gesture, or the removal
    /// of its pin (no glide: the pin is gone); the rest of the touch is swallowed after the last two.
    private func holdInterrupted<C: GestureContext>(_ h: Hold, _ input: Input, _ c: C) -> Bool {
        switch input {
        case .cancel(let pointer):
            guard pointer == h.pointer else { return false }
            cancelHold(h, next: pointersLeftState(), c)
            return true
        case .cancelGesture:
            cancelHold(h, next: .finished(pointer: h.pointer), c)
        case .pinRemoved(let slot):
            if slot == h.slot { cancelHold(h, next: .finished(pointer: h.pointer), animate: false, c) }
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack, .move, .moveBeyondThreshold, .up, .liftTimeout, .tick,
             .viewChanged:
            break
        }
        return false
    }

    func mapTouchHandle<C: GestureContext>(_ t: MapTouch, _ input: Input, _ c: C) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            state = .hostGesture  // a second finger: the host's pinch or pan
        case .move:
            break
        case .moveBeyondThreshold(let pointer, _, _):
            if pointer == t.pointer { state = .hostGesture }
        case .up(let pointer, let x, let y, let beyond):
            guard pointer == t.pointer else { return false }
            state = .idle
            if !t.secondTap && c.now - t.downTime <= options.tapMaxMs && !beyond,
               let p = c.view.toLonLatUnwrapped(x, y) {
                let tap = PendingTap(x: x, y: y, lon: Sphere.normalizeLon(p.lon), lat: min(90, max(-90, p.lat)),
                                     deadline: c.now + options.doubleTapMs, editing: c.editingID, selected: c.selectedID)
                if options.spreadOnTap { c.apply(.closeStack) }  // a tap on the map away from the open stack closes it
                tapHandle(.tap(tap), c)
            }
        case .cancel(let pointer):
            if pointer == t.pointer { state = .idle }
        case .cancelGesture:
            state = .hostGesture  // the touch can no longer become a tap
        case .liftTimeout, .tick, .viewChanged, .pinRemoved:
            break
        }
        return false
    }

    func clusterPressHandle<C: GestureContext>(_ p: MarkerPress, _ input: Input, _ c: C) -> Bool {
        markerPressHandle(pointer: p.pointer, downTime: p.downTime, input, c) {
            c.apply(.emit(.clusterTapped(key: p.marker.key, at: LonLat(lon: p.marker.lon, lat: p.marker.lat))))
        }
    }

    /// A press on a collapsed stack (behaviour 22): as a press on a cluster, but a tap opens it.
    func stackPressHandle<C: GestureContext>(_ p: MarkerPress, _ input: Input, _ c: C) -> Bool {
        markerPressHandle(pointer: p.pointer, downTime: p.downTime, input, c) { c.apply(.openStack(p.marker.key)) }
    }

    /// A press on a marker that stands for pins (a cluster or a collapsed stack): it never lifts
    /// anything, a finger that moves from it pans (the host's), a second finger is the host's
    /// pinch or pan, and a tap does what the marker does (`tapped`).
    private func markerPressHandle<C: GestureContext>(pointer: Int32, downTime: Double, _ input: Input, _ c: C,
                                                      tapped: () -> Void) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            state = .hostGesture  // a second finger: the host's pinch or pan
            return false
        case .move(let moved, _, _):
            return moved == pointer
        case .moveBeyondThreshold(let moved, _, _):
            guard moved == pointer else { return false }
            state = .hostGesture  // a finger that moves from a marker pans
            return false
        case .up(let lifted, _, _, let beyond):
            guard lifted == pointer else { return false }
            state = .idle
            if c.now - downTime <= options.tapMaxMs && !beyond { tapped() }
            return true
        case .cancel(let cancelled):
            guard cancelled == pointer else { return false }
            state = .idle
            return true
        case .cancelGesture:
            state = .finished(pointer: pointer)
            return false
        case .liftTimeout, .tick, .viewChanged, .pinRemoved:
            return false  // a press on a marker never lifts anything
        }
    }

    func hostGestureHandle(_ input: Input) -> Bool {
        switch input {
        case .up, .cancel:
            if pointers.isEmpty { state = .idle }
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack, .move, .moveBeyondThreshold, .liftTimeout, .tick,
             .cancelGesture, .viewChanged, .pinRemoved:
            break
        }
        return false
    }

    func finishedHandle(_ pointer: Int32, _ input: Input) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster, .downOnStack:
            return false
        case .move(let p, _, _), .moveBeyondThreshold(let p, _, _):
            return p == pointer
        case .up(let p, _, _, _), .cancel(let p):
            guard p == pointer else { return false }
            state = pointersLeftState()
            return true
        case .liftTimeout, .tick, .cancelGesture, .viewChanged, .pinRemoved:
            return false
        }
    }

    // MARK: - Tap window

    /// Returns whether a DOWN is the second touch of a double tap.
    func tapClosedHandle(_ input: TapInput) -> Bool {
        switch input {
        case .tap(let t): tapWindow = .open(t)
        case .down, .timeout, .cancelGesture, .keyLift: break
        }
        return false
    }

    func tapOpenHandle<C: GestureContext>(_ t: PendingTap, _ input: TapInput, _ c: C) -> Bool {
        switch input {
        case .tap(let newer):
            tapWindow = .open(newer)  // the latest single tap wins
            return false
        case .down(let x, let y):
            let dx = x - t.x, dy = y - t.y, slop = options.doubleTapSlop
            guard dx * dx + dy * dy <= slop * slop else { return false }
            tapWindow = .closed  // a double tap: the host zooms, nothing moves
            return true
        case .timeout:
            tapWindow = .closed
            resolveSingleTap(t, c)
            return false
        case .cancelGesture, .keyLift:
            tapWindow = .closed  // a keyboard lift is a newer gesture: it wins, as a finger's does
            return false
        }
    }

    /// A single tap on the map, confirmed: move the pin being edited there, or clear the selection.
    func resolveSingleTap<C: GestureContext>(_ t: PendingTap, _ c: C) {
        if t.editing != noID {
            guard c.editingID == t.editing, let slot = c.slotOf(t.editing), c.isDraggable(slot), slot != heldSlot else { return }
            let drawn = drawnPosition(slot, c) ?? c.restingPosition(slot)
            let before = c.view.toScreen(drawn.lon, drawn.lat)
            let to = c.snappedLanding(slot, (t.lon, t.lat))  // a tap-to-move snaps as a drag does
            if c.apply(.userMove(slot: slot, lon: to.lon, lat: to.lat, cause: .tap)) {
                startDropAnimation(slot, fromLift: 0, before: before, c)
            }
        } else if t.selected != noID && c.selectedID == t.selected {
            c.apply(.select(noID))
        }
    }

    // MARK: - Steps shared by the handlers

    /// Where the pointer machine goes when pindrop's pointer is up: idle, or the host's gesture if
    /// other pointers are still down.
    func pointersLeftState() -> State {
        pointers.isEmpty ? .idle : .hostGesture
    }

    /// Lifts the pressed pin: the grab offset is taken from where the pin is drawn now (a spread
    /// position, or mid-way through its drop animation).
    func startHold<C: GestureContext>(_ p: Press, liftStart: Double, _ c: C) -> Hold {
        let origin = drawnPosition(p.slot, c) ?? c.restingPosition(p.slot)
        let screen = c.view.toScreen(origin.lon, origin.lat) ?? (p.downX, p.downY)
        let liftFrom = max(0, lift(p.slot, at: c.now))
        if let d = drop, d.slot == p.slot { drop = nil }
        heldSlot = p.slot
        c.apply(.emit(.lifted(id: p.id, at: LonLat(c.truePosition(p.slot)))))
        return Hold(pointer: p.pointer, slot: p.slot, id: p.id, downX: p.downX, downY: p.downY,
                    fingerX: p.downX, fingerY: p.downY, offsetX: screen.x - p.downX, offsetY: screen.y - p.downY,
                    originLon: origin.lon, originLat: origin.lat, liftStart: liftStart, liftFrom: liftFrom)
    }

    /// The pin starts following the finger.
    func startDragging<C: GestureContext>(_ h: inout Hold, _ c: C) {
        h.autopan = Autopan(last: c.now)
        follow(&h, c)
        state = .dragging(h)
    }

    /// Recomputes the landing point from the finger (never from earlier positions), reports it with
    /// DRAGGED when it changed, and updates the auto-pan velocity.
    @inline(__always)
    func follow<C: GestureContext>(_ h: inout Hold, _ c: C) {
        if let raw = landingPosition(h, at: c.now, c) {
            // The snap (behaviour 24) is asked once per new landing point; DRAGGED reports the
            // snapped point, so the drop commits exactly it.
            let p = c.snappedLanding(h.slot, raw)
            h.rawLon = raw.lon; h.rawLat = raw.lat
            if !h.dragged || p.lon != h.landingLon || p.lat != h.landingLat {
                h.landingLon = p.lon; h.landingLat = p.lat; h.dragged = true
                c.apply(.emit(.dragged(id: h.id, to: LonLat(p))))
            }
        }
        accountAutopan(&h, now: c.now)
        let v = autopanVelocity(h, c)
        h.autopan.vx = v.vx; h.autopan.vy = v.vy
    }

    /// Releases a dragged pin: DROPPED where it was, then the user move (MOVED, bit for bit the
    /// last DRAGGED), then the drop animation from where it was drawn. A drag that never had a
    /// landing point (the host's view could not place one: no DRAGGED) moves nothing.
    func drop<C: GestureContext>(_ h: Hold, _ c: C) {
        guard h.dragged else { return releaseUnmoved(h, c) }
        state = pointersLeftState()
        heldSlot = -1
        land(slot: h.slot, id: h.id, at: (h.landingLon, h.landingLat), fromLift: max(0, visualLift(h, at: c.now)),
             cause: .drag, c)
    }

    /// Releases a lifted pin that never followed the finger: nothing changes, it falls back.
    func releaseUnmoved<C: GestureContext>(_ h: Hold, _ c: C) {
        endHold(h, next: pointersLeftState(), cancelled: false, animate: true, c)
    }

    /// Cancels a hold: the pin's true coordinate never changed during the gesture, so it is
    /// restored by ending the gesture; it glides back from where it was drawn.
    func cancelHold<C: GestureContext>(_ h: Hold, next: State, animate: Bool = true, _ c: C) {
        endHold(h, next: next, cancelled: true, animate: animate, c)
    }

    /// Ends a hold that leaves the pin at its true coordinate: DROPPED (or DRAG_CANCELLED) carries
    /// that coordinate, and the pin glides there from where it was drawn.
    private func endHold<C: GestureContext>(_ h: Hold, next: State, cancelled: Bool, animate: Bool, _ c: C) {
        let drawn = heldDrawnPosition(c)
        state = next
        heldSlot = -1
        let fromLift = max(0, visualLift(h, at: c.now))
        let at = LonLat(c.truePosition(h.slot))
        c.apply(.emit(cancelled ? .dragCancelled(id: h.id, at: at) : .dropped(id: h.id, at: at)))
        if animate {
            startDropAnimation(h.slot, fromLift: fromLift, before: drawn.flatMap { c.view.toScreen($0.lon, $0.lat) }, c)
        }
    }
}
