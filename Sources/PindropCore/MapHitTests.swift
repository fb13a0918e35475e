/// Hit tests: the pin drawn nearest a screen point (ties to the edited, then the selected pin,
/// then the higher id), from the last frame's grid while it is current (docs/spatial-index.md), else
/// from the index and the rooms.
extension Map {
    /// The pin drawn nearest to (x, y) within hit_radius, ties to the edited, then the selected,
    /// then the higher id. Nil when there is none (or the view cannot place the point).
    public func hitTest(x: Double, y: Double) throws(PindropError) -> Int64? {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        defer { index.maintain(inserts: Map.maintainPerQuery) }
        return hit(x, y)
    }

    /// How much deferred index work (GEOS inserts, and the tree builds they complete) a host
    /// query does: a hit test or nearby call, and a frame (docs/spatial-index.md).
    static let maintainPerQuery = 32, maintainPerFrame = 256

    /// hit_test for n points xy[2i], xy[2i+1]; misses are PINDROP_NO_ID. All or nothing.
    public func hitTestMany(xy: UnsafeBufferPointer<Double>, out: UnsafeMutableBufferPointer<Int64>) throws(PindropError) {
        for i in 0..<out.count where !xy[2 * i].isFinite || !xy[2 * i + 1].isFinite {
            throw .invalid("screen point \(i) (\(xy[2 * i]), \(xy[2 * i + 1])) is not finite")
        }
        for i in 0..<out.count { out[i] = hit(xy[2 * i], xy[2 * i + 1]) ?? noID }
        index.maintain(inserts: Map.maintainPerQuery)
    }

    func hit(_ x: Double, _ y: Double) -> Int64? { hitNearest(x, y)?.id }

    /// The pin drawn nearest to (x, y) within hit_radius, and its squared distance in points.
    func hitNearest(_ x: Double, _ y: Double) -> (id: Int64, d2: Double)? {
        let r = options.hitRadius, r2 = r * r
        upToDate()
        if frame.hits.covers(x, y, version: version) {
            // Inside the viewport of a frame drawn since the last change: its grid holds the same
            // pins at the same screen points as the index path would find.
            var best = noID
            var bestD2 = r2
            frame.hits.forEachNear(x, y, views: frame.views) { id, px, py in
                let d2 = (px - x) * (px - x) + (py - y) * (py - y)
                if d2 < bestD2 || (d2 == bestD2 && (best == noID || beatsOnTie(id: id, best))) { best = id; bestD2 = d2 }
            }
            return best == noID ? nil : (best, bestD2)
        }
        guard let box = view.discBox(x: x, y: y, r: r) else { return nil }
        // The scratch buffer is taken out of the map for the call: no allocation once warmed up,
        // and no exclusive access to the map held while the index fills it.
        var found = candidates
        candidates = []
        defer { candidates = found }
        found.removeAll(keepingCapacity: true)
        // A clustered view draws (and so offers) only the unclustered pins and the kept-out ones.
        if !clusterPins(near: x, y, radius: r, into: &found) { drawnCandidates(box, into: &found) }
        removeCollapsed(&found)  // a collapsed stack is one target, not its pins
        var best: Int32 = -1
        var bestD2 = r2
        @inline(__always) func consider(_ s: Int32, _ q: (x: Double, y: Double)) {
            let d2 = (q.x - x) * (q.x - x) + (q.y - y) * (q.y - y)
            if d2 < bestD2 || (d2 == bestD2 && (best < 0 || beatsOnTie(s, best))) { best = s; bestD2 = d2 }
        }
        if case .camera(let c) = view {
            // A pin drawn at its true coordinate is projected from its kept Mercator point.
            for s in found {
                if let p = drawnOverride(s) {
                    consider(s, c.toScreen(laidOut: p.lon, p.lat))
                } else {
                    consider(s, c.toScreen(mercator: pins.mercator(s)))
                }
            }
        } else {
            for s in found {
                let p = drawnPosition(s)
                guard let q = view.toScreen(p.lon, p.lat) else { continue }
                consider(s, q)
            }
        }
        return best < 0 ? nil : (pins.id(best), bestD2)
    }

    /// The tie rule of hit testing: the pin being edited, then the selected one, then the higher id.
    private func beatsOnTie(_ a: Int32, _ b: Int32) -> Bool { beatsOnTie(id: pins.id(a), pins.id(b)) }

    private func beatsOnTie(id ia: Int64, _ ib: Int64) -> Bool {
        func rank(_ id: Int64) -> Int { id == editingID ? 2 : selection.contains(id) ? 1 : 0 }
        let ra = rank(ia), rb = rank(ib)
        return ra != rb ? ra > rb : ia > ib
    }
}
