#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PindropCore

/// A geometry as read from an area's text: polygons as rings of interleaved lon, lat (closed,
/// the first vertex repeated last), or a collection (a GeoJSON FeatureCollection or a WKT
/// GEOMETRYCOLLECTION), or another type, named as GEOS names it, which the area refuses.
indirect enum AreaGeometry {
    case polygon([[Double]])
    case multiPolygon([[[Double]]])
    case collection([AreaGeometry])
    case other(String)
}

/// WKT and GeoJSON readers for allowed areas, refusing what GEOS's readers refuse: unbalanced or
/// unknown syntax, text after a WKT geometry, rings that are not closed or have 1 to 3 points.
enum AreaText {
    static func read(_ text: String) throws(PindropError) -> AreaGeometry {
        var bytes = Array(text.utf8)
        var p = Parser(bytes: bytes)
        p.skipSpace()
        guard p.i < bytes.count else {
            throw PindropError(.parse, "the area text is empty (pass NULL to clear the area)")
        }
        if bytes[p.i] == UInt8(ascii: "{") {
            let value: JSON
            do throws(ParseFailure) {
                value = try p.json()
                p.skipSpace()
                if p.i < bytes.count { throw ParseFailure("unexpected text after the JSON value") }
            } catch { throw PindropError(.parse, "bad GeoJSON area: \(error.message)") }
            return try geoJSON(value)
        }
        do throws(ParseFailure) {
            let g = try p.wktGeometry()
            p.skipSpace()
            if p.i < bytes.count {
                let tail = String(decoding: bytes[p.i...].prefix(40), as: UTF8.self)
                throw ParseFailure("unexpected text after the geometry: \"\(tail)\"")
            }
            bytes.removeAll()
            return g
        } catch {
            throw PindropError(.parse, "bad WKT area: \(error.message)")
        }
    }

    typealias ParseFailure = GeoText.Failure
    typealias JSON = GeoText.JSON
    typealias Parser = GeoText.Scanner

    // MARK: - GeoJSON

    private static func geoJSON(_ v: JSON) throws(PindropError) -> AreaGeometry {
        guard case .string(let type)? = v["type"] else {
            throw PindropError(.parse, "bad GeoJSON area: the object has no \"type\"")
        }
        switch type {
        case "Feature":
            guard let g = v["geometry"], case .object = g else {
                throw PindropError(.parse, "bad GeoJSON area: a Feature without a geometry")
            }
            return try geoJSON(g)
        case "FeatureCollection":
            guard case .array(let features)? = v["features"] else {
                throw PindropError(.parse, "bad GeoJSON area: a FeatureCollection without \"features\"")
            }
            var parts: [AreaGeometry] = []
            for f in features { parts.append(try geoJSON(f)) }
            return .collection(parts)
        case "GeometryCollection":
            guard case .array(let geometries)? = v["geometries"] else {
                throw PindropError(.parse, "bad GeoJSON area: a GeometryCollection without \"geometries\"")
            }
            var parts: [AreaGeometry] = []
            for g in geometries { parts.append(try geoJSON(g)) }
            return .collection(parts)
        case "Polygon":
            guard let c = v["coordinates"] else { throw PindropError(.parse, "bad GeoJSON area: a Polygon without \"coordinates\"") }
            return .polygon(try polygon(c))
        case "MultiPolygon":
            guard case .array(let ps)? = v["coordinates"] else {
                throw PindropError(.parse, "bad GeoJSON area: a MultiPolygon without \"coordinates\"")
            }
            var polygons: [[[Double]]] = []
            for p in ps { polygons.append(try polygon(p)) }
            return .multiPolygon(polygons)
        case "Point", "LineString", "MultiPoint", "MultiLineString":
            return .other(type)
        default:
            throw PindropError(.parse, "bad GeoJSON area: unknown type \"\(type)\"")
        }
    }

    private static func polygon(_ v: JSON) throws(PindropError) -> [[Double]] {
        guard case .array(let rings) = v else { throw PindropError(.parse, "bad GeoJSON area: polygon coordinates are not an array") }
        var out: [[Double]] = []
        for r in rings {
            guard case .array(let points) = r else { throw PindropError(.parse, "bad GeoJSON area: a ring is not an array") }
            var ring: [Double] = []
            for pt in points {
                guard case .array(let c) = pt, c.count >= 2, case .number(let x) = c[0], case .number(let y) = c[1] else {
                    throw PindropError(.parse, "bad GeoJSON area: a position is not an array of numbers")
                }
                ring.append(x); ring.append(y)
            }
            do throws(ParseFailure) { try checkRing(ring) } catch { throw PindropError(.parse, "bad GeoJSON area: \(error.message)") }
            if !ring.isEmpty { out.append(ring) }
        }
        return out
    }

    /// GEOS's LinearRing rules: 0 or at least 4 points, the last repeating the first.
    static func checkRing(_ ring: [Double]) throws(ParseFailure) { try GeoText.checkRing(ring) }

}

// MARK: - WKT areas, on the shared scanner (Core's GeoText)

extension GeoText.Scanner {
    // WKT: POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION (of those); other types are named.
    mutating func wktGeometry() throws(GeoText.Failure) -> AreaGeometry {
        let (type, dims, empty) = wktHead()
        switch type {
        case "POLYGON":
            return .polygon(empty ? [] : try wktPolygon(dims))
        case "MULTIPOLYGON":
            if empty { return .multiPolygon([]) }
            var ps: [[[Double]]] = []
            try expect("(")
            repeat { ps.append(try wktPolygon(dims)) } while try comma()
            try expect(")")
            return .multiPolygon(ps)
        case "GEOMETRYCOLLECTION":
            if empty { return .collection([]) }
            var parts: [AreaGeometry] = []
            try expect("(")
            repeat { parts.append(try wktGeometry()) } while try comma()
            try expect(")")
            return .collection(parts)
        case "POINT", "LINESTRING", "LINEARRING", "MULTIPOINT", "MULTILINESTRING":
            if !empty { try skipGroup() }
            switch type {
            case "POINT": return .other("Point")
            case "LINESTRING": return .other("LineString")
            case "LINEARRING": return .other("LinearRing")
            case "MULTIPOINT": return .other("MultiPoint")
            default: return .other("MultiLineString")
            }
        case "":
            throw GeoText.Failure("expected a geometry type at position \(i)")
        default:
            throw GeoText.Failure("unknown geometry type \"\(type)\"")
        }
    }

    mutating func wktPolygon(_ dims: Int) throws(GeoText.Failure) -> [[Double]] {
        if wordAhead() == "EMPTY" { _ = word(); return [] }
        var rings: [[Double]] = []
        try expect("(")
        repeat {
            var ring: [Double] = []
            if wordAhead() == "EMPTY" { _ = word() } else {
                try expect("(")
                repeat {
                    ring.append(try number()); ring.append(try number())
                    var extra = dims - 2
                    // A point may carry Z (and M) without the type saying so.
                    while extra > 0 || (peek().map { ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 43 || $0 == 46 } ?? false) {
                        _ = try number(); extra -= 1
                    }
                } while try comma()
                try expect(")")
            }
            try AreaText.checkRing(ring)
            if !ring.isEmpty { rings.append(ring) }
        } while try comma()
        try expect(")")
        return rings
    }
}
