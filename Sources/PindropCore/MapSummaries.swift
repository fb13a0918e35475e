/// Values and categories of pins, and what clusters hold (SPEC behaviour 19).
extension Map {
    /// Sets values (finite or NaN) and categories (any but `PinAttributes.mixed`) of pins;
    /// either array may be nil (left as it is). All-or-nothing: every id and value is checked
    /// before anything changes.
    public func setAttributes(ids: UnsafeBufferPointer<Int64>, values: UnsafeBufferPointer<Double>?,
                              categories: UnsafeBufferPointer<UInt32>?) throws(PindropError) {
        try change(check: { () throws(PindropError) -> [Int32] in
            var slots: [Int32] = []
            slots.reserveCapacity(ids.count)
            for (i, id) in ids.enumerated() {
                guard let s = pins.slot(of: id) else {
                    throw PindropError(.notFound, "no pin with id \(id) (ids[\(i)]); no attribute was set")
                }
                if let values, values[i].isInfinite {
                    throw .invalid("values[\(i)] = \(values[i]) is infinite (a value is finite, or NaN for none); no attribute was set")
                }
                if let categories, categories[i] == PinAttributes.mixed {
                    throw .invalid("categories[\(i)] is PINDROP_CATEGORY_MIXED, which no pin may have; no attribute was set")
                }
                slots.append(s)
            }
            return slots
        }, apply: { slots in
            guard values != nil || categories != nil else { return }
            if ids.count > 64 { attributes.reserve(pins.capacity, values: values != nil, categories: categories != nil) }
            for (i, s) in slots.enumerated() {
                let v = values?[i] ?? attributes.value(s), c = categories?[i] ?? attributes.category(s)
                clusterRoom?.pinAttributesWillChange(s, value: v, category: c)
                attributes.setValue(s, v)
                attributes.setCategory(s, c)
            }
        })
    }

    /// What a cluster holds.
    public func clusterSummary(key: UInt64) throws(PindropError) -> ClusterSummary {
        if let slots = try stackSlots(key) { return stackSummary(slots) }  // a stack (behaviour 22)
        guard let room = clusterRoom, let s = room.summary(key) else { throw Self.staleKey(key) }
        return s
    }

    /// A cluster's categories with their counts, most pins first, ties by lower category.
    public func clusterCategories(key: UInt64, into out: inout [CategoryCount]) throws(PindropError) {
        if let slots = try stackSlots(key) { return stackCategories(slots, into: &out) }
        guard let room = clusterRoom, room.categories(key, into: &out) else { throw Self.staleKey(key) }
    }

    /// A collapsed stack's summary, from its pins (a stack is one group of the spreading rule, not
    /// an item of the cluster levels: it is summed when asked, in O(its pins)). ONE_SPOT when its
    /// pins share one true coordinate (a group within spread_tolerance_m may not).
    private func stackSummary(_ slots: [Int32]) -> ClusterSummary {
        // Added up as a cluster build adds up its pins (the same double-double sum, scaled alike),
        // with the true coordinate as the point the anchor is compared with.
        var sum = SummarySum()
        for s in slots {
            let p = pins.position(s)
            sum.pin(attributes.value(s), attributes.category(s), p.lon, p.lat)
        }
        return sum.s.summary
    }

    /// A collapsed stack's categories with their counts, most pins first, ties by lower category.
    private func stackCategories(_ slots: [Int32], into out: inout [CategoryCount]) {
        out.removeAll(keepingCapacity: true)
        var categories = slots.map { attributes.category($0) }
        categories.sort()
        var i = 0
        while i < categories.count {
            var j = i + 1
            while j < categories.count && categories[j] == categories[i] { j += 1 }
            out.append(CategoryCount(category: categories[i], count: UInt32(j - i)))
            i = j
        }
        out.sort { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
    }

    private static func staleKey(_ key: UInt64) -> PindropError {
        PindropError(.notFound, "no cluster with key \(key) (a key is stale once its cluster's members change)")
    }
}
