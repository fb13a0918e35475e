import Glibc

/// Callouts, geocoding, nearby warnings, the allowed area, the history of user moves and the
/// edit session. docs/editing.md tells the rules (callouts and geocoding, nearby warnings, the
/// allowed area, undo and redo).
struct EditingState {
    // Callouts: the host's title, and the subtitle (the coordinate, then the geocoder's answer).
    var titles: [Int64: String] = [:]
    var subtitles: [Int64: String] = [:]
    /// The geocode request whose answer each pin still waits for, and the reverse map. Older
    /// requests of a pin are forgotten: any issued number not found here is stale.
    var pendingRequest: [Int64: UInt64] = [:]
    var requestPin: [UInt64: Int64] = [:]
    var nextRequest: UInt64 = 1

    var area: AllowedArea?

    // History: moves that undo reverts (last = latest) and moves that redo replays.
    var undoStack: [HistoryEntry] = []
    var redoStack: [HistoryEntry] = []
    /// Entries per pin in both stacks, so that removing a pin without history costs nothing.
    var historyCount: [Int64: Int] = [:]
    var nextSerial: UInt64 = 1
    /// Moves dropped from the history because their pin was removed (for the undo message).
    var droppedWithRemovedPins = 0

    var session: EditSession?
    /// The run of nudges the latest history entry stands for (behaviour 18).
    var nudges = NudgeSeries()

    // Scratch for nearby warnings.
    var nearbySlots: [Int32] = []
    var nearbyHits: [(distance: Double, id: Int64, slot: Int32)] = []
}

extension EditingState {
    /// The latest history entry joins the one below it (the same pin's): one step from the older
    /// one's start to the newer one's end, under the older one's serial.
    mutating func mergeLatestHistoryEntries() {
        guard undoStack.count >= 2, undoStack[undoStack.count - 2].id == undoStack[undoStack.count - 1].id else { return }
        let newer = undoStack.removeLast()
        undoStack[undoStack.count - 1].toLon = newer.toLon
        undoStack[undoStack.count - 1].toLat = newer.toLat
        let n = historyCount[newer.id, default: 0] - 1
        historyCount[newer.id] = n > 0 ? n : nil
    }
}

/// One user move: the pin went from → to.
struct HistoryEntry: Equatable {
    var id: Int64
    var fromLon, fromLat, toLon, toLat: Double
    /// Increasing with time; an edit session collapses the entries made after it began.
    var serial: UInt64
}

/// A pin being placed (`place`) or edited (`edit`).
struct EditSession {
    var id: Int64
    var placed: Bool
    /// Where the pin was when the session began (for a placement: where it was placed).
    var originLon, originLat: Double
    /// History entries with this serial or later belong to the session.
    var firstSerial: UInt64
}

extension Map {
    // MARK: - Hooks called by Map.swift

    /// Where a user move to (lon, lat) really goes, or nil to refuse it: outside the allowed area
    /// a move is reverted or snapped to the nearest point inside (cause SNAP). Undo and redo
    /// restore earlier coordinates exactly and are not checked.
    func resolveUserMove(_ slot: Int32, lon: Double, lat: Double, cause: Event.Cause)
        -> (lon: Double, lat: Double, cause: Event.Cause)? {
        if cause == .undo || cause == .redo { return (lon, lat, cause) }
        guard let area = editing.area, !area.contains(lon: lon, lat: lat) else { return (lon, lat, cause) }
        switch options.outsidePolicy {
        case .revert: return nil
        case .snap:
            let p = area.nearestInside(lon: lon, lat: lat)
            return (p.lon, p.lat, .snap)
        }
    }

    /// After a user move: a history entry (not for undo / redo, which move entries between the
    /// stacks themselves), then the callout, the geocode request and the nearby warnings.
    func userMoved(_ slot: Int32, from: (lon: Double, lat: Double), cause: Event.Cause) {
        if cause != .undo && cause != .redo {
            let to = pins.position(slot)
            clearRedo()
            pushUndo(HistoryEntry(id: pins.id(slot), fromLon: from.lon, fromLat: from.lat,
                                  toLon: to.lon, toLat: to.lat, serial: takeSerial()))
        }
        landed(slot)
    }

    /// INVALID while a gesture holds the pin over a point outside the allowed area.
    func editingFlags(_ slot: Int32) -> PinFlags {
        guard let area = editing.area, let p = gesture.drawnPosition(slot, self) else { return [] }
        return area.contains(lon: p.lon, lat: p.lat) ? [] : .invalid
    }

    /// Any change of the true coordinate (the host's set_position too) makes the pending geocode
    /// answer stale: it describes a place the pin has left.
    func editingPinMoved(_ slot: Int32) {
        guard !editing.pendingRequest.isEmpty else { return }
        forgetRequest(of: pins.id(slot))
    }

    func editingPinWillBeRemoved(_ slot: Int32) {
        let id = pins.id(slot)
        editing.titles[id] = nil
        editing.subtitles[id] = nil
        forgetRequest(of: id)
        purgeHistory(of: id)
        if editing.session?.id == id { editing.session = nil }
    }

    // MARK: - After a pin lands

    /// A pin was moved by the user, placed, or moved by undo / redo: its subtitle becomes its
    /// coordinate, a geocode request goes out, and pins within min_spacing_m are reported.
    func landed(_ slot: Int32) {
        let id = pins.id(slot)
        let p = pins.position(slot)
        editing.subtitles[id] = Map.coordinateText(lon: p.lon, lat: p.lat)
        var changed = Event(.calloutChanged, id: id, time: now)
        changed.lon = p.lon; changed.lat = p.lat
        events.push(changed)

        forgetRequest(of: id)
        let request = editing.nextRequest
        editing.nextRequest &+= 1
        editing.pendingRequest[id] = request
        editing.requestPin[request] = id
        var geocode = Event(.geocodeRequest, id: id, time: now)
        geocode.lon = p.lon; geocode.lat = p.lat; geocode.request = request
        events.push(geocode)

        warnNearby(slot)
    }

    /// "lat, lon" with 5 decimals (about a metre), the subtitle until the geocoder answers.
    /// A coordinate that rounds to zero is written without a minus sign.
    static func coordinateText(lon: Double, lat: Double) -> String {
        func text(_ v: Double) -> String {
            let s = DecimalText.fixed(v, places: 5)
            return s == "-0.00000" ? "0.00000" : s
        }
        return "\(text(lat)), \(text(lon))"
    }

    /// One NEARBY event per other pin whose true coordinate is within min_spacing_m (great
    /// circle, inclusive) of the pin's, nearest first (ties: lower id). lon, lat = the other pin.
    func warnNearby(_ slot: Int32) {
        let radius = options.minSpacingM
        guard radius > 0 else { return }
        let id = pins.id(slot)
        let p = pins.position(slot)
        var found: [Int32] = []
        swap(&found, &editing.nearbySlots)  // reuse the buffer without copying it
        found.removeAll(keepingCapacity: true)
        Sphere.boundingBox(lon: p.lon, lat: p.lat, meters: radius).split { index.query($0, into: &found) }
        var hits: [(distance: Double, id: Int64, slot: Int32)] = []
        swap(&hits, &editing.nearbyHits)
        hits.removeAll(keepingCapacity: true)
        for s in found where s != slot {
            let q = pins.position(s)
            let d = Sphere.distance(p.lon, p.lat, q.lon, q.lat)
            if d <= radius { hits.append((d, pins.id(s), s)) }
        }
        hits.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        for h in hits {
            var e = Event(.nearby, id: id, time: now)
            e.other = h.id
            e.distanceM = h.distance
            let q = pins.position(h.slot)
            e.lon = q.lon; e.lat = q.lat
            events.push(e)
        }
        editing.nearbySlots = found
        editing.nearbyHits = hits
    }

    // MARK: - Callouts

    /// Sets (or with nil clears) a pin's title; CALLOUT_CHANGED when it changes.
    public func setTitle(id: Int64, _ title: String?) throws(PindropError) {
        let s = try slot(id)
        guard editing.titles[id] != title else { return }
        editing.titles[id] = title
        var e = Event(.calloutChanged, id: id, time: now)
        let p = pins.position(s)
        e.lon = p.lon; e.lat = p.lat
        events.push(e)
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
        guard request != 0, request < editing.nextRequest else {
            throw PindropError(.notFound, "no geocode request \(request) was ever issued")
        }
        guard let id = editing.requestPin[request], let s = pins.slot(of: id) else { return .stale }
        if editing.subtitles[id] != subtitle {
            editing.subtitles[id] = subtitle
            var e = Event(.calloutChanged, id: id, time: now)
            let p = pins.position(s)
            e.lon = p.lon; e.lat = p.lat
            events.push(e)
        }
        return .ok
    }

    func forgetRequest(of id: Int64) {
        if let r = editing.pendingRequest.removeValue(forKey: id) { editing.requestPin[r] = nil }
    }

    // MARK: - Allowed area

    /// Sets the allowed area from WKT or GeoJSON text (read by the map's factory), or clears it
    /// with nil. Pins already outside stay where they are.
    public func setAllowedArea(text: String?) throws(PindropError) {
        guard let text else { editing.area = nil; return }
        editing.area = try factory.parseArea(text)
    }

    /// Sets an area built in Swift (or clears it).
    public func setAllowedArea(_ area: AllowedArea?) { editing.area = area }

    public var allowedArea: AllowedArea? { editing.area }

    // MARK: - History bookkeeping

    func takeSerial() -> UInt64 {
        defer { editing.nextSerial &+= 1 }
        return editing.nextSerial
    }

    func pushUndo(_ e: HistoryEntry) {
        editing.undoStack.append(e)
        editing.historyCount[e.id, default: 0] += 1
    }

    func clearRedo() {
        for e in editing.redoStack { uncount(e.id) }
        editing.redoStack.removeAll()
    }

    func uncount(_ id: Int64) {
        let n = editing.historyCount[id, default: 0] - 1
        editing.historyCount[id] = n > 0 ? n : nil
    }

    /// A removed pin's moves leave the history: undo skips past them to the moves of pins that
    /// are still there (and a later pin with the same id starts with no history).
    func purgeHistory(of id: Int64) {
        guard let n = editing.historyCount.removeValue(forKey: id), n > 0 else { return }
        editing.undoStack.removeAll { $0.id == id }
        editing.redoStack.removeAll { $0.id == id }
        editing.droppedWithRemovedPins &+= n
    }

    /// Removes the entries of `id` with a serial of at least `serial` from both stacks.
    func dropEntries(of id: Int64, since serial: UInt64) {
        guard editing.historyCount[id] != nil else { return }
        let before = editing.undoStack.count + editing.redoStack.count
        editing.undoStack.removeAll { $0.id == id && $0.serial >= serial }
        editing.redoStack.removeAll { $0.id == id && $0.serial >= serial }
        let removed = before - editing.undoStack.count - editing.redoStack.count
        let n = editing.historyCount[id, default: 0] - removed
        editing.historyCount[id] = n > 0 ? n : nil
    }

    /// How many moves undo / redo could take back / replay now.
    public var undoCount: Int { editing.undoStack.count }
    public var redoCount: Int { editing.redoStack.count }
}
