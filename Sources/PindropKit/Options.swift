import PindropCore

/// The thresholds and modes of a map, with the documented defaults (include/pindrop.h,
/// `PINDROP_DEFAULT_*`): distances on the screen in points, times in milliseconds.
public struct PinMapOptions: Hashable, Sendable {
    /// How pins that share a spot are drawn (docs/spreading.md).
    public enum SpreadMode: Hashable, Sendable, CaseIterable {
        /// Drawn where they are, on top of each other.
        case off
        /// On a ring around the spot, a leg to it.
        case ring
        /// On a compact spiral, `spreadSpacing` points apart.
        case spiral
    }

    /// What a move outside the allowed area does (docs/editing.md).
    public enum OutsidePolicy: Hashable, Sendable, CaseIterable {
        /// Refused: the pin goes back.
        case revert
        /// Moved to the nearest point inside.
        case snap
    }

    public var hitRadius: Double
    public var dragThreshold: Double
    public var liftDelayMs: Double
    public var liftHeight: Double
    public var liftDurationMs: Double
    public var dropDurationMs: Double
    public var tapMaxMs: Double
    public var doubleTapMs: Double
    public var doubleTapSlop: Double
    public var autopanMargin: Double
    public var autopanSpeed: Double
    /// Pins closer than this (metres) to a moved pin are reported (`PinEvent.nearby`); 0: off.
    public var minSpacingM: Double
    public var spreadMode: SpreadMode
    /// Pins within this many metres share a spot (0: the very same coordinate).
    public var spreadToleranceM: Double
    public var outsidePolicy: OutsidePolicy
    /// Points; 0 = clustering off.
    public var clusterRadius: Double
    /// Clusters only below this zoom, in [0, 30].
    public var clusterMaxZoom: Double
    /// Points between pins of a spiral (`SpreadMode.spiral`); > 0.
    public var spreadSpacing: Double
    /// The fewest pins a cluster may hold; >= 2.
    public var clusterMinPoints: Int
    /// Only pins of one category are clustered together.
    public var clusterByCategory: Bool
    /// Groups of pins on one spot are drawn collapsed, one stack each, until tapped open.
    public var spreadOnTap: Bool

    /// The defaults: Core's, which a test holds to the header's.
    public init() {
        let d = Options()
        hitRadius = d.hitRadius; dragThreshold = d.dragThreshold; liftDelayMs = d.liftDelayMs
        liftHeight = d.liftHeight; liftDurationMs = d.liftDurationMs; dropDurationMs = d.dropDurationMs
        tapMaxMs = d.tapMaxMs; doubleTapMs = d.doubleTapMs; doubleTapSlop = d.doubleTapSlop
        autopanMargin = d.autopanMargin; autopanSpeed = d.autopanSpeed; minSpacingM = d.minSpacingM
        spreadMode = SpreadMode(d.spreadMode); spreadToleranceM = d.spreadToleranceM
        outsidePolicy = d.outsidePolicy == .snap ? .snap : .revert
        clusterRadius = d.clusterRadius; clusterMaxZoom = d.clusterMaxZoom; spreadSpacing = d.spreadSpacing
        clusterMinPoints = Int(d.clusterMinPoints); clusterByCategory = d.clusterByCategory
        spreadOnTap = d.spreadOnTap
    }

    /// Core's options; a field out of range is `invalidArgument` naming it.
    func core() throws(PindropError) -> Options {
        var o = Options()
        o.hitRadius = hitRadius; o.dragThreshold = dragThreshold; o.liftDelayMs = liftDelayMs
        o.liftHeight = liftHeight; o.liftDurationMs = liftDurationMs; o.dropDurationMs = dropDurationMs
        o.tapMaxMs = tapMaxMs; o.doubleTapMs = doubleTapMs; o.doubleTapSlop = doubleTapSlop
        o.autopanMargin = autopanMargin; o.autopanSpeed = autopanSpeed; o.minSpacingM = minSpacingM
        switch spreadMode {
        case .off: o.spreadMode = .off
        case .ring: o.spreadMode = .ring
        case .spiral: o.spreadMode = .spiral
        }
        o.spreadToleranceM = spreadToleranceM
        o.outsidePolicy = outsidePolicy == .snap ? .snap : .revert
        o.clusterRadius = clusterRadius; o.clusterMaxZoom = clusterMaxZoom; o.spreadSpacing = spreadSpacing
        guard clusterMinPoints >= 2, clusterMinPoints <= Int(UInt32.max) else {
            throw .invalidArgument("options.cluster_min_points must be >= 2 (got \(clusterMinPoints))")
        }
        o.clusterMinPoints = UInt32(clusterMinPoints)
        o.clusterByCategory = clusterByCategory; o.spreadOnTap = spreadOnTap
        return o
    }
}

extension PinMapOptions.SpreadMode {
    init(_ m: Options.SpreadMode) {
        switch m {
        case .off: self = .off
        case .ring: self = .ring
        case .spiral: self = .spiral
        }
    }
}
