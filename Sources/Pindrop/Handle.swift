import CPindrop
import Glibc
import PindropCore
import PindropIndex

/// What a `pindrop_map *` points to: the Core map and the last error message the C caller reads.
final class Handle {
    let map: Map
    private var message: UnsafeMutablePointer<CChar>?

    init(map: Map) { self.map = map }
    deinit { free(message) }

    var lastError: UnsafePointer<CChar> { UnsafePointer(message) ?? emptyString }

    func fail(_ error: PindropError) -> pindrop_status {
        setMessage(error.message)
        return pindrop_status(rawValue: error.status.rawValue)
    }

    func setMessage(_ text: String) {
        free(message)
        message = strdup(text)
    }

    func clearMessage() {
        free(message)
        message = nil
    }
}

let emptyString: UnsafePointer<CChar> = UnsafePointer(strdup("")!)
let nullMapMessage: UnsafePointer<CChar> = UnsafePointer(strdup("the map is NULL")!)

@inline(__always)
func handle(_ p: OpaquePointer?) -> Handle? {
    guard let p else { return nil }
    return Unmanaged<Handle>.fromOpaque(UnsafeRawPointer(p)).takeUnretainedValue()
}

let statusOK = PINDROP_OK
let statusInvalid = PINDROP_ERR_INVALID_ARGUMENT

/// Runs `body` against the map: OK when it returns, the error's status (remembered as the map's
/// last error) when it throws. A NULL map is PINDROP_ERR_INVALID_ARGUMENT.
@inline(__always)
func call(_ p: OpaquePointer?, _ body: (Map) throws(PindropError) -> Void) -> pindrop_status {
    guard let h = handle(p) else { return statusInvalid }
    do throws(PindropError) {
        try body(h.map)
        return statusOK
    } catch {
        return h.fail(error)
    }
}

/// A required output pointer: NULL is an invalid argument naming the parameter.
@inline(__always)
func required<T>(_ p: T?, _ name: String) throws(PindropError) -> T {
    guard let p else { throw PindropError(.invalidArgument, "\(name) is NULL") }
    return p
}
