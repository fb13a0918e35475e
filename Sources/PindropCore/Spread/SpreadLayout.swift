import Glibc

/// The spreading room: a map's pins that share a spot, drawn on a ring (docs/spreading.md), kept
/// equal to the batch rule (`pindrop_spread` over the map's pins in id order) after every change.
/// With `SpreadMode.spiral` the groups are the same, laid out in screen points instead
/// (behaviour 17, `SpiralPlacement`): their drawn positions follow the view the map hands in.
///
/// Every pin belongs to one group; a group's members are kept in ascending id order and its first
/// member is its first pin. Groups of two or more are drawn on a ring around their centre. A change
/// re-groups only the pins it can affect, with the one grouper of the batch rule
/// (`SpreadRule.group`): the pins connected to the changed pins by "within the tolerance" and by
/// group membership (see `regroup`). The rings' centres live in a few small spatial indexes, one
/// per size class, so that hit tests and frames find a pin where it is drawn (up to 3n/2 m from
/// its true coordinate).
///
/// What it may touch: the pins' ids and true coordinates (`PinStore`, read only) and the index of
/// true coordinates (queries only), both handed in by the map; its own ring indexes; the view,
/// which the map hands in when it changes (a spiral is laid out in it). It never emits events and
/// knows nothing of gestures or editing.
struct SpreadLayout {
    /// `groupOf` values that are not group numbers: a pin alone (its own group of one, drawn where
    /// it is, with no group record), and a slot in no group (removed, or not yet grouped).
    static let alone: Int32 = -1, ungrouped: Int32 = -2

    let isOn: Bool
    let tolerance: Double
    /// The spiral layout's view and offsets; nil for the ring.
    private(set) var spiral: SpiralPlacement?
    private let factory: IndexFactory

    // Per slot.
    var groupOf: [Int32] = []       // a group of two or more, or `alone` / `ungrouped`
    var rank: [Int32] = []          // place in its group, in id order
    private var visited = Set<Int32>()  // `regroup`'s affected set (kept for its storage)

    // Per group of two pins or more (numbers are reused).
    var members: [[Int32]] = []     // slots, ascending pin id
    var centreLon: [Double] = []
    var centreLat: [Double] = []
    var ringClass: [Int8] = []      // the size class whose index holds the centre, -1 none
    var frames: [RingFrame] = []
    // Drawn positions are computed when asked and remembered per group, by rank (lon, lat
    // interleaved; NaN until computed): re-forming a ring of n costs O(n) writes, not n
    // destination formulas, and a pin alone costs nothing here. A spiral's are valid for the
    // view they were computed in (`drawnStamp`, the spiral's view stamp).
    var drawn: [[Double]] = []
    var drawnStamp: [UInt64] = []
    var freeGroups: [Int32] = []

    /// Regroups of more pins than this do not keep their scratch buffers (a bulk load would
    /// otherwise keep 32 bytes per pin).
    static let keptScratch = 1 << 14

    /// Ring centres by size class k: groups of 2·4^k ... 2·4^(k+1) − 1 pins.
    static let classes = 16
    var rings: [SpatialIndex?] = Array(repeating: nil, count: SpreadLayout.classes)
    var ringsInClass = [Int](repeating: 0, count: SpreadLayout.classes)
    /// Centres waiting to be filed in their class's index in one bulk load (`regroup`).
    private var collected: [[Int32]] = Array(repeating: [], count: SpreadLayout.classes)
    private var scratch: [Int32] = []
    private var askedScratch: [(x: Double, y: Double)] = []
    private var sortScratch: [(Int64, Int32)] = []
    private var groupVisited: [UInt32] = []  // per group: `regroup`'s stamp
    private var visitStamp: UInt32 = 0

    init(options: Options, factory: IndexFactory, view: View) {
        isOn = options.spreadMode != .off
        tolerance = options.spreadToleranceM
        self.factory = factory
        if options.spreadMode == .spiral {
            spiral = SpiralPlacement(spacing: options.spreadSpacing, view: view, classes: SpreadLayout.classes)
        }
    }

    /// The map's view changed: a spiral is drawn anew in it.
    mutating func viewChanged(_ view: View) {
        spiral?.setView(view)
    }

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

    // MARK: - What the map asks

    /// Where a pin is drawn on its ring or spiral, or nil when it is drawn at its true coordinate.
    @inline(__always)
    mutating func drawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? {
        let s = Int(slot)
        guard s < groupOf.count else { return nil }
        let g = Int(groupOf[s])
        guard g >= 0 else { return nil }
        let r = Int(rank[s])
        if let spiral, drawnStamp[g] != spiral.stamp {
            for i in drawn[g].indices { drawn[g][i] = .nan }
            drawnStamp[g] = spiral.stamp
        }
        let x = drawn[g][2 * r]
        if !x.isNaN { return (x, drawn[g][2 * r + 1]) }
        let p: (lon: Double, lat: Double)
        if spiral != nil {
            let o = spiral!.offsets(members[g].count)
            guard let q = spiral!.position(centreLon: centreLon[g], centreLat: centreLat[g], dx: o[2 * r], dy: o[2 * r + 1])
            else { return nil }
            p = q
        } else {
            p = frames[g].position(r)
        }
        drawn[g][2 * r] = p.lon; drawn[g][2 * r + 1] = p.lat
        return p
    }

    /// Appends the slots whose drawn (spread) position lies in the box.
    mutating func candidates(_ box: GeoBox, into out: inout [Int32]) {
        guard isOn else { return }
        var found = scratch
        scratch = []
        for k in 0..<SpreadLayout.classes where ringsInClass[k] > 0 {
            guard let index = rings[k] else { continue }
            found.removeAll(keepingCapacity: true)
            let grown = spiral.map { $0.grownBox(box, points: $0.classExtent[k]) }
                ?? SpreadLayout.grownBox(box, meters: SpreadLayout.maxRadius(k))
            grown.split { index.query($0, into: &found) }
            for g in found {
                for s in members[Int(g)] {
                    guard let (x, y) = drawnPosition(s) else { continue }
                    var inside = false
                    box.split { b in
                        if x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat { inside = true }
                    }
                    if inside { out.append(s) }
                }
            }
        }
        scratch = found
    }

    /// Whether the pin is drawn on a ring (`PinFlags.spread`).
    func isSpread(_ slot: Int32) -> Bool {
        let s = Int(slot)
        return s < groupOf.count && groupOf[s] >= 0
    }

    // MARK: - Changes the map reports

    mutating func pinAdded(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        grow(pins.capacity)
        regroup(seeds: CollectionOfOne(slot), removed: -1, pins, index)
    }

    /// A bulk add. A batch at least a quarter the size of the pins already there re-groups the
    /// whole map in one pass of the grouper (no index query per pin: an initial load is one pass);
    /// a smaller one re-groups what its pins touch.
    mutating func pinsAdded(_ slots: [Int32], _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn, !slots.isEmpty else { return }
        grow(pins.capacity)
        let before = pins.count - slots.count
        if 4 * slots.count >= before {
            if before == 0 {
                regroupAll(slots, pins)
            } else {
                var all: [Int32] = []
                all.reserveCapacity(pins.count)
                for s in 0..<pins.capacity where pins.isAlive(Int32(s)) { all.append(Int32(s)) }
                regroupAll(all, pins)
            }
        } else {
            regroup(seeds: slots, removed: -1, pins, index)
        }
    }

    /// The pin's true coordinate changed (the index already has the new one).
    mutating func pinMoved(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        regroup(seeds: CollectionOfOne(slot), removed: -1, pins, index)
    }

    /// The pin is about to leave the store and the index.
    mutating func pinWillBeRemoved(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        regroup(seeds: CollectionOfOne(slot), removed: slot, pins, index)
        groupOf[Int(slot)] = SpreadLayout.ungrouped
    }

    // MARK: - Regrouping


    private mutating func grow(_ n: Int) {
        let have = groupOf.count
        guard have < n else { return }
        groupOf.append(contentsOf: repeatElement(SpreadLayout.ungrouped, count: n - have))
        rank.append(contentsOf: repeatElement(0, count: n - have))
    }

    /// Re-groups the pins a change to `seeds` can affect, by the batch rule restricted to them.
    ///
    /// Which pins: the batch rule relates a pin only to pins within the tolerance of it, so its
    /// result over all pins is its result over each connected part of the graph "within the
    /// tolerance" (for tolerance 0: "at the same coordinate") taken alone. A change can only alter
    /// the parts that hold a changed pin, before or after the change. The affected set is
    /// therefore grown from the seeds by two steps until nothing is added: a pin's current group
    /// (its part before the change) and the pins within the tolerance of where it is now (its part
    /// after). `removed` (or -1) is left out: it is on its way out of the store.
    private mutating func regroup<S: Sequence>(seeds: S, removed: Int32, _ pins: borrowing PinStore,
                                               _ index: SpatialIndex) where S.Element == Int32 {
        visited.removeAll(keepingCapacity: true)
        visitStamp &+= 1
        if visitStamp == 0 {
            for i in groupVisited.indices { groupVisited[i] = 0 }
            visitStamp = 1
        }
        let stamp = visitStamp
        var affected: [Int32] = []
        func visit(_ s: Int32) {
            if visited.insert(s).inserted { affected.append(s) }
        }
        for s in seeds { visit(s) }
        var found = scratch
        scratch = []
        // Pins at one coordinate have the same neighbours: each coordinate is asked for once (a
        // stack of n pins costs one query, not n).
        var asked = askedScratch
        askedScratch = []
        asked.removeAll(keepingCapacity: true)
        var i = 0
        while i < affected.count {
            let s = affected[i]
            i += 1
            let g = groupOf[Int(s)]
            if g >= 0 && groupVisited[Int(g)] != stamp {
                groupVisited[Int(g)] = stamp
                for m in members[Int(g)] { visit(m) }
            }
            guard s != removed else { continue }
            let (x, y) = pins.position(s)
            if asked.contains(where: { $0.x == x && $0.y == y }) { continue }
            asked.append((x, y))
            found.removeAll(keepingCapacity: true)
            let box = tolerance == 0 ? GeoBox(minLon: x, minLat: y, maxLon: x, maxLat: y)
                                     : Sphere.boundingBox(lon: x, lat: y, meters: tolerance)
            box.split { index.query($0, into: &found) }
            for c in found where c != removed && !visited.contains(c) {
                let p = pins.position(c)
                if SpreadRule.joins(leaderLon: x, leaderLat: y, lon: p.lon, lat: p.lat, tolerance: tolerance) { visit(c) }
            }
        }
        scratch = found
        askedScratch = asked
        if visited.count > SpreadLayout.keptScratch { visited = [] }
        if removed >= 0, let k = affected.firstIndex(of: removed) { affected.remove(at: k) }
        if affected.count == 1 && groupOf[Int(affected[0])] < 0 {
            // One pin that was in no ring stays alone: nothing to free or form.
            groupOf[Int(affected[0])] = SpreadLayout.alone
            return
        }
        regroupAll(affected, pins)
    }

    /// Forms the groups of these pins (and only these) by the batch rule, after freeing the groups
    /// they were in, and files the new rings' centres.
    private mutating func regroupAll(_ slots: [Int32], _ pins: borrowing PinStore) {
        for s in slots {
            let g = groupOf[Int(s)]
            if g >= 0 && !members[Int(g)].isEmpty { freeGroup(g) }
            groupOf[Int(s)] = SpreadLayout.ungrouped
        }
        // The pins in id order (a bulk load usually comes sorted: no copy, no sort).
        var order = slots
        if !zip(slots, slots.dropFirst()).allSatisfy({ pins.id($0) < pins.id($1) }) {
            var keyed = sortScratch
            sortScratch = []
            keyed.removeAll(keepingCapacity: true)
            for s in slots { keyed.append((pins.id(s), s)) }
            keyed.sort { $0.0 < $1.0 }
            for i in keyed.indices { order[i] = keyed[i].1 }
            sortScratch = keyed.count <= SpreadLayout.keptScratch ? keyed : []
        }
        let grouping = pins.coordinates.withBuffer { ll in
            order.withUnsafeBufferPointer { o in
                SpreadRule.group(count: o.count, tolerance: tolerance) { i in (ll[2 * Int(o[i])], ll[2 * Int(o[i]) + 1]) }
            }
        }
        // Members of each group of two or more, in rank (= id) order.
        var record = [Int32](repeating: -1, count: grouping.size.count)
        for i in order.indices {
            let k = Int(grouping.groupOf[i])
            let s = order[i]
            guard grouping.size[k] > 1 else { groupOf[Int(s)] = SpreadLayout.alone; continue }
            if record[k] < 0 {
                var list: [Int32] = []
                list.reserveCapacity(Int(grouping.size[k]))
                record[k] = newGroup(list)
            }
            members[Int(record[k])].append(s)
            groupOf[Int(s)] = record[k]
        }
        for k in record.indices where record[k] >= 0 {
            layOut(record[k], centre: grouping.centre(k) { i in pins.position(order[i]) }, pins)
        }
        for k in 0..<SpreadLayout.classes where !collected[k].isEmpty {
            let gs = collected[k]
            collected[k] = []
            if gs.count == 1 {
                ringIndex(k).set(gs[0], lon: centreLon[Int(gs[0])], lat: centreLat[Int(gs[0])])
            } else {
                ringIndex(k).insert(slots: gs, lon: gs.map { centreLon[Int($0)] }, lat: gs.map { centreLat[Int($0)] })
            }
        }
    }

    private mutating func ringIndex(_ k: Int) -> SpatialIndex {
        if let r = rings[k] { return r }
        let r = factory.makeIndex()
        rings[k] = r
        return r
    }

    /// A group record for two pins or more (a pin alone has none).
    private mutating func newGroup(_ slots: [Int32]) -> Int32 {
        if let g = freeGroups.popLast() {
            members[Int(g)] = slots
            return g
        }
        let g = Int32(members.count)
        members.append(slots)
        centreLon.append(.nan); centreLat.append(.nan)
        ringClass.append(-1)
        groupVisited.append(0)
        frames.append(RingFrame(centerLon: 0, centerLat: 0, n: 2))
        drawn.append([])
        drawnStamp.append(0)
        return g
    }

    private mutating func freeGroup(_ g: Int32) {
        let k = ringClass[Int(g)]
        if k >= 0 {
            rings[Int(k)]?.remove(g)
            ringsInClass[Int(k)] -= 1
            ringClass[Int(g)] = -1
            if ringsInClass[Int(k)] == 0 { spiral?.classEmptied(Int(k)) }
        }
        members[Int(g)] = []
        drawn[Int(g)] = []
        centreLon[Int(g)] = .nan; centreLat[Int(g)] = .nan
        freeGroups.append(g)
    }

    /// Sets a group's ring (its centre, and each member's place on it) and queues its centre for
    /// its size class's index. The members' drawn positions follow when asked for.
    private mutating func layOut(_ g: Int32, centre c: (lon: Double, lat: Double), _ pins: borrowing PinStore) {
        let m = members[Int(g)]
        let n = m.count
        for i in 0..<n { rank[Int(m[i])] = Int32(i) }
        drawn[Int(g)].removeAll(keepingCapacity: true)
        drawn[Int(g)].append(contentsOf: repeatElement(.nan, count: 2 * n))
        centreLon[Int(g)] = c.lon; centreLat[Int(g)] = c.lat
        let k = SpreadLayout.sizeClass(n)
        if spiral != nil {
            drawnStamp[Int(g)] = spiral!.stamp
            spiral!.noteGroup(count: n, sizeClass: Int(k))
        } else {
            frames[Int(g)] = RingFrame(centerLon: c.lon, centerLat: c.lat, n: n)
        }
        ringClass[Int(g)] = k
        ringsInClass[Int(k)] += 1
        collected[Int(k)].append(g)
    }

    /// A box grown by `meters` on every side: it holds every point within that distance of a point
    /// of the box. Its longitudes may pass ±180 (callers split it).
    static func grownBox(_ box: GeoBox, meters: Double) -> GeoBox {
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
