/// How a pin is drawn (`pindrop_pin_view.flags`, `PINDROP_PIN_*`).
public struct PinFlags: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let selected = PinFlags(rawValue: 1)
    public static let editing = PinFlags(rawValue: 2)
    public static let dragging = PinFlags(rawValue: 4)
    /// Drawn on a spread ring, away from its true coordinate.
    public static let spread = PinFlags(rawValue: 8)
    /// Held over a point outside the allowed area.
    public static let invalid = PinFlags(rawValue: 16)
    /// Has the keyboard focus (`Map.focusStep`; behaviour 20).
    public static let focused = PinFlags(rawValue: 32)
    /// Its drawing still changes with no further input: a lift rising, a drop falling, a glide
    /// under way. A host keeps drawing frames while any drawn pin has it.
    public static let animating = PinFlags(rawValue: 64)
    /// The dragged pin is snapped to a target (behaviour 24).
    public static let snapped = PinFlags(rawValue: 128)
    /// Every flag, for the test that reads the header.
    public static let all: [(name: String, flag: PinFlags)] = [
        ("SELECTED", .selected), ("EDITING", .editing), ("DRAGGING", .dragging), ("SPREAD", .spread), ("INVALID", .invalid),
        ("FOCUSED", .focused), ("ANIMATING", .animating), ("SNAPPED", .snapped),
    ]
}

/// A point on the map: longitude and latitude in degrees.
public struct LonLat: Sendable, Equatable {
    public var lon, lat: Double
    public init(lon: Double, lat: Double) { self.lon = lon; self.lat = lat }
    public init(_ p: (lon: Double, lat: Double)) { self.lon = p.lon; self.lat = p.lat }
}

/// What happened, each kind with its own data. The C layer flattens it into `pindrop_event`
/// (`type` is `kind`); docs/gestures.md and docs/editing.md tell when each happens.
public enum Event: Sendable, Equatable {
    /// A tap selected the pin (or the host did, select_id).
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
    /// A user move (or the commit of a placement) changed the pin's true coordinate.
    case moved(id: Int64, from: LonLat, to: LonLat, cause: Cause)
    /// The host is asked for a description of `at` (answer with answer_geocode and `request`).
    case geocodeRequest(id: Int64, at: LonLat, request: UInt64)
    case calloutChanged(id: Int64, at: LonLat)
    /// Pin `other`, at `at`, lies within min_spacing_m of pin `id` (`distance` in metres).
    case nearby(id: Int64, other: Int64, at: LonLat, distance: Double)
    /// The host should pan its view by (dx, dy) points while pin `id` is dragged.
    case autopan(id: Int64, dx: Double, dy: Double)
    /// A tap on the cluster `key`, drawn at `at`.
    case clusterTapped(key: UInt64, at: LonLat)
    /// A collapsed stack opened (a tap, or open_stack): `key` its key, `at` the group's centre.
    case stackOpened(key: UInt64, at: LonLat)
    /// The open stack closed; `key` and `at` as its STACK_OPENED said.
    case stackClosed(key: UInt64, at: LonLat)

    public enum Kind: Int32, Sendable, CaseIterable {
        case selected = 0, deselected, lifted, dragged, dropped, dragCancelled, moved,
             geocodeRequest, calloutChanged, nearby, autopan, clusterTapped,
             stackOpened, stackClosed
    }
    public enum Cause: Int32, Sendable, CaseIterable {
        case none = 0, drag, tap, place, undo, redo, snap, nudge
        /// A keyboard drag's drop (`Map.keyDrop`; behaviour 20).
        case keyboard
    }

    public var kind: Kind {
        switch self {
        case .selected: .selected
        case .deselected: .deselected
        case .lifted: .lifted
        case .dragged: .dragged
        case .dropped: .dropped
        case .dragCancelled: .dragCancelled
        case .moved: .moved
        case .geocodeRequest: .geocodeRequest
        case .calloutChanged: .calloutChanged
        case .nearby: .nearby
        case .autopan: .autopan
        case .clusterTapped: .clusterTapped
        case .stackOpened: .stackOpened
        case .stackClosed: .stackClosed
        }
    }
}

/// An event and the map's time (ms) when it happened.
public struct TimedEvent: Sendable, Equatable {
    public var event: Event
    public var time: Double
}

/// The events a map holds for its host, first in first out, bounded (`PINDROP_EVENT_QUEUE_LIMIT`,
/// docs/robustness.md, "The event queue").
///
/// The rule: while fewer than `limit` events wait, every event is queued as it comes. From
/// `limit` on, the events a drag produces for every finger move or auto-pan tick are merged
/// instead of added: a DRAGGED of a pin replaces that pin's DRAGGED in the queue's tail (its
/// latest landing point, at the latest time), an AUTOPAN of a pin is added to that pin's
/// AUTOPAN there (the distances summed, at the latest time). The tail is the run of DRAGGED and
/// AUTOPAN events at the end of the queue: any other event ends it, so a merge never crosses an
/// event of another kind, and the merged event moves to the end of the queue, after what came
/// before it. Every other event (selections, LIFTED, DROPPED, MOVED, callouts, geocode
/// requests, NEARBY, clusters and stacks) is always queued: a host must see each. Times in the
/// queue never decrease. Reuses its storage (no allocation once warmed up).
public struct EventQueue {
    /// The pending events from which DRAGGED and AUTOPAN are merged (`PINDROP_EVENT_QUEUE_LIMIT`).
    public static let defaultLimit = 1024

    private var items: [TimedEvent] = []
    private var head = 0
    /// The pending count from which DRAGGED and AUTOPAN are merged.
    public let limit: Int

    public init(limit: Int = EventQueue.defaultLimit) { self.limit = max(1, limit) }
    public var isEmpty: Bool { head == items.count }
    public var count: Int { items.count - head }
    /// The events stored, read or not (for the test that storage follows the pending events).
    var storedCount: Int { items.count }

    public mutating func push(_ e: Event, time: Double) {
        if count >= limit, merge(e, time: time) { return }
        items.append(TimedEvent(event: e, time: time))
    }

    public mutating func pop() -> TimedEvent? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true); head = 0
        } else if head >= 256, head * 2 >= items.count {
            // A host that polls some events but never all of them: drop what was read, so that
            // the storage follows the pending events, not every event ever queued.
            items.removeSubrange(0..<head); head = 0
        }
        return e
    }

    /// Merges a DRAGGED or AUTOPAN into the event of the same kind and pin in the queue's tail of
    /// DRAGGED and AUTOPAN events, moving the result to the end. False when `e` is of another
    /// kind or the tail holds no such event (then it is queued as it is).
    private mutating func merge(_ e: Event, time: Double) -> Bool {
        var merged: Event
        switch e {
        case .dragged, .autopan: merged = e
        default: return false
        }
        var i = items.count - 1
        while i >= head {
            switch (items[i].event, e) {
            case (.dragged(let a, _), .dragged(let b, _)) where a == b:
                break
            case (.autopan(let a, let dx0, let dy0), .autopan(let b, let dx1, let dy1)) where a == b:
                merged = .autopan(id: b, dx: dx0 + dx1, dy: dy0 + dy1)
            case (.dragged, _), (.autopan, _):
                i -= 1
                continue
            default:
                return false  // the tail ends at an event of another kind
            }
            // Move the merged event to the end: the tail is a handful of events (one DRAGGED and
            // one AUTOPAN per held pin), so the shift is short.
            var j = i
            while j + 1 < items.count { items[j] = items[j + 1]; j += 1 }
            items[items.count - 1] = TimedEvent(event: merged, time: time)
            return true
        }
        return false
    }
}
