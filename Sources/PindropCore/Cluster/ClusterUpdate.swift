/// The incremental update of one cluster level (docs/clusters.md): after some items of level
/// z + 1 changed (`ClusterLevels.Change`), re-decides exactly the items whose seed may differ
/// now, in key order, and hands back the items of level z that changed in turn.
///
/// A pass has three phases (four with `minPoints` above 2):
///
/// 1. `takeChanges`: what each changed item did to the sums of the item that held it is settled,
///    and who may decide differently is marked (the changed items, and the members of a changed
///    seed: they were absorbed for where it was);
/// 2. `redecide`: the marked items come out of a heap by key; when one comes out, every item
///    before it is final, so the earliest seed near it is its item's seed (or it is a seed);
/// 3. `keepSmallGroupsApart` (`minPoints` > 2 only): a seed's group of fewer pins than
///    `minPoints` is kept as one item per member, a larger one as one item;
/// 4. `settleTouched`: every item of level z that a member joined or left is dissolved when it
///    has no members left, or placed at its members' mean, and reported to the level below.
///
/// The group of a seed is the items of level z + 1 it absorbed (the items whose item of level z
/// names it as seed). Normally that is one item of level z; with `minPoints` above 2, a group of
/// too few pins is kept apart: the seed keeps its item and every other member has an item of its
/// own (one pin, the member's order key) that names the group's seed as its seed but is not one
/// (its `seedAt` is not a number, so no search finds it).
///
/// The heap and the sets of a pass are kept between passes, so that a pass allocates nothing
/// once they have grown to what the passes need.
final class ClusterUpdate {
    /// The radius in points (`ClusterLevels.radius`).
    let radius: Double
    let byCategory: Bool
    /// The fewest pins a cluster may hold (`ClusterLevels.minPoints`).
    let minPoints: Int
    /// `minPoints` > 2: a group may be kept apart, one item per member.
    fileprivate let keepsApart: Bool
    let summaries: ClusterSummaries

    /// The items of level z + 1 to re-decide, by key.
    fileprivate var heap = KeyHeap()
    /// The items of level z that the pass changed, in the order it first touched them.
    fileprivate var touched = SlotSet()
    /// The sums of each touched item when the pass first touched it (by its place in `touched`).
    fileprivate var sumsBefore: [(x: Int64, y: Int64, n: UInt32)] = []
    /// Items of level z + 1 that became seeds or moved in this pass: the grid of level z does
    /// not find them through the items they seed yet (`earliestSeed`).
    fileprivate var newSeeds = SlotSet()
    /// `newSeeds` by their cell of level z's grid, once there are more than a few.
    fileprivate var newSeedsByCell: [UInt64: [UInt32]] = [:]
    /// The seeds whose groups `keepSmallGroupsApart` has settled in this pass, and the members of
    /// the group it settles.
    fileprivate var groupsSettled = SlotSet()
    fileprivate var groupMembers: [UInt32] = []

    init(radius: Double, byCategory: Bool, minPoints: Int, summaries: ClusterSummaries) {
        self.radius = radius
        self.byCategory = byCategory
        self.minPoints = minPoints
        keepsApart = minPoints > 2
        self.summaries = summaries
    }

    /// Re-decides level z of `levels` after the items of level z + 1 in `changes` changed;
    /// appends the items of level z that changed in turn to `out` (when a level below needs them).
    func pass(_ z: Int, of levels: [ClusterLevel], _ changes: [ClusterLevels.Change],
              into out: inout [ClusterLevels.Change]) {
        // (The heap is empty: the previous pass emptied it.)
        touched.removeAll()
        summaries.beginPass()
        newSeeds.removeAll()
        if !newSeedsByCell.isEmpty { newSeedsByCell.removeAll(keepingCapacity: true) }
        let r = ClusterLevels.radius(radius, level: z)
        let pass = LevelPass(z: z, level: levels[z], above: levels[z + 1], r2: r * r, work: self)
        pass.takeChanges(changes)
        pass.redecide()
        if keepsApart { pass.keepSmallGroupsApart() }
        pass.settleTouched(into: &out)
    }
}

/// One pass of `ClusterUpdate` over level z: the two levels it reads and writes, held for the
/// pass (as a value's constants, read without the retain and release that a class's properties
/// cost in every helper), and the work sets it fills, which the `ClusterUpdate` keeps.
private struct LevelPass {
    let z: Int
    let level: ClusterLevel
    /// Level z + 1.
    let above: ClusterLevel
    /// The squared radius of level z.
    let r2: Double
    /// Where the heap and the work sets are kept between passes.
    let work: ClusterUpdate
    let summaries: ClusterSummaries
    let byCategory: Bool
    let minPoints: Int
    let keepsApart: Bool

    init(z: Int, level: ClusterLevel, above: ClusterLevel, r2: Double, work: ClusterUpdate) {
        self.z = z; self.level = level; self.above = above; self.r2 = r2; self.work = work
        summaries = work.summaries; byCategory = work.byCategory; minPoints = work.minPoints
        keepsApart = work.keepsApart
    }

    // MARK: - Phase 1: the changes

    /// Settles what each changed item did to the sums of the item that held it, and marks who
    /// may decide differently now.
    func takeChanges(_ changes: [ClusterLevels.Change]) {
        for c in changes {
            let p = c.parent, si = Int(c.slot)
            if p < ClusterLevel.excluded {
                touch(p)
                let i = Int(p)
                level.sums[i].sx &+= c.dx; level.sums[i].sy &+= c.dy
                level.sums[i].count = UInt32(truncatingIfNeeded: Int64(level.sums[i].count) + c.dn)
                summaries.replace(z, p, old: c.was, new: c.now, flags: c.flags, isSeed: level.sums[i].seed == c.slot)
                // In the same place, with the same weight and the same parent: only what it
                // holds changed (its values or categories, or pins that left and came at the
                // same point), which decides nothing.
                let inPlace = c.dn == 0 && above.isAlive(c.slot) && above.items[si].parent == p
                    && above.items[si].x == c.x && above.items[si].y == c.y
                if inPlace { continue }
                if level.sums[i].seed == c.slot && !seedChanged(c) { continue }
            }
            if above.isAlive(c.slot) { work.heap.push(c.slot, above.items[si].key); addNewSeed(c.slot) }
        }
    }

    /// The seed of the item that held it changed (`c`): it moved, or it went (or its slot was
    /// emptied and filled again between two updates). Marks the members that may now choose
    /// another seed, and the items it may now take. Returns false when nothing is to be
    /// re-decided, the changed item included.
    func seedChanged(_ c: ClusterLevels.Change) -> Bool {
        let p = c.parent, i = Int(p), si = Int(c.slot)
        guard above.isAlive(c.slot) && above.items[si].parent == p else {
            level.seedAt[i] = .gone
            pushGroup(of: p, seed: c.slot, near: c.x, c.y)
            return true
        }
        level.seedAt[i] = SeedPoint(x: above.items[si].x, y: above.items[si].y)
        // The only item of its level: alone, it stays the seed and nothing is re-decided; only
        // the sums change (the coarsest levels hold one item each).
        if above.alive == 1 { return false }
        pushAroundMovedSeed(of: p, from: c.x, c.y, to: above.items[si].x, above.items[si].y, key: above.items[si].key)
        return true
    }

    /// For the seed of item p, moved from (x0, y0) to (x1, y1): marks the members it no longer
    /// reaches, and the later items it now reaches that it would win (as `pushCapturable`).
    /// Members it still reaches keep it: it is still the earliest seed near them unless it is
    /// demoted, which re-decides them from its new point. One walk when walks around both points
    /// read the same cells, as they do after most small moves.
    func pushAroundMovedSeed(of p: UInt32, from x0: Double, _ y0: Double, to x1: Double, _ y1: Double,
                                     key: UInt64) {
        let seed = level.sums[Int(p)].seed
        let cat = byCategory ? category(seed) : 0
        @inline(__always) func visit(_ k: UInt32, left: Bool, captured: Bool) {
            let i = Int(k)
            let ix = above.items[i].x, iy = above.items[i].y
            let ex = ix - x1, ey = iy - y1
            let reaches = ex * ex + ey * ey <= r2
            let q = above.items[i].parent
            if isInGroup(q, item: p, seed: seed) {
                guard left && !reaches else { return }
                let dx = ix - x0, dy = iy - y0
                if dx * dx + dy * dy <= r2 { work.heap.push(k, above.items[i].key) }
            } else if captured && reaches {
                let kk = above.items[i].key
                if kk > key && (q >= ClusterLevel.excluded || seedKey(q) > key)
                    && (!byCategory || category(k) == cat) { work.heap.push(k, kk) }
            }
        }
        if above.grid.sameWalk(x0, y0, x1, y1) {
            above.forEachNear(x1, y1) { visit($0, left: true, captured: true) }
        } else {
            above.forEachNear(x0, y0) { visit($0, left: true, captured: false) }
            above.forEachNear(x1, y1) { visit($0, left: false, captured: true) }
        }
    }

    // MARK: - Phase 2: re-deciding in key order

    /// Re-decides the marked items in key order: when item j comes out, every item before it is
    /// final, so it joins the earliest seed near it or becomes a seed.
    func redecide() {
        var lastPopped = UInt64.max
        while let j = work.heap.popMin() {
            let ji = Int(j)
            // An item marked twice comes out twice in a row (keys are unique in a level).
            if above.items[ji].key == lastPopped { continue }
            lastPopped = above.items[ji].key
            let jx = above.items[ji].x, jy = above.items[ji].y, jk = above.items[ji].key
            let old = above.items[ji].parent
            let cat = byCategory ? category(j) : 0
            let best = earliestSeed(near: jx, jy, before: jk, held: old, category: cat)
            let wasSeed = above.isSeed(j, of: level)
            var target: UInt32
            if best == ClusterGrid.end {
                if wasSeed {
                    target = old
                } else {
                    target = allocate(seed: j, key: jk, at: jx, jy)
                    addNewSeed(j)
                    // A new seed may capture later items from later seeds (a seed that moved
                    // has marked those already, with the members it left: `pushAroundMovedSeed`).
                    pushCapturable(near: jx, jy, key: jk, category: cat)
                }
            } else {
                target = above.items[Int(best)].parent
                // A demoted seed's members must find new seeds.
                if wasSeed {
                    level.seedAt[Int(old)] = .gone
                    pushGroup(of: old, seed: j, near: jx, jy)
                }
                // A member kept apart in its own item that stays in its seed's group stays there.
                if keepsApart && old < ClusterLevel.excluded && level.sums[Int(old)].seed == best { continue }
            }
            if target != old { moveMember(j, from: old, to: target) }
        }
    }

    /// Item j of level z + 1 leaves item `old` of level z (if it was placed) and joins `target`.
    @inline(__always)
    func moveMember(_ j: UInt32, from old: UInt32, to target: UInt32) {
        let mine = above.contribution(Int(j))
        let summary = childSummary(j)
        if old < ClusterLevel.excluded {
            touch(old); level.add(mine, to: old, sign: -1); summaries.leave(z, old, summary, child: j)
        }
        touch(target); level.add(mine, to: target, sign: 1); summaries.join(z, target, summary, child: j)
        above.items[Int(j)].parent = target
    }

    /// Marks the items of level z + 1 within the radius of a seed at (x, y) with key `key` that
    /// it would win: later than it, and unplaced or held by a later seed.
    func pushCapturable(near x: Double, _ y: Double, key: UInt64, category cat: UInt32) {
        above.forEachNear(x, y) { k in
            let i = Int(k)
            let kk = above.items[i].key
            guard kk > key else { return }
            let p = above.items[i].parent
            guard p >= ClusterLevel.excluded || seedKey(p) > key else { return }
            let dx = above.items[i].x - x, dy = above.items[i].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            if byCategory && category(k) != cat { return }
            work.heap.push(k, kk)
        }
    }

    /// The seed (an item of level z + 1) with the smallest key below `before` within the radius
    /// of (x, y), or `ClusterGrid.end`. Seeds that kept their place are found through the items
    /// of level z they seed (a cluster lies within the radius of its seed, give or take the fixed
    /// point's rounding, so within twice the radius of (x, y) and that: a walk of level z's grid,
    /// `ClusterLevels.reach`); seeds that are new or moved in this pass are in
    /// `newSeeds`. `held` is the item of level z that holds the asker (or a non-slot): its seed,
    /// usually the answer, is tried first, so that the walk rejects most items by their key alone.
    func earliestSeed(near x: Double, _ y: Double, before: UInt64, held: UInt32,
                              category cat: UInt32) -> UInt32 {
        var best = ClusterGrid.end, bestKey = before
        if held < ClusterLevel.excluded && level.items[Int(held)].parent != ClusterLevel.dead {
            let h = Int(held), kk = level.items[h].key
            let dx = level.seedAt[h].x - x, dy = level.seedAt[h].y - y
            if kk < bestKey && dx * dx + dy * dy <= r2 { best = level.sums[h].seed; bestKey = kk }
        }
        // Only live items are in the grid; an item's key is its seed's.
        level.forEachNear(x, y, whileKeyBelow: { bestKey }) { p in
            let i = Int(p), kk = level.items[i].key
            // Not a number (a seed gone or demoted in this pass) fails the test.
            let dx = level.seedAt[i].x - x, dy = level.seedAt[i].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            if byCategory && summaries.category(z, p) != cat { return }
            best = level.sums[i].seed; bestKey = kk
        }
        @inline(__always) func consider(_ k: UInt32) {
            let i = Int(k)
            let kk = above.items[i].key
            guard kk < bestKey else { return }
            let dx = above.items[i].x - x, dy = above.items[i].y - y
            guard dx * dx + dy * dy <= r2, above.isSeed(k, of: level) else { return }
            if byCategory && category(k) != cat { return }
            best = k; bestKey = kk
        }
        if work.newSeeds.count <= SlotSet.small {
            for k in work.newSeeds.items { consider(k) }
        } else {
            let cx = level.grid.coordinate(x), cy = level.grid.coordinate(y)
            for dy: Int64 in -1...1 {
                for dx: Int64 in -1...1 {
                    if let list = work.newSeedsByCell[ClusterGrid.hash(cx &+ dx, cy &+ dy)] { for k in list { consider(k) } }
                }
            }
        }
        return best
    }

    /// Item k of level z + 1 is a new or moved seed (`newSeeds`).
    func addNewSeed(_ k: UInt32) {
        guard work.newSeeds.insert(k) else { return }
        if work.newSeeds.count <= SlotSet.small { return }
        if work.newSeeds.count == SlotSet.small + 1 {
            for e in work.newSeeds.items where e != k { work.newSeedsByCell[cellHash(e), default: []].append(e) }
        }
        work.newSeedsByCell[cellHash(k), default: []].append(k)
    }

    /// The hash of the cell of level z's grid that item k of level z + 1 lies in.
    @inline(__always)
    func cellHash(_ k: UInt32) -> UInt64 {
        let i = Int(k)
        return ClusterGrid.hash(level.grid.coordinate(above.items[i].x), level.grid.coordinate(above.items[i].y))
    }

    // MARK: - Phase 4: settling the touched items

    /// Settles the touched items of level z: dissolves those whose seed left, places the rest at
    /// their members' mean, and reports each change to the level below.
    func settleTouched(into out: inout [ClusterLevels.Change]) {
        for (t, p) in work.touched.items.enumerated() {
            let pi = Int(p)
            guard level.items[pi].parent != ClusterLevel.dead else { continue }
            let before = work.sumsBefore[t]
            // Seedless: every member has left (its sums are back to zero). An item kept apart
            // names a seed that is not its member: only its count tells.
            if keepsApart ? level.sums[pi].count == 0 : above.items[Int(level.sums[pi].seed)].parent != p {
                dissolve(p, before, into: &out)
                continue
            }
            let (summaryChanged, flags) = settleSummary(p)
            let isNew = before.n == 0
            if !isNew && level.sums[pi].count == before.n && level.sums[pi].sx == before.x && level.sums[pi].sy == before.y {
                if summaryChanged && z > 0 {
                    out.append(ClusterLevels.Change(slot: p, x: level.items[pi].x, y: level.items[pi].y,
                                                    parent: level.items[pi].parent,
                                                    was: summaries.was(p)!, now: summaries.item(z, p), flags: flags))
                }
                continue
            }
            if z > 0 { out.append(moved(p, before, summaryChanged: summaryChanged, flags: flags)) }
            let (nx, ny) = point(pi)
            level.place(p, at: nx, ny, placed: !isNew)
        }
    }

    /// Item p, whose members have all left (its sums are back to zero): out of the
    /// grid and the level, and out of its item below.
    func dissolve(_ p: UInt32, _ before: (x: Int64, y: Int64, n: UInt32), into out: inout [ClusterLevels.Change]) {
        let pi = Int(p)
        if before.n > 0 {
            level.grid.remove(p, x: level.items[pi].x, y: level.items[pi].y, &level.items)
            if z > 0 {
                out.append(ClusterLevels.Change(slot: p, x: level.items[pi].x, y: level.items[pi].y,
                                                parent: level.items[pi].parent,
                                                dx: -before.x, dy: -before.y, dn: -Int64(before.n),
                                                was: summaries.was(p) ?? summaries.item(z, p), flags: ClusterLevels.left))
            }
        }
        level.release(p)
        summaries.free(z, p)
    }

    /// Item p's summary settled from its members (`ClusterSummaries.settle`).
    @inline(__always)
    func settleSummary(_ p: UInt32) -> (changed: Bool, flags: UInt32) {
        summaries.settle(z, p, anchor: {
            // The seed's anchor; an item kept apart has its one member's.
            var anchorMember = level.sums[Int(p)].seed
            if above.items[Int(anchorMember)].parent != p { forEachChild(of: p) { anchorMember = $0 } }
            let a = childSummary(anchorMember)
            return (a.anchorX, a.anchorY)
        }, { visit in
            forEachChild(of: p) { c in visit(c, childSummary(c)) }
        })
    }

    /// The change to report for item p, alive before and after the pass, whose sums changed
    /// (an item new in the pass joins whole).
    func moved(_ p: UInt32, _ before: (x: Int64, y: Int64, n: UInt32), summaryChanged: Bool,
                       flags: UInt32) -> ClusterLevels.Change {
        let pi = Int(p)
        if before.n == 0 {
            let (nx, ny) = point(pi)
            return ClusterLevels.Change(slot: p, x: nx, y: ny, parent: ClusterLevel.unassigned)
        }
        var c = ClusterLevels.Change(slot: p, x: level.items[pi].x, y: level.items[pi].y, parent: level.items[pi].parent,
                                     dx: level.sums[pi].sx &- before.x, dy: level.sums[pi].sy &- before.y,
                                     dn: Int64(level.sums[pi].count) - Int64(before.n), flags: ClusterSummaries.same)
        if summaryChanged { c.was = summaries.was(p)!; c.now = summaries.item(z, p); c.flags = flags }
        return c
    }

    // MARK: - Helpers

    /// Notes that item p of level z is about to change in this pass (first time: its sums as
    /// they were).
    @inline(__always)
    func touch(_ p: UInt32) {
        guard work.touched.insert(p) else { return }
        let i = Int(p), t = work.touched.count - 1
        let sums = (level.sums[i].sx, level.sums[i].sy, level.sums[i].count)
        // Entries past `touched.count` are stale (kept to avoid clearing the array).
        if t < work.sumsBefore.count { work.sumsBefore[t] = sums } else { work.sumsBefore.append(sums) }
    }

    @inline(__always)
    func allocate(seed: UInt32, key: UInt64, at x: Double, _ y: Double) -> UInt32 {
        let slot = level.allocate(seed: seed, key: key, at: x, y)
        summaries.allocate(z, slot)
        return slot
    }

    /// The category of item k of level z + 1 (`byCategory`: an item's pins all share one).
    @inline(__always)
    func category(_ k: UInt32) -> UInt32 { summaries.category(z + 1, k, pins: above.isBase) }

    /// The summary of item k of level z + 1: for a pin, made from its attributes and point.
    @inline(__always)
    func childSummary(_ k: UInt32) -> ItemSummary {
        above.isBase ? summaries.pin(k, above.items[Int(k)].x, above.items[Int(k)].y) : summaries.item(z + 1, k)
    }

    /// Calls `body` with every item of level z + 1 that item p of level z is made of.
    @inline(__always)
    func forEachChild(of p: UInt32, _ body: (UInt32) -> Void) {
        let s = Int(level.sums[Int(p)].seed)
        above.forEachItem(heldBy: p, near: above.items[s].x, above.items[s].y, within: r2, body)
    }

    /// The point of item i of level z: its pins' mean, or for a single pin exactly the pin's
    /// point, which is where its only member (an item of one pin too) lies.
    @inline(__always)
    func point(_ i: Int) -> (Double, Double) {
        let n = level.sums[i].count
        if n == 1 {
            var only = level.sums[i].seed
            if keepsApart && above.items[Int(only)].parent != UInt32(i) { forEachChild(of: UInt32(i)) { only = $0 } }
            return (above.items[Int(only)].x, above.items[Int(only)].y)
        }
        return (ClusterLevels.mean(level.sums[i].sx, n), ClusterLevels.mean(level.sums[i].sy, n))
    }

    /// Whether an item of level z + 1 held by item q belongs to the group of `seed`, whose own
    /// item is p.
    @inline(__always)
    func isInGroup(_ q: UInt32, item p: UInt32, seed: UInt32) -> Bool {
        q == p || (keepsApart && q < ClusterLevel.excluded && level.sums[Int(q)].seed == seed)
    }

    /// The order key of the seed of item q of level z (an item kept apart has its member's).
    @inline(__always)
    func seedKey(_ q: UInt32) -> UInt64 {
        keepsApart ? above.items[Int(level.sums[Int(q)].seed)].key : level.items[Int(q)].key
    }

    /// Marks the members of the group of `seed` (its item p) near (x, y): the seed went or was
    /// demoted, so they must find seeds again.
    func pushGroup(of p: UInt32, seed: UInt32, near x: Double, _ y: Double) {
        guard keepsApart else {
            above.forEachItem(heldBy: p, near: x, y, within: r2) { work.heap.push($0, above.items[Int($0)].key) }
            return
        }
        above.forEachNear(x, y) { k in
            let i = Int(k)
            guard isInGroup(above.items[i].parent, item: p, seed: seed) else { return }
            let dx = above.items[i].x - x, dy = above.items[i].y - y
            if dx * dx + dy * dy <= r2 { work.heap.push(k, above.items[i].key) }
        }
    }

    // MARK: - Phase 3 (minPoints > 2): groups too small for a cluster

    /// Settles the group of every seed whose item was touched: fewer pins than `minPoints` (and
    /// more than one member), one item per member; otherwise one item for the whole group.
    func keepSmallGroupsApart() {
        work.groupsSettled.removeAll()
        var t = 0
        // (Settling a group touches more items: those are the group's own, settled already.)
        while t < work.touched.count {
            let p = work.touched.items[work.touched.items.startIndex + t]
            let before = work.sumsBefore[t]
            t += 1
            let pi = Int(p)
            guard level.items[pi].parent != ClusterLevel.dead, level.sums[pi].count > 0 else { continue }
            let seed = level.sums[pi].seed
            guard above.isSeed(seed, of: level) else { continue }
            // The seed's item held minPoints pins or more before the pass and still does: the
            // group was one item (a group kept apart leaves its seed alone in its item) and is one
            // now, every member in it. Nearly every item a move touches is such a cluster.
            if above.items[Int(seed)].parent == p && Int(before.n) >= minPoints && Int(level.sums[pi].count) >= minPoints {
                continue
            }
            guard work.groupsSettled.insert(seed) else { continue }
            settleGroup(of: seed)
        }
    }

    /// The group of `seed`: its members gathered, then moved into the seed's item or out into
    /// items of their own as its size requires.
    func settleGroup(of seed: UInt32) {
        let si = Int(seed), q = above.items[si].parent
        let x = above.items[si].x, y = above.items[si].y
        var pins: UInt32 = 0
        work.groupMembers.removeAll(keepingCapacity: true)
        above.forEachNear(x, y) { k in
            let i = Int(k), p = above.items[i].parent
            guard p < ClusterLevel.excluded, level.sums[Int(p)].seed == seed else { return }
            let dx = above.items[i].x - x, dy = above.items[i].y - y
            guard dx * dx + dy * dy <= r2 else { return }
            work.groupMembers.append(k)
            pins &+= above.weight(i)
        }
        // (A group of fewer pins than minPoints holds single pins only: a cluster of level
        // z + 1 holds minPoints pins or more.)
        let together = Int(pins) >= minPoints || work.groupMembers.count == 1
        for k in work.groupMembers {
            let i = Int(k), p = above.items[i].parent
            if together {
                if p != q { moveMember(k, from: p, to: q) }
            } else if k != seed && p == q {
                let own = allocate(seed: seed, key: above.items[i].key, at: above.items[i].x, above.items[i].y)
                level.seedAt[Int(own)] = .gone
                moveMember(k, from: q, to: own)
            }
        }
    }
}

/// A binary min-heap of slots by key; its storage is kept when it empties.
struct KeyHeap {
    private var entries: [(key: UInt64, slot: UInt32)] = []

    mutating func push(_ slot: UInt32, _ key: UInt64) {
        entries.append((key, slot))
        var c = entries.count - 1
        while c > 0 {
            let p = (c - 1) / 2
            if entries[p].key <= entries[c].key { break }
            entries.swapAt(p, c); c = p
        }
    }

    /// The slot with the smallest key, taken out; nil when the heap is empty.
    mutating func popMin() -> UInt32? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var p = 0
            while true {
                let l = 2 * p + 1, r = l + 1
                var m = p
                if l < entries.count && entries[l].key < entries[m].key { m = l }
                if r < entries.count && entries[r].key < entries[m].key { m = r }
                if m == p { break }
                entries.swapAt(p, m); p = m
            }
        }
        return top.slot
    }
}

/// A set of slots that stays a short array (linear search, no hashing) while it is small, as the
/// sets of one update pass nearly always are. Emptying it keeps its storage (and costs nothing
/// when it is already empty).
struct SlotSet {
    static let small = 24
    private var store: [UInt32] = []
    private(set) var count = 0
    private var big = Set<UInt32>()

    /// The slots in the order they were inserted.
    var items: ArraySlice<UInt32> { store[0..<count] }

    /// True when k was not in the set.
    @discardableResult
    @inline(__always)
    mutating func insert(_ k: UInt32) -> Bool {
        if count < Self.small {
            if items.contains(k) { return false }
        } else {
            if big.isEmpty { big = Set(items) }
            guard big.insert(k).inserted else { return false }
        }
        if count < store.count { store[count] = k } else { store.append(k) }
        count += 1
        return true
    }

    @inline(__always)
    mutating func removeAll() {
        if !big.isEmpty { big.removeAll(keepingCapacity: true) }
        count = 0
    }
}
