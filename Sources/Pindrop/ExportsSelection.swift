import CPindrop
import PindropCore

// Several pins at once (behaviour 23, since 0.4.0): the modifiers the host's user holds and the
// selection as a set. Checked and converted here; the behaviour lives in PindropCore
// (MapSelection.swift, MapGroupDrag.swift).

@_cdecl("pindrop_map_set_modifiers")
public func pindrop_map_set_modifiers(_ map: OpaquePointer?, _ modifiers: UInt32) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.setModifiers(modifiers) }
}

@_cdecl("pindrop_map_select_many")
public func pindrop_map_select_many(_ map: OpaquePointer?, _ ids: UnsafePointer<Int64>?, _ n: Int,
                                    _ mode: Int32) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let n = try checkedCount(n, stride: 8, "n")
        let list: [Int64] = n == 0 ? [] : Array(UnsafeBufferPointer(start: try required(ids, "ids"), count: n))
        try m.selectMany(list, mode: mode)
    }
}

@_cdecl("pindrop_map_select_in_rect")
public func pindrop_map_select_in_rect(_ map: OpaquePointer?, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                       _ mode: Int32, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.selectInRect(x0: x0, y0: y0, x1: x1, y1: y1, mode: mode, time: time) }
}

@_cdecl("pindrop_map_selection")
public func pindrop_map_selection(_ map: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?, _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(out, capacity, "out_ids")
        let ids = m.selectedIDs
        for i in 0..<min(capacity, ids.count) { out![i] = ids[i] }
        return ids.count
    }
}
