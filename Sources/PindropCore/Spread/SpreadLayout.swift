/// Pins sharing a spot drawn on a ring (behaviour 11 of the spec).
struct SpreadLayout {}

extension Map {
    @inline(__always) func spreadDrawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? { nil }
    /// Slots whose drawn (spread) position may lie in the box.
    func spreadCandidates(_ box: GeoBox, into out: inout [Int32]) {}
    func spreadFlags(_ slot: Int32) -> UInt32 { 0 }
    func spreadPinAdded(_ slot: Int32) {}
    func spreadPinMoved(_ slot: Int32) {}
    func spreadPinWillBeRemoved(_ slot: Int32) {}
}
