/// What a `pindrop_cluster_view` stands for (`flags`, `PINDROP_CLUSTER_*`).
public struct ClusterFlags: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A collapsed group of pins on one spot (behaviour 22, `spread_on_tap`), not a cluster of 16.
    public static let stack = ClusterFlags(rawValue: 2)
    /// Every flag, for the test that reads the header.
    public static let all: [(name: String, flag: ClusterFlags)] = [
        ("STACK", .stack),
    ]
}
