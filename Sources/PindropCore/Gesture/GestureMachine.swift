/// The gesture state machine (behaviours 1–9 and 15 of the spec).
struct GestureMachine {}

extension Map {
    /// Where the gesture holds a pin (lifted or dragged), or nil.
    @inline(__always) func gestureDrawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? { nil }
    /// Slots the gesture draws away from their true coordinate, for hit tests and frames.
    func gestureCandidates(_ box: GeoBox, into out: inout [Int32]) {}
    func gestureFlags(_ slot: Int32) -> UInt32 { 0 }
    func gestureLift(_ slot: Int32, time: Double) -> Double { 0 }
    func gesturePinWillBeRemoved(_ slot: Int32) {}
}
