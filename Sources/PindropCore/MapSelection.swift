/// Several pins at once (behaviour 23, docs/editing.md "Several pins at once"): the modifiers the
/// host's user holds.
extension Map {
    /// Sets the modifiers the host's user holds (PINDROP_MOD_* bits); they apply from the next
    /// call on. Unknown bits are INVALID_ARGUMENT and change nothing. Emits nothing.
    public func setModifiers(_ bits: UInt32) throws(PindropError) {
        let m = try Modifiers.checked(bits)
        modifiers = m
    }

    /// Sets the modifiers from Swift.
    public func setModifiers(_ m: Modifiers) throws(PindropError) {
        try setModifiers(m.rawValue)
    }
}
