/// Callouts, geocoding, nearby warnings, the allowed area and the history of user moves
/// (behaviours 10, 12, 13 and 14 of the spec).
struct EditingState {}

extension Map {
    /// Where a user move to (lon, lat) really goes (the allowed area may snap it), or nil to refuse it.
    func resolveUserMove(_ slot: Int32, lon: Double, lat: Double, cause: Event.Cause)
        -> (lon: Double, lat: Double, cause: Event.Cause)? { (lon, lat, cause) }
    /// After a user move: callouts, geocode requests, nearby warnings, history.
    func userMoved(_ slot: Int32, from: (lon: Double, lat: Double), cause: Event.Cause) {}
    func editingFlags(_ slot: Int32) -> UInt32 { 0 }
    func editingPinWillBeRemoved(_ slot: Int32) {}
}
