#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The spreading rule (docs/spreading.md: pins sharing a spot drawn on a ring), shared by the map and the batch function: where pin i of a
/// group of n is drawn, how a group's centre is found, and how points are grouped.
public enum SpreadRule {
    /// Ring radius in metres for a group of n: 3n/2.
    @inline(__always)
    public static func radius(_ n: Int) -> Double { 1.5 * Double(n) }

    /// Lays out a ring: calls `body(i, lon, lat)` for every pin of a group of n ≥ 2 (see `RingFrame`).
    @inline(__always)
    static func layRing(centerLon: Double, centerLat: Double, n: Int, _ body: (Int, Double, Double) -> Void) {
        let frame = RingFrame(centerLon: centerLon, centerLat: centerLat, n: n)
        for i in 0..<n {
            let p = frame.position(i)
            body(i, p.lon, p.lat)
        }
    }

    /// Whether a point joins the group whose first pin is at (leaderLon, leaderLat): tolerance 0
    /// means the very same coordinate (lon and lat equal as numbers), otherwise a great-circle
    /// distance of at most `tolerance` metres.
    @inline(__always)
    static func joins(leaderLon: Double, leaderLat: Double, lon: Double, lat: Double, tolerance: Double) -> Bool {
        if tolerance == 0 { return lon == leaderLon && lat == leaderLat }
        return Sphere.distance(leaderLon, leaderLat, lon, lat) <= tolerance
    }

    /// A longitude difference folded into [-180, 180], so that a group astride the antimeridian
    /// averages to a point next to it rather than to the other side of the world.
    @inline(__always)
    static func lonOffset(_ lon: Double, from base: Double) -> Double {
        var d = lon - base
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    /// Accumulates a group's centre: its first pin plus the mean offset of its members from it (in
    /// id order). With every member at the first pin's coordinate the centre is that coordinate,
    /// bit for bit.
    struct Centre {
        let baseLon, baseLat: Double
        var sumLon = 0.0, sumLat = 0.0, n = 0

        init(lon: Double, lat: Double) { baseLon = lon; baseLat = lat }

        @inline(__always)
        mutating func add(lon: Double, lat: Double) {
            sumLon += lonOffset(lon, from: baseLon); sumLat += lat - baseLat; n += 1
        }

        var value: (lon: Double, lat: Double) {
            guard n > 0, sumLon != 0 || sumLat != 0 else { return (baseLon, baseLat) }
            let lat = min(90, max(-90, baseLat + sumLat / Double(n)))
            return (Sphere.normalizeLon(baseLon + sumLon / Double(n)), lat)
        }
    }

    // MARK: - Grouping

    /// The groups of n points taken in id order (point i before point j when i < j).
    struct Grouping {
        /// Per point: its group (numbered in the order groups are formed) and its place in it.
        var groupOf: [Int32]
        var rank: [Int32]
        /// Per group: its size, its first point, and (tolerance > 0) its centre.
        var size: [Int32] = []
        var leader: [Int32] = []
        var centres: [Centre] = []

        /// A group's centre: its first point for tolerance 0 (bit for bit), else the members' mean.
        @inline(__always)
        func centre(_ k: Int, _ coordinate: (Int) -> (lon: Double, lat: Double)) -> (lon: Double, lat: Double) {
            centres.isEmpty ? coordinate(Int(leader[k])) : centres[k].value
        }
    }

    /// The one grouper of the spreading rule (docs/spreading.md, "Groups"), used by `pindrop_spread` and by the map (which hands it the
    /// pins a change can affect, see SpreadLayout): in ascending id order, each point joins the
    /// first-formed (lowest-id) group whose first point is within the tolerance (`joins`), or starts
    /// a group and is its first point. Only first points are compared, so nothing chains.
    /// Tolerance 0 finds a group through a table of exact coordinates, a tolerance > 0 through a
    /// grid of first points (`LeaderGrid`); both cost O(n) expected.
    @inline(__always)
    static func group(count n: Int, tolerance: Double,
                      _ coordinate: (Int) -> (lon: Double, lat: Double)) -> Grouping {
        var r = Grouping(groupOf: [Int32](repeating: 0, count: n), rank: [Int32](repeating: 0, count: n))
        if tolerance == 0 {
            var table = CoordinateTable(expected: n)
            for i in 0..<n {
                let (x, y) = coordinate(i)
                let g = table.findOrInsert(x, y, Int32(r.size.count)) { g in
                    let l = coordinate(Int(r.leader[Int(g)]))
                    return (l.lon, l.lat)
                }
                if Int(g) == r.size.count { r.size.append(0); r.leader.append(Int32(i)) }
                r.groupOf[i] = g; r.rank[i] = r.size[Int(g)]; r.size[Int(g)] += 1
            }
            return r
        }
        var grid = LeaderGrid(tolerance: tolerance, expected: n)
        // A point at the previous point's coordinate joins the same group: no first pin was made
        // in between, so the lowest-id one within the tolerance is the same (a stack of pins costs
        // one search).
        var lastX = Double.nan, lastY = Double.nan, lastBest = Int32.max
        for i in 0..<n {
            let (x, y) = coordinate(i)
            var best = Int32.max
            if x == lastX && y == lastY {
                best = lastBest
            } else {
                grid.forEachNear(lon: x, lat: y) { g in
                    if g < best {
                        let l = coordinate(Int(r.leader[Int(g)]))
                        if joins(leaderLon: l.lon, leaderLat: l.lat, lon: x, lat: y, tolerance: tolerance) { best = g }
                    }
                }
            }
            let g: Int32
            if best == Int32.max {
                g = Int32(r.size.count)
                r.size.append(0); r.centres.append(Centre(lon: x, lat: y)); r.leader.append(Int32(i))
                grid.insert(lon: x, lat: y, g)
            } else {
                g = best
            }
            lastX = x; lastY = y; lastBest = g
            r.centres[Int(g)].add(lon: x, lat: y)
            r.groupOf[i] = g; r.rank[i] = r.size[Int(g)]; r.size[Int(g)] += 1
        }
        return r
    }

    // MARK: - Batch

    /// `pindrop_spread`: the spreading rule over n points (lonlat[2i], lonlat[2i+1]) taken in index order as
    /// their id order, writing the drawn positions to `out` (same count). `out` may be the same
    /// memory as `lonlat`. All or nothing: bad input throws before anything is written.
    public static func spread(lonlat: UnsafeBufferPointer<Double>, tolerance: Double,
                              into out: UnsafeMutableBufferPointer<Double>) throws(PindropError) {
        try spread(lonlat: lonlat, tolerance: tolerance, into: out) { lon, lat, n, place in
            layRing(centerLon: lon, centerLat: lat, n: n, place)
        }
    }

    /// The batch rule's grouping with any layout (the ring, or `SpiralRule`'s spiral):
    /// `layout(centreLon, centreLat, n, place)` calls `place(i, lon, lat)` for each pin i (in id
    /// order) of a group of n >= 2, or throws, before anything is written to `out`.
    static func spread(lonlat: UnsafeBufferPointer<Double>, tolerance: Double,
                       into out: UnsafeMutableBufferPointer<Double>,
                       layout: (Double, Double, Int, (Int, Double, Double) -> Void) throws(PindropError) -> Void)
        throws(PindropError) {
        guard tolerance.isFinite, tolerance >= 0 else {
            throw .invalid("tolerance_m \(tolerance) must be finite and >= 0")
        }
        guard lonlat.count % 2 == 0, out.count == lonlat.count else { throw .invalid("spread needs 2n coordinates in and out") }
        let n = lonlat.count / 2
        guard n < Int(Int32.max) else { throw .invalid("spread takes fewer than 2^31 points (got \(n))") }
        for i in 0..<n {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            // The message is only built for the point that fails.
            if !(x >= -180 && x <= 180 && y >= -90 && y <= 90) { try checkLonLat(x, y, "point \(i)") }
        }
        guard n > 1 else {
            if n == 1, let o = out.baseAddress, let s = lonlat.baseAddress, UnsafePointer(o) != s { o[0] = s[0]; o[1] = s[1] }
            return
        }

        // Pass 1 reads every input: each point's group and rank in it, each group's centre.
        let grouping = group(count: n, tolerance: tolerance) { i in (lonlat[2 * i], lonlat[2 * i + 1]) }
        let groupOf = grouping.groupOf, rank = grouping.rank, size = grouping.size

        // Pass 2 writes: a point alone stays put (copied only when out is other memory).
        // Each group is laid out once into `ring` (its pins' positions in rank order, from `start`),
        // all of them before `out` is written.
        var start = [Int](repeating: 0, count: size.count)
        var total = 0
        for k in size.indices where size[k] > 1 { start[k] = total; total += Int(size[k]) }
        var ring = [Double](repeating: 0, count: 2 * total)
        for k in size.indices where size[k] > 1 {
            let c = grouping.centre(k) { i in (lonlat[2 * i], lonlat[2 * i + 1]) }, s0 = start[k]
            try layout(c.lon, c.lat, Int(size[k])) { i, lon, lat in
                ring[2 * (s0 + i)] = lon; ring[2 * (s0 + i) + 1] = lat
            }
        }
        for i in 0..<n {
            let k = Int(groupOf[i])
            if size[k] == 1 {
                out[2 * i] = lonlat[2 * i]; out[2 * i + 1] = lonlat[2 * i + 1]
            } else {
                let j = start[k] + Int(rank[i])
                out[2 * i] = ring[2 * j]; out[2 * i + 1] = ring[2 * j + 1]
            }
        }
    }
}

/// A ring of n ≥ 2 pins around a centre: pin i (0-based, in id order) is drawn at bearing 2πi/n
/// clockwise from north, 3n/2 metres away on the 6378137 m sphere, by the great-circle destination
/// formula (`Sphere.destination`), with the terms every pin of the ring shares computed once.
struct RingFrame {
    let l1, sinP1, cosD, a, b: Double
    let n: Int

    /// Where the map centres the ring of n pins whose centre is (lon, lat): there, unless the ring
    /// would pass Web Mercator's edge (±85.0511°, `WebMercator.maxLatitude`), where a pin beyond
    /// it is drawn (docs/robustness.md, "Beyond ±85.0511°"). Then the centre moves along its
    /// meridian to the latitude at which the ring reaches the edge: the ring's pin at bearing 0 (or
    /// π, south) lies on the edge point the stack's pins are drawn at, and every other pin is
    /// inside the map, drawn and hit where it lies. The batch function (`SpreadRule.spread`) has no
    /// map and keeps the true centre.
    static func centreOnTheMap(lon: Double, lat: Double, n: Int) -> (lon: Double, lat: Double) {
        let reach = SpreadRule.radius(n) / Sphere.radius * Sphere.degrees * (1 + 1e-9)
        let limit = WebMercator.maxLatitude - reach
        guard limit > 0, abs(lat) > limit else { return (lon, lat) }
        return (lon, lat > 0 ? limit : -limit)
    }

    init(centerLon: Double, centerLat: Double, n: Int) {
        let d = SpreadRule.radius(n) / Sphere.radius
        let p1 = centerLat * Sphere.radians
        let sinD = sin(d)
        l1 = centerLon * Sphere.radians
        sinP1 = sin(p1); cosD = cos(d)
        let cosP1 = cos(p1)
        a = sinP1 * cosD; b = cosP1 * sinD
        self.n = n
    }

    @inline(__always)
    func position(_ i: Int) -> (lon: Double, lat: Double) {
        let bearing = 2 * Double.pi * Double(i) / Double(n)
        let sinP2 = a + b * cos(bearing)
        let p2 = asin(max(-1, min(1, sinP2)))
        let l2 = l1 + atan2(sin(bearing) * b, cosD - sinP1 * sinP2)
        return (Sphere.normalizeLon(l2 * Sphere.degrees), p2 * Sphere.degrees)
    }
}

/// A map from a 128-bit key to an Int32 value (no deletions) on an `OpenTable` at most half full:
/// the batch rule's map from an exact coordinate, or a grid cell, to a group.
struct CellTable {
    /// Key and value side by side: a probe touches one cache line.
    private struct Entry: OpenTableEntry {
        var k0: UInt64, k1: UInt64, value: Int32
        static let vacant = Entry(k0: 0, k1: 0, value: -1)
        var isVacant: Bool { value < 0 }
    }
    private var table: OpenTable<Entry>
    var count: Int { table.count }

    init(expected: Int) { table = OpenTable(capacity: expected, loadEighths: 4) }

    @inline(__always)
    static func hash(_ k: (UInt64, UInt64)) -> UInt64 { OpenHash.of(k.0, k.1) }

    @inline(__always)
    private static func hash(_ e: Entry) -> UInt64 { OpenHash.of(e.k0, e.k1) }

    /// The value stored under `key`, or nil.
    @inline(__always)
    func find(_ key: (UInt64, UInt64)) -> Int32? {
        table.find(Self.hash(key)) { $0.k0 == key.0 && $0.k1 == key.1 }.map { table[$0].value }
    }

    /// The value under `key`; stores `value` (>= 0) there first when the key is new.
    @inline(__always)
    mutating func findOrInsert(_ key: (UInt64, UInt64), _ value: Int32) -> Int32 {
        let r = table.insert(Self.hash(key), { Entry(k0: key.0, k1: key.1, value: value) },
                             matches: { $0.k0 == key.0 && $0.k1 == key.1 }, hashOf: Self.hash)
        return table[r.index].value
    }
}

/// A map from an exact coordinate to an Int32 value on an `OpenTable` at most half full, whose
/// entries hold the value and 32 bits of the coordinate's hash (8 bytes an entry, so a table for
/// a million points stays small): the coordinate a value stands for is read back through
/// `coordinate` only when the hash bits match. Equal numbers are one key (-0.0 and 0.0 too).
struct CoordinateTable {
    /// The low 32 bits of the coordinate's hash (its top bits choose the home) over the value.
    private struct Entry: OpenTableEntry {
        var bits: UInt64
        static let vacant = Entry(bits: .max)
        var isVacant: Bool { bits == .max }
        @inline(__always) var value: Int32 { Int32(truncatingIfNeeded: bits) }
        @inline(__always) var tag: UInt64 { bits >> 32 }
    }
    private var table: OpenTable<Entry>

    init(expected: Int) { table = OpenTable(capacity: expected, loadEighths: 4) }

    /// The value stored for (x, y), or nil.
    @inline(__always)
    func find(_ x: Double, _ y: Double, coordinate: (Int32) -> (Double, Double)) -> Int32? {
        let h = OpenHash.of(x, y), tag = h & 0xFFFF_FFFF
        return table.find(h) { e in
            guard e.tag == tag else { return false }
            let c = coordinate(e.value)
            return c.0 == x && c.1 == y
        }.map { table[$0].value }
    }

    /// The value stored for (x, y); stores `value` (>= 0) first when the coordinate is new (the
    /// caller must then make `coordinate(value)` answer (x, y)).
    @inline(__always)
    mutating func findOrInsert(_ x: Double, _ y: Double, _ value: Int32, coordinate: (Int32) -> (Double, Double)) -> Int32 {
        let h = OpenHash.of(x, y), tag = h & 0xFFFF_FFFF
        let r = table.insert(h, { Entry(bits: tag << 32 | UInt64(UInt32(bitPattern: value))) }, matches: { e in
            guard e.tag == tag else { return false }
            let c = coordinate(e.value)
            return c.0 == x && c.1 == y
        }, hashOf: { e in
            // Growth (not needed when `expected` was right) reads each coordinate back.
            let c = coordinate(e.value)
            return OpenHash.of(c.0, c.1)
        })
        return table[r.index].value
    }
}

/// Group leaders bucketed in a grid over points on the unit sphere in 3-D, whose cells are at
/// least twice the chord of the tolerance: every point within the tolerance of a query lies in one
/// of the (at most 8) cells that the cube of half-side one chord around the query touches. No
/// special case at the poles or the antimeridian.
struct LeaderGrid {
    private var heads: CellTable
    private var next: [Int32] = []      // group -> next group in the same cell, -1 ends
    private var first: [Int32] = []     // cell number -> first group
    private let chord: Double, cell: Double
    /// One bit per hashed cell key, set when a cell holds a leader: most cells around a point are
    /// empty, and this small array answers that without probing the table.
    private var occupied: [UInt64]
    private let occupiedMask: Int

    init(tolerance: Double, expected: Int) {
        let angle = min(Double.pi, tolerance / Sphere.radius)
        chord = 2 * sin(angle / 2) * (1 + 1e-9) + 1e-15
        cell = max(2 * chord, 1.0 / Double(1 << 28))
        heads = CellTable(expected: min(expected, 1 << 20))
        var bits = 1 << 12
        while bits < 8 * expected && bits < 1 << 26 { bits <<= 1 }
        occupied = [UInt64](repeating: 0, count: bits / 64)
        occupiedMask = bits - 1
    }

    @inline(__always)
    private static func unit(_ lon: Double, _ lat: Double) -> (Double, Double, Double) {
        let p = lat * Sphere.radians, l = lon * Sphere.radians
        let c = cos(p)
        return (c * cos(l), c * sin(l), sin(p))
    }

    @inline(__always)
    private static func key(_ i: Int32, _ j: Int32, _ k: Int32) -> (UInt64, UInt64) {
        (UInt64(UInt32(bitPattern: i)) << 32 | UInt64(UInt32(bitPattern: j)), UInt64(UInt32(bitPattern: k)))
    }

    @inline(__always)
    private func index(_ v: Double) -> Int32 { Int32(floor(v / cell)) }

    mutating func insert(lon: Double, lat: Double, _ group: Int32) {
        let (x, y, z) = LeaderGrid.unit(lon, lat)
        let key = LeaderGrid.key(index(x), index(y), index(z))
        let bit = Int(truncatingIfNeeded: CellTable.hash(key) >> 7) & occupiedMask
        occupied[bit >> 6] |= 1 << UInt64(bit & 63)
        let c = heads.findOrInsert(key, Int32(first.count))
        if Int(c) == first.count { first.append(-1) }
        if next.count <= Int(group) { next.append(contentsOf: repeatElement(-1, count: Int(group) + 1 - next.count)) }
        next[Int(group)] = first[Int(c)]
        first[Int(c)] = group
    }

    /// Calls `body` with every group whose leader may be within the tolerance of (lon, lat).
    @inline(__always)
    func forEachNear(lon: Double, lat: Double, _ body: (Int32) -> Void) {
        let (x, y, z) = LeaderGrid.unit(lon, lat)
        let x0 = index(x - chord), x1 = index(x + chord)
        let y0 = index(y - chord), y1 = index(y + chord)
        let z0 = index(z - chord), z1 = index(z + chord)
        for i in x0...x1 {
            for j in y0...y1 {
                for k in z0...z1 {
                    let key = LeaderGrid.key(i, j, k)
                    let bit = Int(truncatingIfNeeded: CellTable.hash(key) >> 7) & occupiedMask
                    guard occupied[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let c = heads.find(key) else { continue }
                    var g = first[Int(c)]
                    while g >= 0 { body(g); g = next[Int(g)] }
                }
            }
        }
    }
}
