/// A point index over pin slots, answering box queries. Core defines it; PindropGEOSIndex implements
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
    /// Does a bounded share of deferred index work (up to about `inserts` point inserts, and the
    /// builds they complete). The map calls it from the host's queries, never from changes.
    func maintain(inserts: Int)
}

extension SpatialIndex {
    public func maintain(inserts: Int) {}

    /// The bulk load from separate longitude and latitude arrays.
    public func insert(slots: [Int32], lon: [Double], lat: [Double]) {
        var lonlat = [Double](); lonlat.reserveCapacity(2 * slots.count)
        for i in slots.indices { lonlat.append(lon[i]); lonlat.append(lat[i]) }
        lonlat.withUnsafeBufferPointer { insert(slots: slots, lonlat: $0) }
    }
}

/// Builds the native parts of a map: its spatial indexes (one per map, as GEOS contexts are).
/// Class-bound, so that a map can hold one as an existential in Embedded Swift (the wasm build).
public protocol IndexFactory: AnyObject {
    /// An index that keeps its own copy of the positions it is given (spread layouts' centres).
    func makeIndex() -> SpatialIndex
    /// The index of a pin store's slots: positions handed to it are already in `coordinates` (the
    /// store writes them first), which it reads instead of keeping a copy.
    func makeIndex(sharing coordinates: SlotCoordinates) -> SpatialIndex
    /// Reads an allowed area (WKT or GeoJSON Polygon / MultiPolygon, lon/lat); `.parse` when the
    /// text is not one (see Editing/AllowedArea.swift).
    func parseArea(_ text: String) throws(PindropError) -> AllowedArea
    /// An empty tree for the snap layers (Snap/SnapIndex.swift).
    func makeSnapIndex() -> SnapIndex
}

extension IndexFactory {
    public func makeIndex(sharing coordinates: SlotCoordinates) -> SpatialIndex { makeIndex() }
}
