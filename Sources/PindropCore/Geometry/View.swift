#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built-in camera: Web Mercator with a centre, zoom, clockwise bearing and viewport size.
public struct Camera: Sendable, Equatable {
    public var centerLon, centerLat, zoom, bearingDeg, width, height: Double

    public init(centerLon: Double, centerLat: Double, zoom: Double, bearingDeg: Double = 0,
                width: Double, height: Double) {
        self.centerLon = centerLon; self.centerLat = centerLat; self.zoom = zoom
        self.bearingDeg = bearingDeg; self.width = width; self.height = height
    }

    public func validate() throws(PindropError) {
        try checkLonLat(centerLon, centerLat, "camera centre")
        guard abs(centerLat) <= WebMercator.maxLatitude else {
            throw .invalid("camera centre latitude \(centerLat) is beyond Web Mercator's ±\(WebMercator.maxLatitude)")
        }
        guard zoom.isFinite, zoom >= 0, zoom <= 30 else { throw .invalid("camera zoom \(zoom) is outside [0, 30]") }
        try InputRange.checkBearing(bearingDeg)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw .invalid("camera viewport \(width)x\(height) must be finite and > 0")
        }
    }
}

/// How (lon, lat) and screen points relate: the built-in camera or the host's projection.
public enum View {
    case camera(CameraTransform)
    case host(HostProjection)

    public var width: Double {
        switch self { case .camera(let c): c.camera.width; case .host(let h): h.width }
    }
    public var height: Double {
        switch self { case .camera(let c): c.camera.height; case .host(let h): h.height }
    }

    /// Screen point of (lon, lat), or nil when the view cannot place it: a host projection that
    /// fails, or a point with no finite screen position (a pole in Web Mercator).
    @inline(__always)
    public func toScreen(_ lon: Double, _ lat: Double) -> (x: Double, y: Double)? {
        switch self {
        case .camera(let c):
            let p = c.toScreen(lon, lat)
            return p.x.isFinite && p.y.isFinite ? p : nil
        case .host(let h):
            guard let p = h.project(lon, lat), p.x.isFinite, p.y.isFinite else { return nil }
            return p
        }
    }

    /// (lon, lat) under a screen point; the camera gives an unwrapped longitude (it may lie past
    /// ±180 when the view crosses the antimeridian). Nil when a host projection fails.
    @inline(__always)
    public func toLonLatUnwrapped(_ x: Double, _ y: Double) -> (lon: Double, lat: Double)? {
        switch self {
        case .camera(let c): return c.toLonLat(x, y)
        case .host(let h):
            guard let p = h.unproject(x, y), p.lon.isFinite, p.lat.isFinite else { return nil }
            return p
        }
    }

    /// A lon/lat box covering the screen disc of radius r around (x, y). The camera turns the
    /// screen by a rotation, which keeps the disc a disc: its box is the world square ±r around
    /// the centre at any bearing (a turned screen square would cover up to twice the area).
    @inline(__always)
    public func discBox(x: Double, y: Double, r: Double) -> GeoBox? {
        guard case .camera(let c) = self else { return box(x0: x - r, y0: y - r, x1: x + r, y1: y + r) }
        let w = c.toWorld(x, y)
        let nw = WebMercator.unproject(x: w.lon - r, y: w.lat - r, worldSize: c.worldSize)
        let se = WebMercator.unproject(x: w.lon + r, y: w.lat + r, worldSize: c.worldSize)
        return c.reachingPastTheEdges(GeoBox(minLon: nw.lon, minLat: se.lat, maxLon: se.lon, maxLat: nw.lat),
                                      minY: w.lat - r, maxY: w.lat + r)
    }

    /// A lon/lat box covering the screen rectangle [x0, x1] × [y0, y1]. Allocation-free: it runs
    /// on every frame.
    public func box(x0: Double, y0: Double, x1: Double, y1: Double) -> GeoBox? {
        switch self {
        case .camera(let c):
            // The camera maps screen to Mercator by a similarity, and Mercator to lon/lat
            // monotonically per axis, so the corners bound the rectangle.
            // Bound the corners in world points (cheap arithmetic), then unproject only the two
            // extreme latitudes: longitude is linear in world x.
            var b = BoxAccumulator()
            b.add(c.toWorld(x0, y0)); b.add(c.toWorld(x1, y0))
            b.add(c.toWorld(x0, y1)); b.add(c.toWorld(x1, y1))
            let nw = WebMercator.unproject(x: b.minLon, y: b.minLat, worldSize: c.worldSize)
            let se = WebMercator.unproject(x: b.maxLon, y: b.maxLat, worldSize: c.worldSize)
            return c.reachingPastTheEdges(GeoBox(minLon: nw.lon, minLat: se.lat, maxLon: se.lon, maxLat: nw.lat),
                                          minY: b.minLat, maxY: b.maxLat)
        case .host(let h):
            // A host projection may bend: sample the edges too and pad the result. A host gives
            // longitudes in [-180, 180]: a view across the antimeridian shows up as a spread of
            // more than 180°, so the box is also accumulated with western longitudes shifted by 360.
            var plain = BoxAccumulator(), shifted = BoxAccumulator()
            func add(_ px: Double, _ py: Double) -> Bool {
                guard let p = h.unproject(px, py), p.lon.isFinite, p.lat.isFinite else { return false }
                plain.add(p)
                shifted.add((p.lon < 0 ? p.lon + 360 : p.lon, p.lat))
                return true
            }
            let n = 8
            for i in 0...n {
                let t = Double(i) / Double(n)
                let x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t
                guard add(x, y0), add(x, y1), add(x0, y), add(x1, y) else { return nil }
            }
            return plain.maxLon - plain.minLon > 180 ? shifted.box(pad: 0.1) : plain.box(pad: 0.1)
        }
    }
}

/// The running bounds of a few (lon, lat) points.
struct BoxAccumulator {
    var minLon = Double.infinity, maxLon = -Double.infinity
    var minLat = Double.infinity, maxLat = -Double.infinity

    @inline(__always)
    mutating func add(_ p: (lon: Double, lat: Double)) {
        minLon = min(minLon, p.lon); maxLon = max(maxLon, p.lon)
        minLat = min(minLat, p.lat); maxLat = max(maxLat, p.lat)
    }

    /// The bounds grown by `pad` times their size on each side.
    @inline(__always)
    func box(pad: Double) -> GeoBox {
        let padLon = (maxLon - minLon) * pad, padLat = (maxLat - minLat) * pad
        return GeoBox(minLon: minLon - padLon, minLat: minLat - padLat, maxLon: maxLon + padLon, maxLat: maxLat + padLat)
    }
}

/// The camera with its derived values computed once per `set_camera`.
public struct CameraTransform: Sendable {
    public let camera: Camera
    public let worldSize: Double
    let centerX, centerY, cosB, sinB, halfW, halfH: Double

    public init(_ camera: Camera) {
        self.camera = camera
        worldSize = WebMercator.worldSize(zoom: camera.zoom)
        let c = WebMercator.project(lon: camera.centerLon, lat: camera.centerLat, worldSize: worldSize)
        centerX = c.x; centerY = c.y
        let b = camera.bearingDeg * Sphere.radians
        cosB = cos(b); sinB = sin(b)
        halfW = camera.width / 2; halfH = camera.height / 2
    }

    /// Screen point of (lon, lat) on the copy of the world nearest the centre.
    @inline(__always)
    public func toScreen(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        toScreen(mercator: WebMercator.normalized(lon: lon, lat: lat))
    }

    /// Screen point of a point that a screen point gave (a drag's landing point, a spread
    /// layout's): `WebMercator.unclamped`, so that beyond ±85.0511° it stays where it was laid out.
    @inline(__always)
    public func toScreen(laidOut lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        toScreen(mercator: WebMercator.unclamped(lon: lon, lat: lat))
    }

    /// Screen point of a normalised world point (`WebMercator.normalized`): the same numbers as
    /// `toScreen(lon, lat)`, by multiplications and additions only.
    @inline(__always)
    public func toScreen(mercator m: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let p = WebMercator.scale(m, worldSize: worldSize)
        var dx = p.x - centerX
        let half = worldSize / 2
        if dx > half { dx -= worldSize } else if dx < -half { dx += worldSize }
        let dy = p.y - centerY
        // Bearing θ turns the map so that θ points up: rotate the world offset by −θ.
        return (halfW + dx * cosB + dy * sinB, halfH - dx * sinB + dy * cosB)
    }

    /// A box whose world rows reach the world's north edge (y 0) or south edge (y worldSize)
    /// grown to latitude 90 or -90 there: pins beyond ±85.0511° are drawn on the edge.
    @inline(__always)
    func reachingPastTheEdges(_ box: GeoBox, minY: Double, maxY: Double) -> GeoBox {
        var b = box
        if minY <= 0 { b.maxLat = 90 }
        if maxY >= worldSize { b.minLat = -90 }
        return b
    }

    /// (lon, lat) under a screen point; the longitude is not wrapped.
    @inline(__always)
    public func toLonLat(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        let w = toWorld(x, y)
        return WebMercator.unproject(x: w.lon, y: w.lat, worldSize: worldSize)
    }

    /// The world point (Mercator points, unwrapped) under a screen point, labelled (lon, lat) so
    /// that a `BoxAccumulator` can bound it.
    @inline(__always)
    func toWorld(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        let sx = x - halfW, sy = y - halfH
        return (centerX + sx * cosB - sy * sinB, centerY + sx * sinB + sy * cosB)
    }
}

/// The host's own projection (any CRS), as closures the C layer builds from its callbacks.
public struct HostProjection {
    public let project: (Double, Double) -> (x: Double, y: Double)?
    public let unproject: (Double, Double) -> (lon: Double, lat: Double)?
    public let width: Double, height: Double

    public init(width: Double, height: Double,
                project: @escaping (Double, Double) -> (x: Double, y: Double)?,
                unproject: @escaping (Double, Double) -> (lon: Double, lat: Double)?) {
        self.project = project; self.unproject = unproject; self.width = width; self.height = height
    }
}
