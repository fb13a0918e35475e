#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The area pins may be dropped in (docs/editing.md, "Allowed area"): polygons in lon/lat. Points on the
/// boundary count as inside, so a pin snapped onto the boundary is allowed.
public protocol AllowedArea: AnyObject {
    /// Whether (lon, lat) lies inside the area or on its boundary.
    func contains(lon: Double, lat: Double) -> Bool
    /// The point of the area nearest to (lon, lat) in metres: (lon, lat) itself when it is inside,
    /// else a point on the boundary (nudged inward when rounding put it just outside). The result
    /// always tests as inside.
    func nearestInside(lon: Double, lat: Double) -> (lon: Double, lat: Double)
}

extension IndexFactory {
    /// Factories without a geometry reader cannot read areas; PindropGEOSIndex's GEOSFactory can.
    public func parseArea(_ text: String) throws(PindropError) -> AllowedArea {
        throw PindropError(.state, "allowed areas are read with GEOS; this map was built without it (\(type(of: self)))")
    }
}

/// The rings of an area (exteriors and holes of every polygon) as flat coordinate arrays: the
/// part of the geometry that snapping needs, whoever tests containment.
public struct AreaRings: Sendable {
    public private(set) var lon: [Double] = []
    public private(set) var lat: [Double] = []
    /// One past the last vertex of each ring; rings are closed (the last vertex repeats the first).
    public private(set) var ringEnd: [Int] = []
    public private(set) var minLon = Double.infinity, minLat = Double.infinity
    public private(set) var maxLon = -Double.infinity, maxLat = -Double.infinity
    /// Runs of up to `chunkSize` consecutive edges of one ring (edge i joins vertices i and i + 1)
    /// with their boxes (minLon, minLat, maxLon, maxLat): the nearest-point search skips a run
    /// whose box is farther than the best edge found so far.
    private var chunkEdges: [(first: Int, end: Int)] = []
    private var chunkBox: [Double] = []
    static let chunkSize = 32

    public init() {}

    public var vertexCount: Int { lon.count }

    /// Appends a ring given as interleaved lon, lat pairs; closes it when it is open.
    public mutating func appendRing(_ lonlat: UnsafeBufferPointer<Double>) {
        let n = lonlat.count / 2
        guard n > 0 else { return }
        for i in 0..<n { appendVertex(lonlat[2 * i], lonlat[2 * i + 1]) }
        let first = ringEnd.last ?? 0
        if lonlat[0] != lonlat[2 * n - 2] || lonlat[1] != lonlat[2 * n - 1] { appendVertex(lonlat[0], lonlat[1]) }
        ringEnd.append(lon.count)
        var i = first
        while i + 1 < lon.count {
            let last = min(i + AreaRings.chunkSize, lon.count - 1)  // edges i ..< last
            var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for v in i...last {
                box = (min(box.0, lon[v]), min(box.1, lat[v]), max(box.2, lon[v]), max(box.3, lat[v]))
            }
            chunkEdges.append((i, last))
            chunkBox.append(contentsOf: [box.0, box.1, box.2, box.3])
            i = last
        }
    }

    public mutating func appendRing(_ points: [(lon: Double, lat: Double)]) {
        var flat: [Double] = []
        flat.reserveCapacity(points.count * 2)
        for p in points { flat.append(p.lon); flat.append(p.lat) }
        flat.withUnsafeBufferPointer { appendRing($0) }
    }

    private mutating func appendVertex(_ x: Double, _ y: Double) {
        lon.append(x); lat.append(y)
        minLon = min(minLon, x); maxLon = max(maxLon, x)
        minLat = min(minLat, y); maxLat = max(maxLat, y)
    }

    @inline(__always)
    public func boxContains(lon x: Double, lat y: Double) -> Bool {
        x >= minLon && x <= maxLon && y >= minLat && y <= maxLat
    }

    /// The boundary point nearest to (lon, lat), measured in metres in a local equirectangular
    /// frame around (lon, lat) (east scaled by cos(lat), longitude differences wrapped): exact
    /// for the distances a drop is snapped over, a close approximation for faraway areas. The
    /// point is interpolated on the original coordinates, so a vertex is returned bit for bit.
    public func nearestBoundaryPoint(lon x0: Double, lat y0: Double) -> (lon: Double, lat: Double)? {
        let k = cos(y0 * Sphere.radians)
        // Runs nearest first by the distance to their box (a lower bound for their edges).
        var order: [(bound: Double, chunk: Int)] = []
        order.reserveCapacity(chunkEdges.count)
        for c in chunkEdges.indices {
            let b = 4 * c
            let dx: Double
            if x0 >= chunkBox[b] && x0 <= chunkBox[b + 2] { dx = 0 }
            else { dx = min(abs(wrap(chunkBox[b] - x0)), abs(wrap(x0 - chunkBox[b + 2]))) * k }
            let dy = max(0, chunkBox[b + 1] - y0, y0 - chunkBox[b + 3])
            order.append((dx * dx + dy * dy, c))
        }
        order.sort { $0.bound < $1.bound }
        var best = Double.infinity
        var bestI = -1
        var bestT = 0.0
        lon.withUnsafeBufferPointer { xs in
            lat.withUnsafeBufferPointer { ys in
                for (bound, c) in order {
                    if bound > best { break }
                    var i = chunkEdges[c].first
                    let end = chunkEdges[c].end
                    while i < end {
                        let ax = wrap(xs[i] - x0) * k, ay = ys[i] - y0
                        let dx = wrap(xs[i + 1] - xs[i]) * k, dy = ys[i + 1] - ys[i]
                        let dd = dx * dx + dy * dy
                        var t = dd > 0 ? -(ax * dx + ay * dy) / dd : 0
                        t = t < 0 ? 0 : (t > 1 ? 1 : t)
                        let px = ax + t * dx, py = ay + t * dy
                        let d2 = px * px + py * py
                        if d2 < best { best = d2; bestI = i; bestT = t }
                        i += 1
                    }
                }
            }
        }
        guard bestI >= 0 else { return nil }
        if bestT == 0 { return (lon[bestI], lat[bestI]) }
        if bestT == 1 { return (lon[bestI + 1], lat[bestI + 1]) }
        let x = lon[bestI] + bestT * wrap(lon[bestI + 1] - lon[bestI])
        let y = lat[bestI] + bestT * (lat[bestI + 1] - lat[bestI])
        return (Sphere.normalizeLon(x), y)
    }

    /// The vertex nearest to (lon, lat) (in the same frame): on the boundary, so inside.
    func nearestVertex(lon x0: Double, lat y0: Double) -> (lon: Double, lat: Double)? {
        let k = cos(y0 * Sphere.radians)
        var best = Double.infinity, bestI = -1
        for i in lon.indices {
            let dx = wrap(lon[i] - x0) * k, dy = lat[i] - y0
            let d2 = dx * dx + dy * dy
            if d2 < best { best = d2; bestI = i }
        }
        return bestI < 0 ? nil : (lon[bestI], lat[bestI])
    }

    /// The nearest point of the area to (lon, lat) that `contains` accepts: the point itself, or
    /// the nearest boundary point, or that point pushed inward by the smallest step that makes it
    /// test as inside (rounding of the interpolation may leave it a hair outside), or as a last
    /// resort the nearest vertex (a vertex lies on the boundary).
    public func nearestInside(lon x0: Double, lat y0: Double,
                              contains: (Double, Double) -> Bool) -> (lon: Double, lat: Double) {
        if contains(x0, y0) { return (x0, y0) }
        guard let p = nearestBoundaryPoint(lon: x0, lat: y0) else { return (x0, y0) }
        if contains(p.lon, p.lat) { return p }
        let k = max(cos(p.lat * Sphere.radians), 1e-9)
        // Onward along the drop → boundary direction enters the area at an edge (it is the edge's
        // normal there); around a sharp corner try a small circle of directions.
        var ux = wrap(p.lon - x0) * k, uy = p.lat - y0
        let n = (ux * ux + uy * uy).squareRoot()
        if n > 0 { ux /= n; uy /= n }
        var step = 1e-12  // degrees of latitude: about 0.1 µm
        while step < 1e-5 {
            if n > 0, let q = accept(p.lon + ux * step / k, p.lat + uy * step, contains) { return q }
            for j in 0..<16 {
                let a = Double(j) * (Double.pi / 8)
                if let q = accept(p.lon + cos(a) * step / k, p.lat + sin(a) * step, contains) { return q }
            }
            step *= 4
        }
        return nearestVertex(lon: x0, lat: y0) ?? p
    }

    private func accept(_ x: Double, _ y: Double, _ contains: (Double, Double) -> Bool) -> (lon: Double, lat: Double)? {
        let q = (lon: Sphere.normalizeLon(x), lat: min(90, max(-90, y)))
        return contains(q.lon, q.lat) ? q : nil
    }
}

/// A longitude difference brought into [-180, 180].
@inline(__always)
private func wrap(_ d: Double) -> Double {
    d > 180 ? d - 360 : (d < -180 ? d + 360 : d)
}
