import CPindrop
import PindropCore

// Clusters that say what they hold (since 0.3.0, behaviour 19): pins' values and categories, and
// a cluster's summary, categories and members by page.

@_cdecl("pindrop_map_set_attributes")
public func pindrop_map_set_attributes(_ map: OpaquePointer?, _ ids: UnsafePointer<Int64>?, _ values: UnsafePointer<Double>?,
                                       _ categories: UnsafePointer<UInt32>?, _ n: Int) -> pindrop_status {
    call(map) { m throws(PindropError) in
        guard try checkedCount(n, stride: 20, "n") > 0 else { return }
        let ids = try required(ids, "ids")
        try m.setAttributes(ids: UnsafeBufferPointer(start: ids, count: n),
                            values: values.map { UnsafeBufferPointer(start: $0, count: n) },
                            categories: categories.map { UnsafeBufferPointer(start: $0, count: n) })
    }
}

@_cdecl("pindrop_map_cluster_summary")
public func pindrop_map_cluster_summary(_ map: OpaquePointer?, _ key: UInt64,
                                        _ out: UnsafeMutablePointer<pindrop_cluster_summary>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let out = try required(out, "out")
        let s = try m.clusterSummary(key: key)
        out.pointee = pindrop_cluster_summary(count: s.count, valued: s.valued, category: s.category, flags: s.flags,
                                              value_sum: s.valueSum, value_min: s.valueMin, value_max: s.valueMax)
    }
}


@_cdecl("pindrop_map_cluster_categories")
public func pindrop_map_cluster_categories(_ map: OpaquePointer?, _ key: UInt64, _ outCategories: UnsafeMutablePointer<UInt32>?,
                                           _ outCounts: UnsafeMutablePointer<UInt32>?, _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(outCategories, capacity, "out_categories")
        if capacity > 0 && outCounts == nil { throw PindropError(.invalidArgument, "out_counts is NULL with capacity \(capacity)") }
        var list: [CategoryCount] = []
        try m.clusterCategories(key: key, into: &list)
        for i in 0..<min(capacity, list.count) {
            outCategories![i] = list[i].category
            outCounts![i] = list[i].count
        }
        return list.count
    }
}

@_cdecl("pindrop_map_cluster_members_from")
public func pindrop_map_cluster_members_from(_ map: OpaquePointer?, _ key: UInt64, _ offset: Int,
                                             _ out: UnsafeMutablePointer<Int64>?, _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(out, capacity, "out_ids")
        let offset = try checkedCount(offset, stride: 1, "offset")
        let ids = try m.clusterMembers(key: key)
        if offset < ids.count {
            for i in 0..<min(capacity, ids.count - offset) { out![i] = ids[offset + i] }
        }
        return ids.count
    }
}
