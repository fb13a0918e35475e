/// The thresholds and modes of a map (`pindrop_options`). Defaults are the documented ones.
public struct Options: Sendable, Equatable {
    public enum SpreadMode: Int32, Sendable, CaseIterable { case off = 0, ring = 1, spiral = 2 }
    public enum OutsidePolicy: Int32, Sendable, CaseIterable { case revert = 0, snap = 1 }

    public var hitRadius = 22.0
    public var dragThreshold = 5.0
    public var liftDelayMs = 250.0
    public var liftHeight = 40.0
    public var liftDurationMs = 200.0
    public var dropDurationMs = 250.0
    public var tapMaxMs = 250.0
    public var doubleTapMs = 300.0
    public var doubleTapSlop = 40.0
    public var autopanMargin = 40.0
    public var autopanSpeed = 600.0
    public var minSpacingM = 0.0
    public var spreadMode = SpreadMode.ring
    public var spreadToleranceM = 0.0
    public var outsidePolicy = OutsidePolicy.revert
    /// Points; 0 = clustering off.
    public var clusterRadius = 0.0
    /// Clusters only below this zoom, in [0, 30].
    public var clusterMaxZoom = 17.0
    /// Points between pins of a spiral layout (`SpreadMode.spiral`); > 0.
    public var spreadSpacing = 25.0
    /// The fewest pins a cluster may hold (supercluster's minPoints); >= 2.
    public var clusterMinPoints: UInt32 = 2
    /// Only pins of one category are clustered together (each category its own hierarchy).
    public var clusterByCategory = false
    /// Groups of two or more pins are drawn collapsed, one stack item each, until tapped open
    /// (behaviour 22, docs/spreading.md).
    public var spreadOnTap = false
    /// Points: a dragged pin lands on the nearest snap target within this distance of where it
    /// would be drawn (behaviour 24); 0 = off. In [0, `maxSnapTolerance`].
    public var snapTolerance = 0.0
    /// The other pins' true coordinates are snap targets too.
    public var snapToPins = false

    /// The largest snap tolerance: as far as a screen point may lie outside the view
    /// (`InputRange.screenMargin`); a tolerance beyond it would snap to targets no touch can reach.
    public static let maxSnapTolerance = InputRange.screenMargin

    public init() {}

    /// Throws `invalidArgument` naming the first field that is not finite or out of its range.
    public func validate() throws(PindropError) {
        let fields: [(String, Double)] = [
            ("hit_radius", hitRadius), ("drag_threshold", dragThreshold),
            ("lift_delay_ms", liftDelayMs), ("lift_height", liftHeight),
            ("lift_duration_ms", liftDurationMs), ("drop_duration_ms", dropDurationMs),
            ("tap_max_ms", tapMaxMs), ("double_tap_ms", doubleTapMs),
            ("double_tap_slop", doubleTapSlop), ("autopan_margin", autopanMargin),
            ("autopan_speed", autopanSpeed), ("min_spacing_m", minSpacingM),
            ("spread_tolerance_m", spreadToleranceM), ("cluster_radius", clusterRadius),
            ("cluster_max_zoom", clusterMaxZoom), ("spread_spacing", spreadSpacing),
            ("snap_tolerance", snapTolerance),
        ]
        for (name, value) in fields {
            guard value.isFinite else { throw .invalid("options.\(name) is not finite (\(value))") }
            guard value >= 0 else { throw .invalid("options.\(name) must be >= 0 (got \(value))") }
        }
        guard hitRadius > 0 else { throw .invalid("options.hit_radius must be > 0 (got \(hitRadius))") }
        guard clusterMaxZoom <= 30 else { throw .invalid("options.cluster_max_zoom must be in [0, 30] (got \(clusterMaxZoom))") }
        guard spreadSpacing > 0 else { throw .invalid("options.spread_spacing must be > 0 (got \(spreadSpacing))") }
        guard snapTolerance <= Options.maxSnapTolerance else {
            throw .invalid("options.snap_tolerance must be in [0, 1e7] points (got \(snapTolerance))")
        }
        guard clusterMinPoints >= 2 else {
            throw .invalid("options.cluster_min_points must be >= 2 (got \(clusterMinPoints))")
        }
    }
}
