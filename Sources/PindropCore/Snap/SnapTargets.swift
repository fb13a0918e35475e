#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a dragged pin snapped to (`pindrop_snap`).
public struct SnapHit: Sendable, Equatable {
    public enum Kind: Int32, Sendable { case none = 0, pin = 1, vertex = 2, segment = 3 }
    public var kind: Kind
    /// The snap layer (0 for a pin).
    public var layer: UInt32
    /// The feature's id, or the pin's id.
    public var feature: Int64
    /// The vertex, or the segment's first vertex, in the feature (0 for a pin).
    public var index: Int64
    /// The snapped point.
    public var lon, lat: Double

    public init(kind: Kind, layer: UInt32, feature: Int64, index: Int64, lon: Double, lat: Double) {
        self.kind = kind; self.layer = layer; self.feature = feature; self.index = index
        self.lon = lon; self.lat = lat
    }

    public static let none = SnapHit(kind: .none, layer: 0, feature: 0, index: 0, lon: 0, lat: 0)
}

/// One vertex or segment of a snap layer, in the normalised Web Mercator plane: a vertex at
/// (x0, y0) = (x1, y1) with its exact lon, lat; a segment from (x0, y0) to (x1, y1).
struct SnapItem {
    var x0, y0, x1, y1: Double
    var lon, lat: Double
    var feature: Int64
    var index: Int64
    var layer: UInt32
    var isSegment: Bool
    /// A segment's end vertices: the first is `firstBack` items before it, the second 1 item.
    var firstBack: Int32 = 0
    /// Whether the item is in the tree: segments, and vertices of point parts. A line's vertex is
    /// found through its segments (its point lies in their boxes), so the tree holds half as many
    /// items.
    var inTree: Bool
}

/// The snap layers of a map and their tree: the items of every layer (lower layers first), and
/// the ranking of behaviour 24 over the candidates the tree returns.
struct SnapTargets {
    /// The layers in ascending number, each with its items.
    private(set) var layers: [(layer: UInt32, items: [SnapItem])] = []
    /// Every layer's items, concatenated in layer order; the tree's item k is items[treeItems[k]].
    private(set) var items: [SnapItem] = []
    private var treeItems: [Int32] = []
    private(set) var index: SnapIndex?
    private var candidates: [Int32] = []

    var isEmpty: Bool { items.isEmpty }

    /// The items of a layer's features: each vertex, then each segment of its line parts.
    static func items(of features: [SnapFeature], layer: UInt32) -> [SnapItem] {
        var out: [SnapItem] = []
        var n = 0
        for f in features { n += 2 * f.vertexCount }
        out.reserveCapacity(n)
        for f in features {
            var first = 0
            var prev = (x: 0.0, y: 0.0)
            for (part, end) in f.partEnd.enumerated() {
                for v in first..<end {
                    let lon = f.lonlat[2 * v], lat = f.lonlat[2 * v + 1]
                    let m = SnapTargets.mercator(lon, lat)
                    let line = f.partIsLine[part] && end - first > 1
                    out.append(SnapItem(x0: m.x, y0: m.y, x1: m.x, y1: m.y, lon: lon, lat: lat,
                                        feature: f.id, index: Int64(v), layer: layer, isSegment: false, inTree: !line))
                    if line && v > first {
                        // Vertex v - 1 is 3 items back (it, then the segment before it, then v), or
                        // 2 for the part's first segment.
                        out.append(SnapItem(x0: prev.x, y0: prev.y, x1: m.x, y1: m.y, lon: 0, lat: 0,
                                            feature: f.id, index: Int64(v - 1), layer: layer, isSegment: true,
                                            firstBack: v - 1 == first ? 2 : 3, inTree: true))
                    }
                    prev = m
                }
                first = end
            }
        }
        return out
    }

    /// A coordinate of a snap layer in the normalised plane (beyond ±85.0511° on the world's edge).
    @inline(__always)
    static func mercator(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        WebMercator.normalized(lon: lon, lat: min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, lat)))
    }

    /// Replaces one layer's items (empty: removes the layer) and rebuilds the tree.
    mutating func replace(layer: UInt32, with newItems: [SnapItem], factory: IndexFactory) {
        if let k = layers.firstIndex(where: { $0.layer == layer }) {
            if newItems.isEmpty { layers.remove(at: k) } else { layers[k].items = newItems }
        } else if !newItems.isEmpty {
            let k = layers.firstIndex(where: { $0.layer > layer }) ?? layers.count
            layers.insert((layer, newItems), at: k)
        }
        items.removeAll(keepingCapacity: true)
        for l in layers { items.append(contentsOf: l.items) }
        if index == nil && !items.isEmpty { index = factory.makeSnapIndex() }
        treeItems.removeAll(keepingCapacity: true)
        var boxes: [Double] = []
        boxes.reserveCapacity(4 * items.count)
        for (i, t) in items.enumerated() where t.inTree {
            treeItems.append(Int32(i))
            boxes.append(min(t.x0, t.x1)); boxes.append(min(t.y0, t.y1))
            boxes.append(max(t.x0, t.x1)); boxes.append(max(t.y0, t.y1))
        }
        boxes.withUnsafeBufferPointer { index?.build(boxes: $0) }
    }

    /// The best layer target within `tolerance` (normalised units) of (x, y), as behaviour 24
    /// ranks them: a vertex within tolerance wins over any segment; among one kind the nearest,
    /// then the lower layer, then the lower feature id, then the lower index. Distances are
    /// compared squared, in the plane. Nil when nothing is within tolerance.
    mutating func nearest(x: Double, y: Double, tolerance r: Double) -> (hit: SnapHit, d2: Double)? {
        guard let index, !items.isEmpty else { return nil }
        candidates.removeAll(keepingCapacity: true)
        index.query(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r, into: &candidates)
        let r2 = r * r
        var best = -1, bestD2 = Double.infinity, bestIsSegment = true
        var bestPoint = (x: 0.0, y: 0.0)
        @inline(__always) func consider(_ k: Int) {
            let t = items[k]
            let q = t.isSegment ? SnapTargets.nearestOnSegment(x, y, t) : (t.x0, t.y0)
            let dx = q.0 - x, dy = q.1 - y
            let d2 = dx * dx + dy * dy
            guard d2 <= r2 else { return }
            if best >= 0 && !SnapTargets.ranksBefore(t, d2, items[best], bestD2, bestIsSegment) { return }
            best = k; bestD2 = d2; bestIsSegment = t.isSegment; bestPoint = q
        }
        for c in candidates {
            let k = Int(treeItems[Int(c)])
            consider(k)
            // A segment brings its end vertices (a vertex within reach lies in its segments' boxes).
            if items[k].isSegment { consider(k - Int(items[k].firstBack)); consider(k - 1) }
        }
        guard best >= 0 else { return nil }
        let t = items[best]
        if t.isSegment {
            let ll = SnapTargets.lonLat(bestPoint.x, bestPoint.y)
            return (SnapHit(kind: .segment, layer: t.layer, feature: t.feature, index: t.index, lon: ll.lon, lat: ll.lat), bestD2)
        }
        return (SnapHit(kind: .vertex, layer: t.layer, feature: t.feature, index: t.index, lon: t.lon, lat: t.lat), bestD2)
    }

    /// Whether item a at squared distance da ranks before item b at db.
    @inline(__always)
    static func ranksBefore(_ a: SnapItem, _ da: Double, _ b: SnapItem, _ db: Double, _ bIsSegment: Bool) -> Bool {
        if a.isSegment != bIsSegment { return !a.isSegment }
        if da != db { return da < db }
        if a.layer != b.layer { return a.layer < b.layer }
        if a.feature != b.feature { return a.feature < b.feature }
        return a.index < b.index
    }

    /// The point of segment t nearest to (x, y) in the plane: the projection clamped to the ends.
    @inline(__always)
    static func nearestOnSegment(_ x: Double, _ y: Double, _ t: SnapItem) -> (Double, Double) {
        let ux = t.x1 - t.x0, uy = t.y1 - t.y0
        let len2 = ux * ux + uy * uy
        guard len2 > 0 else { return (t.x0, t.y0) }
        let k = min(1, max(0, ((x - t.x0) * ux + (y - t.y0) * uy) / len2))
        if k == 0 { return (t.x0, t.y0) }
        if k == 1 { return (t.x1, t.y1) }
        return (t.x0 + k * ux, t.y0 + k * uy)
    }

    /// (lon, lat) of a point of the normalised plane.
    @inline(__always)
    static func lonLat(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        let p = WebMercator.unproject(x: x, y: y, worldSize: 1)
        return (min(180, max(-180, p.lon)), p.lat)
    }
}
