/// One feature of a snap layer: the host's id and its vertices in lon/lat, in parts. A point part
/// is one vertex; a line part (a line string or a polygon's ring) also has the segments between
/// its consecutive vertices. Vertices are numbered through the feature's parts (0, 1, ...), as
/// QGIS numbers a multi-part feature's vertices; a segment is numbered by its first vertex.
public struct SnapFeature: Sendable, Equatable {
    public var id: Int64
    /// Interleaved lon, lat of every vertex, part after part.
    public var lonlat: [Double] = []
    /// One past the last vertex of each part, and whether the part is a line.
    public var partEnd: [Int] = []
    public var partIsLine: [Bool] = []

    public init(id: Int64) { self.id = id }

    public var vertexCount: Int { lonlat.count / 2 }

    mutating func append(_ g: SnapText.Geometry) {
        switch g {
        case .point(let c):
            lonlat.append(contentsOf: c); partEnd.append(vertexCount); partIsLine.append(false)
        case .line(let c):
            guard !c.isEmpty else { return }
            lonlat.append(contentsOf: c); partEnd.append(vertexCount); partIsLine.append(true)
        case .polygon(let parts), .multi(let parts), .collection(let parts):
            for p in parts { append(p) }
        }
    }
}

/// The reader of snap layers (`pindrop_map_set_snap_layer`): WKT or GeoJSON points, multipoints,
/// lines, multilines, polygons, multipolygons and collections of them, on the scanner the
/// allowed areas use (GeoText), so the native library and pindrop.wasm read the same features
/// with the same ids. Refuses what GEOS's readers refuse (unbalanced or unknown syntax, text after
/// the geometry, a line of one point, rings not closed or of 1 to 3 points), coordinates outside
/// lon [-180, 180] × lat [-90, 90], and a GeoJSON feature without an integer "id".
public enum SnapText {
    /// A geometry as read: coordinates are interleaved lon, lat.
    public indirect enum Geometry: Sendable {
        case point([Double])
        case line([Double])
        /// A polygon's rings, each a closed `.line`.
        case polygon([Geometry])
        /// The parts of a multi-geometry.
        case multi([Geometry])
        case collection([Geometry])
    }

    /// The features of a layer's text; empty for "" (which clears the layer).
    public static func read(_ text: String) throws(PindropError) -> [SnapFeature] {
        let bytes = Array(text.utf8)
        var p = GeoText.Scanner(bytes: bytes)
        guard p.peek() != nil else { return [] }
        if p.peek() == UInt8(ascii: "{") {
            let value: GeoText.JSON
            do throws(GeoText.Failure) {
                value = try p.json()
                if p.peek() != nil { throw GeoText.Failure("unexpected text after the JSON value at position \(p.i)") }
            } catch { throw PindropError(.parse, "bad GeoJSON snap layer: \(error.message)") }
            return try geoJSONLayer(value)
        }
        let g: Geometry
        do throws(GeoText.Failure) {
            g = try p.snapGeometry()
            if p.peek() != nil {
                let tail = String(decoding: bytes[p.i...].prefix(40), as: UTF8.self)
                throw GeoText.Failure("unexpected text after the geometry at position \(p.i): \"\(tail)\"")
            }
        } catch { throw PindropError(.parse, "bad WKT snap layer: \(error.message)") }
        return numberedParts(g)
    }

    /// A geometry given without ids: a collection's members, or a multi-geometry's parts, are
    /// features 0, 1, ...; anything else is feature 0.
    static func numberedParts(_ g: Geometry) -> [SnapFeature] {
        var out: [SnapFeature] = []
        switch g {
        case .collection(let parts), .multi(let parts):
            for (k, part) in parts.enumerated() {
                var f = SnapFeature(id: Int64(k)); f.append(part); out.append(f)
            }
        default:
            var f = SnapFeature(id: 0); f.append(g); out.append(f)
        }
        return out
    }

    // MARK: - GeoJSON

    private static func geoJSONLayer(_ v: GeoText.JSON) throws(PindropError) -> [SnapFeature] {
        guard case .string(let type)? = v["type"] else {
            throw PindropError(.parse, "bad GeoJSON snap layer: the object has no \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let features)? = v["features"] else {
                throw PindropError(.parse, "bad GeoJSON snap layer: a FeatureCollection without \"features\"")
            }
            var out: [SnapFeature] = []
            out.reserveCapacity(features.count)
            for (k, f) in features.enumerated() { out.append(try feature(f, k)) }
            return out
        case "Feature":
            return [try feature(v, 0)]
        default:
            return numberedParts(try geometry(v, "the geometry"))
        }
    }

    private static func feature(_ f: GeoText.JSON, _ k: Int) throws(PindropError) -> SnapFeature {
        guard case .string("Feature")? = f["type"] else {
            throw PindropError(.parse, "bad GeoJSON snap layer: feature \(k) is not a \"Feature\"")
        }
        guard case .number(let id)? = f["id"], id == id.rounded(), abs(id) <= 9007199254740992 else {
            throw PindropError(.parse, "bad GeoJSON snap layer: feature \(k) has no integer \"id\" (snap targets are reported by the host's id)")
        }
        var out = SnapFeature(id: Int64(id))
        switch f["geometry"] {
        case .null?, nil: break  // a feature without a geometry has nothing to snap to
        case let g?: out.append(try geometry(g, "feature \(k) (id \(Int64(id)))"))
        }
        return out
    }

    private static func geometry(_ v: GeoText.JSON, _ what: String) throws(PindropError) -> Geometry {
        func bad(_ m: String) -> PindropError { PindropError(.parse, "bad GeoJSON snap layer: \(what): \(m)") }
        guard case .string(let type)? = v["type"] else { throw bad("the geometry has no \"type\"") }
        if type == "GeometryCollection" {
            guard case .array(let gs)? = v["geometries"] else { throw bad("a GeometryCollection without \"geometries\"") }
            var parts: [Geometry] = []
            for g in gs { parts.append(try geometry(g, what)) }
            return .collection(parts)
        }
        guard let c = v["coordinates"] else { throw bad("a \(type) without \"coordinates\"") }
        do throws(GeoText.Failure) {
            switch type {
            case "Point": return .point(try position(c))
            case "MultiPoint":
                var parts: [Geometry] = []
                for p in try array(c) { parts.append(.point(try position(p))) }
                return .multi(parts)
            case "LineString": return .line(try line(c))
            case "MultiLineString":
                var parts: [Geometry] = []
                for l in try array(c) { parts.append(.line(try line(l))) }
                return .multi(parts)
            case "Polygon": return try polygon(c)
            case "MultiPolygon":
                var parts: [Geometry] = []
                for p in try array(c) { parts.append(try polygon(p)) }
                return .multi(parts)
            default: throw GeoText.Failure("unknown geometry type \"\(type)\"")
            }
        } catch { throw bad(error.message) }
    }

    private static func array(_ v: GeoText.JSON) throws(GeoText.Failure) -> [GeoText.JSON] {
        guard case .array(let a) = v else { throw GeoText.Failure("coordinates are not an array") }
        return a
    }

    private static func position(_ v: GeoText.JSON) throws(GeoText.Failure) -> [Double] {
        guard case .array(let c) = v, c.count >= 2, case .number(let x) = c[0], case .number(let y) = c[1] else {
            throw GeoText.Failure("a position is not an array of numbers")
        }
        try checkCoordinate(x, y)
        return [x, y]
    }

    private static func line(_ v: GeoText.JSON) throws(GeoText.Failure) -> [Double] {
        var out: [Double] = []
        for p in try array(v) { out.append(contentsOf: try position(p)) }
        try checkLine(out)
        return out
    }

    private static func polygon(_ v: GeoText.JSON) throws(GeoText.Failure) -> Geometry {
        var rings: [Geometry] = []
        for r in try array(v) {
            var ring: [Double] = []
            for p in try array(r) { ring.append(contentsOf: try position(p)) }
            try GeoText.checkRing(ring)
            rings.append(.line(ring))
        }
        return .polygon(rings)
    }

    static func checkCoordinate(_ x: Double, _ y: Double) throws(GeoText.Failure) {
        guard x.isFinite, y.isFinite, x >= -180, x <= 180, y >= -90, y <= 90 else {
            throw GeoText.Failure("the coordinate (\(x), \(y)) is outside lon [-180, 180] × lat [-90, 90]")
        }
    }

    /// GEOS's LineString rule: 0 or at least 2 points.
    static func checkLine(_ line: [Double]) throws(GeoText.Failure) {
        guard line.count != 2 else { throw GeoText.Failure("a LineString of 1 point (it must have 0 or >= 2)") }
    }
}

// MARK: - WKT

extension GeoText.Scanner {
    /// One WKT geometry of any type a snap layer takes.
    mutating func snapGeometry() throws(GeoText.Failure) -> SnapText.Geometry {
        let start = i
        let (type, dims, empty) = wktHead()
        switch type {
        case "POINT":
            if empty { return .multi([]) }
            try expect("("); let p = try point(dims); try expect(")")
            return p
        case "MULTIPOINT":
            if empty { return .multi([]) }
            var parts: [SnapText.Geometry] = []
            try expect("(")
            repeat {
                if peek() == UInt8(ascii: "(") { i += 1; parts.append(try point(dims)); try expect(")") }
                else if wordAhead() == "EMPTY" { _ = word() }
                else { parts.append(try point(dims)) }
            } while try comma()
            try expect(")")
            return .multi(parts)
        case "LINESTRING", "LINEARRING":
            if empty { return .line([]) }
            let l = try coordinates(dims)
            if type == "LINEARRING" { try GeoText.checkRing(l) } else { try SnapText.checkLine(l) }
            return .line(l)
        case "MULTILINESTRING":
            if empty { return .multi([]) }
            var parts: [SnapText.Geometry] = []
            try expect("(")
            repeat {
                if wordAhead() == "EMPTY" { _ = word(); continue }
                let l = try coordinates(dims); try SnapText.checkLine(l); parts.append(.line(l))
            } while try comma()
            try expect(")")
            return .multi(parts)
        case "POLYGON":
            return empty ? .polygon([]) : try rings(dims)
        case "MULTIPOLYGON":
            if empty { return .multi([]) }
            var parts: [SnapText.Geometry] = []
            try expect("(")
            repeat {
                if wordAhead() == "EMPTY" { _ = word(); parts.append(.polygon([])) } else { parts.append(try rings(dims)) }
            } while try comma()
            try expect(")")
            return .multi(parts)
        case "GEOMETRYCOLLECTION":
            if empty { return .collection([]) }
            var parts: [SnapText.Geometry] = []
            try expect("(")
            repeat {
                parts.append(try snapGeometry())
            } while try comma()
            try expect(")")
            return .collection(parts)
        case "":
            throw GeoText.Failure("expected a geometry type at position \(start)")
        default:
            throw GeoText.Failure("unknown geometry type \"\(type)\" at position \(start)")
        }
    }

    /// "(x y, x y, ...)"
    mutating func coordinates(_ dims: Int) throws(GeoText.Failure) -> [Double] {
        var out: [Double] = []
        try expect("(")
        repeat { let c = try coordinate(dims); out.append(c.0); out.append(c.1) } while try comma()
        try expect(")")
        return out
    }

    /// "((ring), (ring), ...)": a polygon's rings, each closed.
    mutating func rings(_ dims: Int) throws(GeoText.Failure) -> SnapText.Geometry {
        var out: [SnapText.Geometry] = []
        try expect("(")
        repeat {
            if wordAhead() == "EMPTY" { _ = word(); continue }
            let r = try coordinates(dims); try GeoText.checkRing(r); out.append(.line(r))
        } while try comma()
        try expect(")")
        return .polygon(out)
    }

    /// One position: x y, with Z (and M) read and dropped.
    mutating func coordinate(_ dims: Int) throws(GeoText.Failure) -> (Double, Double) {
        let x = try number(), y = try number()
        var extra = dims - 2
        while extra > 0 || (peek().map { ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 43 || $0 == 46 } ?? false) {
            _ = try number(); extra -= 1
        }
        try SnapText.checkCoordinate(x, y)
        return (x, y)
    }

    mutating func point(_ dims: Int) throws(GeoText.Failure) -> SnapText.Geometry {
        let c = try coordinate(dims)
        return .point([c.0, c.1])
    }
}
