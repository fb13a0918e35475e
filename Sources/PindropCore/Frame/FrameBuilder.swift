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
    // draw-order sort's keys and spare buffers.
    private var seen: [UInt8] = []
    private var generation: UInt8 = 0
    private var keys: [FrameKey] = []
    private var bucketStart: [Int] = []
    private var crowdKeys: [FrameKey] = []
    private var crowdStart: [Int] = []
    private var late: [PinView] = []
    private var spare: [PinView] = []
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
        fitScratch()
    }

    /// Gives back the room a larger frame left in the buffers (`FrameScratch`): a frame of every
    /// pin is not kept for good.
    private mutating func fitScratch() {
        let n = views.count
        FrameScratch.fit(keeping: &views, need: n)
        FrameScratch.fit(&spare, need: n)
        FrameScratch.fit(&late, need: late.count)
        FrameScratch.fit(&keys, need: n)
        FrameScratch.fit(&bucketStart, need: n + 1)
        FrameScratch.fit(&crowdKeys, need: n)
        FrameScratch.fit(&crowdStart, need: n + 1)
        hits.fit(views: n)
    }

    /// The bytes of room the frame room's buffers hold: its views, sort buffers and hit grid (the
    /// per-slot stamps excluded: they are per pin, not per frame).
    var scratchBytes: Int {
        FrameScratch.bytes(views) + FrameScratch.bytes(spare) + FrameScratch.bytes(late) + FrameScratch.bytes(keys)
            + FrameScratch.bytes(bucketStart) + FrameScratch.bytes(crowdKeys) + FrameScratch.bytes(crowdStart)
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

    /// A view's place in the draw order among the ordinary pins: its y (-0.0 made 0.0), id and index.
    struct FrameKey {
        var y: Double
        var id: Int64
        var index: Int32

        @inline(__always)
        static func before(_ a: FrameKey, _ b: FrameKey) -> Bool { a.y != b.y ? a.y < b.y : a.id < b.id }
    }

    /// Puts `views` (ordinary pins) in drawing order — by y, then id — and appends the selected
    /// and dragged pins (`late`) after them by rank, y, id. A bucket sort: as many buckets as views
    /// over the frame's range of y (the bucket of y never decreases as y grows), filled by one
    /// counting pass. A bucket of a few views is put in order by insertion; a crowded one (trees
    /// along a street running east–west share a sliver of y) is bucketed again over its own range
    /// of y (`sortBucket`). No allocation once the buffers have grown.
    private mutating func sortViews() {
        let n = views.count
        keys.removeAll(keepingCapacity: true)
        var lo = Double.infinity, hi = -Double.infinity
        for v in views { lo = min(lo, v.y); hi = max(hi, v.y) }
        let last = n - 1
        let scale = hi > lo ? Double(max(last, 0)) / (hi - lo) : 0
        @inline(__always) func bucket(_ y: Double) -> Int {
            let f = (y - lo) * scale
            return f >= Double(last) ? last : f > 0 ? Int(f) : 0
        }
        FrameBuilder.grow(&bucketStart, to: n + 1, 0)
        if keys.capacity < n { keys.reserveCapacity(n) }
        keys.append(contentsOf: repeatElement(FrameKey(y: 0, id: 0, index: 0), count: n))
        // The crowded buckets' own pass: a key buffer and bucket starts as large as the largest.
        var crowded = 0
        views.withUnsafeBufferPointer { views in
            keys.withUnsafeMutableBufferPointer { keys in
                bucketStart.withUnsafeMutableBufferPointer { start in
                    for b in 0...n { start[b] = 0 }
                    for v in views { start[bucket(v.y) + 1] += 1 }
                    for b in 0..<n {
                        crowded = max(crowded, start[b + 1])
                        start[b + 1] += start[b]
                    }
                    // start[b] is now where bucket b begins; fill moves it to where b ends.
                    for i in 0..<n {
                        let v = views[i], b = bucket(v.y)
                        keys[start[b]] = FrameKey(y: v.y + 0, id: v.id, index: Int32(truncatingIfNeeded: i))
                        start[b] += 1
                    }
                }
            }
        }
        if crowded > FrameBuilder.insertionLimit {
            FrameBuilder.grow(&crowdStart, to: crowded + 1, 0)
            FrameBuilder.grow(&crowdKeys, to: crowded, FrameKey(y: 0, id: 0, index: 0))
        }
        keys.withUnsafeMutableBufferPointer { keys in
            bucketStart.withUnsafeBufferPointer { start in
                crowdKeys.withUnsafeMutableBufferPointer { spareKeys in
                    crowdStart.withUnsafeMutableBufferPointer { spareStart in
                        var begin = 0
                        for b in 0..<n {
                            let end = start[b]
                            if end - begin > FrameBuilder.insertionLimit {
                                FrameBuilder.sortBucket(keys, begin, end, spareKeys, spareStart)
                            } else if end - begin > 1 {
                                FrameBuilder.insertionSort(keys, begin, end)
                            }
                            begin = end
                        }
                    }
                }
            }
        }
        spare.removeAll(keepingCapacity: true)
        for k in keys { spare.append(views[Int(k.index)]) }
        swap(&views, &spare)
        if !late.isEmpty {
            late.sort { a, b in
                let ka = FrameBuilder.drawRank(a), kb = FrameBuilder.drawRank(b)
                if ka != kb { return ka < kb }
                return a.y != b.y ? a.y < b.y : a.id < b.id
            }
            views.append(contentsOf: late)
        }
    }

    /// Buckets up to this size are sorted by insertion.
    private static let insertionLimit = 24

    /// Appends `fill` to `a` until it holds `count` elements.
    @inline(__always)
    private static func grow<T>(_ a: inout [T], to count: Int, _ fill: T) {
        if a.count < count { a.append(contentsOf: repeatElement(fill, count: count - a.count)) }
    }

    /// Sorts keys[begin..<end] by (y, id) in place by insertion.
    @inline(__always)
    private static func insertionSort(_ keys: UnsafeMutableBufferPointer<FrameKey>, _ begin: Int, _ end: Int) {
        for i in (begin + 1)..<end {
            let k = keys[i]
            var j = i
            while j > begin && FrameKey.before(k, keys[j - 1]) { keys[j] = keys[j - 1]; j -= 1 }
            keys[j] = k
        }
    }

    /// Sorts a crowded bucket keys[begin..<end] by (y, id): one more bucket pass over the bucket's
    /// own range of y, through `spare` and `start` (at least end - begin and end - begin + 1
    /// long), whose buckets are sorted by insertion, or by a heap sort if still crowded (many
    /// views on one y: pins stacked on one coordinate).
    private static func sortBucket(_ keys: UnsafeMutableBufferPointer<FrameKey>, _ begin: Int, _ end: Int,
                                   _ spare: UnsafeMutableBufferPointer<FrameKey>, _ start: UnsafeMutableBufferPointer<Int>) {
        let m = end - begin
        var lo = Double.infinity, hi = -Double.infinity
        for i in begin..<end { lo = min(lo, keys[i].y); hi = max(hi, keys[i].y) }
        guard hi > lo else { return heapSort(keys, begin, end) }
        let last = m - 1, scale = Double(last) / (hi - lo)
        @inline(__always) func bucket(_ y: Double) -> Int {
            let f = (y - lo) * scale
            return f >= Double(last) ? last : f > 0 ? Int(f) : 0
        }
        for b in 0...m { start[b] = 0 }
        for i in begin..<end { start[bucket(keys[i].y) + 1] += 1 }
        for b in 0..<m { start[b + 1] += start[b] }
        for i in begin..<end {
            let b = bucket(keys[i].y)
            spare[start[b]] = keys[i]
            start[b] += 1
        }
        var from = 0
        for b in 0..<m {
            let to = start[b]
            if to - from > insertionLimit { heapSort(spare, from, to) } else if to - from > 1 { insertionSort(spare, from, to) }
            from = to
        }
        for i in 0..<m { keys[begin + i] = spare[i] }
    }

    /// Sorts keys[begin..<end] by (y, id) in place by a heap sort.
    private static func heapSort(_ keys: UnsafeMutableBufferPointer<FrameKey>, _ begin: Int, _ end: Int) {
        let count = end - begin
        @inline(__always) func siftDown(_ root: Int, _ size: Int) {
            var r = root
            while true {
                var child = 2 * r + 1
                if child >= size { return }
                if child + 1 < size && FrameKey.before(keys[begin + child], keys[begin + child + 1]) { child += 1 }
                if !FrameKey.before(keys[begin + r], keys[begin + child]) { return }
                keys.swapAt(begin + r, begin + child)
                r = child
            }
        }
        for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
        for size in stride(from: count - 1, to: 0, by: -1) {
            keys.swapAt(begin, begin + size)
            siftDown(0, size)
        }
    }
}
