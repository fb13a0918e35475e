/// One handler per state of the pointer machine and of the tap window, each an exhaustive switch
/// over the inputs. The pointer machine's inputs come classified (`Map.touch` hit-tests a DOWN and
/// measures a MOVE or UP against the down point), so a handler never hit-tests or measures.
/// A handler sets the next state and returns whether pindrop owns the event
/// (the return value of `touch`; ignored for the other inputs). docs/gestures.md draws the same
/// transitions; GestureDiagramTests checks that the two agree.
extension Map {
    typealias Input = GestureMachine.Input

    // MARK: - Pointer machine

    func idleHandle(_ input: Input) -> Bool {
        switch input {
        case .downOnPin(let pointer, let slot, let id, let x, let y):
            gesture.state = .pressed(.init(pointer: pointer, slot: slot, id: id, downX: x, downY: y, downTime: now))
            return true
        case .downOffPins(let pointer, let x, let y):
            gesture.state = .mapTouch(.init(pointer: pointer, downX: x, downY: y, downTime: now,
                                            secondTap: gesture.downIsSecondTap))
            return false
        case .downOnCluster(let pointer, let cluster, let x, let y):
            gesture.state = .clusterPress(.init(pointer: pointer, cluster: cluster, downX: x, downY: y, downTime: now))
            return true
        case .move, .moveBeyondThreshold, .up, .cancel:
            return false  // unreachable: in idle no pointer is down, and touch checks the pointer
        case .liftTimeout, .tick, .cancelGesture, .viewChanged, .pinRemoved:
            return false
        }
    }

    func pressedHandle(_ p: GestureMachine.Press, _ input: Input) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            // A second pointer while the pin is only pressed: a pinch or a two-finger pan.
            gesture.state = .hostGesture
            return false
        case .move(let pointer, _, _):
            return pointer == p.pointer
        case .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == p.pointer else { return false }
            if options.liftDelayMs == 0 && pins.isDraggable(p.slot) {
                // Mouse profile: press and move drags at once.
                var h = startHold(p, liftStart: now)
                h.fingerX = x; h.fingerY = y
                startDragging(&h)
                return true
            }
            // Touch profile: a quick swipe that starts on a pin pans the map.
            gesture.state = .hostGesture
            return false
        case .up(let pointer, _, _, let beyond):
            guard pointer == p.pointer else { return false }
            gesture.state = .idle
            if now - p.downTime <= options.tapMaxMs && !beyond {
                setSelected(p.id)  // a tap on a pin selects it
            }
            return true
        case .cancel(let pointer):
            guard pointer == p.pointer else { return false }
            gesture.state = .idle
            return true
        case .liftTimeout:
            guard let deadline = liftDeadline(p) else { return false }
            let h = startHold(p, liftStart: deadline)
            gesture.state = .lifted(h)
            return true
        case .tick, .viewChanged:
            return false
        case .cancelGesture:
            gesture.state = .finished(pointer: p.pointer)
            return false
        case .pinRemoved(let slot):
            if slot == p.slot { gesture.state = .finished(pointer: p.pointer) }
            return false
        }
    }

    func liftedHandle(_ hold: GestureMachine.Hold, _ input: Input) -> Bool {
        var h = hold
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            return false  // other pointers belong to the host during a hold
        case .move(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            gesture.state = .lifted(h)
            return true
        case .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            startDragging(&h)
            return true
        case .up(let pointer, let x, let y, let beyond):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            if beyond {
                // The release point is the last move: follow it, then drop there.
                startDragging(&h)
                drop(h)
            } else {
                releaseUnmoved(h)
            }
            return true
        case .cancel(let pointer):
            guard pointer == h.pointer else { return false }
            cancelHold(h, next: pointersLeftState())
            return true
        case .liftTimeout, .tick, .viewChanged:
            return false
        case .cancelGesture:
            cancelHold(h, next: .finished(pointer: h.pointer))
            return false
        case .pinRemoved(let slot):
            if slot == h.slot { cancelHold(h, next: .finished(pointer: h.pointer), animate: false) }
            return false
        }
    }

    func draggingHandle(_ hold: GestureMachine.Hold, _ input: Input) -> Bool {
        var h = hold
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            return false  // other pointers belong to the host during a drag
        case .move(let pointer, let x, let y), .moveBeyondThreshold(let pointer, let x, let y):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            follow(&h)
            gesture.state = .dragging(h)
            return true
        case .up(let pointer, let x, let y, _):
            guard pointer == h.pointer else { return false }
            h.fingerX = x; h.fingerY = y
            follow(&h)
            drop(h)
            return true
        case .cancel(let pointer):
            guard pointer == h.pointer else { return false }
            cancelHold(h, next: pointersLeftState())
            return true
        case .liftTimeout:
            return false
        case .tick:
            follow(&h)
            GestureMachine.accountAutopan(&h, now: now)
            if h.autopan.owedX != 0 || h.autopan.owedY != 0 {
                var e = Event(.autopan, id: h.id, time: now)
                e.dx = h.autopan.owedX; e.dy = h.autopan.owedY
                events.push(e)
                h.autopan.owedX = 0; h.autopan.owedY = 0
            }
            gesture.state = .dragging(h)
            return false
        case .viewChanged:
            follow(&h)
            gesture.state = .dragging(h)
            return false
        case .cancelGesture:
            cancelHold(h, next: .finished(pointer: h.pointer))
            return false
        case .pinRemoved(let slot):
            if slot == h.slot { cancelHold(h, next: .finished(pointer: h.pointer), animate: false) }
            return false
        }
    }

    func mapTouchHandle(_ t: GestureMachine.MapTouch, _ input: Input) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            gesture.state = .hostGesture  // a second finger: the host's pinch or pan
        case .move:
            break
        case .moveBeyondThreshold(let pointer, _, _):
            if pointer == t.pointer { gesture.state = .hostGesture }
        case .up(let pointer, let x, let y, let beyond):
            guard pointer == t.pointer else { return false }
            gesture.state = .idle
            if !t.secondTap && now - t.downTime <= options.tapMaxMs && !beyond,
               let p = view.toLonLatUnwrapped(x, y) {
                let tap = GestureMachine.PendingTap(x: x, y: y, lon: Sphere.normalizeLon(p.lon),
                                                    lat: min(90, max(-90, p.lat)),
                                                    deadline: now + options.doubleTapMs,
                                                    editing: editingID, selected: selectedID)
                tapWindowHandle(.tap(tap))
            }
        case .cancel(let pointer):
            if pointer == t.pointer { gesture.state = .idle }
        case .cancelGesture:
            gesture.state = .hostGesture  // the touch can no longer become a tap
        case .liftTimeout, .tick, .viewChanged, .pinRemoved:
            break
        }
        return false
    }

    func clusterPressHandle(_ c: GestureMachine.ClusterPress, _ input: Input) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            gesture.state = .hostGesture  // a second finger: the host's pinch or pan
            return false
        case .move(let pointer, _, _):
            return pointer == c.pointer
        case .moveBeyondThreshold(let pointer, _, _):
            guard pointer == c.pointer else { return false }
            gesture.state = .hostGesture  // a finger that moves from a cluster pans
            return false
        case .up(let pointer, _, _, let beyond):
            guard pointer == c.pointer else { return false }
            gesture.state = .idle
            if now - c.downTime <= options.tapMaxMs && !beyond {
                var e = Event(.clusterTapped, id: noID, time: now)
                e.request = c.cluster.key
                e.lon = c.cluster.lon; e.lat = c.cluster.lat
                events.push(e)
            }
            return true
        case .cancel(let pointer):
            guard pointer == c.pointer else { return false }
            gesture.state = .idle
            return true
        case .cancelGesture:
            gesture.state = .finished(pointer: c.pointer)
            return false
        case .liftTimeout, .tick, .viewChanged, .pinRemoved:
            return false  // a press on a cluster never lifts anything
        }
    }

    func hostGestureHandle(_ input: Input) -> Bool {
        switch input {
        case .up, .cancel:
            if gesture.pointers.isEmpty { gesture.state = .idle }
        case .downOnPin, .downOffPins, .downOnCluster, .move, .moveBeyondThreshold, .liftTimeout, .tick, .cancelGesture, .viewChanged,
             .pinRemoved:
            break
        }
        return false
    }

    func finishedHandle(_ pointer: Int32, _ input: Input) -> Bool {
        switch input {
        case .downOnPin, .downOffPins, .downOnCluster:
            return false
        case .move(let p, _, _), .moveBeyondThreshold(let p, _, _):
            return p == pointer
        case .up(let p, _, _, _), .cancel(let p):
            guard p == pointer else { return false }
            gesture.state = pointersLeftState()
            return true
        case .liftTimeout, .tick, .cancelGesture, .viewChanged, .pinRemoved:
            return false
        }
    }

    // MARK: - Tap window

    /// Returns whether a DOWN is the second touch of a double tap.
    func tapClosedHandle(_ input: GestureMachine.TapInput) -> Bool {
        switch input {
        case .tap(let t): gesture.tapWindow = .open(t)
        case .down, .timeout, .cancelGesture: break
        }
        return false
    }

    func tapOpenHandle(_ t: GestureMachine.PendingTap, _ input: GestureMachine.TapInput) -> Bool {
        switch input {
        case .tap(let newer):
            gesture.tapWindow = .open(newer)  // the latest single tap wins
            return false
        case .down(let x, let y):
            let dx = x - t.x, dy = y - t.y, slop = options.doubleTapSlop
            guard dx * dx + dy * dy <= slop * slop else { return false }
            gesture.tapWindow = .closed  // a double tap: the host zooms, nothing moves
            return true
        case .timeout:
            gesture.tapWindow = .closed
            resolveSingleTap(t)
            return false
        case .cancelGesture:
            gesture.tapWindow = .closed
            return false
        }
    }

    /// A single tap on the map, confirmed: move the pin being edited there, or clear the selection.
    func resolveSingleTap(_ t: GestureMachine.PendingTap) {
        if t.editing != noID {
            guard editingID == t.editing, let slot = pins.slot(of: editingID), pins.isDraggable(slot),
                  slot != gesture.heldSlot else { return }
            let before = view.toScreen(drawnPosition(slot).lon, drawnPosition(slot).lat)
            if applyUserMove(slot, lon: t.lon, lat: t.lat, cause: .tap) {
                startDropAnimation(slot, fromLift: 0, before: before)
            }
        } else if t.selected != noID && selectedID == t.selected {
            setSelected(noID)
        }
    }

    // MARK: - Steps shared by the handlers

    @inline(__always)
    func beyondThreshold(_ x0: Double, _ y0: Double, _ x: Double, _ y: Double) -> Bool {
        let dx = x - x0, dy = y - y0, t = options.dragThreshold
        return dx * dx + dy * dy > t * t
    }

    /// Where the pointer machine goes when pindrop's pointer is up: idle, or the host's gesture if
    /// other pointers are still down.
    func pointersLeftState() -> GestureMachine.State {
        gesture.pointers.isEmpty ? .idle : .hostGesture
    }

    /// Lifts the pressed pin: the grab offset is taken from where the pin is drawn now (a spread
    /// position, or mid-way through its drop animation).
    func startHold(_ p: GestureMachine.Press, liftStart: Double) -> GestureMachine.Hold {
        let origin = drawnPosition(p.slot)
        let screen = view.toScreen(origin.lon, origin.lat) ?? (p.downX, p.downY)
        let liftFrom = max(0, gestureLift(p.slot, time: now))
        if let d = gesture.drop, d.slot == p.slot { gesture.drop = nil }
        gesture.heldSlot = p.slot
        var e = Event(.lifted, id: p.id, time: now)
        let t = pins.position(p.slot)
        e.lon = t.lon; e.lat = t.lat
        events.push(e)
        return GestureMachine.Hold(pointer: p.pointer, slot: p.slot, id: p.id, downX: p.downX, downY: p.downY,
                                   fingerX: p.downX, fingerY: p.downY,
                                   offsetX: screen.x - p.downX, offsetY: screen.y - p.downY,
                                   originLon: origin.lon, originLat: origin.lat,
                                   liftStart: liftStart, liftFrom: liftFrom)
    }

    /// The pin starts following the finger.
    func startDragging(_ h: inout GestureMachine.Hold) {
        h.autopan = GestureMachine.Autopan(last: now)
        follow(&h)
        gesture.state = .dragging(h)
    }

    /// Recomputes the landing point from the finger (never from earlier positions), reports it with
    /// DRAGGED when it changed, and updates the auto-pan velocity.
    func follow(_ h: inout GestureMachine.Hold) {
        if let p = landingPosition(h, at: now), !h.dragged || p.lon != h.landingLon || p.lat != h.landingLat {
            h.landingLon = p.lon; h.landingLat = p.lat; h.dragged = true
            var e = Event(.dragged, id: h.id, time: now)
            e.lon = p.lon; e.lat = p.lat
            events.push(e)
        }
        GestureMachine.accountAutopan(&h, now: now)
        let v = autopanVelocity(h)
        h.autopan.vx = v.vx; h.autopan.vy = v.vy
    }

    /// Releases a dragged pin: DROPPED where it was, then the user move (MOVED, bit for bit the
    /// last DRAGGED), then the drop animation from where it was drawn. A drag that never had a
    /// landing point (the host's view could not place one: no DRAGGED) moves nothing.
    func drop(_ h: GestureMachine.Hold) {
        guard h.dragged else { return releaseUnmoved(h) }
        gesture.state = pointersLeftState()
        gesture.heldSlot = -1
        let fromLift = max(0, GestureMachine.visualLift(h, at: now, options))
        var e = Event(.dropped, id: h.id, time: now)
        e.lon = h.landingLon; e.lat = h.landingLat
        events.push(e)
        let before = view.toScreen(h.landingLon, h.landingLat)
        let t = pins.position(h.slot)
        if t.lon != h.landingLon || t.lat != h.landingLat {
            applyUserMove(h.slot, lon: h.landingLon, lat: h.landingLat, cause: .drag)
        }
        startDropAnimation(h.slot, fromLift: fromLift, before: before)
    }

    /// Releases a lifted pin that never followed the finger: nothing changes, it falls back.
    func releaseUnmoved(_ h: GestureMachine.Hold) {
        let drawn = heldDrawnPosition()
        gesture.state = pointersLeftState()
        gesture.heldSlot = -1
        let fromLift = max(0, GestureMachine.visualLift(h, at: now, options))
        var e = Event(.dropped, id: h.id, time: now)
        let t = pins.position(h.slot)
        e.lon = t.lon; e.lat = t.lat
        events.push(e)
        startDropAnimation(h.slot, fromLift: fromLift, before: drawn.flatMap { view.toScreen($0.lon, $0.lat) })
    }

    /// Cancels a hold: the pin's true coordinate never changed during the gesture, so it is
    /// restored by ending the gesture; it glides back from where it was drawn.
    func cancelHold(_ h: GestureMachine.Hold, next: GestureMachine.State, animate: Bool = true) {
        let drawn = heldDrawnPosition()
        gesture.state = next
        gesture.heldSlot = -1
        let fromLift = max(0, GestureMachine.visualLift(h, at: now, options))
        var e = Event(.dragCancelled, id: h.id, time: now)
        let t = pins.position(h.slot)
        e.lon = t.lon; e.lat = t.lat
        events.push(e)
        if animate { startDropAnimation(h.slot, fromLift: fromLift, before: drawn.flatMap { view.toScreen($0.lon, $0.lat) }) }
    }
}
