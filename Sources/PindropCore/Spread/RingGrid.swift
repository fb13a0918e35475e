#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the spreading room's groups are drawn, for one box query (docs/spreading.md, "Drawn
/// positions, hit tests and frames"). Every group of two or more pins has an extent: a lon/lat box
/// that holds every drawn position of its members (for a ring, its centre grown by its radius; for
/// a spiral, whose size follows the view, its centre alone, the query box being grown instead).
/// The grid files a group in each cell of `cellDegrees` its extent meets; a query reads the cells
/// of its box and returns each group whose extent meets it, once. An extent that meets more than
/// `maxCells` cells or passes the antimeridian or a pole (a ring of thousands of pins, or one next
/// to ±180°) goes to a short list, `wide`, that every query returns. Pure Swift, no index.
///
/// A group is filed again only when its cells change: a ring that grows or shrinks by a pin keeps
/// its cells unless its edge crosses a cell border (a cell is about 217 m of latitude).
struct RingGrid {
    static let cellDegrees = 1.0 / 512
    static let maxCells = 256

    /// The cells a group is filed in: x0...x1 × y0...y1 (cell numbers), `none` or `wide`.
    struct CellRange: Equatable {
        var x0, y0, x1, y1: Int32
        static let none = CellRange(x0: 1, y0: 1, x1: 0, y1: 0)
        static let wide = CellRange(x0: Int32.min, y0: Int32.min, x1: Int32.min, y1: Int32.min)

        var cellCount: Int { x1 < x0 || y1 < y0 ? 0 : (Int(x1) - Int(x0) + 1) * (Int(y1) - Int(y0) + 1) }
    }

    private var cells: [Int64: [Int32]] = [:]
    private var wide: [Int32] = []
    /// Per group: its extent and the cells it is filed in.
    private var extent: [GeoBox] = []
    private var filed: [CellRange] = []
    /// Per group: the query that last returned it (a group filed in several cells is returned once).
    private var seen: [UInt32] = []
    private var stamp: UInt32 = 0

    /// Groups filed (for tests).
    var count: Int { filed.reduce(0) { $0 + ($1 == .none ? 0 : 1) } }

    @inline(__always)
    private static func cell(_ v: Double) -> Int32 { Int32(floor(v / cellDegrees)) }

    @inline(__always)
    private static func key(_ x: Int32, _ y: Int32) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: y)) }

    /// The cells of a box inside the world.
    @inline(__always)
    private static func range(_ b: GeoBox) -> CellRange {
        CellRange(x0: cell(b.minLon), y0: cell(b.minLat), x1: cell(b.maxLon), y1: cell(b.maxLat))
    }

    /// Where an extent is filed.
    private static func filing(_ e: GeoBox) -> CellRange {
        guard e.minLon >= -180, e.maxLon <= 180, e.minLat >= -90, e.maxLat <= 90, e.minLon <= e.maxLon,
              e.minLat <= e.maxLat else { return .wide }
        let r = range(e)
        return r.cellCount > maxCells ? .wide : r
    }

    /// Files group g with this extent, or moves it there.
    mutating func file(_ g: Int32, extent e: GeoBox) {
        let i = Int(g)
        if i >= filed.count {
            let more = i + 1 - filed.count
            filed.append(contentsOf: repeatElement(.none, count: more))
            extent.append(contentsOf: repeatElement(GeoBox(minLon: 0, minLat: 0, maxLon: 0, maxLat: 0), count: more))
            seen.append(contentsOf: repeatElement(0, count: more))
        }
        extent[i] = e
        let r = RingGrid.filing(e)
        guard r != filed[i] else { return }
        unfile(g)
        filed[i] = r
        if r == .wide { wide.append(g); return }
        for x in r.x0...r.x1 {
            for y in r.y0...r.y1 { cells[RingGrid.key(x, y), default: []].append(g) }
        }
    }

    /// Forgets group g.
    mutating func remove(_ g: Int32) {
        guard Int(g) < filed.count else { return }
        unfile(g)
        filed[Int(g)] = .none
    }

    private mutating func unfile(_ g: Int32) {
        let r = filed[Int(g)]
        if r == .none { return }
        if r == .wide {
            if let k = wide.firstIndex(of: g) { wide.swapAt(k, wide.count - 1); wide.removeLast() }
            return
        }
        for x in r.x0...r.x1 {
            for y in r.y0...r.y1 {
                let key = RingGrid.key(x, y)
                guard var list = cells.removeValue(forKey: key) else { continue }
                if let k = list.firstIndex(of: g) { list.swapAt(k, list.count - 1); list.removeLast() }
                if !list.isEmpty { cells[key] = list }
            }
        }
    }

    /// Appends every group whose extent meets the box (a wide group always), each once. The box's
    /// longitudes may pass ±180 (it is split); a box with a NaN or infinite side meets no cell.
    mutating func query(_ box: GeoBox, into out: inout [Int32]) {
        stamp &+= 1
        if stamp == 0 {
            for i in seen.indices { seen[i] = 0 }
            stamp = 1
        }
        let now = stamp
        for g in wide {
            seen[Int(g)] = now
            out.append(g)
        }
        box.split { b in
            // A box that is not a finite box of the world holds no drawn position (a NaN one can
            // come from a view that cannot place a point); its cells cannot be numbered.
            guard b.minLon.isFinite, b.maxLon.isFinite, b.minLat.isFinite, b.maxLat.isFinite,
                  b.minLon <= b.maxLon, b.minLat <= b.maxLat else { return }
            let r = RingGrid.range(b)
            if r.cellCount > cells.count {
                for list in cells.values { collect(list, b, now, &out) }
            } else {
                for x in r.x0...r.x1 {
                    for y in r.y0...r.y1 {
                        if let list = cells[RingGrid.key(x, y)] { collect(list, b, now, &out) }
                    }
                }
            }
        }
    }

    @inline(__always)
    private mutating func collect(_ list: [Int32], _ b: GeoBox, _ now: UInt32, _ out: inout [Int32]) {
        for g in list where seen[Int(g)] != now {
            let e = extent[Int(g)]
            if e.minLon <= b.maxLon && e.maxLon >= b.minLon && e.minLat <= b.maxLat && e.maxLat >= b.minLat {
                seen[Int(g)] = now
                out.append(g)
            }
        }
    }
}
