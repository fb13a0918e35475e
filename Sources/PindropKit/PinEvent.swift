import PindropCore

/// What happened on the map, each kind with its own data; docs/gestures.md and docs/editing.md
/// tell when each happens. Ask for them with `PinMap.events()` after each call that may cause
/// some (a touch, a tick, an edit).
public enum PinEvent: Hashable, Sendable {
    /// A tap selected the pin (or the app did, `PinMap.select`).
    case selected(id: Int64)
    case deselected(id: Int64)
    /// A hold lifted the pin; `at`: its true coordinate.
    case lifted(id: Int64, at: LonLat)
    /// The landing point of a dragged pin changed.
    case dragged(id: Int64, to: LonLat)
    /// The pin was let go: at its last landing point (a drag), or its true coordinate (unmoved).
    case dropped(id: Int64, at: LonLat)
    /// The gesture was cancelled; `at`: the pin's true coordinate, restored.
    case dragCancelled(id: Int64, at: LonLat)
    /// A user move (or the commit of a placement) changed the pin's true coordinate: save it.
    case moved(id: Int64, from: LonLat, to: LonLat, cause: MoveCause)
    /// The app is asked for a description of `at`: answer with `PinMap.answerGeocode(request:_:)`.
    case geocodeRequest(id: Int64, at: LonLat, request: UInt64)
    /// The pin's callout changed (its title or subtitle, `PinMap.callout`).
    case calloutChanged(id: Int64, at: LonLat)
    /// Pin `other`, at `at`, lies within `minSpacingM` of pin `id`, `distanceM` metres away.
    case nearby(id: Int64, other: Int64, at: LonLat, distanceM: Double)
    /// Pan the view by (dx, dy) points while pin `id` is dragged near the viewport's edge.
    case autopan(id: Int64, dx: Double, dy: Double)
    /// A tap on the cluster `key`, drawn at `at`.
    case clusterTapped(key: UInt64, at: LonLat)
    /// A collapsed stack opened (a tap, or `PinMap.openStack`): `key` its key, `at` its centre.
    case stackOpened(key: UInt64, at: LonLat)
    /// The open stack closed; `key` and `at` as its `stackOpened` said.
    case stackClosed(key: UInt64, at: LonLat)

    init(_ e: Event) {
        switch e {
        case .selected(let id): self = .selected(id: id)
        case .deselected(let id): self = .deselected(id: id)
        case .lifted(let id, let p): self = .lifted(id: id, at: LonLat(p))
        case .dragged(let id, let p): self = .dragged(id: id, to: LonLat(p))
        case .dropped(let id, let p): self = .dropped(id: id, at: LonLat(p))
        case .dragCancelled(let id, let p): self = .dragCancelled(id: id, at: LonLat(p))
        case .moved(let id, let from, let to, let cause):
            self = .moved(id: id, from: LonLat(from), to: LonLat(to), cause: MoveCause(cause))
        case .geocodeRequest(let id, let p, let request): self = .geocodeRequest(id: id, at: LonLat(p), request: request)
        case .calloutChanged(let id, let p): self = .calloutChanged(id: id, at: LonLat(p))
        case .nearby(let id, let other, let p, let d): self = .nearby(id: id, other: other, at: LonLat(p), distanceM: d)
        case .autopan(let id, let dx, let dy): self = .autopan(id: id, dx: dx, dy: dy)
        case .clusterTapped(let key, let p): self = .clusterTapped(key: key, at: LonLat(p))
        case .stackOpened(let key, let p): self = .stackOpened(key: key, at: LonLat(p))
        case .stackClosed(let key, let p): self = .stackClosed(key: key, at: LonLat(p))
        }
    }
}

/// Why a pin's true coordinate changed (`PinEvent.moved`).
public enum MoveCause: Hashable, Sendable, CaseIterable {
    /// A drag (touch or mouse) dropped it there.
    case drag
    /// A tap moved the pin being edited.
    case tap
    /// A placement was committed.
    case place
    case undo
    case redo
    /// The allowed area snapped it to its nearest point inside (outside policy `.snap`).
    case snap
    /// A nudge (`PinMap.nudge`).
    case nudge
    /// A keyboard drag's drop.
    case keyboard

    init(_ c: Event.Cause) {
        switch c {
        case .drag: self = .drag
        case .tap: self = .tap
        case .place: self = .place
        case .undo: self = .undo
        case .redo: self = .redo
        case .snap: self = .snap
        case .nudge: self = .nudge
        case .keyboard: self = .keyboard
        // A MOVED event always has a cause; Core's NONE is the C struct's value for other kinds.
        case .none: self = .drag
        }
    }
}

extension MoveCause: CustomStringConvertible {
    /// The case's name: "drag", "tap", ...
    public var description: String {
        switch self {
        case .drag: "drag"
        case .tap: "tap"
        case .place: "place"
        case .undo: "undo"
        case .redo: "redo"
        case .snap: "snap"
        case .nudge: "nudge"
        case .keyboard: "keyboard"
        }
    }
}

/// An event and the map's time (ms) when it happened.
public struct TimedPinEvent: Hashable, Sendable {
    public var event: PinEvent
    public var timeMs: Double
    public init(event: PinEvent, timeMs: Double) { self.event = event; self.timeMs = timeMs }
}
