/// Values and categories of pins, and what clusters hold (SPEC behaviour 19).
extension Map {
    /// Sets values (finite or NaN) and categories (any but `PinAttributes.mixed`) of pins;
    /// either array may be nil (left as it is). All-or-nothing: every id and value is checked
    /// before anything changes.
    public func setAttributes(ids: UnsafeBufferPointer<Int64>, values: UnsafeBufferPointer<Double>?,
                              categories: UnsafeBufferPointer<UInt32>?) throws(PindropError) {
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
        guard values != nil || categories != nil else { return }
        for (i, s) in slots.enumerated() {
            let v = values?[i] ?? attributes.value(s), c = categories?[i] ?? attributes.category(s)
            clusters?.pinAttributesWillChange(s, value: v, category: c)
            attributes.setValue(s, v)
            attributes.setCategory(s, c)
        }
        version &+= 1
    }

    /// What a cluster holds.
    public func clusterSummary(key: UInt64) throws(PindropError) -> ClusterSummary {
        syncClusterExclusions()
        guard let room = clusters, let s = room.summary(key) else { throw Self.staleKey(key) }
        return s
    }

    /// A cluster's categories with their counts, most pins first, ties by lower category.
    public func clusterCategories(key: UInt64, into out: inout [CategoryCount]) throws(PindropError) {
        syncClusterExclusions()
        guard let room = clusters, room.categories(key, into: &out) else { throw Self.staleKey(key) }
    }

    static func staleKey(_ key: UInt64) -> PindropError {
        PindropError(.notFound, "no cluster with key \(key) (a key is stale once its cluster's members change)")
    }
}
