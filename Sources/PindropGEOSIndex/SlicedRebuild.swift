import CGEOS
import PindropCore

/// The rebuilding of `GEOSPointIndex`'s leaves, a slice at a time: a leaf whose tree is missing,
/// whose pending list outgrew `pendingLimit` or whose tree holds too many stale entries is queued,
/// and every call does a bounded slice of the queued work (see the type's first comment).
extension GEOSPointIndex {
    /// A leaf's new trees being filled a slice at a time: `slots[..<eastAt]` go into `tree`, the
    /// rest into `east` (`eastAt == slots.count` when there is one tree).
    /// Why a leaf may get two trees: TwoTreeSplit.swift.
    struct Job {
        var leaf: Int
        var tree: OpaquePointer
        var east: OpaquePointer?
        var eastFrom: Double
        var slots: [Int32]
        var eastAt: Int
        var next = 0
        var inserted = 0
    }

    @inline(__always)
    private func needsRebuild(_ l: Int) -> Bool {
        let leaf = leaves[l]
        if leaf.tree == nil { return leaf.count > 0 }
        return leaf.pending.count > pendingLimit || leaf.stale > max(pendingLimit, leaf.count)
    }

    @inline(__always)
    func enqueueIfNeeded(_ l: Int) {
        guard !leaves[l].queued, needsRebuild(l) else { return }
        leaves[l].queued = true
        queue.append(Int32(l))
    }

    /// Work the host's queries do (frames, hit tests, nearby): up to `inserts` points inserted
    /// into trees being built, and the trees completed on the way are built by GEOS and put in
    /// place. Changes only insert (`work(build: false)`), so that no `set` pays for a GEOS build.
    public func maintain(inserts: Int) {
        var left = inserts
        while left > 0 && (job != nil || queueHead < queue.count) { left -= work(build: true) }
    }

    /// One bounded slice of the queued work: start the next leaf's rebuild (gather its slots, or
    /// split it), insert up to `sliceInserts` points, or (`build`) have GEOS build a complete
    /// tree and put it in place. Returns the points inserted (at least 1, for progress).
    @discardableResult
    func work(build: Bool) -> Int {
        var done = 1
        if var j = job {
            if j.next >= j.slots.count && !build { return done }
            job = nil
            if j.next < j.slots.count {
                let end = min(j.slots.count, j.next + sliceInserts)
                for i in j.next..<end {
                    let s = j.slots[i]
                    guard home[Int(s)] & GEOSPointIndex.jobBit != 0 else { continue }  // changed since
                    guard insertPoint(i < j.eastAt ? j.tree : j.east!, s) else {
                        job = j
                        abortJob()  // GEOS could not make the point: the old tree and lists stay
                        return done
                    }
                    j.inserted += 1
                }
                done = max(1, end - j.next)
                j.next = end
                job = j
            } else {
                finish(j)
            }
            return done
        }
        while queueHead < queue.count {
            let l = Int(queue[queueHead])
            queueHead += 1
            if queueHead == queue.count || queueHead > 4096 {
                queue.removeFirst(queueHead); queueHead = 0
            }
            leaves[l].queued = false
            guard needsRebuild(l) else { continue }
            start(l)
            return done
        }
        return done
    }

    /// Gathers leaf l's current slots for a new tree, marking them with `jobBit`, or splits the
    /// leaf when they are more than `leafCapacity`.
    private func start(_ l: Int) {
        let mark = UInt32(l + 1)
        gather.removeAll(keepingCapacity: true)
        if let tree = leaves[l].tree { collectCurrent(tree, mark) }
        if let tree = leaves[l].east { collectCurrent(tree, mark) }
        for s in leaves[l].entries where home[Int(s)] == mark { gather.append(s) }
        for s in leaves[l].pending where home[Int(s)] == mark | GEOSPointIndex.pendingBit { gather.append(s) }
        // Repeats in a long pending list: only the first copy of each slot is marked and kept.
        var k = 0
        home.withUnsafeMutableBufferPointer { h in
            gather.withUnsafeMutableBufferPointer { g in
                for i in g.indices {
                    let s = g[i]
                    guard h[Int(s)] & GEOSPointIndex.jobBit == 0 else { continue }
                    h[Int(s)] |= GEOSPointIndex.jobBit
                    g[k] = s; k += 1
                }
            }
        }
        gather.removeLast(gather.count - k)
        let n = Int(leaves[l].node)
        // A leaf that has a tree splits only well beyond the capacity, so that a leaf a bulk load
        // filled near it is not split again by its first rebuilds.
        let most = leaves[l].tree == nil ? leafCapacity : 2 * leafCapacity
        if gather.count > most && nodes[n].depth < GEOSPointIndex.maxDepth && !allOnePosition() {
            destroyTrees(leaves[l])
            leaves[l].tree = nil; leaves[l].east = nil
            _ = split(n)  // re-homes every gathered slot (their job marks go)
            return
        }
        let eastAt = GEOSPointIndex.westCount(gather.count)
        let eastFrom = eastAt < gather.count ? partitionByLongitude(first: eastAt) : 0
        // No tree (GEOS is out of memory): the leaf keeps answering from its old trees and lists.
        guard let tree = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity) else {
            for s in gather { home[Int(s)] &= GEOSPointIndex.placeMask }
            return
        }
        var east: OpaquePointer?
        if eastAt < gather.count {
            east = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity)
            guard east != nil else {
                GEOSSTRtree_destroy_r(ctx, tree)
                for s in gather { home[Int(s)] &= GEOSPointIndex.placeMask }
                return
            }
        }
        job = Job(leaf: l, tree: tree, east: east, eastFrom: eastFrom, slots: gather, eastAt: eastAt)
    }

    /// The new tree of leaf l is complete: GEOS builds it now (a query does), and it replaces the
    /// old tree and lists in one step.
    private func finish(_ j: Job) {
        let l = j.leaf, mark = UInt32(l + 1)
        if let t = buildTrigger {
            GEOSSTRtree_query_r(ctx, j.tree, t, { _, _ in }, nil)
            if let east = j.east { GEOSSTRtree_query_r(ctx, east, t, { _, _ in }, nil) }
        }
        destroyTrees(leaves[l])
        // (A tree left with no point inserted, all its slots having changed since, answers
        // nothing; it is kept rather than told apart, and goes at the leaf's next rebuild.)
        if j.inserted > 0 {
            leaves[l].tree = j.tree; leaves[l].east = j.east; leaves[l].eastFrom = j.eastFrom
        } else {
            destroyTrees(j)
            leaves[l].tree = nil; leaves[l].east = nil
        }
        var current = 0
        for s in j.slots where home[Int(s)] & GEOSPointIndex.jobBit != 0 {
            home[Int(s)] = mark
            current += 1
        }
        leaves[l].stale = j.inserted - current
        leaves[l].entries = []
        let p = mark | GEOSPointIndex.pendingBit
        leaves[l].pending.removeAll { home[Int($0)] & GEOSPointIndex.placeMask != p }
        builds += 1
        enqueueIfNeeded(l)
    }

    private var buildTrigger: OpaquePointer? {
        if trigger == nil { trigger = GEOSGeom_createPointFromXY_r(ctx, 1e300, 1e300) }
        return trigger
    }

    private func allOnePosition() -> Bool {
        guard let f = gather.first else { return true }
        let p = coords.position(f)
        for s in gather {
            let q = coords.position(s)
            if q.lon != p.lon || q.lat != p.lat { return false }
        }
        return true
    }

    /// Builds the leaves a query needs at once when their lists are too long to scan (after a
    /// bulk load: the pins are dealt out to leaves, and no GEOS work is done here).
    /// Returns false when GEOS could not build the tree (the leaf's slots stay in a scanned list).
    @discardableResult
    func settle(_ l: Int) -> Bool {
        guard leaves[l].entries.count + leaves[l].pending.count > scanLimit else { return true }
        if let j = job, j.leaf == l { abortJob() }
        let mark = UInt32(l + 1)
        gather.removeAll(keepingCapacity: true)
        if let tree = leaves[l].tree { collectCurrent(tree, mark) }
        if let tree = leaves[l].east { collectCurrent(tree, mark) }
        destroyTrees(leaves[l])
        leaves[l].tree = nil; leaves[l].east = nil
        for s in leaves[l].entries where home[Int(s)] == mark { gather.append(s) }
        for s in leaves[l].pending where home[Int(s)] & GEOSPointIndex.placeMask == mark | GEOSPointIndex.pendingBit {
            home[Int(s)] = mark
            gather.append(s)
        }
        leaves[l].entries = []; leaves[l].pending = []; leaves[l].stale = 0
        leaves[l].count = gather.count
        if split(Int(leaves[l].node)) { return true }
        // All on one position (a stack larger than the lists a query scans): its tree now.
        guard let tree = GEOSSTRtree_create_r(ctx, GEOSPointIndex.nodeCapacity) else {
            leaves[l].entries = gather  // no tree: its slots are scanned
            return false
        }
        for s in gather where !insertPoint(tree, s) {
            GEOSSTRtree_destroy_r(ctx, tree)
            leaves[l].entries = gather
            return false
        }
        if let t = buildTrigger { GEOSSTRtree_query_r(ctx, tree, t, { _, _ in }, nil) }
        leaves[l].tree = tree
        builds += 1
        return true
    }

    private func abortJob() {
        guard let j = job else { return }
        for s in j.slots { home[Int(s)] &= GEOSPointIndex.placeMask }
        destroyTrees(j)
        job = nil
        leaves[j.leaf].queued = false
        enqueueIfNeeded(j.leaf)
    }

    /// Inserts slot s at its position; false when GEOS cannot make the point.
    @inline(__always)
    private func insertPoint(_ tree: OpaquePointer, _ s: Int32) -> Bool {
        let p = coords.position(s)
        guard let g = GEOSGeom_createPointFromXY_r(ctx, p.lon, p.lat) else { return false }
        // The tree copies the envelope; the item is the slot + 1 (never a null pointer).
        GEOSSTRtree_insert_r(ctx, tree, g, UnsafeMutableRawPointer(bitPattern: Int(s) + 1))
        GEOSGeom_destroy_r(ctx, g)
        return true
    }

    /// Appends the tree's current entries (home == mark) to `gather`.
    private func collectCurrent(_ tree: OpaquePointer, _ mark: UInt32) {
        home.withUnsafeBufferPointer { h in
            withUnsafeMutablePointer(to: &gather) { g in
                var c = (h.baseAddress!, mark, g)
                withUnsafeMutablePointer(to: &c) { cp in
                    GEOSSTRtree_iterate_r(ctx, tree, { item, user in
                        guard let item, let user else { return }
                        let c = user.assumingMemoryBound(to: (UnsafePointer<UInt32>, UInt32, UnsafeMutablePointer<[Int32]>).self)
                        let s = Int(bitPattern: item) - 1
                        if c.pointee.0[s] == c.pointee.1 { c.pointee.2.pointee.append(Int32(truncatingIfNeeded: s)) }
                    }, cp)
                }
            }
        }
    }
}
