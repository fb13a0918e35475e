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

    struct ParseFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A JSON value (numbers as Double, as GEOS's reader takes coordinates).
    indirect enum JSON {
        case object([(String, JSON)]), array([JSON]), string(String), number(Double), bool(Bool), null

        subscript(key: String) -> JSON? {
            guard case .object(let members) = self else { return nil }
            for (k, v) in members where k == key { return v }
            return nil
        }
    }

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
    static func checkRing(_ ring: [Double]) throws(ParseFailure) {
        let n = ring.count / 2
        if n == 0 { return }
        guard n >= 4 else { throw ParseFailure("Invalid number of points in LinearRing found \(n) - must be 0 or >= 4") }
        guard ring[0] == ring[2 * n - 2], ring[1] == ring[2 * n - 1] else {
            throw ParseFailure("Points of LinearRing do not form a closed linestring")
        }
    }

    // MARK: - Tokens, WKT and JSON

    struct Parser {
        let bytes: [UInt8]
        var i = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || (bytes[i] >= 9 && bytes[i] <= 13) { i += 1 }
        }

        mutating func peek() -> UInt8? { skipSpace(); return i < bytes.count ? bytes[i] : nil }

        mutating func expect(_ c: Character) throws(ParseFailure) {
            guard peek() == c.asciiValue else {
                throw ParseFailure("expected '\(c)' at position \(i)\(i < bytes.count ? "" : " (end of text)")")
            }
            i += 1
        }

        mutating func word() -> String {
            skipSpace()
            let start = i
            while i < bytes.count, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self).uppercased()
        }

        /// A number as C's strtod reads it (correctly rounded).
        mutating func number() throws(ParseFailure) -> Double {
            skipSpace()
            let start = i
            while i < bytes.count {
                let c = bytes[i]
                if (c >= 48 && c <= 57) || c == 43 || c == 45 || c == 46 || c == 69 || c == 101 { i += 1 } else { break }
            }
            guard i > start else { throw ParseFailure("expected a number at position \(start)") }
            var text = Array(bytes[start..<i]); text.append(0)
            let length = text.count - 1
            let value = text.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) -> Double in
                let p = UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self)
                var end: UnsafeMutablePointer<CChar>? = nil
                let v = strtod(p, &end)
                let used = end.map { UnsafePointer($0) - p } ?? -1
                return used == length ? v : Double.nan
            }
            guard !value.isNaN else {
                throw ParseFailure("bad number \"\(String(decoding: bytes[start..<i], as: UTF8.self))\"")
            }
            return value
        }

        // WKT: POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION (of those); other types are named.
        mutating func wktGeometry() throws(ParseFailure) -> AreaGeometry {
            let type = word()
            var dims = 2
            var w = wordAhead()
            if w == "Z" || w == "M" { _ = word(); dims = 3; w = wordAhead() }
            else if w == "ZM" { _ = word(); dims = 4; w = wordAhead() }
            let empty = w == "EMPTY"
            if empty { _ = word() }
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
                throw ParseFailure("expected a geometry type at position \(i)")
            default:
                throw ParseFailure("unknown geometry type \"\(type)\"")
            }
        }

        mutating func wordAhead() -> String {
            let save = i
            let w = word()
            i = save
            return w
        }

        mutating func comma() throws(ParseFailure) -> Bool {
            if peek() == UInt8(ascii: ",") { i += 1; return true }
            return false
        }

        mutating func wktPolygon(_ dims: Int) throws(ParseFailure) -> [[Double]] {
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
                try checkRing(ring)
                if !ring.isEmpty { rings.append(ring) }
            } while try comma()
            try expect(")")
            return rings
        }

        /// Skips a balanced parenthesised group (the coordinates of a type the area refuses).
        mutating func skipGroup() throws(ParseFailure) {
            try expect("(")
            var depth = 1
            while i < bytes.count && depth > 0 {
                if bytes[i] == UInt8(ascii: "(") { depth += 1 } else if bytes[i] == UInt8(ascii: ")") { depth -= 1 }
                i += 1
            }
            guard depth == 0 else { throw ParseFailure("unbalanced parentheses") }
        }

        mutating func json() throws(ParseFailure) -> JSON {
            guard let c = peek() else { throw ParseFailure("unexpected end of text") }
            switch c {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, JSON)] = []
                if peek() == UInt8(ascii: "}") { i += 1; return .object(members) }
                repeat {
                    guard peek() == UInt8(ascii: "\"") else { throw ParseFailure("expected a key at position \(i)") }
                    let k = try string()
                    try expect(":")
                    members.append((k, try json()))
                } while try comma()
                try expect("}")
                return .object(members)
            case UInt8(ascii: "["):
                i += 1
                var items: [JSON] = []
                if peek() == UInt8(ascii: "]") { i += 1; return .array(items) }
                repeat { items.append(try json()) } while try comma()
                try expect("]")
                return .array(items)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let w = word()
                switch w {
                case "TRUE": return .bool(true)
                case "FALSE": return .bool(false)
                case "NULL": return .null
                default: throw ParseFailure("unexpected \"\(w.lowercased())\"")
                }
            default:
                return .number(try number())
            }
        }

        mutating func string() throws(ParseFailure) -> String {
            i += 1  // the opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if c == UInt8(ascii: "\\") {
                    guard i < bytes.count else { break }
                    let e = bytes[i]; i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "u"):
                        // Keys and types are ASCII; an escaped character elsewhere is kept as '?'.
                        i = min(bytes.count, i + 4); out.append(UInt8(ascii: "?"))
                    default: out.append(e)
                    }
                } else {
                    out.append(c)
                }
            }
            throw ParseFailure("unterminated string")
        }
    }
}
