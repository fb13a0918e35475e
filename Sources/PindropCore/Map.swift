/// A map: its pins, its view, its gestures and the events it has for the host. One thread at a
/// time. Every mutating entry point either succeeds or throws and changes nothing.
public final class Map {
    public let options: Options
    public internal(set) var pins = PinStore()
    /// True coordinates of all pins.
    public let index: SpatialIndex
    let factory: IndexFactory
    public internal(set) var view: View
    public internal(set) var events = EventQueue()
    /// The latest time the host passed; times must never decrease.
    public internal(set) var now = -Double.infinity

    /// The selected pin and the pin being placed or edited (PINDROP_NO_ID: none). The edited pin
    /// is the editing room's (its session's pin); tests may set it to stand for a session.
    public internal(set) var selectedID: Int64 = noID
    public internal(set) var editingID: Int64 {
        get { editing.editingID }
        set { editing.editingID = newValue }
    }

    // The rooms of the map, each in its own folder: gestures, spreading, editing, frame.
    let gesture: GestureMachine
    var spread: SpreadLayout
    let editing: EditingRoom

    // Scratch buffers reused across calls so that queries do not allocate once warmed up.
    var candidates: [Int32] = []
    public internal(set) var nearbyResults: [NearbyHit] = []
    /// The frame room: what to draw, in drawing order, with its scratch buffers.
    var frame = FrameBuilder()
    /// Bumped by every change of a pin, a layout or a gesture: hit tests use the last frame's
    /// grid (`frame.hits`) only while it is unchanged.
    var version: UInt64 = 0
    /// The cluster room (nil when cluster_radius is 0): the levels of clusters, kept up to date
    /// through the pin hooks; the selected, edited and held pins are kept out of it.
    let clusters: ClusterRoom?
    /// The clusters of the last `frameClusters` call.
    public internal(set) var clusterViews: [ClusterView] = []
    /// Scratch buffers of the stacks (behaviour 22, MapStacks.swift).
    var keptScratch: [Int32] = []
    var stackGroups: [Int32] = []
    var stackScratch: [Int32] = []
    /// The pins' values and categories (behaviour 19), read by the cluster room.
    public let attributes = PinAttributes()
    /// The members of the cluster last listed in id order, and its key (`clusterMembers`).
    var sortedMembers: (key: UInt64, ids: [Int64]) = (0, [])

    public init(options: Options = Options(), factory: IndexFactory) throws(PindropError) {
        try options.validate()
        self.options = options
        self.factory = factory
        self.gesture = GestureMachine(options: options)
        self.editing = EditingRoom(options: options)
        self.index = factory.makeIndex(sharing: pins.coordinates)
        let view = View.camera(CameraTransform(Camera(centerLon: 0, centerLat: 0, zoom: 0, width: 256, height: 256)))
        self.view = view
        self.spread = SpreadLayout(options: options, view: view)
        self.clusters = ClusterRoom(radius: options.clusterRadius, maxZoom: options.clusterMaxZoom,
                                    attributes: attributes, byCategory: options.clusterByCategory,
                                    minPoints: Int(options.clusterMinPoints))
    }

    // MARK: - Time

    /// Accepts a host time: finite and not earlier than the last one.
    public func advance(to time: Double) throws(PindropError) {
        guard time.isFinite else { throw .invalid("time \(time) ms is not finite") }
        guard time >= now else {
            throw .invalid("time went backwards: \(time) ms is earlier than the last time given, \(now) ms")
        }
        now = time
    }

    /// Checks a time without accepting it (for calls that may still fail).
    public func checkTime(_ time: Double) throws(PindropError) {
        guard time.isFinite else { throw .invalid("time \(time) ms is not finite") }
        guard time >= now else {
            throw .invalid("time went backwards: \(time) ms is earlier than the last time given, \(now) ms")
        }
    }

    // MARK: - View

    public func setCamera(_ camera: Camera) throws(PindropError) {
        try camera.validate()
        view = .camera(CameraTransform(camera))
        spread.viewChanged(view)
        frame.hits.invalidate()
        gesture.viewChanged(self)
    }

    public func setProjection(_ projection: HostProjection) throws(PindropError) {
        guard projection.width.isFinite, projection.height.isFinite, projection.width > 0, projection.height > 0 else {
            throw .invalid("viewport \(projection.width)x\(projection.height) must be finite and > 0")
        }
        view = .host(projection)
        spread.viewChanged(view)
        frame.hits.invalidate()
        gesture.viewChanged(self)
    }

    public func toScreen(lon: Double, lat: Double) throws(PindropError) -> (x: Double, y: Double) {
        try checkLonLat(lon, lat)
        guard let p = view.toScreen(lon, lat) else {
            if case .camera = view {
                throw .invalid("(\(lon), \(lat)) has no finite screen point in Web Mercator at this camera (a pole, or too near one)")
            }
            throw .invalid("the host projection failed for (\(lon), \(lat))")
        }
        return p
    }

    public func toLonLat(x: Double, y: Double) throws(PindropError) -> (lon: Double, lat: Double) {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        guard let p = view.toLonLatUnwrapped(x, y) else { throw .invalid("the host projection failed for (\(x), \(y))") }
        guard p.lon.isFinite, p.lat.isFinite else {
            throw .invalid("screen point (\(x), \(y)) is too far outside the view for a coordinate")
        }
        return (Sphere.normalizeLon(p.lon), min(90, max(-90, p.lat)))
    }

    // MARK: - Pins

    func slot(_ id: Int64) throws(PindropError) -> Int32 {
        guard let s = pins.slot(of: id) else { throw PindropError(.notFound, "no pin with id \(id)") }
        return s
    }

    public var count: Int { pins.count }

    public func add(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        guard id != noID else { throw .invalid("PINDROP_NO_ID is not a valid pin id") }
        try checkLonLat(lon, lat)
        guard !pins.contains(id) else { throw PindropError(.duplicateID, "a pin with id \(id) already exists") }
        let slot = pins.insert(id: id, lon: lon, lat: lat)
        index.set(slot, lon: lon, lat: lat)
        pinAdded(slot)
    }

    /// Adds ids[i] at (lonlat[2i], lonlat[2i+1]); all or nothing.
    public func addMany(ids: UnsafeBufferPointer<Int64>, lonlat: UnsafeBufferPointer<Double>) throws(PindropError) {
        let n = ids.count
        guard lonlat.count == 2 * n else { throw .invalid("add_many needs 2n coordinates") }
        for i in 0..<n {
            guard ids[i] != noID else { throw .invalid("ids[\(i)] is PINDROP_NO_ID") }
            try checkLonLat(lonlat[2 * i], lonlat[2 * i + 1], "pin \(i) (id \(ids[i]))")
        }
        // Ids are checked by inserting them (one hash probe each); a repeated id takes the
        // batch's inserts back before failing.
        let before = pins.capacity
        pins.reserve(n)
        var slots = [Int32](); slots.reserveCapacity(n)
        for i in 0..<n {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            guard let s = pins.insertIfNew(id: ids[i], lon: x, lat: y) else {
                pins.undoInserts(slots, previousCapacity: before)
                throw PindropError(.duplicateID, pins.contains(ids[i])
                    ? "ids[\(i)] = \(ids[i]) already exists on the map"
                    : "ids[\(i)] = \(ids[i]) appears twice in the batch")
            }
            slots.append(s)
        }
        index.insert(slots: slots, lonlat: lonlat)
        pinsAdded(slots)
    }

    public func remove(id: Int64) throws(PindropError) {
        let s = try slot(id)
        pinWillBeRemoved(s)
        index.remove(s)
        pins.remove(s)
        if selectedID == id { setSelected(noID) }
    }

    /// The host moves a pin (not a user move: no MOVED event, no history entry).
    public func setPosition(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        let s = try slot(id)
        try checkLonLat(lon, lat)
        movePin(s, lon: lon, lat: lat)
    }

    /// Moves a pin's true coordinate and keeps the index and the layouts in step.
    func movePin(_ s: Int32, lon: Double, lat: Double) {
        pins.move(s, lon: lon, lat: lat)
        index.set(s, lon: lon, lat: lat)
        pinMoved(s)
    }

    public func position(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        pins.position(try slot(id))
    }

    public func displayPosition(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        let s = try slot(id)
        syncStacks()
        if let g = spread.collapsedGroup(of: s) { let c = spread.centre(g); return (c.lon, c.lat) }  // a collapsed stack
        return drawnPosition(s)
    }

    public func setDraggable(id: Int64, _ draggable: Bool) throws(PindropError) {
        pins.setDraggable(try slot(id), draggable)
    }

    // MARK: - Hooks for the layouts (spreading) and gestures

    func pinAdded(_ slot: Int32) {
        version &+= 1
        spread.stackWillChange(slot)
        spread.pinAdded(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinAdded(slot, id: pins.id(slot), mercator: pins.mercator(slot))
    }
    /// A bulk add (add_many): the spreading groups the batch in ascending id order.
    func pinsAdded(_ slots: [Int32]) {
        version &+= 1
        spread.stackWillChange(-1)
        spread.pinsAdded(slots, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinsAdded(slots, pins)
    }
    func pinMoved(_ slot: Int32) {
        version &+= 1
        gesture.pinMoved(slot)
        spread.stackWillChange(slot)
        spread.pinMoved(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        editing.pinMoved(id: pins.id(slot))
        clusters?.pinMoved(slot, mercator: pins.mercator(slot))
    }
    func pinWillBeRemoved(_ slot: Int32) {
        version &+= 1
        gesture.pinWillBeRemoved(slot, self)
        editing.pinWillBeRemoved(id: pins.id(slot))
        spread.stackWillChange(slot)
        spread.pinWillBeRemoved(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinWillBeRemoved(slot)
        attributes.reset(slot)
    }

    /// Where a pin is drawn (lon, lat): where a gesture holds it, else its place in a spread
    /// layout, else its true coordinate.
    @inline(__always)
    func drawnPosition(_ slot: Int32) -> (lon: Double, lat: Double) {
        drawnOverride(slot) ?? pins.position(slot)
    }

    /// Where a gesture or a spread layout draws a pin, or nil when it is drawn at its true coordinate.
    @inline(__always)
    func drawnOverride(_ slot: Int32) -> (lon: Double, lat: Double)? {
        if let p = gesture.drawnPosition(slot, self) { return p }
        return spread.drawnPosition(slot)
    }

    /// Appends the slots whose drawn position may lie in `box` (a superset is fine).
    func drawnCandidates(_ box: GeoBox, into out: inout [Int32]) {
        box.split { index.query($0, into: &out) }
        spread.candidates(box, into: &out)
        gesture.candidates(into: &out)
    }

    /// Every user move goes through here, the one place that emits MOVED: the editing rules may
    /// redirect or refuse the target (allowed area), then the pin moves and the editing rules see
    /// the result (callouts, geocoding, nearby warnings, history). Returns whether it moved.
    @discardableResult
    func applyUserMove(_ slot: Int32, lon: Double, lat: Double, cause: Event.Cause) -> Bool {
        guard let target = editing.resolveUserMove(lon: lon, lat: lat, cause: cause) else { return false }
        let from = pins.position(slot)
        movePin(slot, lon: target.lon, lat: target.lat)
        emit(.moved(id: pins.id(slot), from: LonLat(from), to: LonLat(lon: target.lon, lat: target.lat), cause: target.cause))
        editing.userMoved(slot, from: from, cause: target.cause, self)
        return true
    }

    /// Moves the selected pin by (dx, dy) screen points from where it is drawn (its place in a
    /// spread layout, else its true coordinate): the keyboard alternative to a drag (docs/editing.md, "Nudges").
    /// A user move: MOVED with cause NUDGE (SNAP when the allowed area snaps it), the callout, a
    /// geocode request and nearby warnings. Nudges of one pin less than 1000 ms apart are one undo
    /// step (`NudgeSeries`). (0, 0) moves nothing. STATE when nothing is selected or a gesture holds
    /// the pin; INVALID_ARGUMENT for a non-finite offset, a point the view cannot place, or (policy
    /// REVERT) a target outside the allowed area.
    public func nudge(dx: Double, dy: Double, time: Double) throws(PindropError) {
        try checkTime(time)
        guard dx.isFinite, dy.isFinite else { throw .invalid("nudge (\(dx), \(dy)) is not finite") }
        if gesture.keyboardSlot != nil { return try keyNudge(dx: dx, dy: dy, time: time) }
        guard selectedID != noID, let s = pins.slot(of: selectedID) else {
            throw PindropError(.state, "nothing is selected: select a pin to nudge it")
        }
        guard !gesture.holds(s) else {
            throw PindropError(.state, "pin \(selectedID) is held by a gesture; nudge it after it is dropped")
        }
        guard dx != 0 || dy != 0 else { try advance(to: time); return }
        let drawn = restingPosition(s)
        let p = try toScreen(lon: drawn.lon, lat: drawn.lat)
        guard p.x.isFinite, p.y.isFinite else {
            throw .invalid("pin \(selectedID) at (\(drawn.lon), \(drawn.lat)) has no point on the screen")
        }
        let target = try toLonLat(x: p.x + dx, y: p.y + dy)
        guard editing.resolveUserMove(lon: target.lon, lat: target.lat, cause: .nudge) != nil else {
            throw .invalid("(\(target.lon), \(target.lat)) is outside the allowed area (outside_policy is REVERT)")
        }
        try advance(to: time)
        let id = selectedID
        let continues = editing.nudgeContinues(id: id, time: time)
        applyUserMove(s, lon: target.lon, lat: target.lat, cause: .nudge)
        editing.nudged(id: id, time: time, continues: continues)
    }

    /// Changes the selection, emitting DESELECTED for the old pin and SELECTED for the new one.
    func setSelected(_ id: Int64) {
        guard id != selectedID else { return }
        if selectedID != noID { emit(.deselected(id: selectedID)) }
        selectedID = id
        if id != noID { emit(.selected(id: id)) }
    }

    /// Queues an event at the map's time.
    @inline(__always)
    func emit(_ e: Event) { events.push(e, time: now) }

    // MARK: - Touches (classified here, handled by the gesture room)

    /// Feeds one touch (or mouse) event. Returns true when pindrop owns the gesture (the host must
    /// not pan or zoom with this event), false when the host's map should handle it. Bad input
    /// (non-finite position, time going backwards, a DOWN for a pointer already down, a MOVE / UP /
    /// CANCEL for a pointer that is not down) throws and changes nothing. CANCEL ignores x and y.
    /// A DOWN is hit-tested (a pin, else a cluster, else off pins) and a MOVE or UP measured
    /// against the followed pointer's down point before the gesture room sees it.
    public func touch(pointer: Int32, phase: TouchPhase, x: Double, y: Double, time: Double) throws(PindropError) -> Bool {
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        if phase != .cancel {
            guard x.isFinite, y.isFinite else { throw .invalid("touch position (\(x), \(y)) is not finite") }
        }
        try checkTime(time)
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
        try advance(to: time)
        gesture.runTimeouts(self)
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
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        try advance(to: time)
        gesture.runTimeouts(self)
        gesture.tick(self)
    }

    /// When the next tick is due (ms), +infinity when nothing is pending.
    public var nextDeadline: Double { gesture.nextDeadline(self) }

    /// Cancels the gesture in progress (the Esc key): a lifted pin goes back to where it was,
    /// a pending tap-to-move is forgotten. Nothing happens when there is no gesture.
    public func cancelGesture(time: Double) throws(PindropError) {
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        try advance(to: time)
        gesture.runTimeouts(self)
        let underWay = gesture.isUnderWay
        gesture.cancelGesture(self)
        if !underWay { closeOpenStack() }  // Esc with no gesture closes the open stack
    }

    /// The transitions of both gesture machines, for debugging (nil: off).
    public var gestureTrace: ((GestureTransition) -> Void)? {
        get { gesture.trace }
        set { gesture.trace = newValue }
    }

    /// The name of the pointer machine's state (for tests and debugging).
    public var gestureStateName: StaticString { gesture.state.name }

    // MARK: - Editing (the editing room keeps the rules; docs/editing.md)

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
        let target = try editing.placement(lon: lon, lat: lat)
        try advance(to: time)
        editing.commit(self)
        try add(id: id, lon: target.lon, lat: target.lat)
        editing.begin(try slot(id), placed: true, self)
    }

    /// Starts editing an existing pin: tap-to-move applies to it; cancel_edit restores where it
    /// was now. An edit of another pin in progress is committed first; editing the pin already
    /// being edited changes nothing.
    public func edit(id: Int64, time: Double) throws(PindropError) {
        try checkTime(time)
        let s = try slot(id)
        try advance(to: time)
        if editing.session?.id == id { return }
        editing.commit(self)
        editing.begin(s, placed: false, self)
    }

    /// Ends the session keeping the pin where it is. STATE when nothing is being edited.
    public func commit(time: Double) throws(PindropError) {
        try checkTime(time)
        guard editing.session != nil else { throw PindropError(.state, "nothing is being placed or edited") }
        try advance(to: time)
        editing.commit(self)
    }

    /// Ends the session undoing it: a placed pin is removed (DESELECTED first if it was
    /// selected); an edited pin goes back to where it was when the edit began (MOVED with cause
    /// UNDO when it had moved). The session's moves leave the history. STATE when nothing is
    /// being edited.
    public func cancelEdit(time: Double) throws(PindropError) {
        try checkTime(time)
        guard editing.session != nil else { throw PindropError(.state, "nothing is being placed or edited") }
        try advance(to: time)
        editing.cancel(self)
    }

    /// The pin being placed or edited, and whether it is a placement.
    public var editSession: (id: Int64, placed: Bool)? {
        editing.session.map { ($0.id, $0.placed) }
    }

    /// Selects a pin (noID: none), emitting DESELECTED / SELECTED as the selection changes.
    public func select(id: Int64) throws(PindropError) {
        if id != noID { _ = try slot(id) }
        setSelected(id)
    }

    /// Takes back the latest user move still on the map: the pin returns to exactly where it was
    /// (MOVED with cause UNDO, then its callout, geocode request and nearby warnings). Moves of
    /// pins removed since are skipped (they left the history with their pin). STATE when there is
    /// nothing to undo, or when a gesture holds the pin.
    public func undo(time: Double) throws(PindropError) {
        try checkTime(time)
        let s = try editing.replayable(undo: true, self)
        try advance(to: time)
        editing.replay(undo: true, s, self)
    }

    /// Replays the latest undone move (MOVED with cause REDO). STATE when there is nothing to
    /// redo (any new user move clears what could be redone) or when a gesture holds the pin.
    public func redo(time: Double) throws(PindropError) {
        try checkTime(time)
        let s = try editing.replayable(undo: false, self)
        try advance(to: time)
        editing.replay(undo: false, s, self)
    }

    /// How many moves undo / redo could take back / replay now.
    public var undoCount: Int { editing.undoStack.count }
    public var redoCount: Int { editing.redoStack.count }

    /// Sets (or with nil clears) a pin's title; CALLOUT_CHANGED when it changes.
    public func setTitle(id: Int64, _ title: String?) throws(PindropError) {
        editing.setTitle(try slot(id), title, self)
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
        try editing.answerGeocode(request: request, subtitle, self)
    }

    /// Sets the allowed area from WKT or GeoJSON text (read by the map's factory), or clears it
    /// with nil. Pins already outside stay where they are.
    public func setAllowedArea(text: String?) throws(PindropError) {
        guard let text else { editing.area = nil; return }
        editing.area = try factory.parseArea(text)
    }

    /// Sets an area built in Swift (or clears it).
    public func setAllowedArea(_ area: AllowedArea?) { editing.area = area }

    public var allowedArea: AllowedArea? { editing.area }

    // MARK: - Queries

    /// The pin drawn nearest to (x, y) within hit_radius, ties to the edited, then the selected,
    /// then the higher id. Nil when there is none (or the view cannot place the point).
    public func hitTest(x: Double, y: Double) throws(PindropError) -> Int64? {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        defer { index.maintain(inserts: Map.maintainPerQuery) }
        return hit(x, y)
    }

    /// How much deferred index work (GEOS inserts, and the tree builds they complete) a host
    /// query does: a hit test or nearby call, and a frame (docs/index.md).
    static let maintainPerQuery = 32, maintainPerFrame = 256

    /// hit_test for n points xy[2i], xy[2i+1]; misses are PINDROP_NO_ID. All or nothing.
    public func hitTestMany(xy: UnsafeBufferPointer<Double>, out: UnsafeMutableBufferPointer<Int64>) throws(PindropError) {
        for i in 0..<out.count where !xy[2 * i].isFinite || !xy[2 * i + 1].isFinite {
            throw .invalid("screen point \(i) (\(xy[2 * i]), \(xy[2 * i + 1])) is not finite")
        }
        for i in 0..<out.count { out[i] = hit(xy[2 * i], xy[2 * i + 1]) ?? noID }
        index.maintain(inserts: Map.maintainPerQuery)
    }

    func hit(_ x: Double, _ y: Double) -> Int64? { hitNearest(x, y)?.id }

    /// The pin drawn nearest to (x, y) within hit_radius, and its squared distance in points.
    func hitNearest(_ x: Double, _ y: Double) -> (id: Int64, d2: Double)? {
        let r = options.hitRadius, r2 = r * r
        syncStacks()
        if frame.hits.covers(x, y, version: version) {
            // Inside the viewport of a frame drawn since the last change: its grid holds the same
            // pins at the same screen points as the index path would find.
            var best = noID
            var bestD2 = r2
            frame.hits.forEachNear(x, y, views: frame.views) { id, px, py in
                let d2 = (px - x) * (px - x) + (py - y) * (py - y)
                if d2 < bestD2 || (d2 == bestD2 && (best == noID || beatsOnTie(id: id, best))) { best = id; bestD2 = d2 }
            }
            return best == noID ? nil : (best, bestD2)
        }
        guard let box = view.discBox(x: x, y: y, r: r) else { return nil }
        // The scratch buffer is taken out of the map for the call: no allocation once warmed up,
        // and no exclusive access to the map held while the index fills it.
        var found = candidates
        candidates = []
        defer { candidates = found }
        found.removeAll(keepingCapacity: true)
        // A clustered view draws (and so offers) only the unclustered pins and the kept-out ones.
        if !clusterPins(near: x, y, radius: r, into: &found) { drawnCandidates(box, into: &found) }
        removeCollapsed(&found)  // a collapsed stack is one target, not its pins
        var best: Int32 = -1
        var bestD2 = r2
        @inline(__always) func consider(_ s: Int32, _ q: (x: Double, y: Double)) {
            let d2 = (q.x - x) * (q.x - x) + (q.y - y) * (q.y - y)
            if d2 < bestD2 || (d2 == bestD2 && (best < 0 || beatsOnTie(s, best))) { best = s; bestD2 = d2 }
        }
        if case .camera(let c) = view {
            // A pin drawn at its true coordinate is projected from its kept Mercator point.
            for s in found {
                if let p = drawnOverride(s) {
                    consider(s, c.toScreen(p.lon, p.lat))
                } else {
                    consider(s, c.toScreen(mercator: pins.mercator(s)))
                }
            }
        } else {
            for s in found {
                let p = drawnPosition(s)
                guard let q = view.toScreen(p.lon, p.lat) else { continue }
                consider(s, q)
            }
        }
        return best < 0 ? nil : (pins.id(best), bestD2)
    }

    /// The tie rule of hit testing: the pin being edited, then the selected one, then the higher id.
    func beatsOnTie(_ a: Int32, _ b: Int32) -> Bool { beatsOnTie(id: pins.id(a), pins.id(b)) }

    func beatsOnTie(id ia: Int64, _ ib: Int64) -> Bool {
        func rank(_ id: Int64) -> Int { id == editingID ? 2 : id == selectedID ? 1 : 0 }
        let ra = rank(ia), rb = rank(ib)
        return ra != rb ? ra > rb : ia > ib
    }

    public struct NearbyHit: Sendable, Equatable {
        public var id: Int64
        public var distance: Double
    }

    /// Pins whose true coordinate is within `radius` metres of (lon, lat), nearest first (ties:
    /// lower id). Returns the count; the hits are in `nearbyResults`.
    @discardableResult
    public func nearby(lon: Double, lat: Double, radius: Double) throws(PindropError) -> Int {
        try checkLonLat(lon, lat)
        guard radius.isFinite, radius >= 0 else { throw .invalid("radius \(radius) m must be finite and >= 0") }
        nearbyResults.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        pins(within: radius, ofLon: lon, lat: lat, into: &candidates)
        for s in candidates {
            let p = pins.position(s)
            let d = Sphere.distance(lon, lat, p.lon, p.lat)
            if d <= radius { nearbyResults.append(NearbyHit(id: pins.id(s), distance: d)) }
        }
        nearbyResults.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        index.maintain(inserts: Map.maintainPerQuery)
        return nearbyResults.count
    }

    // MARK: - Frame

    public typealias PinView = PindropCore.PinView

    /// The views of the last `frame` call, in drawing order.
    public var frameViews: [PinView] { frame.views }

    /// Fills `frameViews` with the pins drawn inside the viewport grown by hit_radius, in drawing
    /// order, and returns their number.
    @discardableResult
    public func frame(time: Double) throws(PindropError) -> Int {
        try checkTime(time)
        let r = options.hitRadius
        let w = view.width, h = view.height
        guard let box = view.box(x0: -r, y0: -r, x1: w + r, y1: h + r) else {
            throw .invalid("the host projection failed for the viewport")
        }
        try advance(to: time)  // only once nothing can fail: a failed call changes nothing
        candidates.removeAll(keepingCapacity: true)
        syncStacks()
        let clustered = clusterFrame(margin: r, box: box, pins: &candidates)
        if !clustered {
            clusterViews.removeAll(keepingCapacity: true)
            drawnCandidates(box, into: &candidates)
        }
        // The stack items too, so that the focus settles among what frame_clusters draws.
        appendStacks(box: box, margin: r, singles: clustered ? candidates : nil)
        removeCollapsed(&candidates)  // drawn as stack items (frameClusters)
        // The hit grid holds the views' pins: not when clusters stand for some of them.
        let camera: Bool = if case .camera = view { true } else { false }
        frame.build(candidates, capacity: pins.capacity, margin: r, width: w, height: h, time: time, self,
                    grid: camera && !clustered, version: version)
        FrameScratch.fit(&candidates, need: candidates.count)  // a larger frame's room given back
        settleFocus(width: w, height: h)
        index.maintain(inserts: Map.maintainPerFrame)
        return frame.views.count
    }

    @inline(__always)
    func flags(_ slot: Int32) -> PinFlags {
        let id = pins.id(slot)
        var f = gesture.flags(slot)
        if id == selectedID { f.insert(.selected) }
        if id == editingID { f.insert(.editing) }
        if spread.isSpread(slot) { f.insert(.spread) }
        if editing.area != nil && outsideWhereDrawn(slot) { f.insert(.invalid) }
        return f
    }

    /// Whether a gesture draws the pin over a point outside the allowed area (INVALID).
    @inline(never)
    func outsideWhereDrawn(_ slot: Int32) -> Bool {
        guard let p = gesture.drawnPosition(slot, self) else { return false }
        return editing.isOutside(p)
    }

    // MARK: - Clusters (the cluster room, asked by the frame, hit tests and touches)

    /// Tells the cluster room which pins to keep out: the selected and edited pins and the pin a
    /// gesture holds.
    func syncClusterExclusions() {
        guard let room = clusters else { return }
        var out: [Int32] = []
        for id in [selectedID, editingID] where id != noID {
            if let s = pins.slot(of: id) { out.append(s) }
        }
        if let s = gesture.fingerSlot { out.append(s) }
        if let s = gesture.keyboardSlot { out.append(s) }
        room.setExcluded(out)
    }

    /// The frame's candidates in a clustered view: the unclustered pins in view and the kept-out
    /// ones; the clusters go to `clusterViews`. False when the view is
    /// not clustered.
    func clusterFrame(margin r: Double, box: GeoBox, pins out: inout [Int32]) -> Bool {
        guard let room = clusters else { return false }
        syncClusterExclusions()
        clusterViews.removeAll(keepingCapacity: true)
        guard room.query(view, pinMargin: r, clusters: &clusterViews, pins: &out) else { return false }
        out.append(contentsOf: room.excluded)
        return true
    }

    /// Hit-test candidates in a clustered view (false when the view is not clustered).
    func clusterPins(near x: Double, _ y: Double, radius r: Double, into out: inout [Int32]) -> Bool {
        guard let room = clusters else { return false }
        syncClusterExclusions()
        guard room.pins(view, near: x, y, radius: r, into: &out) else { return false }
        out.append(contentsOf: room.excluded)
        return true
    }

    /// Fills `clusterViews` with the clusters drawn in the viewport (grown by cluster_radius) at
    /// `time`, the view and time of the frame whose pins are then the unclustered ones; returns
    /// their number (0 when clustering is off or the zoom is at or above cluster_max_zoom). With
    /// spread_on_tap the collapsed stacks follow them (`ClusterFlags.stack`, MapStacks.swift).
    @discardableResult
    public func frameClusters(time: Double) throws(PindropError) -> Int {
        try checkTime(time)
        let r = options.hitRadius
        guard let box = view.box(x0: -r, y0: -r, x1: view.width + r, y1: view.height + r) else {
            throw .invalid("the host projection failed for the viewport")
        }
        try advance(to: time)
        clusterViews.removeAll(keepingCapacity: true)
        syncStacks()
        var scratch = stackScratch
        stackScratch = []
        scratch.removeAll(keepingCapacity: true)
        let clustered = clusterFrame(margin: r, box: box, pins: &scratch)
        appendStacks(box: box, margin: r, singles: clustered ? scratch : nil)
        stackScratch = scratch
        return clusterViews.count
    }

    /// The ids of a cluster's pins in ascending order. A key names the same pins for as long as it
    /// is valid, so the list of the last key asked for is kept for the next page.
    public func clusterMembers(key: UInt64) throws(PindropError) -> [Int64] {
        if let ids = try stackMembers(key) { return ids }  // a stack (behaviour 22)
        var slots: [Int32] = []
        syncClusterExclusions()
        guard let room = clusters, room.members(key, into: &slots) else {
            throw PindropError(.notFound, "no cluster with key \(key) (a key is stale once its cluster's members change)")
        }
        if sortedMembers.key == key && sortedMembers.ids.count == slots.count { return sortedMembers.ids }
        var ids = slots.map { pins.id($0) }
        ids.sort()
        sortedMembers = (key, ids)
        return ids
    }

    /// The lowest zoom at which a cluster's pins are no longer one cluster (<= cluster_max_zoom).
    public func clusterExpansionZoom(key: UInt64) throws(PindropError) -> Double {
        if let z = try stackExpansionZoom(key) { return z }  // a stack (behaviour 22)
        syncClusterExclusions()
        guard let room = clusters, let z = room.expansionZoom(key) else {
            throw PindropError(.notFound, "no cluster with key \(key) (keys last until pins or the view change)")
        }
        return z
    }

    // MARK: - Events

    public func pollEvent() -> TimedEvent? { events.pop() }
}

// MARK: - What the frame room asks

extension Map: FrameSource {
    @inline(__always)
    func frameScreenPoints(_ s: Int32) -> (drawn: (x: Double, y: Double), anchor: (x: Double, y: Double))? {
        let over = drawnOverride(s)
        if case .camera(let c) = view {
            // A pin's true coordinate is projected from its kept Mercator point.
            let t = c.toScreen(mercator: pins.mercator(s))
            guard let d = over else { return (t, t) }
            return (c.toScreen(d.lon, d.lat), t)
        }
        let d = over ?? pins.position(s)
        guard let q = view.toScreen(d.lon, d.lat) else { return nil }
        let t = pins.position(s)
        return (q, (t.lon == d.lon && t.lat == d.lat) ? q : (view.toScreen(t.lon, t.lat) ?? q))
    }

    @inline(__always) func frameID(_ slot: Int32) -> Int64 { pins.id(slot) }
    @inline(__always) func frameLift(_ slot: Int32, time: Double) -> Double { gesture.lift(slot, at: time) }
    @inline(__always) func frameFlags(_ slot: Int32) -> PinFlags { flags(slot) }
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
        case .emit(let e): emit(e)
        case .select(let id): setSelected(id)
        case .userMove(let slot, let lon, let lat, let cause): return applyUserMove(slot, lon: lon, lat: lat, cause: cause)
        case .openStack(let key): openStackByTap(key)
        case .closeStack: closeOpenStack()
        }
        return true
    }
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
