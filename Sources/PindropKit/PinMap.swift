import PindropCore
import PindropSwiftIndex

/// A pin on the map: the app's id for it and its true coordinate.
public struct Pin: Hashable, Sendable {
    public var id: Int64
    public var coordinate: LonLat
    public init(id: Int64, coordinate: LonLat) { self.id = id; self.coordinate = coordinate }
}

/// A map of pins for a Swift app: the pins, the view, the gestures and the events the app reads.
/// The app draws the map; it feeds touches with their times in milliseconds (from its own clock)
/// and asks for a frame whenever it draws. One thread at a time, like the C API's `pindrop_map`.
///
/// Every call that fails throws a `PindropError` and changes nothing. The spatial index and the
/// allowed area are the plain-Swift ones (PindropSwiftIndex, as in pindrop.wasm), which answer
/// as the GEOS ones of libpindrop.so do (docs/swift.md).
///
/// Each method converts its values and calls Core's `Map`, as the C layer does
/// (Sources/Pindrop/Exports*.swift); the behaviour lives in Core.
public final class PinMap {
    public let options: PinMapOptions
    private let map: Map

    /// A map with no pins, a camera at (0, 0) zoom 0 on a 256 × 256 viewport, and `options`.
    public init(options: PinMapOptions = PinMapOptions()) throws(PindropError) {
        self.options = options
        let coreOptions = try options.core()
        map = try core { () throws(PindropCore.PindropError) in try Map(options: coreOptions, factory: SwiftIndexFactory()) }
    }

    // MARK: - The view

    /// Sets the built-in Web Mercator camera; `invalidArgument` for a centre beyond ±85.05°, a
    /// zoom outside [0, 30] or an empty viewport.
    public func setCamera(_ camera: Camera) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.setCamera(camera.core) }
    }

    /// The screen point of a coordinate in the current view.
    public func toScreen(_ p: LonLat) throws(PindropError) -> ScreenPoint {
        try ScreenPoint(core { () throws(PindropCore.PindropError) in try map.toScreen(lon: p.lon, lat: p.lat) })
    }

    /// The coordinate under a screen point in the current view.
    public func toLonLat(_ p: ScreenPoint) throws(PindropError) -> LonLat {
        try LonLat(core { () throws(PindropCore.PindropError) in try map.toLonLat(x: p.x, y: p.y) })
    }

    // MARK: - Pins

    /// Adds a pin; `duplicateID` when the id is on the map already.
    public func add(_ pin: Pin) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in
            try map.add(id: pin.id, lon: pin.coordinate.lon, lat: pin.coordinate.lat)
        }
    }

    /// Adds many pins at once (much faster than one by one); all or nothing.
    public func add(contentsOf pins: [Pin]) throws(PindropError) {
        var ids = [Int64](); ids.reserveCapacity(pins.count)
        var lonlat = [Double](); lonlat.reserveCapacity(2 * pins.count)
        for p in pins { ids.append(p.id); lonlat.append(p.coordinate.lon); lonlat.append(p.coordinate.lat) }
        let idBuffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: ids.count)
        let lonlatBuffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: lonlat.count)
        defer { idBuffer.deallocate(); lonlatBuffer.deallocate() }
        _ = idBuffer.initialize(from: ids)
        _ = lonlatBuffer.initialize(from: lonlat)
        try core { () throws(PindropCore.PindropError) in
            try map.addMany(ids: UnsafeBufferPointer(idBuffer), lonlat: UnsafeBufferPointer(lonlatBuffer))
        }
    }

    /// Removes a pin; `notFound` when there is none with that id.
    public func remove(id: Int64) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.remove(id: id) }
    }

    /// Moves a pin from the app's side (a reload, a sync): no event, no undo step.
    public func setPosition(id: Int64, _ p: LonLat) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.setPosition(id: id, lon: p.lon, lat: p.lat) }
    }

    /// A pin's true coordinate: what to save.
    public func position(id: Int64) throws(PindropError) -> LonLat {
        try LonLat(core { () throws(PindropCore.PindropError) in try map.position(id: id) })
    }

    /// Where a pin is drawn at rest: on its spread ring, else at its true coordinate.
    public func displayPosition(id: Int64) throws(PindropError) -> LonLat {
        try LonLat(core { () throws(PindropCore.PindropError) in try map.displayPosition(id: id) })
    }

    /// Whether a hold can lift the pin (pins are draggable when added).
    public func setDraggable(id: Int64, _ draggable: Bool) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.setDraggable(id: id, draggable) }
    }

    /// The number of pins on the map.
    public var count: Int { map.count }

    /// The pin a touch at `p` would take (the nearest drawn within `hitRadius`), or nil.
    public func hitTest(_ p: ScreenPoint) throws(PindropError) -> Int64? {
        try core { () throws(PindropCore.PindropError) in try map.hitTest(x: p.x, y: p.y) }
    }

    /// The pins whose true coordinate is within `radiusM` metres of `p`, nearest first.
    public func nearby(_ p: LonLat, radiusM: Double) throws(PindropError) -> [NearbyPin] {
        try core { () throws(PindropCore.PindropError) in
            try map.nearby(lon: p.lon, lat: p.lat, radius: radiusM)
            return map.nearbyResults.map { NearbyPin(id: $0.id, distanceM: $0.distance) }
        }
    }

    // MARK: - Drawing

    /// The pins to draw at `timeMs`, in drawing order (later ones on top): those inside the
    /// viewport grown by `hitRadius`, without the ones a clustered view draws as clusters.
    public func frame(timeMs: Double) throws(PindropError) -> [PinView] {
        try core { () throws(PindropCore.PindropError) in
            try map.frame(time: timeMs)
            return map.frameViews.map(PinView.init)
        }
    }

    /// The clusters (and collapsed stacks) to draw at `timeMs` beside `frame`'s pins; empty when
    /// `clusterRadius` is 0 and `spreadOnTap` is off, or at or above `clusterMaxZoom`.
    public func clusters(timeMs: Double) throws(PindropError) -> [ClusterView] {
        try core { () throws(PindropCore.PindropError) in
            try map.frameClusters(time: timeMs)
            return map.clusterViews.map(ClusterView.init)
        }
    }

    /// The ids of a cluster's (or stack's) pins in ascending order; `notFound` for a stale key.
    public func clusterMembers(key: UInt64) throws(PindropError) -> [Int64] {
        try core { () throws(PindropCore.PindropError) in try map.clusterMembers(key: key) }
    }

    /// The lowest zoom at which a cluster's pins are no longer one cluster.
    public func clusterExpansionZoom(key: UInt64) throws(PindropError) -> Double {
        try core { () throws(PindropCore.PindropError) in try map.clusterExpansionZoom(key: key) }
    }

    // MARK: - Touches and time

    /// Feeds one touch (or mouse) event at `timeMs`. Returns true when pindrop owns the gesture
    /// (the app must not pan or zoom with it), false when the app's map should handle it.
    /// `invalidArgument` for a time earlier than the last one, a DOWN for a pointer already
    /// down, or a MOVE / UP / CANCEL for one that is not.
    @discardableResult
    public func touch(_ phase: TouchPhase, at p: ScreenPoint, pointer: Int32 = 0, timeMs: Double) throws(PindropError) -> Bool {
        try core { () throws(PindropCore.PindropError) in
            try map.touch(pointer: pointer, phase: phase.core, x: p.x, y: p.y, time: timeMs)
        }
    }

    /// Resolves what is due at `timeMs`: the hold that lifts a pin, the double-tap window,
    /// auto-pan. Call it when `nextDeadlineMs` says.
    public func tick(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.tick(time: timeMs) }
    }

    /// When the next `tick` is due (ms), nil when nothing is pending.
    public var nextDeadlineMs: Double? {
        let t = map.nextDeadline
        return t.isFinite ? t : nil
    }

    /// Ends the gesture under way (the system took the touches): a held pin goes back.
    public func cancelGesture(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.cancelGesture(time: timeMs) }
    }

    /// The selected pin, or nil.
    public var selectedID: Int64? { map.selectedID == noID ? nil : map.selectedID }

    /// Selects a pin (nil: none); `selected` / `deselected` events follow.
    public func select(id: Int64?) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.select(id: id ?? noID) }
    }

    /// Moves the selected pin by (dx, dy) screen points: the keyboard's alternative to a drag
    /// (docs/editing.md, "Nudges"). `state` when nothing is selected.
    public func nudge(dx: Double, dy: Double, timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.nudge(dx: dx, dy: dy, time: timeMs) }
    }

    // MARK: - Events

    /// The events that happened since the last call, oldest first (the queue is emptied).
    public func events() -> [TimedPinEvent] {
        var out: [TimedPinEvent] = []
        while let e = map.pollEvent() { out.append(TimedPinEvent(event: PinEvent(e.event), timeMs: e.time)) }
        return out
    }

    // MARK: - Placing and editing (docs/editing.md)

    /// Adds pin `id` at `p` and starts placing it: taps move it until `commit` (a `moved` event
    /// with cause `.place`) or `cancelEdit` (the pin is removed).
    public func place(id: Int64, at p: LonLat, timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.place(id: id, lon: p.lon, lat: p.lat, time: timeMs) }
    }

    /// Starts editing a pin: taps move it; `cancelEdit` puts it back.
    public func edit(id: Int64, timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.edit(id: id, time: timeMs) }
    }

    /// Ends the placement or edit keeping the pin where it is; `state` when there is none.
    public func commit(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.commit(time: timeMs) }
    }

    /// Ends the placement (removing the pin) or edit (restoring it); `state` when there is none.
    public func cancelEdit(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.cancelEdit(time: timeMs) }
    }

    /// Takes back the latest user move (`moved` with cause `.undo`); `state` when there is none.
    public func undo(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.undo(time: timeMs) }
    }

    /// Moves again what `undo` took back; `state` when there is nothing to redo.
    public func redo(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.redo(time: timeMs) }
    }

    /// Limits user moves to an area given as WKT or GeoJSON text (a polygon or multipolygon),
    /// or lifts the limit with nil; `parse` for text that is neither.
    public func setAllowedArea(_ text: String?) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.setAllowedArea(text: text) }
    }

    /// Sets (or with nil clears) a pin's title; `calloutChanged` when it changes.
    public func setTitle(id: Int64, _ title: String?) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.setTitle(id: id, title) }
    }

    /// A pin's callout: its title and subtitle ("" when there is none).
    public func callout(id: Int64) throws(PindropError) -> (title: String, subtitle: String) {
        try core { () throws(PindropCore.PindropError) in
            (try map.callout(id: id, .title), try map.callout(id: id, .subtitle))
        }
    }

    /// Answers a `geocodeRequest` with the place's description. Returns false, changing nothing,
    /// when the pin moved or was removed since the request; `notFound` for an unknown request.
    @discardableResult
    public func answerGeocode(request: UInt64, _ subtitle: String) throws(PindropError) -> Bool {
        try core { () throws(PindropCore.PindropError) in try map.answerGeocode(request: request, subtitle) == .ok }
    }

    // MARK: - Stacks (spreadOnTap, docs/spreading.md)

    /// Opens the collapsed stack a key names (a `ClusterView` with `isStack`).
    public func openStack(key: UInt64, timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.openStack(key: key, time: timeMs) }
    }

    /// Closes the open stack; nothing happens when none is open.
    public func closeStack(timeMs: Double) throws(PindropError) {
        try core { () throws(PindropCore.PindropError) in try map.closeStack(time: timeMs) }
    }
}
