#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The editing room: callouts, geocoding, nearby warnings, the allowed area, the history of user
/// moves and the edit session. docs/editing.md tells the rules (callouts and geocoding, nearby
/// warnings, the allowed area, undo and redo).
///
/// It sees the map only through an `EditingContext` (the time, pins by id and slot, the pins near
/// a point, whether a finger holds a pin) and hands what it does to the map (an event, a user move
/// through the map's single path, the removal of a cancelled placement) to `context.apply` as an
/// `EditingEffect`. Its methods are generic over the context. A class: a user move it asks for
/// comes back to it through the map (`resolveUserMove`, `userMoved`).
final class Editor {
    let options: Options

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
    /// The pin being placed or edited (PINDROP_NO_ID: none): the session's pin.
    var editingID: Int64 = noID
    /// The run of nudges the latest history entry stands for (`NudgeSeries`).
    var nudges = NudgeSeries()
    /// While a group of pins moves as one user move (behaviour 23): the serial its history entries
    /// share, so that one undo takes them all back (`beginStep`, EditSession.swift).
    var stepSerial: UInt64?

    // Scratch for nearby warnings.
    var nearbySlots: [Int32] = []
    var nearbyHits: [(distance: Double, id: Int64, slot: Int32)] = []

    init(options: Options) { self.options = options }


    // MARK: - The rules of a user move (asked by Map.applyUserMove)

    /// Where a user move to (lon, lat) really goes, or nil to refuse it: outside the allowed area
    /// a move is reverted or snapped to the nearest point inside (cause SNAP). Undo and redo
    /// restore earlier coordinates exactly and are not checked.
    func resolveUserMove(lon: Double, lat: Double, cause: Event.Cause) -> (lon: Double, lat: Double, cause: Event.Cause)? {
        if cause == .undo || cause == .redo { return (lon, lat, cause) }
        guard let area, !area.contains(lon: lon, lat: lat) else { return (lon, lat, cause) }
        switch options.outsidePolicy {
        case .revert: return nil
        case .snap:
            let p = area.nearestInside(lon: lon, lat: lat)
            return (p.lon, p.lat, .snap)
        }
    }

    /// After a user move: a history entry (not for undo / redo, which move entries between the
    /// stacks themselves), then the callout, the geocode request and the nearby warnings.
    func userMoved<C: EditingContext>(_ slot: Int32, from: (lon: Double, lat: Double), cause: Event.Cause, _ c: C) {
        if cause != .undo && cause != .redo {
            let to = c.truePosition(slot)
            if stepSerial == nil || undoStack.last?.serial != stepSerial { clearRedo() }
            pushUndo(HistoryEntry(id: c.pinID(slot), fromLon: from.lon, fromLat: from.lat,
                                  toLon: to.lon, toLat: to.lat, serial: stepSerial ?? takeSerial()))
        }
        landed(slot, c)
    }

    /// Whether a point lies outside the allowed area (a held pin drawn there is flagged INVALID).
    func isOutside(_ p: (lon: Double, lat: Double)) -> Bool {
        guard let area else { return false }
        return !area.contains(lon: p.lon, lat: p.lat)
    }

    // MARK: - Pin changes (the map's hooks)

    /// Any change of the true coordinate (the host's set_position too) makes the pending geocode
    /// answer stale: it describes a place the pin has left.
    func pinMoved(id: Int64) {
        guard !pendingRequest.isEmpty else { return }
        forgetRequest(of: id)
    }

    func pinWillBeRemoved(id: Int64) {
        titles[id] = nil
        subtitles[id] = nil
        forgetRequest(of: id)
        purgeHistory(of: id)
        if session?.id == id { session = nil }
        if editingID == id { editingID = noID }
    }

    // MARK: - After a pin lands

    /// A pin was moved by the user, placed, or moved by undo / redo: its subtitle becomes its
    /// coordinate, a geocode request goes out, and pins within min_spacing_m are reported.
    func landed<C: EditingContext>(_ slot: Int32, _ c: C) {
        let id = c.pinID(slot)
        let p = c.truePosition(slot)
        // Written over the pin's previous subtitle, in its buffer: a nudge allocates no text.
        Editor.writeCoordinateText(lon: p.lon, lat: p.lat, into: &subtitles[id, default: ""])
        c.apply(.emit(.calloutChanged(id: id, at: LonLat(p))))

        forgetRequest(of: id)
        let request = nextRequest
        nextRequest &+= 1
        pendingRequest[id] = request
        requestPin[request] = id
        c.apply(.emit(.geocodeRequest(id: id, at: LonLat(p), request: request)))

        warnNearby(slot, c)
    }

    /// "lat, lon" with 5 decimals (about a metre), the subtitle until the geocoder answers.
    /// A coordinate that rounds to zero is written without a minus sign.
    static func coordinateText(lon: Double, lat: Double) -> String {
        var text = ""
        writeCoordinateText(lon: lon, lat: lat, into: &text)
        return text
    }

    /// `coordinateText` written into `out`, replacing what it held and keeping its buffer.
    static func writeCoordinateText(lon: Double, lat: Double, into out: inout String) {
        func text(_ v: Double) -> String {
            let s = DecimalText.fixed(v, places: 5)  // at most 15 bytes: a small string, not allocated
            return s == "-0.00000" ? "0.00000" : s
        }
        out.removeAll(keepingCapacity: true)
        out.append(text(lat))
        out.append(", ")
        out.append(text(lon))
    }

    /// One NEARBY event per other pin whose true coordinate is within min_spacing_m (great
    /// circle, inclusive) of the pin's, nearest first (ties: lower id). lon, lat = the other pin.
    func warnNearby<C: EditingContext>(_ slot: Int32, _ c: C) {
        let radius = options.minSpacingM
        guard radius > 0 else { return }
        let id = c.pinID(slot)
        let p = c.truePosition(slot)
        nearbySlots.removeAll(keepingCapacity: true)
        c.pins(within: radius, ofLon: p.lon, lat: p.lat, into: &nearbySlots)
        nearbyHits.removeAll(keepingCapacity: true)
        for s in nearbySlots where s != slot {
            let q = c.truePosition(s)
            let d = Sphere.distance(p.lon, p.lat, q.lon, q.lat)
            if d <= radius { nearbyHits.append((d, c.pinID(s), s)) }
        }
        nearbyHits.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        for h in nearbyHits {
            c.apply(.emit(.nearby(id: id, other: h.id, at: LonLat(c.truePosition(h.slot)), distance: h.distance)))
        }
    }

    // MARK: - Callouts

    /// Sets (or with nil clears) a pin's title; CALLOUT_CHANGED when it changes.
    func setTitle<C: EditingContext>(_ slot: Int32, _ title: String?, _ c: C) {
        let id = c.pinID(slot)
        guard titles[id] != title else { return }
        titles[id] = title
        calloutChanged(slot, c)
    }

    /// Answers a GEOCODE_REQUEST: `.ok` when the subtitle was replaced, `.stale` when the pin has
    /// moved (or was removed) since the request — nothing changes then. An unknown request
    /// number (never issued) is NOT_FOUND.
    func answerGeocode<C: EditingContext>(request: UInt64, _ subtitle: String, _ c: C) throws(PindropError) -> Status {
        guard request != 0, request < nextRequest else {
            throw PindropError(.notFound, "no geocode request \(request) was ever issued")
        }
        guard let id = requestPin[request], let s = c.slotOf(id) else { return .stale }
        if subtitles[id] != subtitle {
            subtitles[id] = subtitle
            calloutChanged(s, c)
        }
        return .ok
    }

    private func calloutChanged<C: EditingContext>(_ slot: Int32, _ c: C) {
        c.apply(.emit(.calloutChanged(id: c.pinID(slot), at: LonLat(c.truePosition(slot)))))
    }

    func forgetRequest(of id: Int64) {
        if let r = pendingRequest.removeValue(forKey: id) { requestPin[r] = nil }
    }

    // MARK: - History bookkeeping

    func takeSerial() -> UInt64 {
        defer { nextSerial &+= 1 }
        return nextSerial
    }

    func pushUndo(_ e: HistoryEntry) {
        undoStack.append(e)
        historyCount[e.id, default: 0] += 1
    }

    func clearRedo() {
        for e in redoStack { uncount(e.id) }
        redoStack.removeAll()
    }

    func uncount(_ id: Int64) {
        let n = historyCount[id, default: 0] - 1
        historyCount[id] = n > 0 ? n : nil
    }

    /// A removed pin's moves leave the history: undo skips past them to the moves of pins that
    /// are still there (and a later pin with the same id starts with no history).
    func purgeHistory(of id: Int64) {
        guard let n = historyCount.removeValue(forKey: id), n > 0 else { return }
        undoStack.removeAll { $0.id == id }
        redoStack.removeAll { $0.id == id }
        droppedWithRemovedPins &+= n
    }

    /// Removes the entries of `id` with a serial of at least `serial` from both stacks.
    func dropEntries(of id: Int64, since serial: UInt64) {
        guard historyCount[id] != nil else { return }
        let before = undoStack.count + redoStack.count
        undoStack.removeAll { $0.id == id && $0.serial >= serial }
        redoStack.removeAll { $0.id == id && $0.serial >= serial }
        let removed = before - undoStack.count - redoStack.count
        let n = historyCount[id, default: 0] - removed
        historyCount[id] = n > 0 ? n : nil
    }

    /// The latest history step joins the one below it when both move the same pins (one pin, or
    /// the same group in the same order): one step from the older one's start to the newer one's
    /// end, under the older one's serial. A step is the run of entries on top that share a serial.
    func mergeLatestHistoryEntries() {
        let newer = latestStep(in: undoStack)
        guard newer.count > 0, newer.lowerBound >= newer.count else { return }
        let older = latestStep(in: undoStack, before: newer.lowerBound)
        guard older.count == newer.count,
              zip(older, newer).allSatisfy({ undoStack[$0].id == undoStack[$1].id }) else { return }
        for (o, n) in zip(older, newer) {
            undoStack[o].toLon = undoStack[n].toLon
            undoStack[o].toLat = undoStack[n].toLat
            uncount(undoStack[n].id)
        }
        undoStack.removeSubrange(newer)
    }

    /// The entries of the latest step of `stack` that ends before `end` (the run that shares the
    /// serial of entry end - 1).
    func latestStep(in stack: [HistoryEntry], before end: Int? = nil) -> Range<Int> {
        let end = end ?? stack.count
        guard end > 0 else { return 0..<0 }
        let serial = stack[end - 1].serial
        var start = end - 1
        while start > 0 && stack[start - 1].serial == serial { start -= 1 }
        return start..<end
    }
}

/// What the editing room sees of the map. `Map` implements it.
protocol EditingContext: AnyObject {
    /// The map's time (ms).
    var now: Double { get }
    func slotOf(_ id: Int64) -> Int32?
    func pinID(_ slot: Int32) -> Int64
    /// A pin's true coordinate.
    func truePosition(_ slot: Int32) -> (lon: Double, lat: Double)
    /// Appends the slots whose true coordinate may be within `meters` of (lon, lat) (a superset).
    func pins(within meters: Double, ofLon lon: Double, lat: Double, into out: inout [Int32])
    /// Whether a finger holds the pin (lifted or dragged).
    func isHeld(_ slot: Int32) -> Bool
    /// Applies one effect; returns whether it took effect (the rules may refuse a user move).
    @discardableResult
    func apply(_ effect: EditingEffect) -> Bool
}

/// What the editing room does to the map, applied by the map in the order given.
enum EditingEffect: Equatable {
    /// An event for the host, at the map's time.
    case emit(Event)
    /// A user move through the map's single path (Map.applyUserMove).
    case userMove(slot: Int32, lon: Double, lat: Double, cause: Event.Cause)
    /// Removes a pin (a cancelled placement).
    case remove(id: Int64)
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
