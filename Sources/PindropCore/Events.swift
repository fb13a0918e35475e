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
    /// Every flag, for the test that reads the header.
    public static let all: [(name: String, flag: PinFlags)] = [
        ("SELECTED", .selected), ("EDITING", .editing), ("DRAGGING", .dragging), ("SPREAD", .spread), ("INVALID", .invalid),
    ]
}

/// What happened, for the host to drain (`pindrop_event`).
public struct Event: Sendable, Equatable {
    public enum Kind: Int32, Sendable, CaseIterable {
        case selected = 0, deselected, lifted, dragged, dropped, dragCancelled, moved,
             geocodeRequest, calloutChanged, nearby, autopan, clusterTapped
    }
    public enum Cause: Int32, Sendable, CaseIterable {
        case none = 0, drag, tap, place, undo, redo, snap, nudge
    }

    public var kind: Kind
    public var cause: Cause = .none
    public var id: Int64 = noID
    public var other: Int64 = noID
    public var lon = 0.0, lat = 0.0, fromLon = 0.0, fromLat = 0.0
    public var dx = 0.0, dy = 0.0, distanceM = 0.0, timeMs = 0.0
    public var request: UInt64 = 0

    public init(_ kind: Kind, id: Int64 = noID, time: Double) {
        self.kind = kind; self.id = id; self.timeMs = time
    }
}

/// A first-in first-out queue that reuses its storage (no allocation once warmed up).
public struct EventQueue {
    private var items: [Event] = []
    private var head = 0

    public init() {}
    public var isEmpty: Bool { head == items.count }
    public var count: Int { items.count - head }

    public mutating func push(_ e: Event) { items.append(e) }

    public mutating func pop() -> Event? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        return e
    }
}
