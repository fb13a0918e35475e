import CGEOS
import PindropCore

/// One GEOS context (reentrant `_r` API), owned by one map and shared by its native structures.
public final class GEOSContext {
    public let handle: GEOSContextHandle_t
    /// The last message GEOS reported through its error handler on this context.
    public internal(set) var lastMessage = ""

    /// `.geos` when GEOS cannot make a context (it allocates one; out of memory).
    public init() throws(PindropError) {
        guard let h = GEOS_init_r() else {
            throw PindropError(.geos, "GEOS could not create a context (GEOS_init_r failed: out of memory?)")
        }
        handle = h
        let me = Unmanaged.passUnretained(self).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, user in
            guard let user, let message else { return }
            Unmanaged<GEOSContext>.fromOpaque(user).takeUnretainedValue().lastMessage = String(cString: message)
        }, me)
    }

    deinit { GEOS_finish_r(handle) }
}

/// The factory a map uses when it is built for the C library: everything native, one context.
public final class GEOSFactory: IndexFactory {
    public let context: GEOSContext
    public init() throws(PindropError) { context = try GEOSContext() }
    public func makeIndex() -> SpatialIndex { GEOSPointIndex(context: context) }
    public func makeIndex(sharing coordinates: SlotCoordinates) -> SpatialIndex {
        GEOSPointIndex(context: context, sharing: coordinates)
    }
    public func makeSnapIndex() -> SnapIndex { GEOSSnapIndex(context: context) }
}
