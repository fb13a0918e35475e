import CPindrop
import PindropCore

// Editing sessions, selection, callouts, the allowed area and the history of user moves.

@_cdecl("pindrop_map_place")
public func pindrop_map_place(_ map: OpaquePointer?, _ id: Int64, _ lon: Double, _ lat: Double, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.place(id: id, lon: lon, lat: lat, time: time) }
}

@_cdecl("pindrop_map_edit")
public func pindrop_map_edit(_ map: OpaquePointer?, _ id: Int64, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.edit(id: id, time: time) }
}

@_cdecl("pindrop_map_commit")
public func pindrop_map_commit(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.commit(time: time) }
}

@_cdecl("pindrop_map_cancel_edit")
public func pindrop_map_cancel_edit(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.cancelEdit(time: time) }
}

@_cdecl("pindrop_map_select")
public func pindrop_map_select(_ map: OpaquePointer?, _ id: Int64) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.select(id: id) }
}

@_cdecl("pindrop_map_selected")
public func pindrop_map_selected(_ map: OpaquePointer?, _ outID: UnsafeMutablePointer<Int64>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        try required(outID, "out_id").pointee = m.selectedID
    }
}

/// A NUL-terminated C string as UTF-8 text; invalid UTF-8 is an invalid argument.
func utf8(_ p: UnsafePointer<CChar>, _ name: String) throws(PindropError) -> String {
    guard let s = String(validatingCString: p) else {
        throw PindropError(.invalidArgument, "\(name) is not valid UTF-8")
    }
    return s
}

@_cdecl("pindrop_map_set_title")
public func pindrop_map_set_title(_ map: OpaquePointer?, _ id: Int64, _ text: UnsafePointer<CChar>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let title = try text.map { p throws(PindropError) in try utf8(p, "title") }
        try m.setTitle(id: id, title)
    }
}

@_cdecl("pindrop_map_answer_geocode")
public func pindrop_map_answer_geocode(_ map: OpaquePointer?, _ request: UInt64, _ text: UnsafePointer<CChar>?) -> pindrop_status {
    guard let h = handle(map) else { return nullMap() }
    do throws(PindropError) {
        let subtitle = try utf8(try required(text, "subtitle_utf8"), "subtitle_utf8")
        switch try h.map.answerGeocode(request: request, subtitle) {
        case .stale:
            h.setMessage("geocode request \(request) is stale: its pin moved or was removed since; the answer is not shown")
            return PINDROP_STALE
        default:
            h.clearMessage()
            return statusOK
        }
    } catch {
        return h.fail(error)
    }
}

@_cdecl("pindrop_map_callout")
public func pindrop_map_callout(_ map: OpaquePointer?, _ id: Int64, _ which: Int32, _ buf: UnsafeMutablePointer<CChar>?,
                                _ capacity: Int, _ outLen: UnsafeMutablePointer<Int>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        guard let part = Map.CalloutPart(rawValue: which) else {
            throw PindropError(.invalidArgument, "which = \(which) is not PINDROP_TITLE or PINDROP_SUBTITLE")
        }
        let capacity = try checkedCount(capacity, stride: 1, "capacity")
        if capacity > 0 && buf == nil { throw PindropError(.invalidArgument, "buf is NULL with capacity \(capacity)") }
        let text = try m.callout(id: id, part)
        let bytes = Array(text.utf8)
        outLen?.pointee = bytes.count
        guard capacity > 0, let buf else { return }
        // Keep room for the NUL, and never cut a character in two (continuation bytes are 10xxxxxx).
        var n = min(bytes.count, capacity - 1)
        if n < bytes.count { while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 } }
        for i in 0..<n { buf[i] = CChar(bitPattern: bytes[i]) }
        buf[n] = 0
    }
}

@_cdecl("pindrop_map_set_allowed_area")
public func pindrop_map_set_allowed_area(_ map: OpaquePointer?, _ text: UnsafePointer<CChar>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let area = try text.map { p throws(PindropError) in try utf8(p, "wkt_or_geojson") }
        try m.setAllowedArea(text: area)
    }
}

@_cdecl("pindrop_map_undo")
public func pindrop_map_undo(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.undo(time: time) }
}

@_cdecl("pindrop_map_nudge")
public func pindrop_map_nudge(_ map: OpaquePointer?, _ dx: Double, _ dy: Double, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.nudge(dx: dx, dy: dy, time: time) }
}

@_cdecl("pindrop_map_redo")
public func pindrop_map_redo(_ map: OpaquePointer?, _ time: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.redo(time: time) }
}
