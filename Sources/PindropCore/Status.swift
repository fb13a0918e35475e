/// The outcome of an operation, numbered as `pindrop_status` in include/pindrop.h.
public enum Status: Int32, Sendable, CaseIterable {
    case ok = 0
    case stale = 1
    case invalidArgument = -1
    case notFound = -2
    case duplicateID = -3
    case parse = -4
    case state = -5
    case geos = -6
    case noMemory = -7
}

/// A failed operation: its status and a message for `pindrop_map_last_error`.
public struct PindropError: Error, Sendable, Equatable {
    public let status: Status
    public let message: String

    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    static func invalid(_ message: String) -> PindropError { PindropError(.invalidArgument, message) }
}

/// Checks shared by every entry point that takes a coordinate.
@inline(__always)
func checkLonLat(_ lon: Double, _ lat: Double, _ what: @autoclosure () -> String = "coordinate") throws(PindropError) {
    guard lon.isFinite, lat.isFinite else {
        throw .invalid("\(what()) (\(lon), \(lat)) is not finite")
    }
    guard lon >= -180, lon <= 180 else {
        throw .invalid("\(what()): longitude \(lon) is outside [-180, 180]")
    }
    guard lat >= -90, lat <= 90 else {
        throw .invalid("\(what()): latitude \(lat) is outside [-90, 90]")
    }
}

/// The id the host never uses (`PINDROP_NO_ID`).
public let noID: Int64 = .min
