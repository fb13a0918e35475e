/// The map's pins (docs/architecture.md): adding, moving and removing them, where they are drawn,
/// the four hooks that tell every room about a pin change, and the one path of a user move.
extension Map {
    // MARK: - Pins

    public func add(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        try change(check: { () throws(PindropError) in try checkNewPin(id: id, lon: lon, lat: lat) },
                   apply: { _ = insertPin(id: id, lon: lon, lat: lat) })
    }

    /// Checks a pin that is to be added: a valid id, not on the map yet, at a valid coordinate.
    func checkNewPin(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        guard id != noID else { throw .invalid("PINDROP_NO_ID is not a valid pin id") }
        try checkLonLat(lon, lat)
        guard !pins.contains(id) else { throw PindropError(.duplicateID, "a pin with id \(id) already exists") }
    }

    /// Adds a checked pin (`checkNewPin`) and tells the rooms; returns its slot.
    @discardableResult
    func insertPin(id: Int64, lon: Double, lat: Double) -> Int32 {
        let slot = pins.insert(id: id, lon: lon, lat: lat)
        index.set(slot, lon: lon, lat: lat)
        pinAdded(slot)
        return slot
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
        try change(check: { () throws(PindropError) -> [Int32] in
            let before = pins.capacity
            pins.reserve(n)
            var slots = [Int32](); slots.reserveCapacity(n)
            for i in 0..<n {
                let x = lonlat[2 * i], y = lonlat[2 * i + 1]
                guard let s = pins.insertIfNew(id: ids[i], lon: x, lat: y, counting: false) else {
                    pins.undoInserts(slots, previousCapacity: before, counted: false)
                    throw PindropError(.duplicateID, pins.contains(ids[i])
                        ? "ids[\(i)] = \(ids[i]) already exists on the map"
                        : "ids[\(i)] = \(ids[i]) appears twice in the batch")
                }
                slots.append(s)
            }
            pins.countInserts(slots)
            return slots
        }, apply: { slots in
            index.insert(slots: slots, lonlat: lonlat)
            pinsAdded(slots)
        })
    }

    public func remove(id: Int64) throws(PindropError) {
        try change(check: { () throws(PindropError) in try slot(id) }, apply: { removePin($0) })
    }

    /// Removes a pin that exists, ending any gesture or edit on it.
    private func removePin(_ s: Int32) {
        let id = pins.id(s)
        if group != nil { groupPinWillBeRemoved(s) }
        pinWillBeRemoved(s)
        index.remove(s)
        pins.remove(s)
        if selection.contains(id) { deselectRemoved(id) }
    }

    /// The host moves a pin (not a user move: no MOVED event, no history entry).
    public func setPosition(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        try change(check: { () throws(PindropError) -> Int32 in
            let s = try slot(id)
            try checkLonLat(lon, lat)
            return s
        }, apply: { movePin($0, lon: lon, lat: lat) })
    }

    /// Moves a pin's true coordinate and keeps the index and the layouts in step.
    private func movePin(_ s: Int32, lon: Double, lat: Double) {
        pins.move(s, lon: lon, lat: lat)
        index.set(s, lon: lon, lat: lat)
        pinMoved(s)
    }

    public func position(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        pins.position(try slot(id))
    }

    public func displayPosition(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        let s = try slot(id)
        upToDate()
        if let g = spread.collapsedGroup(of: s) { let c = spread.centre(g); return (c.lon, c.lat) }  // a collapsed stack
        return drawnPosition(s)
    }

    public func setDraggable(id: Int64, _ draggable: Bool) throws(PindropError) {
        try change(redraws: false, check: { () throws(PindropError) in try slot(id) }, apply: { pins.setDraggable($0, draggable) })
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
        if group != nil, let p = groupDrawnPosition(slot) { return p }
        return spread.drawnPosition(slot)
    }

    /// Appends the slots whose drawn position may lie in `box` (a superset is fine).
    func drawnCandidates(_ box: GeoBox, into out: inout [Int32]) {
        box.split { index.query($0, into: &out) }
        spread.candidates(box, into: &out)
        gesture.candidates(into: &out)
        if let g = group, g.isHeld(self) { g.appendMembers(into: &out) }
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

    // MARK: - Nearby pins

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
}
