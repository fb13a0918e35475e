#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Behaviour 17 on a map: where the pins of a spiral group (`SpreadMode.spiral`) are drawn in the
/// current view. The layout is in screen points (`SpiralRule`), so a pin's drawn lon/lat depends
/// on the view: the spreading room hands the view in on every change (`setView`) and asks for
/// positions with the group's centre; `stamp` tells it when remembered positions are out of date.
///
/// The built-in camera adds the offsets to the centre's Web Mercator world point (north up), so
/// the layout turns with the map and keeps its size in points at every zoom. A host projection is
/// asked for the centre's screen point and for the screen directions of north and east there, and
/// the drawn points are unprojected from the screen.
struct SpiralPlacement {
    let spacing: Double
    private(set) var view: View
    /// Changes with every view: positions computed under another stamp are out of date.
    private(set) var stamp: UInt64 = 1
    /// Offsets (dx, dy interleaved, id order) of a group of n, for this spacing.
    private var offsetsByCount: [Int: [Double]] = [:]
    /// Per size class of the spreading room: the largest distance in points of a pin from its
    /// group's centre among the groups laid out in that class (an upper bound; 0 when none).
    private(set) var classExtent: [Double]

    init(spacing: Double, view: View, classes: Int) {
        self.spacing = spacing
        self.view = view
        classExtent = [Double](repeating: 0, count: classes)
    }

    mutating func setView(_ v: View) {
        view = v
        stamp &+= 1
    }

    /// The offsets of a group of n (remembered per n).
    mutating func offsets(_ n: Int) -> [Double] {
        if let o = offsetsByCount[n] { return o }
        var o = [Double](repeating: 0, count: 2 * n)
        SpiralRule.forEachOffset(n: n, spacing: spacing) { k, dx, dy in o[2 * k] = dx; o[2 * k + 1] = dy }
        offsetsByCount[n] = o
        return o
    }

    /// A group of n was laid out in size class k.
    mutating func noteGroup(count n: Int, sizeClass k: Int) {
        let o = offsets(n)
        // Pin 0 is the outermost of a spiral; a circle's pins are all at one distance.
        classExtent[k] = max(classExtent[k], (o[0] * o[0] + o[1] * o[1]).squareRoot())
    }

    /// The last group of size class k is gone.
    mutating func classEmptied(_ k: Int) { classExtent[k] = 0 }

    /// Where the pin with offset (dx, dy) of a group centred at (lon, lat) is drawn in the current
    /// view; nil when the view cannot place the centre (a pole, or a failing host projection).
    func position(centreLon lon: Double, centreLat lat: Double, dx: Double, dy: Double) -> (lon: Double, lat: Double)? {
        switch view {
        case .camera(let c):
            guard abs(lat) < 90 else { return nil }
            let w = WebMercator.project(lon: lon, lat: lat, worldSize: c.worldSize)
            let p = WebMercator.unproject(x: w.x + dx, y: w.y + dy, worldSize: c.worldSize)
            return (Sphere.normalizeLon(p.lon), p.lat)
        case .host(let h):
            guard let axes = hostAxes(h, lon, lat) else { return nil }
            let x = axes.origin.x + dx * axes.east.x - dy * axes.north.x
            let y = axes.origin.y + dx * axes.east.y - dy * axes.north.y
            guard let p = h.unproject(x, y), p.lon.isFinite, p.lat.isFinite else { return nil }
            return (Sphere.normalizeLon(p.lon), min(90, max(-90, p.lat)))
        }
    }

    /// A host projection's screen point of (lon, lat) and unit screen vectors towards north and
    /// east there, from two nearby points (about 10 m away).
    private func hostAxes(_ h: HostProjection, _ lon: Double, _ lat: Double)
        -> (origin: (x: Double, y: Double), north: (x: Double, y: Double), east: (x: Double, y: Double))? {
        let d = 1e-4
        guard let o = h.project(lon, lat), o.x.isFinite, o.y.isFinite else { return nil }
        let northward = lat + d <= 90
        guard let n = h.project(lon, northward ? lat + d : lat - d),
              let e = h.project(lon + d <= 180 ? lon + d : lon - d, lat) else { return nil }
        func unit(_ p: (x: Double, y: Double), _ sign: Double) -> (x: Double, y: Double)? {
            let vx = (p.x - o.x) * sign, vy = (p.y - o.y) * sign
            let l = (vx * vx + vy * vy).squareRoot()
            guard l.isFinite, l > 0 else { return nil }
            return (vx / l, vy / l)
        }
        guard let north = unit(n, northward ? 1 : -1), let east = unit(e, lon + d <= 180 ? 1 : -1) else { return nil }
        return (o, north, east)
    }

    /// The box in which the centre of a group drawn within `box` may lie, for groups reaching
    /// `points` from their centre: `box` grown by that many points of the current view.
    func grownBox(_ box: GeoBox, points: Double) -> GeoBox {
        switch view {
        case .camera(let c):
            let world = c.worldSize
            let dLon = points / world * 360
            if dLon >= 180 { return GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90) }
            let top = WebMercator.project(lon: 0, lat: min(box.maxLat, WebMercator.maxLatitude), worldSize: world).y
            let bottom = WebMercator.project(lon: 0, lat: max(box.minLat, -WebMercator.maxLatitude), worldSize: world).y
            let north = box.maxLat >= WebMercator.maxLatitude ? 90 : WebMercator.unproject(x: 0, y: top - points, worldSize: world).lat
            let south = box.minLat <= -WebMercator.maxLatitude ? -90 : WebMercator.unproject(x: 0, y: bottom + points, worldSize: world).lat
            return GeoBox(minLon: box.minLon - dLon, minLat: south, maxLon: box.maxLon + dLon, maxLat: north)
        case .host(let h):
            // Metres per point at the viewport's centre, doubled: a host projection may stretch
            // across the view.
            let cx = h.width / 2, cy = h.height / 2
            guard let a = h.unproject(cx, cy), let b = h.unproject(cx + 1, cy), let c = h.unproject(cx, cy + 1),
                  a.lon.isFinite, a.lat.isFinite, b.lon.isFinite, b.lat.isFinite, c.lon.isFinite, c.lat.isFinite else {
                return GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)
            }
            let perPoint = max(Sphere.distance(a.lon, a.lat, b.lon, b.lat), Sphere.distance(a.lon, a.lat, c.lon, c.lat))
            return SpreadLayout.grownBox(box, meters: 2 * points * perPoint)
        }
    }
}
