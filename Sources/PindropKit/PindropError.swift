import PindropCore

/// Why a call failed, with the message the C API's `pindrop_map_last_error` would give. Every
/// throwing call of this module throws only this type (typed throws): `catch` gets a
/// `PindropError`, and a `switch` over it is exhaustive. A failed call changes nothing.
public enum PindropError: Error, Hashable, Sendable {
    /// A value out of its range, not finite, a time earlier than the last one, a point outside
    /// the allowed area (`PINDROP_ERR_INVALID_ARGUMENT`).
    case invalidArgument(String)
    /// No pin with that id, no cluster or stack with that key (`PINDROP_ERR_NOT_FOUND`).
    case notFound(String)
    /// A pin with that id is on the map already (`PINDROP_ERR_DUPLICATE_ID`).
    case duplicateID(String)
    /// Area text that is neither WKT nor GeoJSON of a polygon (`PINDROP_ERR_PARSE`).
    case parse(String)
    /// Not now: nothing to undo, nothing selected to nudge, a gesture holds the pin
    /// (`PINDROP_ERR_STATE`).
    case state(String)

    /// What went wrong, in words.
    public var message: String {
        switch self {
        case .invalidArgument(let m), .notFound(let m), .duplicateID(let m), .parse(let m), .state(let m): m
        }
    }

    init(_ e: PindropCore.PindropError) {
        switch e.status {
        case .invalidArgument: self = .invalidArgument(e.message)
        case .notFound: self = .notFound(e.message)
        case .duplicateID: self = .duplicateID(e.message)
        case .parse: self = .parse(e.message)
        // Core throws GEOS and NO_MEMORY only from the GEOS index and the C layer, which this
        // module does not include; OK and STALE are not errors. Kept total all the same.
        case .state, .geos, .noMemory, .ok, .stale: self = .state(e.message)
        }
    }
}

/// Runs a Core call, turning Core's error into this module's.
@inline(__always)
func core<T>(_ body: () throws(PindropCore.PindropError) -> T) throws(PindropError) -> T {
    do throws(PindropCore.PindropError) {
        return try body()
    } catch {
        throw PindropError(error)
    }
}
