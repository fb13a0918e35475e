import CPindrop
import PindropCore

// Clusters (since 0.2.0): what a clustered view draws, and questions about a cluster by key.

@_cdecl("pindrop_map_frame_clusters")
public func pindrop_map_frame_clusters(_ map: OpaquePointer?, _ time: Double,
                                       _ out: UnsafeMutablePointer<pindrop_cluster_view>?, _ capacity: Int) -> Int {
    guard let h = handle(map) else { _ = nullMap(); return 0 }
    do throws(PindropError) {
        let capacity = try checkedCount(capacity, stride: MemoryLayout<pindrop_cluster_view>.stride, "capacity")
        if capacity > 0 && out == nil { throw PindropError(.invalidArgument, "out is NULL with capacity \(capacity)") }
        let total = try h.map.frameClusters(time: time)
        let views = h.map.clusterViews
        for i in 0..<min(capacity, total) {
            let v = views[i]
            out![i] = pindrop_cluster_view(key: v.key, x: v.x, y: v.y, lon: v.lon, lat: v.lat, count: v.count, flags: v.flags)
        }
        h.clearMessage()
        return total
    } catch {
        _ = h.fail(error)
        return 0
    }
}

@_cdecl("pindrop_map_cluster_members")
public func pindrop_map_cluster_members(_ map: OpaquePointer?, _ key: UInt64, _ out: UnsafeMutablePointer<Int64>?,
                                        _ capacity: Int) -> Int {
    guard let h = handle(map) else { _ = nullMap(); return 0 }
    do throws(PindropError) {
        let capacity = try checkedCount(capacity, stride: MemoryLayout<Int64>.stride, "capacity")
        if capacity > 0 && out == nil { throw PindropError(.invalidArgument, "out_ids is NULL with capacity \(capacity)") }
        let ids = try h.map.clusterMembers(key: key)
        for i in 0..<min(capacity, ids.count) { out![i] = ids[i] }
        h.clearMessage()
        return ids.count
    } catch {
        _ = h.fail(error)
        return 0
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
