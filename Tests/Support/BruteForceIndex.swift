import PindropCore

/// The index written as plainly as possible: a list scanned in full. The oracle for tests.
public final class BruteForceIndex: SpatialIndex {
    private var position: [Int32: (Double, Double)] = [:]

    public init() {}
    public func removeAll() { position.removeAll() }
    public func insert(slots: [Int32], lonlat: UnsafeBufferPointer<Double>) {
        for i in slots.indices { position[slots[i]] = (lonlat[2 * i], lonlat[2 * i + 1]) }
    }
    public func set(_ slot: Int32, lon: Double, lat: Double) { position[slot] = (lon, lat) }
    public func remove(_ slot: Int32) { position[slot] = nil }
    public func query(_ box: GeoBox, into out: inout [Int32]) {
        for (slot, p) in position where p.0 >= box.minLon && p.0 <= box.maxLon && p.1 >= box.minLat && p.1 <= box.maxLat {
            out.append(slot)
        }
    }
}

public final class BruteForceFactory: IndexFactory {
    public init() {}
    public func makeIndex() -> SpatialIndex { BruteForceIndex() }
}
