import CPindrop
import PindropCore

// Stacks that open on demand (since 0.3.0, behaviour 22): open and close the collapsed stacks
// that pindrop_map_frame_clusters returns with PINDROP_CLUSTER_STACK.

@_cdecl("pindrop_map_open_stack")
public func pindrop_map_open_stack(_ map: OpaquePointer?, _ key: UInt64, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.openStack(key: key, time: time) }
}

@_cdecl("pindrop_map_close_stack")
public func pindrop_map_close_stack(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.closeStack(time: time) }
}
