/// The snapping room's state held by the map (behaviour 24): the layers with their tree, and what
/// the dragged pin snapped to at its last landing point.
struct SnapState {
    var targets = SnapTargets()
    /// The slot the last snap was asked for, and what it snapped to (kind `.none`: nothing).
    var slot: Int32 = -1
    var hit = SnapHit.none
    /// Scratch for the pins near a landing point (snap_to_pins).
    var pinCandidates: [Int32] = []

    /// The highest snap layer number (layers are 0 ... 1023).
    static let maxLayer: UInt32 = 1023
}
