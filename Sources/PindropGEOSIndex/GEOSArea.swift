import CGEOS
import PindropCore

/// An allowed area read by GEOS (WKT or GeoJSON) and prepared for point tests.
///
/// Accepted: a Polygon or MultiPolygon, or in GeoJSON also a Feature or FeatureCollection whose
/// geometries are all (Multi)Polygons (their union is the area). Every polygon must be valid
/// (OGC rules, as GEOSisValid says) with finite lon/lat coordinates. A point tests as inside when
/// the prepared area intersects it (interior or boundary). Snapping looks for the nearest
/// boundary point in metres over the area's rings (see `AreaRings.nearestInside`).
public final class GEOSArea: AllowedArea {
    let context: GEOSContext
    var ctx: GEOSContextHandle_t { context.handle }
    private let geometry: OpaquePointer
    private let prepared: OpaquePointer
    public let rings: AreaRings

    public init(context: GEOSContext, text: String) throws(PindropError) {
        self.context = context
        let ctx = context.handle
        var g = try GEOSArea.read(context, text)
        do throws(PindropError) {
            try GEOSArea.checkPolygons(context, g)
            if GEOSGeomTypeId_r(ctx, g) == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) {
                // Features may overlap or touch: their union is the area, a valid (Multi)Polygon.
                context.lastMessage = ""
                guard let u = GEOSUnaryUnion_r(ctx, g) else {
                    throw PindropError(.geos, "GEOS could not unite the features of the area: \(context.lastMessage)")
                }
                GEOSGeom_destroy_r(ctx, g)
                g = u
            }
            rings = try GEOSArea.extractRings(context, g)
            context.lastMessage = ""
            guard let p = GEOSPrepare_r(ctx, g) else {
                throw PindropError(.geos, "GEOS could not prepare the area: \(context.lastMessage)")
            }
            prepared = p
            geometry = g
        } catch {
            GEOSGeom_destroy_r(ctx, g)
            throw error
        }
    }

    deinit {
        GEOSPreparedGeom_destroy_r(ctx, prepared)
        GEOSGeom_destroy_r(ctx, geometry)
    }

    public func contains(lon: Double, lat: Double) -> Bool {
        guard rings.boxContains(lon: lon, lat: lat) else { return false }
        guard let point = GEOSGeom_createPointFromXY_r(ctx, lon, lat) else { return false }
        defer { GEOSGeom_destroy_r(ctx, point) }
        return GEOSPreparedIntersects_r(ctx, prepared, point) == 1
    }

    public func nearestInside(lon: Double, lat: Double) -> (lon: Double, lat: Double) {
        rings.nearestInside(lon: lon, lat: lat) { self.contains(lon: $0, lat: $1) }
    }

    // MARK: - Reading

    /// WKT, or GeoJSON when the text starts with "{".
    private static func read(_ context: GEOSContext, _ text: String) throws(PindropError) -> OpaquePointer {
        let ctx = context.handle
        guard let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) else {
            throw PindropError(.parse, "the area text is empty (pass NULL to clear the area)")
        }
        context.lastMessage = ""
        if first == "{" {
            guard let reader = GEOSGeoJSONReader_create_r(ctx) else { throw PindropError(.geos, "GEOS could not create a GeoJSON reader") }
            defer { GEOSGeoJSONReader_destroy_r(ctx, reader) }
            guard let g = GEOSGeoJSONReader_readGeometry_r(ctx, reader, text) else {
                throw PindropError(.parse, "bad GeoJSON area: \(context.lastMessage.isEmpty ? "GEOS could not read it" : context.lastMessage)")
            }
            return g
        }
        try checkNothingAfterWKT(text)
        guard let reader = GEOSWKTReader_create_r(ctx) else { throw PindropError(.geos, "GEOS could not create a WKT reader") }
        defer { GEOSWKTReader_destroy_r(ctx, reader) }
        guard let g = GEOSWKTReader_read_r(ctx, reader, text) else {
            throw PindropError(.parse, "bad WKT area: \(context.lastMessage.isEmpty ? "GEOS could not read it" : context.lastMessage)")
        }
        return g
    }

    /// GEOS 3.11's WKT reader stops after the first geometry and ignores the rest of the text:
    /// refuse anything but white space after the parenthesis that closes it.
    private static func checkNothingAfterWKT(_ text: String) throws(PindropError) {
        let bytes = Array(text.utf8)
        var depth = 0
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "(") { depth += 1 }
            else if b == UInt8(ascii: ")") {
                depth -= 1
                guard depth == 0 else { continue }
                let rest = bytes[(i + 1)...].filter { !($0 == 32 || ($0 >= 9 && $0 <= 13)) }
                if !rest.isEmpty {
                    let tail = String(decoding: bytes[(i + 1)...].prefix(40), as: UTF8.self)
                    throw PindropError(.parse, "bad WKT area: unexpected text after the geometry: \"\(tail)\"")
                }
                return
            }
        }
    }

    /// Only polygons, not empty, each valid.
    private static func checkPolygons(_ context: GEOSContext, _ g: OpaquePointer) throws(PindropError) {
        let ctx = context.handle
        let type = GEOSGeomTypeId_r(ctx, g)
        switch type {
        case Int32(GEOS_POLYGON.rawValue), Int32(GEOS_MULTIPOLYGON.rawValue):
            guard GEOSisEmpty_r(ctx, g) == 0 else { throw PindropError(.parse, "the area is an empty \(typeName(ctx, g))") }
            let valid = GEOSisValid_r(ctx, g)
            if valid == 0 {
                var reason = "not valid"
                if let r = GEOSisValidReason_r(ctx, g) { reason = String(cString: r); GEOSFree_r(ctx, r) }
                throw PindropError(.parse, "the area's \(typeName(ctx, g)) is invalid: \(reason)")
            }
            guard valid == 1 else { throw PindropError(.geos, "GEOS could not check the area: \(context.lastMessage)") }
        case Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            let n = GEOSGetNumGeometries_r(ctx, g)
            guard n > 0 else { throw PindropError(.parse, "the area holds no polygon (an empty collection)") }
            for i in 0..<n {
                guard let part = GEOSGetGeometryN_r(ctx, g, i) else { throw PindropError(.geos, "GEOS could not read part \(i)") }
                do throws(PindropError) {
                    try checkPolygons(context, part)
                } catch {
                    throw PindropError(error.status, "feature \(i): \(error.message)")
                }
            }
        default:
            throw PindropError(.parse, "the area must be a Polygon or MultiPolygon, not a \(typeName(ctx, g))")
        }
    }

    private static func typeName(_ ctx: GEOSContextHandle_t, _ g: OpaquePointer) -> String {
        guard let t = GEOSGeomType_r(ctx, g) else { return "geometry" }
        defer { GEOSFree_r(ctx, t) }
        return String(cString: t)
    }

    /// The rings of a Polygon or MultiPolygon, with every coordinate checked as lon/lat.
    private static func extractRings(_ context: GEOSContext, _ g: OpaquePointer) throws(PindropError) -> AreaRings {
        let ctx = context.handle
        var rings = AreaRings()
        var buffer: [Double] = []
        func addRing(_ ring: OpaquePointer?) throws(PindropError) {
            guard let ring, let seq = GEOSGeom_getCoordSeq_r(ctx, ring) else {
                throw PindropError(.geos, "GEOS could not read a ring: \(context.lastMessage)")
            }
            var size: UInt32 = 0
            guard GEOSCoordSeq_getSize_r(ctx, seq, &size) != 0 else { throw PindropError(.geos, "GEOS could not size a ring") }
            buffer = [Double](repeating: 0, count: 2 * Int(size))
            guard GEOSCoordSeq_copyToBuffer_r(ctx, seq, &buffer, 0, 0) != 0 else {
                throw PindropError(.geos, "GEOS could not copy a ring")
            }
            for i in 0..<Int(size) {
                let x = buffer[2 * i], y = buffer[2 * i + 1]
                guard x.isFinite, y.isFinite, x >= -180, x <= 180, y >= -90, y <= 90 else {
                    throw PindropError(.parse, "area vertex (\(x), \(y)) is not a lon/lat coordinate")
                }
            }
            buffer.withUnsafeBufferPointer { rings.appendRing($0) }
        }
        func addPolygon(_ p: OpaquePointer) throws(PindropError) {
            try addRing(GEOSGetExteriorRing_r(ctx, p))
            let holes = GEOSGetNumInteriorRings_r(ctx, p)
            if holes > 0 { for i in 0..<holes { try addRing(GEOSGetInteriorRingN_r(ctx, p, i)) } }
        }
        switch GEOSGeomTypeId_r(ctx, g) {
        case Int32(GEOS_POLYGON.rawValue):
            try addPolygon(g)
        case Int32(GEOS_MULTIPOLYGON.rawValue), Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            let n = GEOSGetNumGeometries_r(ctx, g)
            for i in 0..<max(0, n) {
                guard let part = GEOSGetGeometryN_r(ctx, g, i) else { continue }
                let t = GEOSGeomTypeId_r(ctx, part)
                if t == Int32(GEOS_POLYGON.rawValue) { try addPolygon(part) }
                else if t == Int32(GEOS_MULTIPOLYGON.rawValue) {
                    for j in 0..<max(0, GEOSGetNumGeometries_r(ctx, part)) {
                        if let q = GEOSGetGeometryN_r(ctx, part, j) { try addPolygon(q) }
                    }
                }
            }
        default:
            throw PindropError(.parse, "the area must be a Polygon or MultiPolygon, not a \(typeName(ctx, g))")
        }
        guard rings.vertexCount > 0 else { throw PindropError(.parse, "the area has no vertices") }
        return rings
    }
}

extension GEOSFactory {
    /// Reads an allowed area with this map's GEOS context.
    public func parseArea(_ text: String) throws(PindropError) -> AllowedArea {
        try GEOSArea(context: context, text: text)
    }
}
