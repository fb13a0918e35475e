/// What a cluster holds, as the host reads it (`pindrop_cluster_summary`, SPEC behaviour 19).
public struct ClusterSummary: Sendable, Equatable {
    public var count: UInt32
    /// Members with a value (not NaN).
    public var valued: UInt32
    /// The members' common category, or `PinAttributes.mixed`.
    public var category: UInt32
    /// `ClusterSummary.oneSpot` when every member has the same point.
    public var flags: UInt32
    /// Over the valued members; NaN when none has a value.
    public var valueSum: Double, valueMin: Double, valueMax: Double

    public static let oneSpot: UInt32 = ClusterFlags.oneSpot.rawValue
}

/// A category and how many pins of a cluster have it.
public struct CategoryCount: Sendable, Equatable {
    public var category: UInt32
    public var count: UInt32
}
