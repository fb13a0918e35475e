/// The pins' coordinates by slot, interleaved (lon, lat): the one copy of every coordinate. The pin
/// store writes it; the spatial index reads it when it (re)builds a tree, so it keeps no copy of
/// its own. A class, so that both hold the same storage.
public final class SlotCoordinates {
    /// lonlat[2 * slot], lonlat[2 * slot + 1]; slots past `count` are not stored.
    public private(set) var lonlat: [Double] = []

    public init() {}

    /// One past the highest slot stored.
    @inline(__always) public var count: Int { lonlat.count / 2 }

    @inline(__always)
    public func position(_ slot: Int32) -> (lon: Double, lat: Double) {
        let i = 2 * Int(slot)
        return (lonlat[i], lonlat[i + 1])
    }

    /// Stores a slot's coordinate, growing the storage when the slot is new.
    @inline(__always)
    public func set(_ slot: Int32, lon: Double, lat: Double) {
        let i = 2 * Int(slot)
        if i >= lonlat.count { grow(to: i + 2) }
        lonlat[i] = lon; lonlat[i + 1] = lat
    }

    /// Appends the next slot's coordinate (slot == count).
    @inline(__always)
    public func append(lon: Double, lat: Double) {
        lonlat.append(lon); lonlat.append(lat)
    }

    public func removeLast() { lonlat.removeLast(2) }
    public func reserve(_ slots: Int) { lonlat.reserveCapacity(2 * slots) }
    public func removeAll() { lonlat.removeAll() }

    private func grow(to n: Int) {
        lonlat.append(contentsOf: repeatElement(0, count: n - lonlat.count))
    }

    /// Runs body with the interleaved coordinates (no copy). Inlinable, so that the index (another
    /// module) reads them without a call and a closure context per query.
    @inlinable @inline(__always)
    public func withBuffer<R>(_ body: (UnsafeBufferPointer<Double>) -> R) -> R {
        lonlat.withUnsafeBufferPointer(body)
    }

    public var bytes: Int { lonlat.capacity * 8 }
}
