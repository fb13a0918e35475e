import CPindrop
import Glibc
import PindropCore

// Input: touches, ticks, the next deadline, cancelling a gesture.

@_cdecl("pindrop_map_touch")
public func pindrop_map_touch(_ map: OpaquePointer?, _ pointer: Int32, _ phase: pindrop_touch_phase,
                              _ x: Double, _ y: Double, _ time: Double) -> Int32 {
    guard let h = handle(map) else { return statusInvalid.rawValue }
    do throws(PindropError) {
        guard let p = TouchPhase(rawValue: Int32(bitPattern: phase.rawValue)) else {
            throw PindropError(.invalidArgument, "touch phase \(Int32(bitPattern: phase.rawValue)) is not a pindrop_touch_phase")
        }
        return try h.map.touch(pointer: pointer, phase: p, x: x, y: y, time: time) ? 1 : 0
    } catch {
        return h.fail(error).rawValue
    }
}

@_cdecl("pindrop_map_tick")
public func pindrop_map_tick(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.tick(time: time) }
}

@_cdecl("pindrop_map_next_deadline")
public func pindrop_map_next_deadline(_ map: OpaquePointer?) -> Double {
    handle(map)?.map.nextDeadline ?? .infinity
}

@_cdecl("pindrop_map_cancel_gesture")
public func pindrop_map_cancel_gesture(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.cancelGesture(time: time) }
}
