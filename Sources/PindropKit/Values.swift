import PindropCore

// The values of the Swift API: plain structs and enums, each converted to and from Core's at the
// boundary of `PinMap` (PinMap.swift), as the C layer converts to and from include/pindrop.h.

/// A point on the map: longitude and latitude in degrees.
public struct LonLat: Hashable, Sendable {
    public var lon: Double
    public var lat: Double
    public init(lon: Double, lat: Double) { self.lon = lon; self.lat = lat }

    init(_ p: (lon: Double, lat: Double)) { self.init(lon: p.lon, lat: p.lat) }
    init(_ p: PindropCore.LonLat) { self.init(lon: p.lon, lat: p.lat) }
}

extension LonLat: CustomStringConvertible {
    /// "(lon, lat)", every digit kept.
    public var description: String { "(\(lon), \(lat))" }
}

/// A point on the screen, in points, from the viewport's top-left corner (y down).
public struct ScreenPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    init(_ p: (x: Double, y: Double)) { self.init(x: p.x, y: p.y) }
}

extension ScreenPoint: CustomStringConvertible {
    /// "(x, y)" in points.
    public var description: String { "(\(x), \(y))" }
}

/// The built-in camera: Web Mercator with a centre, a zoom (0 ... 30; 256 · 2^zoom points around
/// the world), a clockwise bearing in degrees and the viewport's size in points.
public struct Camera: Hashable, Sendable {
    public var center: LonLat
    public var zoom: Double
    public var bearingDeg: Double
    public var width: Double
    public var height: Double

    public init(center: LonLat, zoom: Double, bearingDeg: Double = 0, width: Double, height: Double) {
        self.center = center; self.zoom = zoom; self.bearingDeg = bearingDeg
        self.width = width; self.height = height
    }

    var core: PindropCore.Camera {
        PindropCore.Camera(centerLon: center.lon, centerLat: center.lat, zoom: zoom, bearingDeg: bearingDeg,
                           width: width, height: height)
    }
}

/// What a touch (or mouse) event is: a pointer going down, moving, going up, or cancelled by the
/// system (CANCEL ignores the position).
public enum TouchPhase: Sendable, CaseIterable {
    case down, move, up, cancel

    var core: PindropCore.TouchPhase {
        switch self {
        case .down: .down
        case .move: .move
        case .up: .up
        case .cancel: .cancel
        }
    }
}

/// One pin of a frame, in drawing order: where to draw it and how.
public struct PinView: Hashable, Sendable {
    /// How a pin is drawn (`PINDROP_PIN_*` in include/pindrop.h).
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let selected = Flags(rawValue: PinFlags.selected.rawValue)
        public static let editing = Flags(rawValue: PinFlags.editing.rawValue)
        public static let dragging = Flags(rawValue: PinFlags.dragging.rawValue)
        /// Drawn on a spread ring, away from its true coordinate (draw a leg to `anchor`).
        public static let spread = Flags(rawValue: PinFlags.spread.rawValue)
        /// Held over a point outside the allowed area.
        public static let invalid = Flags(rawValue: PinFlags.invalid.rawValue)
        /// Has the keyboard focus.
        public static let focused = Flags(rawValue: PinFlags.focused.rawValue)
        /// Its drawing still changes with no further input: keep drawing frames.
        public static let animating = Flags(rawValue: PinFlags.animating.rawValue)
    }

    public var id: Int64
    /// The screen point the pin marks (where it is drawn, or will land).
    public var point: ScreenPoint
    /// The screen point of its true coordinate (the end of a spread leg).
    public var anchor: ScreenPoint
    /// 0 at rest ... 1 fully lifted; below 0 during the drop's bounce.
    public var lift: Double
    public var flags: Flags

    init(_ v: PindropCore.PinView) {
        id = v.id
        point = ScreenPoint(x: v.x, y: v.y)
        anchor = ScreenPoint(x: v.anchorX, y: v.anchorY)
        lift = v.lift
        flags = Flags(rawValue: v.flags.rawValue)
    }
}

/// One cluster (or, with `spreadOnTap`, one collapsed stack) of a clustered frame.
public struct ClusterView: Hashable, Sendable {
    /// Names the cluster while its pins stay the same (`PinMap.clusterMembers`).
    public var key: UInt64
    public var point: ScreenPoint
    public var coordinate: LonLat
    public var count: Int
    /// All its pins share one point: zooming in cannot separate them.
    public var isOneSpot: Bool
    /// A collapsed stack of pins on one spot (tap it, or `PinMap.openStack`), not a cluster.
    public var isStack: Bool

    init(_ v: PindropCore.ClusterView) {
        key = v.key
        point = ScreenPoint(x: v.x, y: v.y)
        coordinate = LonLat(lon: v.lon, lat: v.lat)
        count = Int(v.count)
        let flags = ClusterFlags(rawValue: v.flags)
        isOneSpot = flags.contains(.oneSpot)
        isStack = flags.contains(.stack)
    }
}

/// A pin near a point: its id and its great-circle distance in metres.
public struct NearbyPin: Hashable, Sendable {
    public var id: Int64
    public var distanceM: Double
    public init(id: Int64, distanceM: Double) { self.id = id; self.distanceM = distanceM }
}
