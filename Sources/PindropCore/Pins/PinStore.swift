/// Pins in struct-of-arrays form, addressed by a dense slot number that the spatial index stores.
/// Removed slots are reused. Ids map to slots through one dictionary.
public struct PinStore {
    public private(set) var ids: [Int64] = []
    public private(set) var lon: [Double] = []
    public private(set) var lat: [Double] = []
    /// Each pin's normalised Web Mercator point (`WebMercator.normalized`), computed the first time
    /// it is asked for and kept until the pin moves (NaN: not computed yet). Frames and hit tests
    /// project thousands of pins: from here a projection is a multiply-add.
    private var mercX: [Double] = []
    private var mercY: [Double] = []
    /// Bit 0: alive, bit 1: not draggable.
    private var bits: [UInt8] = []
    private var slotOf: [Int64: Int32] = [:]
    private var free: [Int32] = []

    public init() {}

    public var count: Int { slotOf.count }
    /// One past the highest slot ever used: iterate `0..<capacity` and check `isAlive`.
    public var capacity: Int { ids.count }

    @inline(__always) public func slot(of id: Int64) -> Int32? { slotOf[id] }
    @inline(__always) public func contains(_ id: Int64) -> Bool { slotOf[id] != nil }
    @inline(__always) public func isAlive(_ slot: Int32) -> Bool { bits[Int(slot)] & 1 != 0 }
    @inline(__always) public func isDraggable(_ slot: Int32) -> Bool { bits[Int(slot)] & 2 == 0 }
    @inline(__always) public func id(_ slot: Int32) -> Int64 { ids[Int(slot)] }
    @inline(__always) public func position(_ slot: Int32) -> (lon: Double, lat: Double) {
        (lon[Int(slot)], lat[Int(slot)])
    }

    /// The pin's normalised Web Mercator point, bit for bit `WebMercator.normalized(lon:lat:)` of
    /// its coordinate.
    @inline(__always)
    public mutating func mercator(_ slot: Int32) -> (x: Double, y: Double) {
        let s = Int(slot)
        let x = mercX[s]
        if !x.isNaN { return (x, mercY[s]) }
        let m = WebMercator.normalized(lon: lon[s], lat: lat[s])
        mercX[s] = m.x; mercY[s] = m.y
        return m
    }

    public mutating func reserve(_ n: Int) {
        let want = ids.count + n
        ids.reserveCapacity(want); lon.reserveCapacity(want); lat.reserveCapacity(want)
        mercX.reserveCapacity(want); mercY.reserveCapacity(want)
        bits.reserveCapacity(want); slotOf.reserveCapacity(slotOf.count + n)
    }

    /// Adds a pin whose id is known to be new; returns its slot.
    @discardableResult
    public mutating func insert(id: Int64, lon x: Double, lat y: Double) -> Int32 {
        let slot: Int32
        if let s = free.popLast() {
            slot = s
            ids[Int(s)] = id; lon[Int(s)] = x; lat[Int(s)] = y; bits[Int(s)] = 1
            mercX[Int(s)] = .nan
        } else {
            slot = Int32(ids.count)
            ids.append(id); lon.append(x); lat.append(y); bits.append(1)
            mercX.append(.nan); mercY.append(.nan)
        }
        slotOf[id] = slot
        return slot
    }

    /// Adds a pin unless its id is already here (then nothing changes and the result is nil).
    /// One hash probe: the bulk load of a large batch depends on it.
    @inline(__always)
    public mutating func insertIfNew(id: Int64, lon x: Double, lat y: Double) -> Int32? {
        let slot = free.last ?? Int32(truncatingIfNeeded: ids.count)
        if let old = slotOf.updateValue(slot, forKey: id) {
            slotOf[id] = old
            return nil
        }
        if free.popLast() != nil {
            ids[Int(slot)] = id; lon[Int(slot)] = x; lat[Int(slot)] = y; bits[Int(slot)] = 1
            mercX[Int(slot)] = .nan
        } else {
            ids.append(id); lon.append(x); lat.append(y); bits.append(1)
            mercX.append(.nan); mercY.append(.nan)
        }
        return slot
    }

    /// Takes back the latest inserts (a batch that failed half-way), given their slots in the
    /// order they were made and `capacity` before them: the store is as it was, free list included.
    public mutating func undoInserts(_ slots: [Int32], previousCapacity: Int) {
        for s in slots.reversed() {
            slotOf[ids[Int(s)]] = nil
            if Int(s) >= previousCapacity {
                ids.removeLast(); lon.removeLast(); lat.removeLast(); bits.removeLast()
                mercX.removeLast(); mercY.removeLast()
            } else {
                bits[Int(s)] = 0
                free.append(s)
            }
        }
    }

    public mutating func remove(_ slot: Int32) {
        slotOf[ids[Int(slot)]] = nil
        bits[Int(slot)] = 0
        free.append(slot)
    }

    @inline(__always)
    public mutating func move(_ slot: Int32, lon x: Double, lat y: Double) {
        lon[Int(slot)] = x; lat[Int(slot)] = y
        mercX[Int(slot)] = .nan
    }

    public mutating func setDraggable(_ slot: Int32, _ draggable: Bool) {
        if draggable { bits[Int(slot)] &= ~2 } else { bits[Int(slot)] |= 2 }
    }
}
