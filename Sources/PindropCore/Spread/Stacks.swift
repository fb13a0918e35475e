/// Stacks that open on demand (behaviour 22, docs/spreading.md "Stacks that open on demand"):
/// with `spread_on_tap`, every group of two or more pins is drawn collapsed, one stack item at
/// its centre, except the open stack (at most one) and the groups of the selected, edited and
/// held pins, which are drawn spread as before.
///
/// The spreading room keeps this state beside its groups: which group is open (followed through
/// re-forms by a member, the witness, since group records are freed and made anew), the groups
/// kept open by the pins the map names, and a generation per group record so that a stack's key
/// names one membership and goes stale when it changes.
struct StackState {
    /// `spread_on_tap` and spreading on.
    var isOn = false
    /// Per group record: bumped each time the record is formed, re-formed or freed.
    var formed: [UInt32] = []
    /// The open stack: a member (the witness), its group (-1: none open), and the key and centre
    /// its STACK_OPENED reported (STACK_CLOSED repeats them).
    var witness: Int32 = -1
    var group: Int32 = -1
    var key: UInt64 = 0
    var centre = LonLat(lon: 0, lat: 0)
    /// The open stack vanished in a change (its group dissolved): the map reports STACK_CLOSED.
    var lost = false
    /// The other groups of an open merged stack (badges within hit_radius, MapBadges.swift): a
    /// member of each (followed as the witness is) and their groups now.
    var alsoWitnesses: [Int32] = []
    var alsoGroups: [Int32] = []
    /// The slots the map keeps open (selected, edited, held) and their groups now.
    var keptSlots: [Int32] = []
    var keptGroups: [Int32] = []
    /// The other members of the open group while one of them changes.
    var others: [Int32] = []
    /// Per group: the pass that last judged it and its verdict (a query meets a group once).
    var seen: [UInt32] = []
    var verdict: [Bool] = []
    /// Per group: the pass that last listed it as a stack item.
    var listed: [UInt32] = []
    var pass: UInt32 = 0

    init() {
        keptSlots.reserveCapacity(4)
        keptGroups.reserveCapacity(4)
    }

    /// A stack key's top five bits are all set (31 << 59); below them the group record's
    /// generation (27 bits) and its number (32 bits). A cluster key's top five bits hold its
    /// level + 1, at most 31 levels and never 31 (0 while keys were (level + 1) << 32 | slot), so
    /// the two never collide.
    static let keyTag: UInt64 = 31 << 59
    static let generationMask: UInt32 = 1 << 27 - 1

    func key(_ g: Int32) -> UInt64 {
        StackState.keyTag | UInt64(formed[Int(g)] & StackState.generationMask) << 32 | UInt64(UInt32(bitPattern: g))
    }

    static func isStackKey(_ key: UInt64) -> Bool { key >> 59 == 31 }

    /// A group record was formed, re-formed or freed: its old keys go stale.
    mutating func reformed(_ g: Int32) {
        while formed.count <= Int(g) { formed.append(0) }
        formed[Int(g)] &+= 1
    }

    /// A fresh pass for `seen`, grown to `groups` records.
    mutating func nextPass(groups: Int) -> UInt32 {
        if seen.count < groups {
            seen.append(contentsOf: repeatElement(0, count: groups - seen.count))
            verdict.append(contentsOf: repeatElement(false, count: groups - verdict.count))
            listed.append(contentsOf: repeatElement(0, count: groups - listed.count))
        }
        pass &+= 1
        if pass == 0 {
            for i in seen.indices { seen[i] = 0; listed[i] = 0 }
            pass = 1
        }
        return pass
    }

    /// Calls body with each group laid out together with g: the open stack and the groups merged
    /// into it, or g alone.
    @inline(__always)
    func forEachInUnit(of g: Int32, _ body: (Int32) -> Void) {
        guard group >= 0, g == group || alsoGroups.contains(g) else { return body(g) }
        body(group)
        for (i, a) in alsoGroups.enumerated() where a != group && !alsoGroups[0..<i].contains(a) { body(a) }
    }
}

extension SpreadLayout {
    /// Whether groups collapse at all.
    @inline(__always) var collapses: Bool { stacks.isOn && ringCount > 0 }

    /// The group of `slot` when it is drawn collapsed (not the open stack, not kept open), else nil.
    @inline(__always)
    func collapsedGroup(of slot: Int32) -> Int32? {
        guard stacks.isOn, let g = membership.group(slot) else { return nil }
        return isCollapsed(g) ? g : nil
    }

    @inline(__always)
    func isCollapsed(_ g: Int32) -> Bool {
        g != stacks.group && !stacks.keptGroups.contains(g) && !stacks.alsoGroups.contains(g)
    }

    /// Lays out the groups drawn with g (`StackState.unit`) in one `FitLayout` around their
    /// centre (the members' count-weighted mean screen point), filling their remembered drawn
    /// positions (NaN where the view cannot place them).
    mutating func layOutFitted(_ g: Int32) {
        var n = 0, sx = 0.0, sy = 0.0, w = 0.0
        let st = stacks  // read while the closures write the layout's arrays
        st.forEachInUnit(of: g) { u in
            let k = members[Int(u)].count
            n += k
            if let p = fitView.toScreen(centreLon[Int(u)], centreLat[Int(u)]) {
                sx += Double(k) * p.x; sy += Double(k) * p.y; w += Double(k)
            }
        }
        var out = fitScratch, points = fitPoints
        fitScratch = []; fitPoints = []
        defer { fitScratch = out; fitPoints = points }
        if w > 0 {
            FitLayout.layout(n: n, preferred: fitSpacing, x: sx / w, y: sy / w, width: fitView.width,
                             height: fitView.height, into: &out, scratch: &points)
        } else {
            out.removeAll(keepingCapacity: true)
        }
        var k = 0
        let stamp = fitStamp, view = fitView
        var drawn = self.drawn
        self.drawn = []
        defer { self.drawn = drawn }
        st.forEachInUnit(of: g) { u in
            let i = Int(u), m = members[i].count
            drawn[i].removeAll(keepingCapacity: true)
            for _ in 0..<m {
                var p: (lon: Double, lat: Double)? = nil
                if 2 * k + 1 < out.count, let q = view.toLonLatUnwrapped(out[2 * k], out[2 * k + 1]) {
                    let lon = q.lon - 360 * ((q.lon + 180) / 360).rounded(.down)
                    p = (lon, q.lat)
                }
                drawn[i].append(p?.lon ?? .nan); drawn[i].append(p?.lat ?? .nan)
                k += 1
            }
            drawnStamp[i] = stamp
        }
    }

    /// The group a stack key names, if the key is current (its record holds two pins or more and
    /// has not been re-formed since).
    func group(forKey key: UInt64) -> Int32? {
        guard stacks.isOn, StackState.isStackKey(key) else { return nil }
        let g = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
        guard g >= 0, Int(g) < members.count, members[Int(g)].count >= 2, Int(g) < stacks.formed.count,
              stacks.key(g) == key else { return nil }
        return g
    }

    func centre(_ g: Int32) -> LonLat { LonLat(lon: centreLon[Int(g)], lat: centreLat[Int(g)]) }

    /// The stack item of group g as the host draws it, at screen point p.
    func stackView(_ g: Int32, at p: (x: Double, y: Double)) -> ClusterView {
        ClusterView(key: stacks.key(g), x: p.x, y: p.y, lon: centreLon[Int(g)], lat: centreLat[Int(g)],
                    count: UInt32(clamping: members[Int(g)].count), flags: ClusterFlags.stack.rawValue)
    }

    /// Appends the collapsed groups whose centre lies in the box (one query of the ring grid).
    mutating func collapsedGroups(_ box: GeoBox, into out: inout [Int32]) {
        guard collapses else { return }
        let start = out.count
        if let spiral {
            grid.query(spiral.grownBox(box, points: spiral.classExtent.max() ?? 0), into: &out)
        } else {
            grid.query(box, into: &out)
        }
        var w = start
        for i in start..<out.count {
            let g = out[i]
            guard isCollapsed(g) else { continue }
            let x = centreLon[Int(g)], y = centreLat[Int(g)]
            var inside = false
            box.split { b in
                if x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat { inside = true }
            }
            if inside { out[w] = g; w += 1 }
        }
        out.removeLast(out.count - w)
    }

    // MARK: - The open stack and the kept ones

    /// The map names the pins whose groups stay open (selected, edited, held); returns whether
    /// the groups kept open changed.
    mutating func keepOpen(_ slots: [Int32]) -> Bool {
        stacks.keptSlots.removeAll(keepingCapacity: true)
        stacks.keptSlots.append(contentsOf: slots)
        return refreshKept()
    }

    /// Whether the groups kept open changed since they were last read.
    @discardableResult
    mutating func refreshKept() -> Bool {
        var changed = false
        var n = 0
        for s in stacks.keptSlots {
            guard let g = membership.group(s), !stacks.keptGroups[0..<n].contains(g) else { continue }
            if n < stacks.keptGroups.count {
                if stacks.keptGroups[n] != g { stacks.keptGroups[n] = g; changed = true }
            } else {
                stacks.keptGroups.append(g); changed = true
            }
            n += 1
        }
        if stacks.keptGroups.count != n { stacks.keptGroups.removeLast(stacks.keptGroups.count - n); changed = true }
        if changed { fitMoved() }
        return changed
    }

    /// Makes group g the open stack; returns its key and centre.
    mutating func open(_ g: Int32) -> (key: UInt64, at: LonLat) {
        open(g, also: [], key: stacks.key(g), at: centre(g))
    }

    /// Opens group g with the groups merged into its badge (`also`), as one stack: their pins are
    /// laid out together; STACK_OPENED reports `key` and `at` (the merged badge's).
    mutating func open(_ g: Int32, also: ArraySlice<Int32>, key: UInt64, at: LonLat) -> (key: UInt64, at: LonLat) {
        stacks.group = g
        stacks.witness = members[Int(g)][0]
        stacks.alsoGroups.removeAll(keepingCapacity: true)
        stacks.alsoWitnesses.removeAll(keepingCapacity: true)
        for a in also where a != g && !stacks.alsoGroups.contains(a) {
            stacks.alsoGroups.append(a)
            stacks.alsoWitnesses.append(members[Int(a)][0])
        }
        stacks.key = key
        stacks.centre = at
        stacks.lost = false
        fitMoved()
        return (stacks.key, stacks.centre)
    }

    /// Closes the open stack; returns the key and centre its STACK_OPENED reported (nil: none was open).
    mutating func close() -> (key: UInt64, at: LonLat)? {
        guard stacks.group >= 0 || stacks.lost else { return nil }
        stacks.group = -1
        stacks.witness = -1
        stacks.alsoGroups.removeAll(keepingCapacity: true)
        stacks.alsoWitnesses.removeAll(keepingCapacity: true)
        stacks.lost = false
        fitMoved()
        return (stacks.key, stacks.centre)
    }

    /// Before a pin changes: if it is in the open stack, the other members are noted, so that the
    /// stack stays open around them (a pin dragged out leaves; the rest stay open). -1: a bulk
    /// add, whose pins are new.
    mutating func stackWillChange(_ slot: Int32) {
        stacks.others.removeAll(keepingCapacity: true)
        // A group merged into the open stack is followed by another of its members when its
        // witness changes (the witness may leave for another group).
        if slot >= 0, let g = membership.group(slot) {
            for i in stacks.alsoWitnesses.indices where stacks.alsoWitnesses[i] == slot {
                stacks.alsoWitnesses[i] = members[Int(g)].first { $0 != slot } ?? slot
            }
        }
        guard stacks.group >= 0, slot >= 0, membership.group(slot) == stacks.group else { return }
        for m in members[Int(stacks.group)] where m != slot { stacks.others.append(m) }
    }

    /// After a change: the open stack is the group of its witness (a noted member still in a
    /// group, if the witness changed); if none is left in a group, the stack is lost.
    mutating func stackDidChange() {
        if stacks.group >= 0 {
            if !stacks.others.isEmpty {
                stacks.witness = stacks.others.first { membership.group($0) != nil } ?? -1
            }
            let g = stacks.witness >= 0 ? membership.group(stacks.witness) : nil
            if let g {
                stacks.group = g
            } else {
                stacks.group = -1
                stacks.witness = -1
                stacks.lost = true
            }
        }
        stacks.others.removeAll(keepingCapacity: true)
        if stacks.isOn {
            refreshKept()
            // The groups merged into the open stack, followed by a member each (one that left its
            // group drops out); all of them close with the stack.
            if stacks.group >= 0 {
                var w = 0
                stacks.alsoGroups.removeAll(keepingCapacity: true)
                for s in stacks.alsoWitnesses {
                    guard let g = membership.group(s), g != stacks.group, !stacks.alsoGroups.contains(g) else { continue }
                    stacks.alsoWitnesses[w] = s; w += 1
                    stacks.alsoGroups.append(g)
                }
                stacks.alsoWitnesses.removeLast(stacks.alsoWitnesses.count - w)
            } else {
                stacks.alsoGroups.removeAll(keepingCapacity: true)
                stacks.alsoWitnesses.removeAll(keepingCapacity: true)
            }
            fitMoved()
        }
    }
}
