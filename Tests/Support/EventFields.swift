import PindropCore

/// An event read field by field, the way the scenario tests check it: the fields of
/// `pindrop_event` under their Swift names, unused ones at their defaults (`id`, `other`:
/// PINDROP_NO_ID). Core's `Event` keeps each kind's data in its own case.
public struct EventFields: Equatable {
    public var kind: Event.Kind
    public var cause = Event.Cause.none
    public var id = noID, other = noID
    public var lon = 0.0, lat = 0.0, fromLon = 0.0, fromLat = 0.0
    public var dx = 0.0, dy = 0.0, distanceM = 0.0, timeMs: Double
    public var request: UInt64 = 0

    public init(_ timed: TimedEvent) {
        kind = timed.event.kind
        timeMs = timed.time
        var at: LonLat?
        switch timed.event {
        case .selected(let pin), .deselected(let pin): id = pin
        case .lifted(let pin, let p), .dropped(let pin, let p), .dragCancelled(let pin, let p), .calloutChanged(let pin, let p):
            (id, at) = (pin, p)
        case .dragged(let pin, let to): (id, at) = (pin, to)
        case .moved(let pin, let from, let to, let why):
            (id, at, cause) = (pin, to, why)
            (fromLon, fromLat) = (from.lon, from.lat)
        case .geocodeRequest(let pin, let p, let number): (id, at, request) = (pin, p, number)
        case .nearby(let pin, let near, let p, let metres): (id, other, at, distanceM) = (pin, near, p, metres)
        case .autopan(let pin, let x, let y): (id, dx, dy) = (pin, x, y)
        case .clusterTapped(let key, let p): (request, at) = (key, p)
        case .stackOpened(let key, let p), .stackClosed(let key, let p): (request, at) = (key, p)
        }
        if let at { (lon, lat) = (at.lon, at.lat) }
    }
}

extension Map {
    /// The next event, read field by field (nil when the queue is empty).
    public func pollEventFields() -> EventFields? { pollEvent().map(EventFields.init) }
}
