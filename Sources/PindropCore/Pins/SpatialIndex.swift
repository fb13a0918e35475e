/// A point index over pin slots, answering box queries. Core defines it; PindropIndex implements
/// it with GEOS; tests use `BruteForceIndex` (Tests/Support). Positions are lon/lat degrees; boxes handed to
/// `query` lie inside [-180, 180] × [-90, 90].
public protocol SpatialIndex: AnyObject {
    /// Empties the index.
    func removeAll()
    /// Adds many slots at once (a bulk load before any query is cheapest): slots[i] at
    /// (lonlat[2i], lonlat[2i+1]), read straight from the caller's interleaved buffer.
    func insert(slots: [Int32], lonlat: UnsafeBufferPointer<Double>)
    /// Adds a slot, or moves it if it is already indexed.
    func set(_ slot: Int32, lon: Double, lat: Double)
    /// Forgets a slot.
    func remove(_ slot: Int32)
    /// Appends every indexed slot whose position lies inside the box (edges included) to `out`.
    func query(_ box: GeoBox, into out: inout [Int32])
}

extension SpatialIndex {
    /// The bulk load from separate longitude and latitude arrays.
    public func insert(slots: [Int32], lon: [Double], lat: [Double]) {
        var lonlat = [Double](); lonlat.reserveCapacity(2 * slots.count)
        for i in slots.indices { lonlat.append(lon[i]); lonlat.append(lat[i]) }
        lonlat.withUnsafeBufferPointer { insert(slots: slots, lonlat: $0) }
    }
}

/// Builds the native parts of a map: its spatial indexes (one per map, as GEOS contexts are).
public protocol IndexFactory {
    func makeIndex() -> SpatialIndex
    /// Reads an allowed area (WKT or GeoJSON Polygon / MultiPolygon, lon/lat); `.parse` when the
    /// text is not one (see Editing/AllowedArea.swift).
    func parseArea(_ text: String) throws(PindropError) -> AllowedArea
}
