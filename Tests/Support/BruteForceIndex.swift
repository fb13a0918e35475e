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
    public func makeSnapIndex() -> SnapIndex { BruteForceSnapIndex() }
}

/// The snap layers' items scanned in full: the oracle for the snap trees.
public final class BruteForceSnapIndex: SnapIndex {
    private var boxes: [Double] = []
    public init() {}
    public func build(boxes input: UnsafeBufferPointer<Double>) { boxes = Array(input) }
    public func query(minX: Double, minY: Double, maxX: Double, maxY: Double, into out: inout [Int32]) {
        for k in 0..<(boxes.count / 4)
        where boxes[4 * k] <= maxX && boxes[4 * k + 2] >= minX && boxes[4 * k + 1] <= maxY && boxes[4 * k + 3] >= minY {
            out.append(Int32(k))
        }
    }
}
