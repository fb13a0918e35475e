import Foundation

/// Pins sharing a spot drawn on a ring (behaviour 11 of the spec), kept up to date pin by pin.
///
/// Every pin belongs to one group; a group's members are kept in ascending id order and its first
/// member is its first pin. Groups of two or more are drawn on a ring around their centre. A change
/// to one pin re-forms only the groups it leaves or joins (see docs/spreading.md), and the rings'
/// centres live in a few small spatial indexes, one per size class, so that hit tests and frames
/// find a pin where it is drawn (up to 3n/2 m from its true coordinate).
struct SpreadLayout {
    /// `groupOf` values that are not group numbers: a pin alone (its own group of one, drawn where
    /// it is, with no group record), and a slot in no group (removed, or not yet grouped).
    static let alone: Int32 = -1, ungrouped: Int32 = -2

    // Per slot.
    var groupOf: [Int32] = []       // a group of two or more, or `alone` / `ungrouped`
    var rank: [Int32] = []          // place in its group, in id order

    // Per group of two pins or more (numbers are reused).
    var members: [[Int32]] = []     // slots, ascending pin id
    var centreLon: [Double] = []
    var centreLat: [Double] = []
    var ringClass: [Int8] = []      // the size class whose index holds the centre, -1 none
    var frames: [RingFrame] = []
    // Drawn positions are computed when asked and remembered per group, by rank (lon, lat
    // interleaved; NaN until computed): re-forming a ring of n costs O(n) writes, not n
    // destination formulas, and a pin alone costs nothing here.
    var drawn: [[Double]] = []
    var layoutStamp: [UInt64] = []  // 0 until the group is laid out
    var nextStamp: UInt64 = 1
    var pending: [Bool] = []        // laid out at the end of a bulk add
    var freeGroups: [Int32] = []

    /// Ring centres by size class k: groups of 2·4^k ... 2·4^(k+1) − 1 pins.
    static let classes = 16
    var rings: [SpatialIndex?] = Array(repeating: nil, count: SpreadLayout.classes)
    var ringsInClass = [Int](repeating: 0, count: SpreadLayout.classes)

    // Bulk adds lay every touched group out once, and load the centre indexes in one go.
    var batching = false
    var pendingGroups: [Int32] = []
    var collecting = false
    var collected: [[Int32]] = Array(repeating: [], count: SpreadLayout.classes)
    var scratch: [Int32] = []

    /// The size class of a ring of n ≥ 2 pins.
    @inline(__always)
    static func sizeClass(_ n: Int) -> Int8 {
        let log2 = (Int.bitWidth - 1) - (n >> 1).leadingZeroBitCount
        return Int8(min(classes - 1, log2 / 2))
    }

    /// The largest ring radius (metres) a class may hold.
    static func maxRadius(_ k: Int) -> Double {
        k == classes - 1 ? SpreadRule.radius(Int(Int32.max)) : SpreadRule.radius(2 << (2 * k + 2) - 1)
    }

    /// Number of groups of two or more pins (for tests and benchmarks).
    var ringCount: Int { ringsInClass.reduce(0, +) }
}

extension Map {
    var spreadingOn: Bool { options.spreadMode == .ring }

    // MARK: - Hooks called by Map

    @inline(__always) func spreadDrawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? {
        let s = Int(slot)
        guard s < spread.groupOf.count else { return nil }
        let g = Int(spread.groupOf[s])
        guard g >= 0 else { return nil }
        guard spread.layoutStamp[g] != 0 else { return nil }
        let r = Int(spread.rank[s])
        let x = spread.drawn[g][2 * r]
        if !x.isNaN { return (x, spread.drawn[g][2 * r + 1]) }
        let p = spread.frames[g].position(r)
        spread.drawn[g][2 * r] = p.lon; spread.drawn[g][2 * r + 1] = p.lat
        return p
    }

    /// Slots whose drawn (spread) position lies in the box.
    func spreadCandidates(_ box: GeoBox, into out: inout [Int32]) {
        guard spreadingOn else { return }
        var found = spread.scratch
        spread.scratch = []
        for k in 0..<SpreadLayout.classes where spread.ringsInClass[k] > 0 {
            guard let rings = spread.rings[k] else { continue }
            found.removeAll(keepingCapacity: true)
            Map.spreadGrownBox(box, meters: SpreadLayout.maxRadius(k)).split { rings.query($0, into: &found) }
            for g in found {
                for s in spread.members[Int(g)] {
                    guard let (x, y) = spreadDrawnPosition(s) else { continue }
                    var inside = false
                    box.split { b in
                        if x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat { inside = true }
                    }
                    if inside { out.append(s) }
                }
            }
        }
        spread.scratch = found
    }

    func spreadFlags(_ slot: Int32) -> UInt32 {
        let s = Int(slot)
        guard s < spread.groupOf.count, spread.groupOf[s] >= 0 else { return 0 }
        return spread.layoutStamp[Int(spread.groupOf[s])] == 0 ? 0 : Map.flagSpread
    }

    func spreadPinAdded(_ slot: Int32) {
        guard spreadingOn else { return }
        spreadGrow()
        spreadJoin(slot)
    }

    /// A bulk add: the pins join in ascending id order, as the batch rule takes them, and every
    /// group they touch is laid out once at the end.
    func spreadPinsAdded(_ slots: [Int32]) {
        guard spreadingOn else { return }
        spreadGrow()
        var order = slots
        if !zip(slots, slots.dropFirst()).allSatisfy({ pins.id($0) < pins.id($1) }) {
            order.sort { pins.id($0) < pins.id($1) }
        }
        spread.batching = true
        if options.spreadToleranceM == 0 {
            spreadJoinExact(order)
        } else {
            for s in order { spreadJoin(s) }
        }
        spread.batching = false
        let groups = spread.pendingGroups
        spread.pendingGroups.removeAll()
        spread.collecting = true
        for g in groups {
            spread.pending[Int(g)] = false
            if spread.members[Int(g)].count >= 2 { spreadLayOut(g) }
        }
        spread.collecting = false
        for k in 0..<SpreadLayout.classes where !spread.collected[k].isEmpty {
            let gs = spread.collected[k]
            spread.collected[k] = []
            spreadRings(k).insert(slots: gs, lon: gs.map { spread.centreLon[Int($0)] },
                                  lat: gs.map { spread.centreLat[Int($0)] })
        }
    }

    func spreadPinMoved(_ slot: Int32) {
        guard spreadingOn else { return }
        spreadLeave(slot)
        spreadJoin(slot)
    }

    func spreadPinWillBeRemoved(_ slot: Int32) {
        guard spreadingOn else { return }
        spreadLeave(slot)
    }

    // MARK: - Groups

    private func spreadGrow() {
        let n = pins.capacity
        let have = spread.groupOf.count
        guard have < n else { return }
        spread.groupOf.append(contentsOf: repeatElement(SpreadLayout.ungrouped, count: n - have))
        spread.rank.append(contentsOf: repeatElement(0, count: n - have))
    }

    private func spreadRings(_ k: Int) -> SpatialIndex {
        if let r = spread.rings[k] { return r }
        let r = factory.makeIndex()
        spread.rings[k] = r
        return r
    }

    /// Whether the slot is the first pin of its group (a pin alone is the first pin of its own).
    @inline(__always)
    private func isFirstPin(_ slot: Int32) -> Bool {
        let g = spread.groupOf[Int(slot)]
        return g == SpreadLayout.alone || (g >= 0 && spread.members[Int(g)].first == slot)
    }

    /// A group record for two pins or more (a pin alone has none).
    private func spreadNewGroup(_ slots: [Int32]) -> Int32 {
        let g: Int32
        if let f = spread.freeGroups.popLast() {
            g = f
            spread.members[Int(g)] = slots
        } else {
            g = Int32(spread.members.count)
            spread.members.append(slots)
            spread.centreLon.append(.nan); spread.centreLat.append(.nan)
            spread.ringClass.append(-1); spread.pending.append(false)
            spread.frames.append(RingFrame(centerLon: 0, centerLat: 0, n: 2)); spread.layoutStamp.append(0)
            spread.drawn.append([])
        }
        spread.layoutStamp[Int(g)] = 0
        for s in slots { spread.groupOf[Int(s)] = g }
        return g
    }

    private func spreadFreeGroup(_ g: Int32) {
        spreadSetRing(g, -1)
        spread.members[Int(g)] = []
        spread.drawn[Int(g)] = []
        spread.centreLon[Int(g)] = .nan; spread.centreLat[Int(g)] = .nan
        spread.layoutStamp[Int(g)] = 0
        spread.freeGroups.append(g)
    }

    /// Puts these pins (in id order) in one group: a record for two or more, none for one alone.
    private func spreadForm(_ slots: [Int32]) {
        if slots.count == 1 {
            spread.groupOf[Int(slots[0])] = SpreadLayout.alone
        } else {
            spreadLayoutChanged(spreadNewGroup(slots))
        }
    }

    /// A pin in no group joins one: the group of the lowest-id first pin within the tolerance whose
    /// id is lower than its own. When the only first pins within the tolerance have higher ids,
    /// the pin would come first: it and those groups' members are re-formed together.
    private func spreadJoin(_ p: Int32) {
        let (x, y) = pins.position(p)
        let id = pins.id(p)
        let tolerance = options.spreadToleranceM
        var found = spread.scratch
        spread.scratch = []
        found.removeAll(keepingCapacity: true)
        let box = tolerance == 0 ? GeoBox(minLon: x, minLat: y, maxLon: x, maxLat: y)
                                 : Sphere.boundingBox(lon: x, lat: y, meters: tolerance)
        box.split { index.query($0, into: &found) }
        var lower: Int32 = -1, lowerID = Int64.max
        var higher: [Int32] = []
        for c in found where c != p && isFirstPin(c) {
            let l = pins.position(c)
            guard SpreadRule.joins(leaderLon: l.lon, leaderLat: l.lat, lon: x, lat: y, tolerance: tolerance) else { continue }
            let cid = pins.id(c)
            if cid < id {
                if cid < lowerID { lower = c; lowerID = cid }
            } else if !higher.contains(c) {
                higher.append(c)
            }
        }
        spread.scratch = found
        if lower >= 0 {
            let g = spread.groupOf[Int(lower)]
            if g == SpreadLayout.alone {
                spreadForm([lower, p])
                return
            }
            var m = spread.members[Int(g)]
            spread.members[Int(g)] = []
            var lo = 0, hi = m.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pins.id(m[mid]) < id { lo = mid + 1 } else { hi = mid }
            }
            m.insert(p, at: lo)
            spread.members[Int(g)] = m
            spread.groupOf[Int(p)] = g
            spreadLayoutChanged(g)
        } else if higher.isEmpty {
            spread.groupOf[Int(p)] = SpreadLayout.alone
        } else if tolerance == 0, higher.count == 1 {
            // Same coordinate: the group keeps every member, with this pin first.
            let h = higher[0], g = spread.groupOf[Int(h)]
            if g == SpreadLayout.alone {
                spreadForm([p, h])
            } else {
                spread.members[Int(g)].insert(p, at: 0)
                spread.groupOf[Int(p)] = g
                spreadLayoutChanged(g)
            }
        } else {
            var all: [Int32] = [p]
            for h in higher {
                let g = spread.groupOf[Int(h)]
                if g == SpreadLayout.alone {
                    all.append(h)
                } else {
                    all.append(contentsOf: spread.members[Int(g)])
                    spreadFreeGroup(g)
                }
            }
            spreadReform(all)
        }
    }

    /// Tolerance 0, a bulk add: the batch's pins (ungrouped, in ascending id order) join the groups
    /// of their exact coordinates. The result is what joining them one by one gives (every
    /// coordinate has one group, all its pins in id order), reached with one hash pass over the
    /// batch: each pin finds the first batch pin at its coordinate, and only coordinates shared by
    /// several pins, or already on the map, get a group record. No index query per pin, and
    /// scratch memory of 4 bytes per pin plus the table's 8 bytes per entry.
    private func spreadJoinExact(_ order: [Int32]) {
        let n = order.count
        guard n > 0 else { return }
        // firstOf[i]: the batch position of the first (lowest-id) pin at pin i's coordinate.
        var firstOf = [Int32](repeating: 0, count: n)
        var table = CoordinateTable(expected: n)
        pins.coordinates.withBuffer { ll in
                order.withUnsafeBufferPointer { o in
                    firstOf.withUnsafeMutableBufferPointer { f in
                        for i in 0..<n {
                            let s = 2 * Int(o[i])
                            f[i] = table.findOrInsert(ll[s], ll[s + 1], Int32(i)) { v in
                                let l = 2 * Int(o[Int(v)])
                                return (ll[l], ll[l + 1])
                            }
                        }
                    }
                }
        }
        // The batch's stacks: first position -> the later positions, in id order. A first pin
        // with later ones is marked by the sign bit of its own entry (a lookup for every pin
        // would cost more than the grouping).
        var later: [Int32: [Int32]] = [:]
        for i in 0..<n {
            let f = firstOf[i] & Int32.max
            guard f != Int32(i) else { continue }
            later[f, default: []].append(Int32(i))
            firstOf[Int(f)] |= Int32.min
        }
        // The pins already on the map: the first pin of the group at a batch coordinate, by the
        // batch position of the first batch pin there.
        var existing: [Int32: Int32] = [:]
        let before = pins.count - n
        if before > 0 {
            if before <= 4 * n {
                // Few enough to read them all: look each first pin's coordinate up in the table.
                let coordinate = { (v: Int32) -> (Double, Double) in
                    let p = self.pins.position(order[Int(v)])
                    return (p.lon, p.lat)
                }
                for e in 0..<pins.capacity {
                    let c = Int32(e)
                    guard pins.isAlive(c), spread.groupOf[e] != SpreadLayout.ungrouped, isFirstPin(c) else { continue }
                    let p = pins.position(c)
                    if let f = table.find(p.lon, p.lat, coordinate: coordinate) { existing[f] = c }
                }
            } else {
                // A small batch on a large map: one index query per distinct coordinate.
                var found = spread.scratch
                spread.scratch = []
                for i in 0..<n where firstOf[i] & Int32.max == Int32(i) {
                    let (x, y) = pins.position(order[i])
                    found.removeAll(keepingCapacity: true)
                    GeoBox(minLon: x, minLat: y, maxLon: x, maxLat: y).split { index.query($0, into: &found) }
                    for c in found where spread.groupOf[Int(c)] != SpreadLayout.ungrouped && isFirstPin(c) {
                        let l = pins.position(c)
                        if l.lon == x && l.lat == y { existing[Int32(i)] = c }
                    }
                }
                spread.scratch = found
            }
        }
        for i in 0..<n where firstOf[i] & Int32.max == Int32(i) {
            let more = firstOf[i] < 0 ? later[Int32(i)] : nil
            let e = existing.isEmpty ? nil : existing[Int32(i)]
            if more == nil && e == nil {
                spread.groupOf[Int(order[i])] = SpreadLayout.alone
                continue
            }
            var added: [Int32] = [order[i]]
            if let more { for j in more { added.append(order[Int(j)]) } }
            guard let e else {
                spreadLayoutChanged(spreadNewGroup(added))
                continue
            }
            let eg = spread.groupOf[Int(e)]
            let old = eg == SpreadLayout.alone ? [e] : spread.members[Int(eg)]
            // Merge two id-ordered lists.
            var merged: [Int32] = []
            merged.reserveCapacity(old.count + added.count)
            var a = 0, b = 0
            while a < old.count || b < added.count {
                if b == added.count || (a < old.count && pins.id(old[a]) < pins.id(added[b])) {
                    merged.append(old[a]); a += 1
                } else {
                    merged.append(added[b]); b += 1
                }
            }
            if eg == SpreadLayout.alone {
                spreadLayoutChanged(spreadNewGroup(merged))
            } else {
                spread.members[Int(eg)] = merged
                for s in added { spread.groupOf[Int(s)] = eg }
                spreadLayoutChanged(eg)
            }
        }
    }

    /// A pin leaves its group. The rest keep their group and are laid out again; when the pin was
    /// the group's first pin and the tolerance is > 0, the rest are re-formed among themselves.
    private func spreadLeave(_ p: Int32) {
        let g = spread.groupOf[Int(p)]
        spread.groupOf[Int(p)] = SpreadLayout.ungrouped
        guard g >= 0 else { return }
        var m = spread.members[Int(g)]
        spread.members[Int(g)] = []
        let wasFirst = m.first == p
        if let i = m.firstIndex(of: p) { m.remove(at: i) }
        if m.count == 1 {
            spreadFreeGroup(g)
            spread.groupOf[Int(m[0])] = SpreadLayout.alone
        } else if wasFirst && options.spreadToleranceM > 0 {
            spreadFreeGroup(g)
            spreadReform(m)
        } else {
            spread.members[Int(g)] = m
            spreadLayoutChanged(g)
        }
    }

    /// Forms groups from these pins alone by the batch rule: in ascending id order, each joins the
    /// first earlier-formed group whose first pin is within the tolerance, or starts one.
    private func spreadReform(_ slots: [Int32]) {
        var order = slots
        if !zip(slots, slots.dropFirst()).allSatisfy({ pins.id($0) < pins.id($1) }) {
            order.sort { pins.id($0) < pins.id($1) }
        }
        let tolerance = options.spreadToleranceM
        var formed: [[Int32]] = []
        for q in order {
            let (x, y) = pins.position(q)
            var joined = false
            for i in formed.indices {
                let l = pins.position(formed[i][0])
                if SpreadRule.joins(leaderLon: l.lon, leaderLat: l.lat, lon: x, lat: y, tolerance: tolerance) {
                    formed[i].append(q); joined = true; break
                }
            }
            if !joined { formed.append([q]) }
        }
        for f in formed { spreadForm(f) }
    }

    private func spreadLayoutChanged(_ g: Int32) {
        if spread.batching {
            if !spread.pending[Int(g)] { spread.pending[Int(g)] = true; spread.pendingGroups.append(g) }
        } else {
            spreadLayOut(g)
        }
    }

    /// Sets a group's ring (its centre, and each member's place on it) and files its centre by size
    /// class. The members' drawn positions follow when asked for.
    private func spreadLayOut(_ g: Int32) {
        let m = spread.members[Int(g)]
        let n = m.count
        let first = pins.position(m[0])
        var centre = SpreadRule.Centre(lon: first.lon, lat: first.lat)
        if options.spreadToleranceM > 0 {
            for s in m { let p = pins.position(s); centre.add(lon: p.lon, lat: p.lat) }
        }
        let c = centre.value
        for i in 0..<n { spread.rank[Int(m[i])] = Int32(i) }
        spread.drawn[Int(g)].removeAll(keepingCapacity: true)
        spread.drawn[Int(g)].append(contentsOf: repeatElement(.nan, count: 2 * n))
        spread.frames[Int(g)] = RingFrame(centerLon: c.lon, centerLat: c.lat, n: n)
        spread.layoutStamp[Int(g)] = spread.nextStamp
        spread.nextStamp &+= 1
        let moved = spread.centreLon[Int(g)] != c.lon || spread.centreLat[Int(g)] != c.lat
        spread.centreLon[Int(g)] = c.lon; spread.centreLat[Int(g)] = c.lat
        spreadSetRing(g, SpreadLayout.sizeClass(n), moved: moved)
    }

    /// Files the group's centre in the index of class k (-1: in none).
    private func spreadSetRing(_ g: Int32, _ k: Int8, moved: Bool = false) {
        let old = spread.ringClass[Int(g)]
        if old == k && (!moved || k < 0) { return }
        if old >= 0 && old != k {
            spread.rings[Int(old)]?.remove(g)
            spread.ringsInClass[Int(old)] -= 1
        }
        if k >= 0 {
            if old != k { spread.ringsInClass[Int(k)] += 1 }
            if spread.collecting {
                spread.collected[Int(k)].append(g)
            } else {
                spreadRings(Int(k)).set(g, lon: spread.centreLon[Int(g)], lat: spread.centreLat[Int(g)])
            }
        }
        spread.ringClass[Int(g)] = k
    }

    /// A box grown by `meters` on every side: it holds every point within that distance of a point
    /// of the box. Its longitudes may pass ±180 (callers split it).
    static func spreadGrownBox(_ box: GeoBox, meters: Double) -> GeoBox {
        let d = meters / Sphere.radius
        let dLat = d * Sphere.degrees
        let lat0 = box.minLat - dLat, lat1 = box.maxLat + dLat
        if lat0 <= -90 || lat1 >= 90 || d >= Double.pi / 2 {
            return GeoBox(minLon: -180, minLat: max(-90, lat0), maxLon: 180, maxLat: min(90, lat1))
        }
        let s = sin(d) / cos(max(abs(box.minLat), abs(box.maxLat)) * Sphere.radians)
        if s >= 1 { return GeoBox(minLon: -180, minLat: lat0, maxLon: 180, maxLat: lat1) }
        let dLon = asin(s) * Sphere.degrees * (1 + 1e-12) + 1e-12
        return GeoBox(minLon: box.minLon - dLon, minLat: lat0, maxLon: box.maxLon + dLon, maxLat: lat1)
    }
}
