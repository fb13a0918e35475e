/// What the host draws for one pin (`pindrop_pin_view`).
public struct PinView: Sendable, Equatable {
    public var id: Int64
    /// The screen point the pin marks (where it is drawn / will land), and the screen point of its
    /// true coordinate (the end of a spread leg).
    public var x, y, anchorX, anchorY: Double
    /// 0 at rest .. 1 fully lifted; below 0 during the drop bounce.
    public var lift: Double
    public var flags: PinFlags
}

/// What the frame room asks of the map for each candidate pin. The map answers from its rooms
/// (where a gesture or a spread ring draws the pin, the lift of a held or dropping pin, the
/// flags); the frame room never sees them.
protocol FrameSource: AnyObject {
    /// The pin's drawn screen point and the screen point of its true coordinate, or nil when the
    /// view cannot place it.
    func frameScreenPoints(_ slot: Int32) -> (drawn: (x: Double, y: Double), anchor: (x: Double, y: Double))?
    func frameID(_ slot: Int32) -> Int64
    func frameLift(_ slot: Int32, time: Double) -> Double
    func frameFlags(_ slot: Int32) -> PinFlags
}

/// The frame room: the pins drawn inside the viewport (grown by a margin), in drawing order, and
/// the scratch buffers that let a warmed frame run without allocating.
///
/// Drawing order: ordinary pins by y (top first), then id; then the focused pin (if it is an
/// ordinary one); then the selected pin; the dragged pin last of all. What it may touch: its own
/// buffers and the keyboard focus, and the map only through `FrameSource`.
struct FrameBuilder {
    /// The last frame's views, in drawing order.
    private(set) var views: [PinView] = []
    // A generation stamp per slot (a candidate seen twice in one frame is drawn once: one byte
    // per pin, cleared every 255 frames, which costs a frame a memset of a byte per pin), and the
    // draw-order sort's bucket bounds. The views are sorted in place: a frame of n views holds
    // its views (56 bytes each) and 2 bytes of bucket bounds a view, where sort keys, their bucket
    // starts and a sorted copy of the views held 96 more (a frame of all 916k LA trees at zoom 15
    // took the process to 338 bytes per pin, benchmarks/bench_memory.c).
    private var seen: [UInt8] = []
    private var generation: UInt8 = 0
    private var bucketStart: [Int32] = []
    private var bucketNext: [Int32] = []
    private var crowdStart: [Int32] = []
    private var crowdNext: [Int32] = []
    private var late: [PinView] = []
    /// The pins this frame drew, gridded by screen point for the hit tests that follow it.
    var hits = HitGrid()
    /// The keyboard focus: one of the items the last frame drew (KeyboardFocus.swift).
    var focus = KeyboardFocus()

    /// Builds the frame from `candidates` (slots whose drawn position may lie in the viewport; a
    /// slot may appear twice), keeping the pins drawn within `margin` of the width × height viewport.
    /// With `grid`, its views answer the hit tests (`hits`) while the map is at `version` (camera
    /// views).
    mutating func build<Source: FrameSource>(_ candidates: [Int32], capacity: Int, margin r: Double,
                                             width w: Double, height h: Double, time: Double, _ source: Source,
                                             grid: Bool = false, version: UInt64 = 0) {
        views.removeAll(keepingCapacity: true)
        // Room for every candidate at once: growing by doubling would hold the old and the new
        // buffer at once (twice the views) while it copies.
        if views.capacity < candidates.count {
            views = []
            views.reserveCapacity(candidates.count)
        }
        late.removeAll(keepingCapacity: true)
        hits.begin(version: version, width: w, height: h, r: r, camera: grid)
        defer { hits.end() }
        let stamp = nextGeneration(capacity)
        for s in candidates {
            // A pin can be a candidate both by its true and by its drawn position: drawn once.
            guard seen[Int(s)] != stamp else { continue }
            seen[Int(s)] = stamp
            guard let (q, a) = source.frameScreenPoints(s) else { continue }
            // NaN or infinite points (a pole in Web Mercator) fail these tests and are skipped.
            guard q.x >= -r, q.x <= w + r, q.y >= -r, q.y <= h + r, a.x.isFinite, a.y.isFinite else { continue }
            let v = PinView(id: source.frameID(s), x: q.x, y: q.y, anchorX: a.x, anchorY: a.y,
                            lift: source.frameLift(s, time: time), flags: source.frameFlags(s))
            if FrameBuilder.drawRank(v) == 0 { views.append(v) } else { late.append(v) }
        }
        sortViews()
        fitScratch(candidates: candidates.count)
    }

    /// Gives back the room a larger frame left in the buffers (`FrameScratch`): a frame of every
    /// pin is not kept for good. The views keep room for the candidates, which `build` reserves.
    private mutating func fitScratch(candidates: Int) {
        let n = views.count
        FrameScratch.fit(keeping: &views, need: max(n, candidates))
        FrameScratch.fit(&late, need: late.count)
        FrameScratch.fit(&bucketStart, need: FrameBuilder.buckets(n) + 1)
        FrameScratch.fit(&bucketNext, need: FrameBuilder.buckets(n) + 1)
        FrameScratch.fit(&crowdStart, need: n + 1)
        FrameScratch.fit(&crowdNext, need: n + 1)
        hits.fit(views: n)
    }

    /// The bytes of room the frame room's buffers hold: its views, sort buffers and hit grid (the
    /// per-slot stamps excluded: they are per pin, not per frame).
    var scratchBytes: Int {
        FrameScratch.bytes(views) + FrameScratch.bytes(late) + FrameScratch.bytes(bucketStart)
            + FrameScratch.bytes(bucketNext) + FrameScratch.bytes(crowdStart) + FrameScratch.bytes(crowdNext)
            + hits.scratchBytes
    }

    /// Flags the view at `i` FOCUSED and draws it after the other ordinary pins, so that its
    /// neighbours never hide it (WCAG 2.4.11); the selected and the dragged pin stay above it.
    mutating func markFocused(_ i: Int) {
        views[i].flags.insert(.focused)
        guard FrameBuilder.drawRank(views[i]) == 0 else { return }
        var j = i
        while j + 1 < views.count && FrameBuilder.drawRank(views[j + 1]) == 0 { views.swapAt(j, j + 1); j += 1 }
    }

    /// A fresh stamp for `seen`, grown to every slot; cleared only when the counter wraps.
    private mutating func nextGeneration(_ capacity: Int) -> UInt8 {
        if seen.count < capacity {
            seen.append(contentsOf: repeatElement(0, count: capacity - seen.count))
        }
        generation &+= 1
        if generation == 0 {
            seen.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            generation = 1
        }
        return generation
    }

    /// 0 for ordinary pins, then the selected pin, and the dragged pin drawn last of all.
    @inline(__always)
    static func drawRank(_ v: PinView) -> Int {
        v.flags.contains(.dragging) ? 2 : v.flags.contains(.selected) ? 1 : 0
    }

    /// Whether view a is drawn before view b among the ordinary pins: by y (top first), then id.
    @inline(__always)
    static func before(_ a: PinView, _ b: PinView) -> Bool { a.y != b.y ? a.y < b.y : a.id < b.id }

    /// Puts `views` (ordinary pins) in drawing order — by y, then id — and appends the selected
    /// and dragged pins (`late`) after them by rank, y, id. A bucket sort in place: a bucket for
    /// every `viewsPerBucket` views over the frame's range of y (the bucket of y never decreases
    /// as y grows), the views swapped into their buckets (`distribute`). A bucket of a few views is put in
    /// order by insertion; a crowded one (trees along a street running east–west share a sliver of
    /// y) is bucketed again over its own range of y (`sortCrowded`). (y, id) is a total order (ids
    /// are unique), so the order does not depend on how it is reached. No allocation once the
    /// buffers have grown.
    private mutating func sortViews() {
        let n = views.count, buckets = FrameBuilder.buckets(n)
        FrameBuilder.grow(&bucketStart, to: buckets + 1, 0)
        FrameBuilder.grow(&bucketNext, to: buckets + 1, 0)
        var crowded = 0
        views.withUnsafeMutableBufferPointer { v in
            bucketStart.withUnsafeMutableBufferPointer { start in
                bucketNext.withUnsafeMutableBufferPointer { next in
                    crowded = FrameBuilder.distribute(v, 0, n, buckets: buckets, start, next)
                }
            }
        }
        if crowded > FrameBuilder.insertionLimit {
            FrameBuilder.grow(&crowdStart, to: crowded + 1, 0)
            FrameBuilder.grow(&crowdNext, to: crowded + 1, 0)
        }
        views.withUnsafeMutableBufferPointer { v in
            bucketStart.withUnsafeBufferPointer { start in
                crowdStart.withUnsafeMutableBufferPointer { spareStart in
                    crowdNext.withUnsafeMutableBufferPointer { spareNext in
                        for b in 0..<buckets {
                            let begin = Int(start[b]), end = Int(start[b + 1])
                            if end - begin > FrameBuilder.insertionLimit {
                                FrameBuilder.sortCrowded(v, begin, end, spareStart, spareNext)
                            } else if end - begin > 1 {
                                FrameBuilder.insertionSort(v, begin, end)
                            }
                        }
                    }
                }
            }
        }
        if !late.isEmpty {
            late.sort { a, b in
                let ka = FrameBuilder.drawRank(a), kb = FrameBuilder.drawRank(b)
                if ka != kb { return ka < kb }
                return FrameBuilder.before(a, b)
            }
            views.append(contentsOf: late)
        }
    }

    /// Views per bucket of the first pass: four keeps the bucket bounds at 2 bytes a view, and a
    /// bucket of four is put in order by insertion in a few moves.
    static let viewsPerBucket = 4

    /// The first pass's buckets for n views (at least one).
    @inline(__always)
    static func buckets(_ n: Int) -> Int { max(1, (n + viewsPerBucket - 1) / viewsPerBucket) }

    /// Swaps v[begin..<end] into m buckets over their range of y, in place (an American flag
    /// sort's pass): bucket b is then v[start[b] ..< start[b + 1]], and every y in bucket b is
    /// below every y in bucket b + 1. `start` and `next` hold at least m + 1 entries. Returns the
    /// size of the largest bucket.
    @inline(__always)
    private static func distribute(_ v: UnsafeMutableBufferPointer<PinView>, _ begin: Int, _ end: Int, buckets m: Int,
                                   _ start: UnsafeMutableBufferPointer<Int32>,
                                   _ next: UnsafeMutableBufferPointer<Int32>) -> Int {
        start[0] = Int32(truncatingIfNeeded: begin)
        guard end > begin else { for b in 1...m { start[b] = start[0] }; return 0 }
        var lo = Double.infinity, hi = -Double.infinity
        for i in begin..<end { lo = min(lo, v[i].y); hi = max(hi, v[i].y) }
        let last = m - 1
        let scale = hi > lo ? Double(last) / (hi - lo) : 0
        @inline(__always) func bucket(_ y: Double) -> Int {
            let f = (y - lo) * scale
            return f >= Double(last) ? last : f > 0 ? Int(f) : 0
        }
        for b in 1...m { start[b] = 0 }
        for i in begin..<end { start[bucket(v[i].y) + 1] += 1 }
        var largest = 0
        for b in 0..<m {
            largest = max(largest, Int(start[b + 1]))
            start[b + 1] += start[b]
            next[b] = start[b]
        }
        // Buckets before b are complete; v[start[t] ..< next[t]] already belong to bucket t.
        for b in 0..<m {
            var i = Int(next[b])
            let stop = Int(start[b + 1])
            while i < stop {
                let t = bucket(v[i].y)
                if t == b { i += 1 } else { v.swapAt(i, Int(next[t])); next[t] += 1 }
            }
            next[b] = Int32(truncatingIfNeeded: stop)
        }
        return largest
    }

    /// Buckets up to this size are sorted by insertion.
    private static let insertionLimit = 24

    /// Appends `fill` to `a` until it holds `count` elements.
    @inline(__always)
    private static func grow<T>(_ a: inout [T], to count: Int, _ fill: T) {
        if a.count < count { a.append(contentsOf: repeatElement(fill, count: count - a.count)) }
    }

    /// Sorts v[begin..<end] by (y, id) in place by insertion.
    @inline(__always)
    private static func insertionSort(_ v: UnsafeMutableBufferPointer<PinView>, _ begin: Int, _ end: Int) {
        for i in (begin + 1)..<end {
            let k = v[i]
            var j = i
            while j > begin && before(k, v[j - 1]) { v[j] = v[j - 1]; j -= 1 }
            v[j] = k
        }
    }

    /// Sorts a crowded bucket v[begin..<end] by (y, id): one more bucket pass over the bucket's
    /// own range of y, through `start` and `next` (at least end - begin + 1 long), whose buckets
    /// are sorted by insertion, or by a heap sort if still crowded (many views on one y: pins
    /// stacked on one coordinate).
    private static func sortCrowded(_ v: UnsafeMutableBufferPointer<PinView>, _ begin: Int, _ end: Int,
                                    _ start: UnsafeMutableBufferPointer<Int32>, _ next: UnsafeMutableBufferPointer<Int32>) {
        let m = end - begin
        if distribute(v, begin, end, buckets: m, start, next) == m { return heapSort(v, begin, end) }
        for b in 0..<m {
            let from = Int(start[b]), to = Int(start[b + 1])
            if to - from > insertionLimit { heapSort(v, from, to) } else if to - from > 1 { insertionSort(v, from, to) }
        }
    }

    /// Sorts v[begin..<end] by (y, id) in place by a heap sort.
    private static func heapSort(_ v: UnsafeMutableBufferPointer<PinView>, _ begin: Int, _ end: Int) {
        let count = end - begin
        @inline(__always) func siftDown(_ root: Int, _ size: Int) {
            var r = root
            while true {
                var child = 2 * r + 1
                if child >= size { return }
                if child + 1 < size && before(v[begin + child], v[begin + child + 1]) { child += 1 }
                if !before(v[begin + r], v[begin + child]) { return }
                v.swapAt(begin + r, begin + child)
                r = child
            }
        }
        for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
        for size in stride(from: count - 1, to: 0, by: -1) {
            v.swapAt(begin, begin + size)
            siftDown(0, size)
        }
    }
}
