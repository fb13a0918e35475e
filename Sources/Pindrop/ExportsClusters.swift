import CPindrop
import PindropCore

// Clusters (since 0.2.0): what a clustered view draws, and questions about a cluster by key.

@_cdecl("pindrop_map_frame_clusters")
public func pindrop_map_frame_clusters(_ map: OpaquePointer?, _ time: Double,
                                       _ out: UnsafeMutablePointer<pindrop_cluster_view>?, _ capacity: Int) -> Int {
    let h = handle(map)
    return countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(out, capacity, "out")
        if let h, h.clustersCheckedFor != m.count, m.options.clusterRadius > 0 {  // levels to build: room first
            try needMemory(clusterBuildBytes(m.count), "clustering \(m.count) pins")
            h.clustersCheckedFor = m.count
        }
        let total = try m.frameClusters(time: time)
        let views = m.clusterViews
        for i in 0..<min(capacity, total) {
            let v = views[i]
            out![i] = pindrop_cluster_view(key: v.key, x: v.x, y: v.y, lon: v.lon, lat: v.lat, count: v.count, flags: v.flags)
        }
        return total
    }
}

@_cdecl("pindrop_map_cluster_members")
public func pindrop_map_cluster_members(_ map: OpaquePointer?, _ key: UInt64, _ out: UnsafeMutablePointer<Int64>?,
                                        _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(out, capacity, "out_ids")
        let ids = try m.clusterMembers(key: key)
        for i in 0..<min(capacity, ids.count) { out![i] = ids[i] }
        return ids.count
    }
}

@_cdecl("pindrop_map_cluster_expansion_zoom")
public func pindrop_map_cluster_expansion_zoom(_ map: OpaquePointer?, _ key: UInt64,
                                               _ out: UnsafeMutablePointer<Double>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let out = try required(out, "out_zoom")
        out.pointee = try m.clusterExpansionZoom(key: key)
    }
}
