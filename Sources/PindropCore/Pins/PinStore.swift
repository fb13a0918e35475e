/// Pins in struct-of-arrays form, addressed by a dense slot number that the spatial index stores.
/// Removed slots are reused. Ids map to slots through a compact open-addressing table. The
/// coordinates live in `coordinates`, shared with the spatial index (the one copy).
public struct PinStore {
    public private(set) var ids: [Int64] = []
    /// Every slot's (lon, lat), shared read-only with the map's spatial index.
    public let coordinates = SlotCoordinates()
    /// Bit 0: alive, bit 1: not draggable.
    private var bits: [UInt8] = []
    private var slotOf = SlotTable()
    private var free: [Int32] = []
    private var mercatorCache = MercatorCache()
    /// How many pins stand at each coordinate, roughly (`CoordinateCounts`).
    private var counts = CoordinateCounts()

    public init() {}

    public var count: Int { slotOf.count }
    /// One past the highest slot ever used: iterate `0..<capacity` and check `isAlive`.
    public var capacity: Int { ids.count }

    @inline(__always) public func slot(of id: Int64) -> Int32? {
        ids.withUnsafeBufferPointer { slotOf.find(id, $0) }
    }
    @inline(__always) public func contains(_ id: Int64) -> Bool { slot(of: id) != nil }
    @inline(__always) public func isAlive(_ slot: Int32) -> Bool { bits[Int(slot)] & 1 != 0 }
    @inline(__always) public func isDraggable(_ slot: Int32) -> Bool { bits[Int(slot)] & 2 == 0 }
    @inline(__always) public func id(_ slot: Int32) -> Int64 { ids[Int(slot)] }
    @inline(__always) public func position(_ slot: Int32) -> (lon: Double, lat: Double) {
        coordinates.position(slot)
    }

    /// The pin's normalised Web Mercator point, bit for bit `WebMercator.normalized(lon:lat:)` of
    /// its coordinate. Frames project thousands of pins, and a `sin` and an `atanh` per pin were a
    /// quarter of a frame: the points of recently drawn pins are kept in `MercatorCache`, a
    /// direct-mapped cache of a fixed size (not one entry per pin: keeping every pin's point cost
    /// 16 bytes per pin).
    @inline(__always)
    public mutating func mercator(_ slot: Int32) -> (x: Double, y: Double) {
        let p = coordinates.position(slot)
        return mercatorCache.point(slot, p.lon, p.lat)
    }

    /// The bytes the Mercator cache holds (for the tests).
    var mercatorCacheBytes: Int { mercatorCache.bytes }

    /// Whether another pin may stand at exactly this pin's coordinate (false: certainly none).
    @inline(__always)
    public func mayShareCoordinate(_ slot: Int32) -> Bool {
        let p = coordinates.position(slot)
        return counts.count(p.lon, p.lat) > 1
    }

    /// Room for `n` more pins. A batch into an empty store gets exactly its size; later batches
    /// grow the storage by doubling at least: an exact reserve would copy every pin on the map on
    /// each call, and a load in chunks cost in proportion to the map instead of the chunk.
    public mutating func reserve(_ n: Int) {
        let want = ids.count + n
        if want > ids.capacity {
            let size = ids.isEmpty ? want : Swift.max(want, 2 * ids.capacity)
            ids.reserveCapacity(size); coordinates.reserve(size); bits.reserveCapacity(size)
        }
        ids.withUnsafeBufferPointer { slotOf.reserve(slotOf.count + n, $0) }
        if !counts.fits(want) { recount(want) }
    }

    /// Sizes the coordinate counts for `slots` slots and counts the live pins again.
    private mutating func recount(_ slots: Int) {
        counts = CoordinateCounts(slots: slots)
        coordinates.withBuffer { ll in
            for s in bits.indices where bits[s] & 1 != 0 { counts.add(ll[2 * s], ll[2 * s + 1]) }
        }
    }

    /// Adds a pin whose id is known to be new; returns its slot.
    @discardableResult
    public mutating func insert(id: Int64, lon x: Double, lat y: Double) -> Int32 {
        insertIfNew(id: id, lon: x, lat: y)!
    }

    /// Adds a pin unless its id is already here (then nothing changes and the result is nil).
    /// One hash probe: the bulk load of a large batch depends on it.
    @inline(__always)
    public mutating func insertIfNew(id: Int64, lon x: Double, lat y: Double) -> Int32? {
        insertIfNew(id: id, lon: x, lat: y, counting: true)
    }

    /// `insertIfNew`, leaving the coordinate counts to the caller when `counting` is false: a
    /// batch (`reserve` first, so that the counts fit every slot of it) is counted in one pass
    /// after its inserts (`countInserts`), or taken back with `undoInserts(counted: false)`.
    @inline(__always)
    mutating func insertIfNew(id: Int64, lon x: Double, lat y: Double, counting: Bool) -> Int32? {
        let slot = free.last ?? Int32(truncatingIfNeeded: ids.count)
        // The table reads a candidate's id from `ids`, so the new id is stored first.
        if free.last != nil { ids[Int(slot)] = id } else { ids.append(id) }
        let old = ids.withUnsafeBufferPointer { slotOf.insertIfAbsent(id, slot: slot, $0) }
        if old != nil {
            if free.last == nil { ids.removeLast() } else { ids[Int(slot)] = noID }
            return nil
        }
        if free.popLast() != nil {
            coordinates.set(slot, lon: x, lat: y); bits[Int(slot)] = 1
        } else {
            coordinates.append(lon: x, lat: y); bits.append(1)
        }
        if counting { if counts.fits(ids.count) { counts.add(x, y) } else { recount(2 * ids.count) } }
        return slot
    }

    /// Counts the coordinates of a batch inserted with `counting: false`, in one pass. The
    /// load of the 916k LA trees spent about 80 instructions a pin counting one pin at a time.
    mutating func countInserts(_ slots: [Int32]) {
        if !counts.fits(ids.count) { return recount(2 * ids.count) }  // recounts every live pin
        coordinates.withBuffer { ll in counts.add(slots, ll) }
    }

    /// Takes back the latest inserts (a batch that failed half-way), given their slots in the
    /// order they were made and `capacity` before them: the store is as it was, free list included.
    public mutating func undoInserts(_ slots: [Int32], previousCapacity: Int, counted: Bool = true) {
        for s in slots.reversed() {
            ids.withUnsafeBufferPointer { slotOf.remove($0[Int(s)], slot: s, $0) }
            let p = coordinates.position(s)
            if counted { counts.remove(p.lon, p.lat) }
            if Int(s) >= previousCapacity {
                ids.removeLast(); coordinates.removeLast(); bits.removeLast()
            } else {
                bits[Int(s)] = 0
                free.append(s)
            }
        }
    }

    public mutating func remove(_ slot: Int32) {
        ids.withUnsafeBufferPointer { slotOf.remove($0[Int(slot)], slot: slot, $0) }
        let p = coordinates.position(slot)
        counts.remove(p.lon, p.lat)
        bits[Int(slot)] = 0
        free.append(slot)
    }

    @inline(__always)
    public mutating func move(_ slot: Int32, lon x: Double, lat y: Double) {
        let p = coordinates.position(slot)
        counts.remove(p.lon, p.lat)
        coordinates.set(slot, lon: x, lat: y)
        counts.add(x, y)
    }

    public mutating func setDraggable(_ slot: Int32, _ draggable: Bool) {
        if draggable { bits[Int(slot)] &= ~2 } else { bits[Int(slot)] |= 2 }
    }
}

/// Normalised Web Mercator points of recently projected pins. Only y needs keeping (x is one
/// division): sets of two entries, slot s in set s mod the number of sets (neighbouring slots never
/// collide), the latest computed first; an entry is valid for the latitude it was computed from
/// (compared on every read, so a moved pin needs no invalidation). Two ways, because the pins of
/// one view come from anywhere in a wide range of slots: with one entry per set, a quarter of a
/// dense view's pins shared theirs and were projected again on every frame.
///
/// Sized by need: the sets are the power of two that gives every slot projected so far an entry of
/// its own (half the slots rounded up to a power of two: two ways a set), up to 2^15 sets. It
/// grows, and forgets what it held, when a higher slot is projected (a dozen times at most over a
/// map's life), so a map of a few pins holds a few entries of 24 bytes, and no map more than
/// 1.5 MB. A fixed 2^15 sets made every map that had drawn once hold 1.5 MB: 1,000 one-pin maps
/// held 1.47 GB (Tests/c/test_map_memory.c).
struct MercatorCache {
    private static let maxSets = 1 << 15
    private var entries: [Entry] = []
    /// The number of sets less one (-1 before the first point).
    private var mask = -1
    private struct Entry { var slot: Int32 = -1; var lat = 0.0, y = 0.0 }

    /// The bytes the cache holds (for the tests).
    var bytes: Int { entries.count * MemoryLayout<Entry>.stride }

    @inline(__always)
    mutating func point(_ slot: Int32, _ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        if Int(slot) > 2 * mask + 1 && mask < MercatorCache.maxSets - 1 { grow(to: slot) }
        let i = 2 * (Int(slot) & mask)
        // The same expression as WebMercator.normalized's x: the same bits.
        let x = (lon + 180) / 360
        return entries.withUnsafeMutableBufferPointer { e in
            if e[i].slot == slot && e[i].lat == lat { return (x, e[i].y) }
            if e[i + 1].slot == slot && e[i + 1].lat == lat { return (x, e[i + 1].y) }
            let m = WebMercator.normalized(lon: lon, lat: lat)
            e[i + 1] = e[i]
            e[i] = Entry(slot: slot, lat: lat, y: m.y)
            return m
        }
    }

    /// Sets enough for two entries a set to hold slots 0 ... slot, up to `maxSets`; empties the cache.
    @inline(never)
    private mutating func grow(to slot: Int32) {
        var sets = 1
        while 2 * sets <= Int(slot) && sets < MercatorCache.maxSets { sets <<= 1 }
        entries = [Entry](repeating: Entry(), count: 2 * sets)
        mask = sets - 1
    }
}

/// Roughly how many pins stand at each coordinate: a counting filter of 2-bit counters, at least
/// eight per slot (a power of two: 2.3 bytes per pin for the 916k LA trees). A coordinate counts in
/// three cells of one block of 256 (64 bytes, so a change or a look reads one or two cache lines
/// instead of three) chosen by a hash of its bits (-0.0 and 0.0 alike), and its count is the
/// smallest of the three, so it is never below the number of pins at that coordinate: a count of 1
/// at a pin's own coordinate means no other pin is there (about 49 lone pins in 50 are told so on
/// the LA trees, where two cells of four per slot told 7 in 8 and sent the rest to the index). The
/// spreading room asks this before it asks the index for the pins at a coordinate. A counter that
/// reaches 3 stays there (a stack of pins, or a crowded cell: then the index is asked) until the
/// table is counted again as the store grows.
struct CoordinateCounts {
    private var words: [UInt64] = []   // 32 counters a word, 8 words a block
    private var blockMask = 0

    init() {}

    init(slots: Int) {
        var cells = 256
        while cells < 8 * slots { cells <<= 1 }
        words = [UInt64](repeating: 0, count: cells / 32)
        blockMask = cells / 256 - 1
    }

    /// Whether the table has eight cells for each of this many slots.
    @inline(__always)
    func fits(_ slots: Int) -> Bool { !words.isEmpty && 8 * slots <= 256 * (blockMask + 1) }

    /// The coordinate's three cells (two or all three may be one): a block from the hash's top
    /// bits, a cell in it from each of its low three bytes.
    @inline(__always)
    private func cells(_ x: Double, _ y: Double) -> (Int, Int, Int) { CoordinateCounts.cells(x, y, blockMask) }

    @inline(__always)
    private static func cells(_ x: Double, _ y: Double, _ blockMask: Int) -> (Int, Int, Int) {
        let h = OpenHash.of(x, y)
        let block = (Int(truncatingIfNeeded: h >> 40) & blockMask) << 8
        return (block | Int(truncatingIfNeeded: h & 255), block | Int(truncatingIfNeeded: h >> 8 & 255),
                block | Int(truncatingIfNeeded: h >> 16 & 255))
    }

    @inline(__always)
    private func counter(_ c: Int) -> UInt64 { words[c >> 5] >> UInt64(2 * (c & 31)) & 3 }

    @inline(__always)
    private mutating func step(_ c: Int, up: Bool) {
        words.withUnsafeMutableBufferPointer { CoordinateCounts.step($0, c, up: up) }
    }

    @inline(__always)
    private static func step(_ words: UnsafeMutableBufferPointer<UInt64>, _ c: Int, up: Bool) {
        let shift = UInt64(2 * (c & 31)), n = words[c >> 5] >> shift & 3
        if up { if n < 3 { words[c >> 5] &+= 1 << shift } } else if n > 0 && n < 3 { words[c >> 5] &-= 1 << shift }
    }

    /// One pin more at each of the slots' coordinates (`ll` holds (lon, lat) by slot).
    mutating func add(_ slots: [Int32], _ ll: UnsafeBufferPointer<Double>) {
        guard !words.isEmpty else { return }
        let mask = blockMask
        words.withUnsafeMutableBufferPointer { w in
            for s in slots {
                let (a, b, c) = CoordinateCounts.cells(ll[2 * Int(s)], ll[2 * Int(s) + 1], mask)
                CoordinateCounts.step(w, a, up: true)
                if b != a { CoordinateCounts.step(w, b, up: true) }
                if c != a && c != b { CoordinateCounts.step(w, c, up: true) }
            }
        }
    }

    @inline(__always)
    func count(_ x: Double, _ y: Double) -> Int {
        guard !words.isEmpty else { return 3 }
        let (a, b, c) = cells(x, y)
        return Int(min(counter(a), counter(b), counter(c)))
    }

    @inline(__always)
    mutating func add(_ x: Double, _ y: Double) { change(x, y, up: true) }

    @inline(__always)
    mutating func remove(_ x: Double, _ y: Double) { change(x, y, up: false) }

    /// One pin more (up) or fewer at the coordinate: each of its cells changes once.
    @inline(__always)
    private mutating func change(_ x: Double, _ y: Double, up: Bool) {
        guard !words.isEmpty else { return }
        let (a, b, c) = cells(x, y)
        step(a, up: up)
        if b != a { step(b, up: up) }
        if c != a && c != b { step(c, up: up) }
    }
}
