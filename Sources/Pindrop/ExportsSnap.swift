import CPindrop
import PindropCore

// Snapping (behaviour 24, since 0.4.0): snap layers and what the dragged pin snapped to.
// Checked and converted here; the behaviour lives in PindropCore (MapSnap.swift, Snap/).

@_cdecl("pindrop_map_set_snap_layer")
public func pindrop_map_set_snap_layer(_ map: OpaquePointer?, _ layer: UInt32, _ text: UnsafePointer<CChar>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        var t: String?
        if let text { t = try utf8(text, "wkt_or_geojson") }
        try m.setSnapLayer(layer, t)
    }
}

@_cdecl("pindrop_map_snap_target")
public func pindrop_map_snap_target(_ map: OpaquePointer?, _ out: UnsafeMutablePointer<pindrop_snap>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        guard let out else { throw PindropError(.invalidArgument, "out is NULL") }
        let s = m.snapTarget
        out.pointee = pindrop_snap(kind: s.kind.rawValue, layer: s.layer, feature: s.feature, index: s.index,
                                   lon: s.lon, lat: s.lat)
    }
}
