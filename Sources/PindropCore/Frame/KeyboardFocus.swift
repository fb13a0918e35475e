/// What has the keyboard focus (`pindrop_focus`): a pin, a cluster, or nothing.
public struct Focus: Sendable, Equatable {
    public enum Kind: Int32, Sendable, CaseIterable {
        case none = 0, pin, cluster
    }

    public var kind: Kind
    /// The pin (PINDROP_NO_ID unless kind is pin).
    public var id: Int64
    /// The cluster's key (0 unless kind is cluster).
    public var key: UInt64
    /// Its drawn screen point in the last frame.
    public var x, y: Double

    public static let none = Focus(kind: .none, id: noID, key: 0, x: 0, y: 0)

    static func pin(_ v: PinView) -> Focus { Focus(kind: .pin, id: v.id, key: 0, x: v.x, y: v.y) }
    static func cluster(_ v: ClusterView) -> Focus { Focus(kind: .cluster, id: noID, key: v.key, x: v.x, y: v.y) }
}

/// The keyboard focus (behaviour 20), kept by the frame room, which knows what the last frame
/// drew. The focus moves through the pins and clusters whose drawn point lies inside the viewport,
/// in reading order: by row floor(y / hit_radius), then x, then pins before clusters, then id (or
/// key), wrapping at either end. It stays on an item while the frames draw it (in the viewport or
/// its margin; the keyboard's held pin keeps it even when drawn beyond); otherwise the next frame
/// moves it to the next item in reading order from where it was last drawn.
///
/// Nothing is sorted: a step or a frame finds the neighbour in one pass over the frame's items,
/// and allocates nothing.
struct KeyboardFocus {
    private(set) var current = Focus.none

    /// An item's place in reading order. Pins come before clusters on the same point; ids compare
    /// as signed numbers, keys as unsigned ones.
    struct Place: Comparable {
        var row: Double
        var x: Double
        var kind: Int32
        var tie: UInt64

        init(x: Double, y: Double, rowHeight: Double, kind: Focus.Kind, id: Int64, key: UInt64) {
            row = (y / rowHeight).rounded(.down) + 0  // + 0: -0.0 becomes 0.0
            self.x = x + 0
            self.kind = kind.rawValue
            tie = kind == .pin ? UInt64(bitPattern: id) ^ (1 << 63) : key
        }

        init(_ f: Focus, rowHeight: Double) {
            self.init(x: f.x, y: f.y, rowHeight: rowHeight, kind: f.kind, id: f.id, key: f.key)
        }

        static func < (a: Place, b: Place) -> Bool {
            if a.row != b.row { return a.row < b.row }
            if a.x != b.x { return a.x < b.x }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.tie < b.tie
        }
    }

    /// Whether a drawn point may take the focus: inside the viewport (a pin drawn in the frame's
    /// margin has its point off the screen: focusing it would hide the focus).
    @inline(__always)
    static func inViewport(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
        x >= 0 && x <= w && y >= 0 && y <= h
    }

    /// The next (forward) or previous item in reading order after `from` among the focusable
    /// items, wrapping; `from` nil: the first (forward) or last item. Nil when none is focusable.
    static func neighbour(of from: Place?, forward: Bool, pins: [PinView], clusters: [ClusterView],
                          rowHeight r: Double, width w: Double, height h: Double,
                          alive: (Int64) -> Bool = { _ in true }) -> Focus? {
        var best: (Place, Focus)?   // the nearest item beyond `from` in the step's direction
        var wrap: (Place, Focus)?   // the first (or last) item of all, where the step wraps to
        @inline(__always) func consider(_ p: Place, _ f: Focus) {
            if let from, forward ? p > from : p < from {
                if best.map({ forward ? p < $0.0 : p > $0.0 }) ?? true { best = (p, f) }
            }
            if wrap.map({ forward ? p < $0.0 : p > $0.0 }) ?? true { wrap = (p, f) }
        }
        for v in pins where inViewport(v.x, v.y, w, h) && alive(v.id) {
            consider(Place(x: v.x, y: v.y, rowHeight: r, kind: .pin, id: v.id, key: 0), .pin(v))
        }
        for c in clusters where inViewport(c.x, c.y, w, h) {
            consider(Place(x: c.x, y: c.y, rowHeight: r, kind: .cluster, id: noID, key: c.key), .cluster(c))
        }
        return (best ?? wrap)?.1
    }

    /// Where the focus stands among the focusable items of the last frame: how many come before it
    /// in reading order, and how many there are ("4 of 27"); `index == total` when the focus is
    /// on none of them (nothing focused, or the keyboard's pin held beyond the frame).
    func rank(pins: [PinView], clusters: [ClusterView], rowHeight r: Double, width w: Double, height h: Double,
              alive: (Int64) -> Bool) -> (index: Int, total: Int) {
        let at = current.kind == .none ? nil : Place(current, rowHeight: r)
        var before = 0, total = 0, found = false
        @inline(__always) func count(_ p: Place, _ same: Bool) {
            total += 1
            if same { found = true } else if let at, p < at { before += 1 }
        }
        for v in pins where KeyboardFocus.inViewport(v.x, v.y, w, h) && alive(v.id) {
            count(Place(x: v.x, y: v.y, rowHeight: r, kind: .pin, id: v.id, key: 0), current.kind == .pin && v.id == current.id)
        }
        for c in clusters where KeyboardFocus.inViewport(c.x, c.y, w, h) {
            count(Place(x: c.x, y: c.y, rowHeight: r, kind: .cluster, id: noID, key: c.key),
                  current.kind == .cluster && c.key == current.key)
        }
        return (found ? before : total, total)
    }

    /// Moves the focus one step (+1 next, -1 previous) through what the last frame drew, leaving
    /// out the pins removed since (`alive`).
    mutating func step(forward: Bool, pins: [PinView], clusters: [ClusterView],
                       rowHeight r: Double, width w: Double, height h: Double, alive: (Int64) -> Bool) -> Focus {
        let from = current.kind == .none ? nil : Place(current, rowHeight: r)
        current = KeyboardFocus.neighbour(of: from, forward: forward, pins: pins, clusters: clusters,
                                          rowHeight: r, width: w, height: h, alive: alive) ?? .none
        return current
    }

    /// The focused pin was removed from the map since the last frame: the focus moves on at once to
    /// the next item of that frame in reading order, from where the pin was drawn.
    mutating func pinGone(pins: [PinView], clusters: [ClusterView], rowHeight r: Double, width w: Double,
                          height h: Double, alive: (Int64) -> Bool) {
        guard current.kind == .pin, !alive(current.id) else { return }
        current = KeyboardFocus.neighbour(of: Place(current, rowHeight: r), forward: true, pins: pins, clusters: clusters,
                                          rowHeight: r, width: w, height: h, alive: alive) ?? .none
    }

    /// After a frame: the focus follows its item to where it is drawn now, or, if the frame no
    /// longer draws it, moves to the next item in reading order from where it was (nothing, when
    /// nothing is focusable). `held`: the pin the keyboard holds, which keeps the focus while it
    /// is held. Returns the index of the focused pin in `pins`, if it is drawn.
    mutating func settle(pins: [PinView], clusters: [ClusterView], held: Int64,
                         rowHeight r: Double, width w: Double, height h: Double) -> Int? {
        switch current.kind {
        case .none:
            return nil
        case .pin:
            if let i = pins.firstIndex(where: { $0.id == current.id }) {
                current = .pin(pins[i])
                return i
            }
            if held != noID && current.id == held { return nil }
        case .cluster:
            if let c = clusters.first(where: { $0.key == current.key }) {
                current = .cluster(c)
                return nil
            }
        }
        current = KeyboardFocus.neighbour(of: Place(current, rowHeight: r), forward: true, pins: pins,
                                          clusters: clusters, rowHeight: r, width: w, height: h) ?? .none
        if current.kind == .pin { return pins.firstIndex { $0.id == current.id } }
        return nil
    }

    /// Puts the focus on a pin (the keyboard lifted it), at its drawn screen point.
    mutating func focus(pin id: Int64, x: Double, y: Double) {
        current = Focus(kind: .pin, id: id, key: 0, x: x, y: y)
    }
}
