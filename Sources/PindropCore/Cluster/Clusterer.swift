#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cluster as the host draws it (`pindrop_cluster_view`).
public struct ClusterView: Sendable, Equatable {
    /// Names the cluster while its pins stay the same: its level, its generation and its slot.
    public var key: UInt64
    public var x, y: Double
    public var lon, lat: Double
    public var count: UInt32
    /// `ClusterSummary.oneSpot` when all its pins share one point.
    public var flags: UInt32 = 0
}

/// The cluster room: the levels (`ClusterLevels`) plus what a view asks of them. The map tells it
/// about pins (slot, id and normalised Web Mercator point) and about the pins kept out of clusters
/// (selected, edited, held); it answers with what to draw for a view, and about clusters by key.
/// It reads no other room and emits no events.
public final class Clusterer {
    public let levels: ClusterLevels
    public let maxZoom: Double
    /// The pins kept out (at most a few): the map draws them as pins whatever the zoom.
    public private(set) var excluded: [Int32] = []
    private var excludedBefore: [Int32] = []
    private var found: [UInt32] = []

    /// Nil when the options cluster nothing (radius 0, or no level below the max zoom).
    public init?(radius: Double, maxZoom: Double, attributes: PinAttributes = PinAttributes(), byCategory: Bool = false,
                 minPoints: Int = 2) {
        guard radius > 0, radius.isFinite, maxZoom > 0 else { return nil }
        levels = ClusterLevels(radius: radius, maxZoom: maxZoom, attributes: attributes, byCategory: byCategory,
                               minPoints: minPoints)
        self.maxZoom = maxZoom
        guard levels.levelCount > 0 else { return nil }
    }

    // MARK: - Pins

    public func pinAdded(_ slot: Int32, id: Int64, mercator m: (x: Double, y: Double)) {
        levels.insert(slot: slot, key: ClusterLevels.orderKey(id: id), x: m.x, y: m.y)
    }

    /// A bulk load (add_many): each pin's order key and normalised point computed once, here.
    public func pinsAdded(_ slots: [Int32], _ pins: PinStore) {
        levels.reserve(slots: pins.capacity)
        pins.coordinates.withBuffer { ll in
            levels.insertMany(slots) { s in
                let i = 2 * Int(s)
                let m = WebMercator.normalized(lon: ll[i], lat: ll[i + 1])
                return (ClusterLevels.orderKey(id: pins.id(s)), m.x, m.y)
            }
        }
    }

    public func pinMoved(_ slot: Int32, mercator m: (x: Double, y: Double)) {
        levels.move(slot: slot, x: m.x, y: m.y)
    }

    /// A pin's value or category is about to change (the attributes still hold the old ones).
    public func pinAttributesWillChange(_ slot: Int32, value: Double, category: UInt32) {
        levels.attributesWillChange(slot: slot, value: value, category: category)
    }

    public func pinWillBeRemoved(_ slot: Int32) {
        levels.remove(slot: slot)
        excluded.removeAll { $0 == slot }
    }

    /// Sets the pins kept out of clusters; the others among the previous ones go back in.
    public func setExcluded(_ slots: [Int32]) {
        for s in excluded where !slots.contains(s) { levels.setExcluded(slot: s, false) }
        // The list is rebuilt in the previous one's buffer (a few slots): nothing is allocated.
        var now = excludedBefore
        excludedBefore = []
        now.removeAll(keepingCapacity: true)
        for s in slots where levels.contains(slot: s) && !now.contains(s) {
            levels.setExcluded(slot: s, true)
            now.append(s)
        }
        excludedBefore = excluded
        excluded = now
    }

    // MARK: - Views

    /// The Web Mercator zoom of a view: the camera's, or for a host projection the zoom whose
    /// ground resolution at the viewport centre is the projection's there (nil if it cannot say).
    public static func zoom(of view: View) -> Double? {
        switch view {
        case .camera(let c): return c.camera.zoom
        case .host:
            let cx = view.width / 2, cy = view.height / 2, h = 2.0
            guard let c = view.toLonLatUnwrapped(cx, cy),
                  let e = view.toLonLatUnwrapped(cx + h, cy), let w = view.toLonLatUnwrapped(cx - h, cy),
                  let s = view.toLonLatUnwrapped(cx, cy + h), let n = view.toLonLatUnwrapped(cx, cy - h)
            else { return nil }
            // Metres per point along both screen axes, averaged.
            let mx = Sphere.distance(w.lon, w.lat, e.lon, e.lat) / (2 * h)
            let my = Sphere.distance(n.lon, n.lat, s.lon, s.lat) / (2 * h)
            let res = (mx + my) / 2
            let lat = min(abs(c.lat), WebMercator.maxLatitude)
            guard res > 0, res.isFinite else { return nil }
            // Web Mercator: cos φ · 2πR metres over 256·2^z points.
            let z = log2(cos(lat * Sphere.radians) * 2 * Double.pi * Sphere.radius / (256 * res))
            return z.isFinite ? z : nil
        }
    }

    /// The level a view draws, or nil when nothing is clustered at its zoom.
    public func level(for view: View) -> Int? {
        guard let z = Self.zoom(of: view) else { return nil }
        return levels.level(forZoom: z)
    }

    /// The screen point of a normalised point in a view.
    @inline(__always)
    private func screen(_ view: View, _ p: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        if case .camera(let c) = view { return c.toScreen(mercator: p) }
        let ll = WebMercator.unproject(x: p.x, y: p.y, worldSize: 1)
        return view.toScreen(ll.lon, ll.lat)
    }

    /// Calls `body` with the items of level z inside the screen rectangle grown by `margin`, and
    /// their screen points.
    private func forEachItem(_ view: View, level z: Int, margin m: Double,
                             _ body: (UInt32, (x: Double, y: Double)) -> Void) -> Bool {
        let w = view.width, h = view.height
        guard let box = view.box(x0: -m, y0: -m, x1: w + m, y1: h + m) else { return false }
        levels.update(level: z)
        found.removeAll(keepingCapacity: true)
        box.split { b in
            let lat0 = max(-WebMercator.maxLatitude, b.minLat), lat1 = min(WebMercator.maxLatitude, b.maxLat)
            let nw = WebMercator.normalized(lon: b.minLon, lat: lat1), se = WebMercator.normalized(lon: b.maxLon, lat: lat0)
            // Pins beyond ±85.05° sit on the world's edge.
            let minY = b.maxLat >= WebMercator.maxLatitude ? 0 : nw.y, maxY = b.minLat <= -WebMercator.maxLatitude ? 1 : se.y
            levels.items(level: z, minX: nw.x, minY: minY, maxX: se.x, maxY: maxY, into: &found)
        }
        for k in found {
            guard let p = screen(view, levels.point(level: z, slot: k)) else { continue }
            if p.x >= -m && p.x <= w + m && p.y >= -m && p.y <= h + m { body(k, p) }
        }
        return true
    }

    /// The clusters to draw in a view (inside the viewport grown by the radius), and the slots of
    /// the unclustered pins that may be drawn in it (inside the viewport grown by `pinMargin`;
    /// the kept-out pins are not among them: see `excluded`). Nil when the view is not clustered.
    public func query(_ view: View, pinMargin: Double, clusters: inout [ClusterView], pins: inout [Int32]) -> Bool {
        guard let z = level(for: view) else { return false }
        let m = max(levels.radius, pinMargin)
        let first = clusters.count
        let drawn = forEachItem(view, level: z, margin: m) { k, p in
            let n = levels.count(level: z, slot: k)
            if n == 1 {
                pins.append(levels.leaf(level: z, slot: k))
            } else if p.x >= -levels.radius && p.x <= view.width + levels.radius
                        && p.y >= -levels.radius && p.y <= view.height + levels.radius {
                let q = levels.point(level: z, slot: k)
                let ll = WebMercator.unproject(x: q.x, y: q.y, worldSize: 1)
                clusters.append(ClusterView(key: UInt64(k), x: p.x, y: p.y, lon: ll.lon, lat: ll.lat, count: n))
            }
        }
        // Keys and flags from the level's summaries, read once the level is up to date (an update
        // that rebuilds it makes new ones).
        let held = levels.summaries.levels[z]
        held.generations.withUnsafeBufferPointer { g in
            for i in first..<clusters.count {
                let k = UInt32(truncatingIfNeeded: clusters[i].key)
                clusters[i].key = Self.key(z, g[Int(k)], k)
                clusters[i].flags = held.flags(k)
            }
        }
        return drawn
    }

    /// Fills `found` with the items of level z that may lie within `r` points of (x, y) in a view.
    private func findItems(_ view: View, level z: Int, nearX x: Double, _ y: Double, radius r: Double) {
        levels.update(level: z)
        found.removeAll(keepingCapacity: true)
        guard let box = view.discBox(x: x, y: y, r: r) else { return }
        box.split { b in
            let nw = WebMercator.normalized(lon: b.minLon, lat: min(WebMercator.maxLatitude, b.maxLat))
            let se = WebMercator.normalized(lon: b.maxLon, lat: max(-WebMercator.maxLatitude, b.minLat))
            levels.items(level: z, minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y, into: &found)
        }
    }

    /// The cluster drawn nearest to (x, y) within `radius` points in a view, if any.
    public func hit(_ view: View, x: Double, y: Double, radius r: Double) -> (view: ClusterView, d2: Double)? {
        guard let z = level(for: view) else { return nil }
        var best: (ClusterView, Double)?
        findItems(view, level: z, nearX: x, y, radius: r)
        for k in found where levels.count(level: z, slot: k) >= 2 {
            guard let p = screen(view, levels.point(level: z, slot: k)) else { continue }
            let d2 = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
            guard d2 <= r * r, best == nil || d2 < best!.1 else { continue }
            let q = levels.point(level: z, slot: k)
            let ll = WebMercator.unproject(x: q.x, y: q.y, worldSize: 1)
            best = (ClusterView(key: key(z, k), x: p.x, y: p.y, lon: ll.lon, lat: ll.lat,
                                count: levels.count(level: z, slot: k), flags: levels.summaries.levels[z].flags(k)), d2)
        }
        return best
    }

    /// The unclustered pins whose point lies within `radius` points of (x, y) in a view (their
    /// slots, appended): hit-test candidates. False when the view is not clustered.
    public func pins(_ view: View, near x: Double, _ y: Double, radius r: Double, into out: inout [Int32]) -> Bool {
        guard let z = level(for: view) else { return false }
        findItems(view, level: z, nearX: x, y, radius: r)
        for k in found where levels.count(level: z, slot: k) == 1 { out.append(levels.leaf(level: z, slot: k)) }
        return true
    }

    /// Whether a pin is inside a cluster at level z (so it is not drawn, and cannot be touched).
    public func isClustered(_ slot: Int32, level z: Int) -> Bool {
        levels.update(level: z)
        guard let item = levels.item(holding: slot, level: z) else { return false }
        return levels.count(level: z, slot: item) >= 2
    }

    // MARK: - Clusters by key

    /// A cluster's key: bit 63 clear (a stack's key has its top five bits set), its level + 1
    /// (5 bits), its generation (26 bits) and its slot (32 bits). The generation changes whenever
    /// the item's pins do, so a key never names another cluster (until 2^26 generations later, when
    /// the same slot of the same level also comes round).
    func key(_ level: Int, _ slot: UInt32) -> UInt64 { Self.key(level, levels.summaries.generation(level, slot), slot) }

    @inline(__always)
    static func key(_ level: Int, _ generation: UInt32, _ slot: UInt32) -> UInt64 {
        UInt64(level + 1) << 58 | UInt64(generation) << 32 | UInt64(slot)
    }

    private func item(_ key: UInt64) -> (Int, UInt32)? {
        guard key >> 63 == 0 else { return nil }
        let z = Int(key >> 58) - 1, s = UInt32(truncatingIfNeeded: key)
        let g = UInt32(truncatingIfNeeded: key >> 32) & (1 << UInt32(ClusterSummaries.generationBits) - 1)
        guard z >= 0, z < levels.levelCount else { return nil }
        levels.update(level: z)
        guard levels.isItem(level: z, slot: s), levels.count(level: z, slot: s) >= 2,
              levels.summaries.generation(z, s) == g else { return nil }
        return (z, s)
    }

    /// What a cluster holds, or nil for an unknown or stale key.
    public func summary(_ key: UInt64) -> ClusterSummary? {
        guard let (z, s) = item(key) else { return nil }
        return levels.summaries.item(z, s).summary
    }

    /// A cluster's categories with their counts, most pins first (ties by lower category); false
    /// for an unknown or stale key.
    public func categories(_ key: UInt64, into out: inout [CategoryCount]) -> Bool {
        guard let (z, s) = item(key) else { return false }
        levels.summaries.categories(z, s, into: &out)
        return true
    }

    /// Whether the key names a cluster now: the pins it named when it was handed out, unchanged.
    public func isValid(_ key: UInt64) -> Bool { item(key) != nil }

    /// The slots of a cluster's pins, or nil for an unknown key.
    public func members(_ key: UInt64, into out: inout [Int32]) -> Bool {
        guard let (z, s) = item(key) else { return false }
        levels.members(level: z, slot: s, into: &out)
        return true
    }

    /// The lowest zoom at which a cluster's pins are no longer one item (at most the max zoom).
    public func expansionZoom(_ key: UInt64) -> Double? {
        guard let (z, s) = item(key) else { return nil }
        return min(Double(levels.expansionLevel(level: z, slot: s)), maxZoom)
    }
}
