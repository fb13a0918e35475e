/// Clusters (docs/clusters.md): what the map asks the cluster room for the frame, hit tests,
/// touches and cluster keys. The room is read through `clusterRoom` (Map.swift), which keeps the
/// selected, edited and held pins out of it first.
extension Map {
    /// The frame's candidates in a clustered view: the unclustered pins in view and the kept-out
    /// ones; the clusters go to `clusterViews`. False when the view is
    /// not clustered.
    func clusterFrame(margin r: Double, box: GeoBox, pins out: inout [Int32]) -> Bool {
        guard let room = clusterRoom else { return false }
        clusterViews.removeAll(keepingCapacity: true)
        guard room.query(view, pinMargin: r, clusters: &clusterViews, pins: &out) else { return false }
        out.append(contentsOf: room.excluded)
        return true
    }

    /// Hit-test candidates in a clustered view (false when the view is not clustered).
    func clusterPins(near x: Double, _ y: Double, radius r: Double, into out: inout [Int32]) -> Bool {
        guard let room = clusterRoom else { return false }
        guard room.pins(view, near: x, y, radius: r, into: &out) else { return false }
        out.append(contentsOf: room.excluded)
        return true
    }

    /// Fills `clusterViews` with the clusters drawn in the viewport (grown by cluster_radius) at
    /// `time`, the view and time of the frame whose pins are then the unclustered ones; returns
    /// their number (0 when clustering is off or the zoom is at or above cluster_max_zoom). With
    /// spread_on_tap the collapsed stacks follow them (`ClusterFlags.stack`, MapStacks.swift).
    @discardableResult
    public func frameClusters(time: Double) throws(PindropError) -> Int {
        try observe(at: time, check: { () throws(PindropError) -> GeoBox in try viewportBox() }, read: { box in
            let r = options.hitRadius
            clusterViews.removeAll(keepingCapacity: true)
            upToDate()
            var scratch = stackScratch
            stackScratch = []
            scratch.removeAll(keepingCapacity: true)
            let clustered = clusterFrame(margin: r, box: box, pins: &scratch)
            appendStacks(box: box, margin: r, singles: clustered ? scratch : nil)
            mergeBadges()  // badges within hit_radius are one (MapBadges.swift)
            FrameScratch.fit(&scratch, need: scratch.count)  // a huge view's room given back
            stackScratch = scratch
            return clusterViews.count
        })
    }

    /// The ids of a cluster's pins in ascending order. A key names the same pins for as long as it
    /// is valid, so the list of the last key asked for is kept for the next page: a page of a
    /// valid key's list costs the key's check, not a walk of the cluster's members (47,869 of
    /// them in the biggest cluster of the LA trees at zoom 11: 2.5 ms a page before).
    public func clusterMembers(key: UInt64) throws(PindropError) -> [Int64] {
        if let ids = try stackMembers(key) { return ids }  // a stack (behaviour 22)
        if let room = clusterRoom, sortedMembers.key == key, !sortedMembers.ids.isEmpty, room.isValid(key) {
            return sortedMembers.ids
        }
        var slots: [Int32] = []
        guard let room = clusterRoom, room.members(key, into: &slots) else {
            throw PindropError(.notFound, "no cluster with key \(key) (a key is stale once its cluster's members change)")
        }
        var ids = slots.map { pins.id($0) }
        ids.sort()
        sortedMembers = (key, ids)
        return ids
    }

    /// The lowest zoom at which a cluster's pins are no longer one cluster (<= cluster_max_zoom).
    public func clusterExpansionZoom(key: UInt64) throws(PindropError) -> Double {
        if let z = try stackExpansionZoom(key) { return z }  // a stack (behaviour 22)
        guard let room = clusterRoom, let z = room.expansionZoom(key) else {
            throw PindropError(.notFound, "no cluster with key \(key) (keys last until pins or the view change)")
        }
        return z
    }
}
