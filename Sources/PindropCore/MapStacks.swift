/// Stacks that open on demand (behaviour 22, docs/spreading.md): what the map does with the
/// spreading room's collapsed groups. The room keeps which group is open and which are kept open;
/// the map tells it the selected, edited and held pins, leaves collapsed pins out of frames and
/// hit tests, draws each collapsed group as one stack item beside the clusters, classifies a
/// touch on one (`downOnStack`), and reports STACK_OPENED and STACK_CLOSED.
extension Map {
    // MARK: - Open and close

    /// Opens the stack a key names (a key from `frameClusters` with the STACK flag): it is drawn
    /// spread, every pin touchable, and the stack open before it closes (STACK_CLOSED, then
    /// STACK_OPENED). Opening the open stack again changes nothing. NOT_FOUND for a key that names
    /// no stack now (unknown, or stale: the group's pins changed since), or when spread_on_tap is off.
    public func openStack(key: UInt64, time: Double) throws(PindropError) {
        try change(at: time, check: { () throws(PindropError) -> (key: UInt64, g: Int32, also: ArraySlice<Int32>, at: LonLat) in
            guard spread.stacks.isOn else {
                throw PindropError(.notFound, "no stack with key \(key): spread_on_tap is off, so no group is collapsed")
            }
            if BadgeMerger.isMerged(key) {  // stacks whose badges merged open as one
                guard StackState.isStackKey(key) else { throw staleStack(key) }
                return try mergedOpening(key)
            }
            guard let g = spread.group(forKey: key) else { throw staleStack(key) }
            return (key, g, [], spread.centre(g))
        }, apply: { openGroups($0.key, $0.g, also: $0.also, at: $0.at) })
    }

    /// What opening a merged stack badge opens: its groups and the badge's centre.
    private func mergedOpening(_ key: UInt64) throws(PindropError) -> (key: UInt64, g: Int32, also: ArraySlice<Int32>, at: LonLat) {
        let groups = try mergedGroups(key)
        guard let b = badges.last.first(where: { $0.key == key }) else { throw staleStack(key) }
        return (key, groups[groups.startIndex], groups.dropFirst(), LonLat(lon: b.lon, lat: b.lat))
    }

    /// Closes the open stack (STACK_CLOSED); nothing happens when none is open.
    public func closeStack(time: Double) throws(PindropError) {
        try change(at: time, check: {}, apply: { closeOpenStack() })
    }

    /// The key the open stack's STACK_OPENED reported, or nil when no stack is open.
    public var openStackKey: UInt64? { spread.stacks.group >= 0 ? spread.stacks.key : nil }

    private func openGroups(_ key: UInt64, _ g: Int32, also: ArraySlice<Int32>, at: LonLat) {
        guard spread.stacks.group < 0 || spread.stacks.key != key else { return }
        closeOpenStack()
        let opened = spread.open(g, also: also, key: key, at: at)
        emit(.stackOpened(key: opened.key, at: opened.at))
    }

    func closeOpenStack() {
        guard let closed = spread.close() else { return }
        emit(.stackClosed(key: closed.key, at: closed.at))
    }

    /// A tap on a stack (the gesture room's `openStack`): the key was current at the press; a
    /// stack re-formed since is not opened.
    func openStackByTap(_ key: UInt64) {
        if BadgeMerger.isMerged(key) {
            guard let o = try? mergedOpening(key) else { return }
            return openGroups(o.key, o.g, also: o.also, at: o.at)
        }
        guard let g = spread.group(forKey: key) else { return }
        openGroups(key, g, also: [], at: spread.centre(g))
    }

    /// After a pin change: the open stack's group dissolved (its pins left it), so it closed.
    func reportLostStack() {
        guard spread.stacks.lost else { return }
        closeOpenStack()
    }

    // MARK: - What is drawn collapsed

    /// Tells the spreading room which pins keep their groups open: the selected, the edited and
    /// the held pin. A change of those groups changes what is drawn (the hit grid is stale).
    /// Called by `upToDate` (Map.swift) before a query reads what is drawn.
    func syncStacks() {
        guard spread.stacks.isOn else { return }
        keptScratch.removeAll(keepingCapacity: true)
        appendSelectedSlots(into: &keptScratch)
        if editingID != noID, let s = pins.slot(of: editingID) { keptScratch.append(s) }
        if let s = gesture.fingerSlot { keptScratch.append(s) }
        if gesture.heldSlot >= 0 { keptScratch.append(gesture.heldSlot) }  // held by any means
        if spread.keepOpen(keptScratch) { changed() }
    }

    /// The level a clustered view draws, if the view is clustered.
    private var clusterLevel: Int? { clusterRoom?.level(for: view) }

    /// The group of `slot` when it is drawn as (part of) a stack item in this view: collapsed and,
    /// in a clustered view, with no pin inside a cluster (a cluster that holds its pins is drawn
    /// instead, and pins of it outside the cluster are drawn as pins). Call `beginStackPass` first.
    @inline(__always)
    private func stackGroup(of slot: Int32, level z: Int?) -> Int32? {
        guard let g = spread.collapsedGroup(of: slot) else { return nil }
        guard let z else { return g }
        return standsAlone(g, level: z) ? g : nil
    }

    /// Whether no pin of group g is inside a cluster at level z (judged once per pass).
    private func standsAlone(_ g: Int32, level z: Int) -> Bool {
        let i = Int(g)
        if spread.stacks.seen[i] == spread.stacks.pass { return spread.stacks.verdict[i] }
        var alone = true
        if let room = clusterRoom {
            for m in spread.members[i] where room.isClustered(m, level: z) { alone = false; break }
        }
        spread.stacks.seen[i] = spread.stacks.pass
        spread.stacks.verdict[i] = alone
        return alone
    }

    private func beginStackPass() {
        _ = spread.stacks.nextPass(groups: spread.members.count)
    }

    /// Takes the pins of stack items out of a frame's or a hit test's candidates.
    func removeCollapsed(_ slots: inout [Int32]) {
        guard spread.collapses else { return }
        let z = clusterLevel
        beginStackPass()
        var w = 0
        for i in slots.indices {
            let s = slots[i]
            if stackGroup(of: s, level: z) == nil { slots[w] = s; w += 1 }
        }
        slots.removeLast(slots.count - w)
    }

    /// Appends to `clusterViews` the stack items drawn inside the viewport grown by `margin`:
    /// in a clustered view, from its unclustered pins (`singles`); else from the ring grid.
    func appendStacks(box: GeoBox, margin r: Double, singles: [Int32]?) {
        guard spread.collapses else { return }
        let w = view.width, h = view.height
        var groups = stackGroups
        stackGroups = []
        groups.removeAll(keepingCapacity: true)
        defer { stackGroups = groups }
        beginStackPass()
        if let singles, let z = clusterLevel {
            // A stack's pins are single items of the level when no cluster holds them: listed once.
            for s in singles {
                guard let g = stackGroup(of: s, level: z) else { continue }
                if spread.stacks.listed[Int(g)] == spread.stacks.pass { continue }
                spread.stacks.listed[Int(g)] = spread.stacks.pass
                groups.append(g)
            }
        } else {
            spread.collapsedGroups(box, into: &groups)
        }
        for g in groups {
            let c = spread.centre(g)
            guard let p = view.toScreen(c.lon, c.lat), p.x >= -r, p.x <= w + r, p.y >= -r, p.y <= h + r else { continue }
            clusterViews.append(spread.stackView(g, at: p))
        }
    }

    /// The stack item drawn nearest to (x, y) within hit_radius, and its squared distance.
    private func stackHit(_ x: Double, _ y: Double) -> (view: ClusterView, d2: Double)? {
        guard spread.collapses else { return nil }
        let r = options.hitRadius
        guard let box = view.discBox(x: x, y: y, r: r) else { return nil }
        upToDate()
        let z = clusterLevel
        var groups = stackGroups
        stackGroups = []
        groups.removeAll(keepingCapacity: true)
        defer { stackGroups = groups }
        beginStackPass()
        spread.collapsedGroups(box, into: &groups)
        var best: (view: ClusterView, d2: Double)?
        for g in groups {
            if let z, !standsAlone(g, level: z) { continue }
            let c = spread.centre(g)
            guard let p = view.toScreen(c.lon, c.lat) else { continue }
            let d2 = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
            guard d2 <= r * r, best == nil || d2 < best!.d2 else { continue }
            best = (spread.stackView(g, at: p), d2)
        }
        return best
    }

    /// A DOWN on the nearer of a cluster and a stack item within hit_radius and strictly nearer
    /// than `limit` (squared points: the nearest pin's), or nil.
    func offPinsTarget(pointer: Int32, x: Double, y: Double, nearerThan limit: Double) -> GestureMachine.Input? {
        if mergesBadges {  // what is drawn: badges within hit_radius merged (MapBadges.swift)
            guard let b = badgeHit(x, y), b.d2 < limit else { return nil }
            return b.view.flags & ClusterFlags.stack.rawValue != 0
                ? .downOnStack(pointer: pointer, stack: b.view, x: x, y: y)
                : .downOnCluster(pointer: pointer, cluster: b.view, x: x, y: y)
        }
        var cluster: (view: ClusterView, d2: Double)?
        if let room = clusterRoom {
            cluster = room.hit(view, x: x, y: y, radius: options.hitRadius)
        }
        if let c = cluster, c.d2 >= limit { cluster = nil }
        if let s = stackHit(x, y), s.d2 < limit, cluster == nil || s.d2 < cluster!.d2 {
            return .downOnStack(pointer: pointer, stack: s.view, x: x, y: y)
        }
        if let c = cluster { return .downOnCluster(pointer: pointer, cluster: c.view, x: x, y: y) }
        return nil
    }

    // MARK: - Stacks by key

    /// The ids of a stack's pins, ascending; nil for a cluster's key; NOT_FOUND for a stack key
    /// that names no stack now.
    func stackMembers(_ key: UInt64) throws(PindropError) -> [Int64]? {
        try stackSlots(key)?.map { pins.id($0) }
    }

    /// The slots of a stack's pins, ascending by id; nil for a cluster's key; NOT_FOUND for a
    /// stack key that names no stack now.
    func stackSlots(_ key: UInt64) throws(PindropError) -> [Int32]? {
        if BadgeMerger.isMerged(key) { return try mergedSlots(key) }  // a merged badge's pins
        guard StackState.isStackKey(key) else { return nil }
        guard let g = spread.group(forKey: key) else { throw staleStack(key) }
        return spread.members[Int(g)]
    }

    private func staleStack(_ key: UInt64) -> PindropError {
        PindropError(.notFound, "no stack with key \(key) (a stack's key goes stale when its pins change)")
    }

    /// A stack's expansion zoom: no zoom separates pins the spreading rule groups (they share a
    /// spot, or lie within spread_tolerance_m of its first pin), so it is the view's zoom (the Web
    /// Mercator zoom of a host projection at the viewport centre; cluster_max_zoom when the view
    /// cannot say; within [0, 30]): a host that zooms to it stays where it is, and opens the stack instead.
    func stackExpansionZoom(_ key: UInt64) throws(PindropError) -> Double? {
        if BadgeMerger.isMerged(key), let z = try mergedExpansionZoom(key) { return z }
        guard StackState.isStackKey(key) else { return nil }
        guard BadgeMerger.isMerged(key) || spread.group(forKey: key) != nil else { throw staleStack(key) }
        guard let z = Clusterer.zoom(of: view) else { return options.clusterMaxZoom }
        return min(30, max(0, z))  // a host projection's equivalent zoom, within the camera's range
    }
}
