/// The values and categories of pins (SPEC behaviour 19), by pin slot: a value is finite or NaN
/// (none), a category any `UInt32` but `mixed`. The arrays stay empty until a host sets an
/// attribute, and grow only as far as the highest slot given one: a map whose pins carry none
/// pays nothing. The map keeps them whether or not it clusters; the cluster room reads them.
public final class PinAttributes {
    /// A summary's category when its members' categories differ (PINDROP_CATEGORY_MIXED).
    public static let mixed = UInt32.max

    private(set) var values: [Double] = []
    private(set) var categories: [UInt32] = []

    public init() {}

    @inline(__always)
    public func value(_ slot: Int32) -> Double {
        let i = Int(slot)
        return i < values.count ? values[i] : .nan
    }

    @inline(__always)
    public func category(_ slot: Int32) -> UInt32 {
        let i = Int(slot)
        return i < categories.count ? categories[i] : 0
    }

    public func setValue(_ slot: Int32, _ v: Double) {
        let i = Int(slot)
        if i >= values.count {
            if v.isNaN { return }
            values.append(contentsOf: repeatElement(.nan, count: i + 1 - values.count))
        }
        values[i] = v
    }

    public func setCategory(_ slot: Int32, _ c: UInt32) {
        let i = Int(slot)
        if i >= categories.count {
            if c == 0 { return }
            categories.append(contentsOf: repeatElement(0, count: i + 1 - categories.count))
        }
        categories[i] = c
    }

    /// Room for slots 0..<n of each attribute given (a batch about to be set: the arrays grow
    /// once, to the size asked, instead of by doubling).
    /// The first batch grows them to its size exactly, a later one by doubling at least (an exact
    /// size on each batch of a load in chunks copied every pin's attributes each time).
    public func reserve(_ n: Int, values v: Bool, categories c: Bool) {
        if v && values.count < n {
            if n > values.capacity { values.reserveCapacity(values.isEmpty ? n : Swift.max(n, 2 * values.capacity)) }
            values.append(contentsOf: repeatElement(.nan, count: n - values.count))
        }
        if c && categories.count < n {
            if n > categories.capacity { categories.reserveCapacity(categories.isEmpty ? n : Swift.max(n, 2 * categories.capacity)) }
            categories.append(contentsOf: repeatElement(0, count: n - categories.count))
        }
    }

    /// Calls `body` with the values and categories by slot (shorter than the slots when the later
    /// slots hold NaN and 0).
    public func withBuffers<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<UInt32>) -> R) -> R {
        values.withUnsafeBufferPointer { v in categories.withUnsafeBufferPointer { c in body(v, c) } }
    }

    /// A removed pin's attributes go with it: its slot starts again with NaN and 0.
    public func reset(_ slot: Int32) {
        let i = Int(slot)
        if i < values.count { values[i] = .nan }
        if i < categories.count { categories[i] = 0 }
    }

    public var bytes: Int { values.capacity * 8 + categories.capacity * 4 }
}
