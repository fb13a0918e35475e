/// Badges never pile up (behaviour 22, docs/clusters.md "Badges never overlap"): with
/// `spread_on_tap`, the targets drawn as badges — clusters and collapsed stacks — whose screen
/// points lie within `hit_radius` of each other are one target.
///
/// The rule, applied to the badges of a view (those `frame_clusters` draws: inside the viewport
/// grown by `hit_radius`), in rounds: visit the badges by count (most pins first), then by screen
/// point (x, then y); each badge not yet taken takes every badge not yet taken within
/// `hit_radius` points of it (supercluster's greedy rule, with hit_radius); each group becomes one
/// badge at its members' count-weighted mean screen point. Rounds repeat until no two badges lie
/// within `hit_radius` of each other. The result depends only on the set of badges, not on the
/// order they come in. A merged badge:
///
/// - counts the pins of its parts, and its key is its leader's key with bit 31 set (no cluster's
///   slot and no stack's group record reaches 2^31, so no other key has it). The leader is the
///   part with the most pins among the clusters if any is a cluster, else among the stacks (ties:
///   the smaller key), so the key's top five bits say what it is: a cluster (a tap is
///   CLUSTER_TAPPED; its expansion zoom is the largest of its clusters') or a stack
///   (`PINDROP_CLUSTER_STACK`; a tap, or `open_stack`, opens all its groups as one stack, laid out
///   together: `FitLayout`);
/// - answers `cluster_members`, `cluster_summary` and `cluster_categories` for the union of its
///   parts' pins, and is hit where it is drawn;
/// - lasts while the view and the pins give the same badges: a key from another view or before a
///   change that merged differently is NOT_FOUND, as a stale key is.
struct BadgeMerger {
    static let mergedBit: UInt64 = 1 << 31

    static func isMerged(_ key: UInt64) -> Bool { key & mergedBit != 0 }

    /// The merged badges of the last merge: their keys and their parts' keys (`parts[first..<end]`).
    var merged: [(key: UInt64, first: Int32, end: Int32)] = []
    var parts: [UInt64] = []
    /// The groups of a merged stack being opened (`Map.mergedGroups`), reused.
    var groups: [Int32] = []
    /// The map's version and the view's stamp the merge was made for (nil: none).
    var madeAt: (version: UInt64, stamp: UInt64)?

    // Scratch, kept between merges (frames allocate nothing once warmed).
    private var x: [Double] = [], y: [Double] = [], w: [Double] = []
    private var leader: [Int32] = []      // per current badge: the original index of its leader
    private var head: [Int32] = [], next: [Int32] = [], tail: [Int32] = []  // originals of each badge
    private var parent: [Int32] = []
    private var cells: [Int64: Int32] = [:]
    private var cellNext: [Int32] = []
    private var remap: [Int32] = []
    private var order: [Int32] = []
    private var taken: [Bool] = []
    private var ox: [Double] = [], oy: [Double] = [], ow: [Double] = []
    private var ol: [Int32] = [], oh: [Int32] = [], ot: [Int32] = []
    private var out: [ClusterView] = []
    /// The badges of the last merge (merged or not), for hit tests between frames.
    private(set) var last: [ClusterView] = []
    /// The pins drawn spread, under which no badge is drawn (Frame/OpenStackFootprint.swift).
    var footprint = OpenStackFootprint()

    /// Leaves out of `views` (and of `last`) the badges under the footprint.
    mutating func hideUnderFootprint(_ views: inout [ClusterView], radius r: Double) {
        guard !footprint.isEmpty else { return }
        footprint.removeCovered(&views, radius: r)
        footprint.removeCovered(&last, radius: r)
    }

    /// Merges `views` (clusters and stacks, screen points set) in place; `unproject` gives a merged
    /// badge's lon/lat.
    mutating func merge(_ views: inout [ClusterView], radius r: Double,
                        unproject: (Double, Double) -> (lon: Double, lat: Double)?) {
        merged.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        defer { last.removeAll(keepingCapacity: true); last.append(contentsOf: views) }
        let n0 = views.count
        guard n0 > 1, r > 0 else { return }
        x.removeAll(keepingCapacity: true); y.removeAll(keepingCapacity: true); w.removeAll(keepingCapacity: true)
        leader.removeAll(keepingCapacity: true)
        head.removeAll(keepingCapacity: true); next.removeAll(keepingCapacity: true); tail.removeAll(keepingCapacity: true)
        for (i, v) in views.enumerated() {
            x.append(v.x); y.append(v.y); w.append(Double(max(v.count, 1)))
            leader.append(Int32(i)); head.append(Int32(i)); tail.append(Int32(i)); next.append(-1)
        }
        let r2 = r * r
        var anyMerge = false
        while true {
            let n = x.count
            // Badges by cell of r: the badges within r of one lie in the 3×3 cells around it.
            cells.removeAll(keepingCapacity: true)
            cellNext.removeAll(keepingCapacity: true)
            parent.removeAll(keepingCapacity: true)
            for i in 0..<n {
                parent.append(Int32(i))
                let c = BadgeMerger.cell(x[i], y[i], r)
                cellNext.append(cells[c] ?? -1)
                cells[c] = Int32(i)
            }
            // Greedy, as supercluster's levels: badges by count (most first), then by screen
            // point (x, then y); each one not yet taken takes every badge not yet taken within r.
            var ord = order
            order = []
            ord.removeAll(keepingCapacity: true)
            for i in 0..<n { ord.append(Int32(i)) }
            let (bx, by, bw) = (x, y, w)
            ord.heapSortInPlace { a, b in
                let ia = Int(a), ib = Int(b)
                if bw[ia] != bw[ib] { return bw[ia] > bw[ib] }
                return bx[ia] != bx[ib] ? bx[ia] < bx[ib] : by[ia] < by[ib]
            }
            order = ord
            taken.removeAll(keepingCapacity: true)
            taken.append(contentsOf: repeatElement(false, count: n))
            var joined = false
            for o in ord {
                let i = Int(o)
                if taken[i] { continue }
                taken[i] = true
                let cx = (x[i] / r).rounded(.down), cy = (y[i] / r).rounded(.down)
                for dy in -1...1 {
                    for dx in -1...1 {
                        var j = cells[BadgeMerger.cellKey(cx + Double(dx), cy + Double(dy))] ?? -1
                        while j >= 0 {
                            let jj = Int(j)
                            if !taken[jj] {
                                let ex = x[jj] - x[i], ey = y[jj] - y[i]
                                if ex * ex + ey * ey <= r2 { taken[jj] = true; parent[jj] = Int32(i); joined = true }
                            }
                            j = cellNext[jj]
                        }
                    }
                }
            }
            if !joined { break }
            anyMerge = true
            // Each joined group becomes one badge: roots in index order keep the order stable.
            remap.removeAll(keepingCapacity: true)
            remap.append(contentsOf: repeatElement(-1, count: n))
            var m = 0
            for i in 0..<n where find(i) == i { remap[i] = Int32(m); m += 1 }
            ox.removeAll(keepingCapacity: true); ox.append(contentsOf: x)
            oy.removeAll(keepingCapacity: true); oy.append(contentsOf: y)
            ow.removeAll(keepingCapacity: true); ow.append(contentsOf: w)
            ol.removeAll(keepingCapacity: true); ol.append(contentsOf: leader)
            oh.removeAll(keepingCapacity: true); oh.append(contentsOf: head)
            ot.removeAll(keepingCapacity: true); ot.append(contentsOf: tail)
            x.removeAll(keepingCapacity: true); y.removeAll(keepingCapacity: true); w.removeAll(keepingCapacity: true)
            leader.removeAll(keepingCapacity: true); head.removeAll(keepingCapacity: true); tail.removeAll(keepingCapacity: true)
            x.append(contentsOf: repeatElement(0, count: m)); y.append(contentsOf: repeatElement(0, count: m))
            w.append(contentsOf: repeatElement(0, count: m))
            leader.append(contentsOf: repeatElement(-1, count: m)); head.append(contentsOf: repeatElement(-1, count: m))
            tail.append(contentsOf: repeatElement(-1, count: m))
            for i in 0..<n {
                let k = Int(remap[find(i)])
                x[k] += ow[i] * ox[i]; y[k] += ow[i] * oy[i]; w[k] += ow[i]
                if leader[k] < 0 || beats(views, ol[i], leader[k]) { leader[k] = ol[i] }
                if head[k] < 0 { head[k] = oh[i] } else { next[Int(tail[k])] = oh[i] }
                tail[k] = ot[i]
            }
            for k in 0..<m { x[k] /= w[k]; y[k] /= w[k] }
        }
        guard anyMerge else { return }
        out.removeAll(keepingCapacity: true)
        for k in 0..<x.count {
            let l = Int(leader[k])
            if next[Int(head[k])] < 0 { out.append(views[Int(head[k])]); continue }  // a badge alone
            var v = views[l]
            var count: UInt32 = 0, lon = 0.0, lat = 0.0, stack = true
            let first = Int32(parts.count)
            var o = head[k]
            while o >= 0 {
                let p = views[Int(o)]
                count = count &+ p.count
                lon += Double(p.count) * p.lon; lat += Double(p.count) * p.lat
                if p.flags & ClusterFlags.stack.rawValue == 0 { stack = false }
                parts.append(p.key)
                o = next[Int(o)]
            }
            v.key = views[l].key | BadgeMerger.mergedBit
            v.count = count
            v.x = x[k]; v.y = y[k]
            if let q = unproject(x[k], y[k]) {
                v.lon = q.lon - 360 * ((q.lon + 180) / 360).rounded(.down); v.lat = q.lat
            } else {
                v.lon = lon / Double(count); v.lat = lat / Double(count)
            }
            v.flags = stack ? ClusterFlags.stack.rawValue : 0
            merged.append((v.key, first, Int32(parts.count)))
            out.append(v)
        }
        swap(&views, &out)
    }

    /// The parts of the merged badge `key`, or nil.
    func parts(of key: UInt64) -> ArraySlice<UInt64>? {
        guard let m = merged.first(where: { $0.key == key }) else { return nil }
        return parts[Int(m.first)..<Int(m.end)]
    }

    /// Whether original a leads before b: clusters before stacks, then more pins, then the smaller key.
    private func beats(_ v: [ClusterView], _ a: Int32, _ b: Int32) -> Bool {
        let va = v[Int(a)], vb = v[Int(b)]
        let sa = va.flags & ClusterFlags.stack.rawValue != 0, sb = vb.flags & ClusterFlags.stack.rawValue != 0
        if sa != sb { return !sa }
        if va.count != vb.count { return va.count > vb.count }
        return va.key < vb.key
    }

    private mutating func find(_ i: Int) -> Int {
        var i = i
        while Int(parent[i]) != i { parent[i] = parent[Int(parent[i])]; i = Int(parent[i]) }
        return i
    }

    static func cell(_ x: Double, _ y: Double, _ r: Double) -> Int64 {
        cellKey((x / r).rounded(.down), (y / r).rounded(.down))
    }

    static func cellKey(_ cx: Double, _ cy: Double) -> Int64 {
        let a = Int64(max(-1e9, min(1e9, cx))), b = Int64(max(-1e9, min(1e9, cy)))
        return a &* 4_000_000_007 &+ b
    }
}

extension Map {
    /// Whether badges are merged: with spread_on_tap (the stacks are badges beside the clusters).
    var mergesBadges: Bool { spread.stacks.isOn }

    /// Merges the badges in `clusterViews` (after `appendStacks`), remembering the merge for the
    /// keys it made.
    func mergeBadges() {
        guard mergesBadges else { return }
        let v = view
        var views = clusterViews
        clusterViews = []
        // Badges under a stack drawn open are left out before the merge (the others merge without
        // them) and after it (a merged badge's mean point may fall under it).
        gatherFootprint()
        badges.hideUnderFootprint(&views, radius: options.hitRadius)
        badges.merge(&views, radius: options.hitRadius) { v.toLonLatUnwrapped($0, $1) }
        badges.hideUnderFootprint(&views, radius: options.hitRadius)
        clusterViews = views
        badges.madeAt = (version, spread.fitStamp)
    }

    /// The screen points of the pins drawn spread where their layout puts them: the open stack's
    /// (with the groups merged into it) and the groups kept open by the selected, edited or held
    /// pin (a dragged pin's finger point is not part of it).
    private func gatherFootprint() {
        badges.footprint.removeAll()
        guard spread.stacks.group >= 0 || !spread.stacks.keptGroups.isEmpty else { return }
        let camera: CameraTransform? = if case .camera(let c) = view { c } else { nil }
        func add(_ g: Int32) {
            guard g >= 0, Int(g) < spread.members.count else { return }
            let members = spread.members[Int(g)]
            for s in members {
                guard let p = spread.drawnPosition(s) else { continue }
                if let c = camera {
                    let q = c.toScreen(laidOut: p.lon, p.lat)
                    badges.footprint.add(q.x, q.y)
                } else if let q = view.toScreen(p.lon, p.lat) {
                    badges.footprint.add(q.x, q.y)
                }
            }
        }
        add(spread.stacks.group)
        for g in spread.stacks.alsoGroups { add(g) }
        for g in spread.stacks.keptGroups { add(g) }
    }

    /// The badges of the current view, merged (computed again when the map or the view changed
    /// since the last merge; `clusterViews` is left as the host last read it).
    func currentBadges() -> [ClusterView] {
        upToDate()
        if let m = badges.madeAt, m.version == version, m.stamp == spread.fitStamp { return badges.last }
        let saved = clusterViews
        clusterViews = badgeScratch
        defer { badgeScratch = clusterViews; clusterViews = saved }
        clusterViews.removeAll(keepingCapacity: true)
        guard let box = try? viewportBox() else { badges.madeAt = nil; return [] }
        var scratch = stackScratch
        stackScratch = []
        scratch.removeAll(keepingCapacity: true)
        let clustered = clusterFrame(margin: options.hitRadius, box: box, pins: &scratch)
        appendStacks(box: box, margin: options.hitRadius, singles: clustered ? scratch : nil)
        stackScratch = scratch
        mergeBadges()
        return badges.last
    }

    /// The badge (cluster, stack or merged) drawn nearest to (x, y) within hit_radius, and its
    /// squared distance.
    func badgeHit(_ x: Double, _ y: Double) -> (view: ClusterView, d2: Double)? {
        let r = options.hitRadius
        var best: (view: ClusterView, d2: Double)?
        for b in currentBadges() {
            let d2 = (b.x - x) * (b.x - x) + (b.y - y) * (b.y - y)
            guard d2 <= r * r, best == nil || d2 < best!.d2 else { continue }
            best = (b, d2)
        }
        return best
    }

    /// The parts of a merged key: the badge's in the current view, or the open stack's groups
    /// when it is the key the open stack's STACK_OPENED reported; NOT_FOUND otherwise.
    func mergedParts(_ key: UInt64) throws(PindropError) -> [UInt64] {
        if spread.stacks.group >= 0, spread.stacks.key == key {
            // The open stack: its groups, whatever the view (it is drawn open, not as a badge).
            var keys = [spread.stacks.key(spread.stacks.group)]
            for g in spread.stacks.alsoGroups { keys.append(spread.stacks.key(g)) }
            return keys
        }
        _ = currentBadges()
        guard let p = badges.parts(of: key).map(Array.init) else {
            throw PindropError(.notFound, "no badge with key \(key) in this view (a merged badge's key lasts while the view and its pins draw it)")
        }
        return p
    }

    /// The slots of a merged badge's pins, ascending by id.
    func mergedSlots(_ key: UInt64) throws(PindropError) -> [Int32] {
        var slots: [Int32] = []
        for part in try mergedParts(key) {
            if StackState.isStackKey(part) {
                guard let g = spread.group(forKey: part) else { throw staleMerged(key) }
                slots.append(contentsOf: spread.members[Int(g)])
            } else {
                guard let room = clusterRoom, room.members(part, into: &slots) else { throw staleMerged(key) }
            }
        }
        slots.sort { pins.id($0) < pins.id($1) }
        return slots
    }

    /// A merged badge's expansion zoom: the largest of its clusters' (each of them has split
    /// there), or, when it holds stacks only, a stack's (the view's zoom: it opens instead).
    func mergedExpansionZoom(_ key: UInt64) throws(PindropError) -> Double? {
        var z: Double?
        for part in try mergedParts(key) where !StackState.isStackKey(part) {
            guard let room = clusterRoom, let e = room.expansionZoom(part) else { throw staleMerged(key) }
            z = max(z ?? e, e)
        }
        return z
    }

    /// The groups of a merged stack badge drawn in the current view, its leader's first (in
    /// `badges.groups`, reused: opening allocates nothing); NOT_FOUND when stale.
    func mergedGroups(_ key: UInt64) throws(PindropError) -> ArraySlice<Int32> {
        _ = currentBadges()
        guard let parts = badges.parts(of: key) else { throw staleMerged(key) }
        badges.groups.removeAll(keepingCapacity: true)
        let lead = key & ~BadgeMerger.mergedBit
        badges.groups.append(-1)
        for part in parts {
            guard StackState.isStackKey(part), let g = spread.group(forKey: part) else { throw staleMerged(key) }
            if part == lead { badges.groups[0] = g } else { badges.groups.append(g) }
        }
        guard badges.groups[0] >= 0 else { throw staleMerged(key) }
        return badges.groups[...]
    }

    private func staleMerged(_ key: UInt64) -> PindropError {
        PindropError(.notFound, "no badge with key \(key) (its pins changed)")
    }
}
