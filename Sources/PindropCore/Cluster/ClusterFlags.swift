/// What a `pindrop_cluster_view` stands for (`flags`, `PINDROP_CLUSTER_*`).
public struct ClusterFlags: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// All members share one point: zooming in cannot separate them (behaviour 19).
    public static let oneSpot = ClusterFlags(rawValue: 1)
    /// A collapsed group of pins on one spot (behaviour 22, `spread_on_tap`), not a cluster of 16.
    public static let stack = ClusterFlags(rawValue: 2)
    /// Every flag, for the test that reads the header.
    public static let all: [(name: String, flag: ClusterFlags)] = [
        ("ONE_SPOT", .oneSpot), ("STACK", .stack),
    ]
}
