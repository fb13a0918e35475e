import CPindrop
import PindropCore

// Keyboard focus and the keyboard drag (behaviour 20, since 0.3.0).

/// A Core focus as the header's `pindrop_focus`.
func flatten(_ f: Focus) -> pindrop_focus {
    pindrop_focus(kind: f.kind.rawValue, reserved: 0, id: f.id, key: f.key, x: f.x, y: f.y)
}

@_cdecl("pindrop_map_focus_step")
public func pindrop_map_focus_step(_ map: OpaquePointer?, _ step: Int32, _ out: UnsafeMutablePointer<pindrop_focus>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let out = try required(out, "out")
        out.pointee = flatten(try m.focusStep(step))
    }
}

@_cdecl("pindrop_map_focused")
public func pindrop_map_focused(_ map: OpaquePointer?, _ out: UnsafeMutablePointer<pindrop_focus>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        try required(out, "out").pointee = flatten(m.focus)
    }
}

@_cdecl("pindrop_map_focus_rank")
public func pindrop_map_focus_rank(_ map: OpaquePointer?, _ outIndex: UnsafeMutablePointer<Int>?,
                                   _ outTotal: UnsafeMutablePointer<Int>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let index = try required(outIndex, "out_index"), total = try required(outTotal, "out_total")
        let r = m.focusRank
        index.pointee = r.index
        total.pointee = r.total
    }
}

@_cdecl("pindrop_map_key_lift")
public func pindrop_map_key_lift(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.keyLift(time: time) }
}

@_cdecl("pindrop_map_key_drop")
public func pindrop_map_key_drop(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.keyDrop(time: time) }
}

@_cdecl("pindrop_distance")
public func pindrop_distance(_ fromLon: Double, _ fromLat: Double, _ toLon: Double, _ toLat: Double,
                             _ outDistance: UnsafeMutablePointer<Double>?, _ outBearing: UnsafeMutablePointer<Double>?) -> pindrop_status {
    do throws(PindropError) {
        let out = try required(outDistance, "out_distance_m")
        let m = try Sphere.measure(fromLon, fromLat, toLon, toLat)
        out.pointee = m.metres
        outBearing?.pointee = m.bearing
        return statusOK
    } catch {
        return failWithoutMap(error)
    }
}
