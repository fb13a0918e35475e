#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The spreading room: a map's pins that share a spot, drawn on a ring (docs/spreading.md), kept
/// equal to the batch rule (`pindrop_spread` over the map's pins in id order) after every change.
/// With `SpreadMode.spiral` the groups are the same, laid out in screen points instead
/// (the spiral of docs/spreading.md, `SpiralPlacement`): their drawn positions follow the view the map hands in.
///
/// Every pin belongs to one group; a group's members are kept in ascending id order and its first
/// member is its first pin. Groups of two or more are drawn on a ring around their centre. A change
/// re-groups only the pins it can affect, with the one grouper of the batch rule
/// (`SpreadRule.group`): the pins connected to the changed pins by "within the tolerance" and by
/// group membership (see `regroup`). With tolerance 0 a group is the set of pins at one coordinate,
/// so a change only takes a pin out of one group and puts it into another (`leaveExact`,
/// `joinExact`). The groups' extents live in one `RingGrid`, so that hit tests and frames find a
/// pin where it is drawn (up to 3n/2 m from its true coordinate) with one query.
///
/// What it may touch: the pins' ids and true coordinates (`PinStore`, read only) and the index of
/// true coordinates (queries only), both handed in by the map; its own ring grid; the view,
/// which the map hands in when it changes (a spiral is laid out in it). It never emits events and
/// knows nothing of gestures or editing.
struct SpreadLayout {
    let isOn: Bool
    let tolerance: Double
    /// The spiral layout's view and offsets; nil for the ring.
    private(set) var spiral: SpiralPlacement?

    /// Per slot in a group of two or more: the group and the slot's rank in it (id order). A pin
    /// alone (its own group of one, drawn where it is) has no entry and no group record.
    private(set) var membership = Membership()
    private var visited = Set<Int32>()  // `regroup`'s affected set (kept for its storage)

    // Per group of two pins or more (numbers are reused).
    var members: [[Int32]] = []     // slots, ascending pin id
    var centreLon: [Double] = []
    var centreLat: [Double] = []
    var ringClass: [Int8] = []      // the size class (`sizeClass`) of its count, -1 none
    var frames: [RingFrame] = []
    // Drawn positions are computed when asked and remembered per group, by rank (lon, lat
    // interleaved; NaN until computed; empty until the group is first drawn): re-forming a ring of
    // n costs O(n) writes, not n destination formulas, and a pin alone costs nothing here. A spiral's are valid for the
    // view they were computed in (`drawnStamp`, the spiral's view stamp).
    var drawn: [[Double]] = []
    var drawnStamp: [UInt64] = []
    var freeGroups: [Int32] = []

    /// Regroups of more pins than this do not keep their scratch buffers (a bulk load would
    /// otherwise keep 32 bytes per pin).
    static let keptScratch = 1 << 14

    /// Groups by size class k: groups of 2·4^k ... 2·4^(k+1) − 1 pins (a spiral's largest extent
    /// is kept per class, `SpiralPlacement.classExtent`).
    static let classes = 16
    var ringsInClass = [Int](repeating: 0, count: SpreadLayout.classes)
    /// Every group's extent, for `candidates`.
    var grid = RingGrid()
    /// Behaviour 22: the open stack, the kept ones, the group records' generations (Stacks.swift).
    var stacks = StackState()
    private var scratch: [Int32] = []
    private var groupScratch: [Int32] = []
    private var askedScratch: [(x: Double, y: Double)] = []
    private var affectedScratch: [Int32] = []
    private var sortScratch: [(Int64, Int32)] = []
    private var groupVisited: [UInt32] = []  // per group: `regroup`'s stamp
    private var visitStamp: UInt32 = 0

    /// Behaviour 22: an opened stack is laid out to fit the view (`FitLayout`), at most at this
    /// spacing; `fitStamp` changes with the view and with what is open (positions are redone).
    let fitSpacing: Double
    private(set) var fitView: View
    private(set) var fitStamp: UInt64 = 1 << 63
    var fitScratch: [Double] = []
    var fitPoints: [FitPoint] = []

    init(options: Options, view: View) {
        isOn = options.spreadMode != .off
        tolerance = options.spreadToleranceM
        stacks.isOn = isOn && options.spreadOnTap
        fitSpacing = min(options.spreadSpacing, 0x1p40)
        fitView = view
        if options.spreadMode == .spiral {
            spiral = SpiralPlacement(spacing: options.spreadSpacing, view: view, classes: SpreadLayout.classes)
        }
    }

    /// The map's view changed: a spiral is drawn anew in it.
    mutating func viewChanged(_ view: View) {
        spiral?.setView(view)
        fitView = view
        fitMoved()
    }

    /// What an open stack's fitted layout depends on changed (the view, the open or kept groups,
    /// their pins): its positions are computed anew when next drawn.
    @inline(__always)
    mutating func fitMoved() { fitStamp &+= 1 }

    /// The size class of a ring of n ≥ 2 pins.
    @inline(__always)
    static func sizeClass(_ n: Int) -> Int8 {
        let log2 = (Int.bitWidth - 1) - (n >> 1).leadingZeroBitCount
        return Int8(min(classes - 1, log2 / 2))
    }

    /// Number of groups of two or more pins (for tests and benchmarks).
    var ringCount: Int { ringsInClass.reduce(0, +) }

    // MARK: - What the map asks

    /// Where a pin is drawn on its ring or spiral, or nil when it is drawn at its true coordinate.
    @inline(__always)
    mutating func drawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? {
        guard let (g, r) = membership.get(slot) else { return nil }
        return drawnPosition(group: Int(g), rank: Int(r))
    }

    /// Where the pin of this rank in group g is drawn (nil when the view cannot place it).
    @inline(__always)
    private mutating func drawnPosition(group g: Int, rank r: Int) -> (lon: Double, lat: Double)? {
        let n = members[g].count
        if stacks.isOn {  // behaviour 22: drawn spread only when open or kept open, fitted to the view
            if drawn[g].count != 2 * n || drawnStamp[g] != fitStamp { layOutFitted(Int32(g)) }
            let x = drawn[g][2 * r]
            return x.isNaN ? nil : (x, drawn[g][2 * r + 1])
        }
        if drawn[g].count != 2 * n {  // not drawn since it was (re)formed
            drawn[g].removeAll(keepingCapacity: true)
            drawn[g].append(contentsOf: repeatElement(.nan, count: 2 * n))
        }
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

    /// Appends the slots whose drawn (spread) position lies in the box: one query of the ring grid
    /// (the box grown by the largest spiral for a spiral, whose groups are filed by their centre),
    /// then each member of the groups it returns is checked where it is drawn.
    mutating func candidates(_ box: GeoBox, into out: inout [Int32]) {
        guard isOn, ringCount > 0 else { return }
        var groups = groupScratch
        groupScratch = []
        groups.removeAll(keepingCapacity: true)
        if let spiral {
            grid.query(spiral.grownBox(box, points: spiral.classExtent.max() ?? 0), into: &groups)
        } else {
            grid.query(box, into: &groups)
        }
        if stacks.isOn {
            // Drawn spread only when open or kept open, fitted to the view wherever the centre is:
            // those groups are offered whatever the grid says, the others are one stack item.
            if stacks.group >= 0 && !groups.contains(stacks.group) { groups.append(stacks.group) }
            for g in stacks.alsoGroups where !groups.contains(g) { groups.append(g) }
            for g in stacks.keptGroups where !groups.contains(g) { groups.append(g) }
        }
        for g in groups {
            if stacks.isOn && isCollapsed(g) { continue }  // drawn as one stack item, not as pins
            for r in members[Int(g)].indices {
                guard let (x, y) = drawnPosition(group: Int(g), rank: r) else { continue }
                var inside = false
                box.split { b in
                    if x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat { inside = true }
                }
                if inside { out.append(members[Int(g)][r]) }
            }
        }
        groupScratch = groups
    }

    /// Whether the pin is drawn on a ring (`PinFlags.spread`).
    /// (Inlined: a call would copy the layout, a frame asks for every pin it draws.)
    @inline(__always)
    func isSpread(_ slot: Int32) -> Bool { membership.contains(slot) }

    // MARK: - Changes the map reports

    mutating func pinAdded(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        if tolerance == 0 {
            joinExact(slot, pins, index)
        } else {
            regroup(seeds: CollectionOfOne(slot), removed: -1, pins, index)
        }
    }

    /// A bulk add. A batch at least a quarter the size of the pins already there re-groups the
    /// whole map in one pass of the grouper (no index query per pin: an initial load is one pass);
    /// a smaller one re-groups what its pins touch.
    mutating func pinsAdded(_ slots: [Int32], _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn, !slots.isEmpty else { return }
        let before = pins.count - slots.count
        if 4 * slots.count >= before {
            var all = slots
            if before > 0 {
                all = []
                all.reserveCapacity(pins.count)
                for s in 0..<pins.capacity where pins.isAlive(Int32(s)) { all.append(Int32(s)) }
            }
            regroupAll(all, pins)
        } else if tolerance == 0 {
            // The batch's pins are joined one by one; those not joined yet are passed over.
            var unjoined = Set(slots)
            for s in slots {
                unjoined.remove(s)
                joinExact(s, pins, index, passingOver: unjoined)
            }
        } else {
            regroup(seeds: slots, removed: -1, pins, index)
        }
    }

    /// The pin's true coordinate changed (the index already has the new one).
    mutating func pinMoved(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        if tolerance == 0 {
            leaveExact(slot, pins)
            joinExact(slot, pins, index)
        } else {
            regroup(seeds: CollectionOfOne(slot), removed: -1, pins, index)
        }
    }

    /// The pin is about to leave the store and the index.
    mutating func pinWillBeRemoved(_ slot: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex) {
        guard isOn else { return }
        if tolerance == 0 {
            leaveExact(slot, pins)
        } else {
            regroup(seeds: CollectionOfOne(slot), removed: slot, pins, index)
        }
    }

    // MARK: - Tolerance 0: a group is the pins at one coordinate

    // The batch rule at tolerance 0 puts every pin at a coordinate (equal numbers) in one group,
    // ranked by id, centred on its first (lowest-id) pin's coordinate bit for bit: whatever the order
    // of changes, a pin that leaves a coordinate leaves that group and a pin that arrives joins the
    // group there. Nothing else changes, so no grouper runs.

    /// Takes the pin out of its group: the others keep their ring, one pin smaller (re-ranked from
    /// the pin's place on); a group left with one pin is freed.
    private mutating func leaveExact(_ s: Int32, _ pins: borrowing PinStore) {
        guard let (g, rank) = membership.get(s) else { return }
        membership.remove(s)
        let r = Int(rank)
        members[Int(g)].remove(at: r)
        if members[Int(g)].count == 1 {
            freeGroup(g)
        } else {
            place(g, centre: pins.position(members[Int(g)][0]), rankedFrom: r)
        }
    }

    /// Puts the pin (already in the index where it now is) into the group at its coordinate: when
    /// the store's coordinate counts say another pin may stand there, one index query at that
    /// point; the first grouped pin found there tells the group (a pin alone
    /// there is the only one, and the two form a group). Pins not grouped yet (the rest of a batch
    /// being joined one by one, `passingOver`) are passed over: they find this one when their turn
    /// comes.
    private mutating func joinExact(_ s: Int32, _ pins: borrowing PinStore, _ index: SpatialIndex,
                                    passingOver unjoined: Set<Int32> = []) {
        // Most moves and adds land where no other pin stands, which the store's counts tell
        // without a query.
        guard pins.mayShareCoordinate(s) else { return }
        let (x, y) = pins.position(s)
        var found = scratch
        scratch = []
        found.removeAll(keepingCapacity: true)
        index.query(GeoBox(minLon: x, minLat: y, maxLon: x, maxLat: y), into: &found)
        var mate: Int32 = -1
        for c in found where c != s && !unjoined.contains(c) {
            let p = pins.position(c)
            if p.lon == x && p.lat == y { mate = c; break }
        }
        scratch = found
        guard mate >= 0 else { return }
        if let g = membership.group(mate) {
            let id = pins.id(s)
            var lo = 0, hi = members[Int(g)].count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pins.id(members[Int(g)][mid]) < id { lo = mid + 1 } else { hi = mid }
            }
            members[Int(g)].insert(s, at: lo)
            place(g, centre: pins.position(members[Int(g)][0]), rankedFrom: lo)
        } else {
            let (first, second) = pins.id(mate) < pins.id(s) ? (mate, s) : (s, mate)
            let g = newGroup(EmptyCollection())
            members[Int(g)].append(first); members[Int(g)].append(second)
            place(g, centre: pins.position(first))
        }
    }

    /// Frees the groups these pins are in.
    private mutating func freeGroups(of slots: [Int32]) {
        for s in slots {
            if let g = membership.group(s) { freeGroup(g) }
        }
    }

    // MARK: - Tolerance > 0: the grouper over the connected part of a change

    /// Re-groups the pins a change to `seeds` can affect, by the batch rule restricted to them.
    ///
    /// Which pins: the batch rule relates a pin only to pins within the tolerance of it, so its
    /// result over all pins is its result over each connected part of the graph "within the
    /// tolerance" taken alone. A change can only alter the parts that hold a changed pin, before or
    /// after the change. The affected set is therefore grown from the seeds by two steps until
    /// nothing is added: a pin's current group (its part before the change) and the pins within the
    /// tolerance of where it is now (its part after). `removed` (or -1) is left out: it is on its
    /// way out of the store.
    private mutating func regroup<S: Sequence>(seeds: S, removed: Int32, _ pins: borrowing PinStore,
                                               _ index: SpatialIndex) where S.Element == Int32 {
        visited.removeAll(keepingCapacity: true)
        visitStamp &+= 1
        if visitStamp == 0 {
            for i in groupVisited.indices { groupVisited[i] = 0 }
            visitStamp = 1
        }
        let stamp = visitStamp
        var affected = affectedScratch
        affectedScratch = []
        affected.removeAll(keepingCapacity: true)
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
            if let g = membership.group(s), groupVisited[Int(g)] != stamp {
                groupVisited[Int(g)] = stamp
                for m in members[Int(g)] { visit(m) }
            }
            guard s != removed else { continue }
            let (x, y) = pins.position(s)
            if asked.contains(where: { $0.x == x && $0.y == y }) { continue }
            asked.append((x, y))
            found.removeAll(keepingCapacity: true)
            let box = Sphere.boundingBox(lon: x, lat: y, meters: tolerance)
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
        // One pin that was in no ring and stays alone: nothing to free or form.
        if affected.count > 1 || affected.count == 1 && membership.contains(affected[0]) {
            regroupAll(affected, pins)
        }
        if affected.count <= SpreadLayout.keptScratch { affectedScratch = affected }
    }

    /// Forms the groups of these pins (and only these) by the batch rule, after freeing the groups
    /// they were in.
    private mutating func regroupAll(_ slots: [Int32], _ pins: borrowing PinStore) {
        freeGroups(of: slots)
        // At tolerance 0 a pin that the store's coordinate counts rule out stands alone (six LA
        // trees in seven): only the others go through the grouper.
        var order = slots
        if tolerance == 0 {
            order = []
            for s in slots where pins.mayShareCoordinate(s) { order.append(s) }
        }
        // The pins in id order (a bulk load usually comes sorted: no copy, no sort).
        let slots = order
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
            guard grouping.size[k] > 1 else { continue }
            if record[k] < 0 {
                var list: [Int32] = []
                list.reserveCapacity(Int(grouping.size[k]))
                record[k] = newGroup(list)
            }
            members[Int(record[k])].append(s)
        }
        for k in record.indices where record[k] >= 0 {
            place(record[k], centre: grouping.centre(k) { i in pins.position(order[i]) })
        }
    }

    // MARK: - Group records

    /// A group record for two pins or more (a pin alone has none).
    private mutating func newGroup<C: Collection>(_ slots: C) -> Int32 where C.Element == Int32 {
        if let g = freeGroups.popLast() {
            // A freed record's small arrays are reused: a pair formed and broken again and again
            // (a pin moved on and off another's coordinate) allocates nothing.
            members[Int(g)].append(contentsOf: slots)
            return g
        }
        let g = Int32(members.count)
        members.append(Array(slots))
        centreLon.append(.nan); centreLat.append(.nan)
        ringClass.append(-1)
        groupVisited.append(0)
        frames.append(RingFrame(centerLon: 0, centerLat: 0, n: 2))
        drawn.append([])
        drawnStamp.append(0)
        return g
    }

    /// The largest group whose freed record keeps its arrays' memory for the next group.
    static let keptGroupSize = 16

    /// Frees a group record; its members are left alone.
    private mutating func freeGroup(_ g: Int32) {
        stacks.reformed(g)
        for s in members[Int(g)] { membership.remove(s) }
        setClass(g, -1)
        grid.remove(g)
        // A small group's arrays are kept for the next group; a big one's memory is given back.
        members[Int(g)].removeAll(keepingCapacity: members[Int(g)].capacity <= SpreadLayout.keptGroupSize)
        drawn[Int(g)].removeAll(keepingCapacity: drawn[Int(g)].capacity <= 2 * SpreadLayout.keptGroupSize)
        centreLon[Int(g)] = .nan; centreLat[Int(g)] = .nan
        freeGroups.append(g)
    }

    /// Moves a group to size class k (-1: none), keeping the counts per class.
    private mutating func setClass(_ g: Int32, _ k: Int8) {
        let old = ringClass[Int(g)]
        guard old != k else { return }
        if old >= 0 {
            ringsInClass[Int(old)] -= 1
            if ringsInClass[Int(old)] == 0 { spiral?.classEmptied(Int(old)) }
        }
        if k >= 0 { ringsInClass[Int(k)] += 1 }
        ringClass[Int(g)] = k
    }

    /// Sets a group's ring or spiral after its members changed: the ranks from `rankedFrom` on (the
    /// ones before it did not move), its centre and ring terms, and its extent in the ring grid.
    /// The members' drawn positions are forgotten and follow when asked for: re-forming a ring of n
    /// costs O(n) writes.
    private mutating func place(_ g: Int32, centre c: (lon: Double, lat: Double), rankedFrom first: Int = 0) {
        let n = members[Int(g)].count
        stacks.reformed(g)
        for i in first..<n { membership.set(members[Int(g)][i], group: g, rank: Int32(i)) }
        drawn[Int(g)].removeAll(keepingCapacity: true)
        centreLon[Int(g)] = c.lon; centreLat[Int(g)] = c.lat
        let k = SpreadLayout.sizeClass(n)
        setClass(g, k)
        let point = GeoBox(minLon: c.lon, minLat: c.lat, maxLon: c.lon, maxLat: c.lat)
        if spiral != nil {
            drawnStamp[Int(g)] = spiral!.stamp
            spiral!.noteGroup(count: n, sizeClass: Int(k))
            grid.file(g, extent: point)
        } else {
            // Beyond Web Mercator's edge the ring is centred where it reaches the edge (RingFrame).
            let rc = RingFrame.centreOnTheMap(lon: c.lon, lat: c.lat, n: n)
            frames[Int(g)] = RingFrame(centerLon: rc.lon, centerLat: rc.lat, n: n)
            // Every pin of the ring is 3n/2 m from its centre; the margin covers the rounding of
            // the destination formula. The extent holds the group's centre too (its stack item).
            var extent = SpreadLayout.grownBox(GeoBox(minLon: rc.lon, minLat: rc.lat, maxLon: rc.lon, maxLat: rc.lat),
                                               meters: SpreadRule.radius(n) * (1 + 1e-9) + 1e-6)
            extent.minLat = min(extent.minLat, c.lat); extent.maxLat = max(extent.maxLat, c.lat)
            grid.file(g, extent: extent)
        }
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
