/// Scratch that gives memory back. The frame room's buffers (its views, their sort keys, the hit
/// grid's copies, the map's candidate list) grow to the largest frame drawn and are reused, so
/// that a warmed frame allocates nothing. Without a rule to shrink them, one frame of every pin
/// (the 916k LA trees drawn unclustered at zoom 8) left the map holding about 190 bytes per pin
/// of scratch for good. The rule: after each frame, a buffer whose room is more than four times
/// what that frame needed (and more than twice `floor` elements) is given back and replaced by one with
/// room for twice the need. A steady view never reallocates; a frame that needs a quarter of the
/// room or less reallocates once, which is cheap beside the frame that grew the buffer.
enum FrameScratch {
    /// Room every buffer is given whatever the frame (a few hundred kilobytes in all). A buffer
    /// counts as oversized only above twice the floor, since malloc rounds a reservation up (a
    /// page for a large one): a buffer just given the floor's room must not count as oversized,
    /// or every small frame would reallocate it.
    static let floor = 4096

    /// Whether a buffer with room for `capacity` elements is oversized for a need of `need`.
    @inline(__always)
    static func oversized(_ capacity: Int, need: Int) -> Bool {
        capacity > max(4 * need, 2 * floor)
    }

    /// The room an oversized buffer is given instead.
    @inline(__always)
    static func room(_ need: Int) -> Int { max(2 * need, floor) }

    /// Gives back an oversized buffer whose contents are spent (sort keys, spare copies): it is
    /// left empty, with room for twice the need.
    @inline(__always)
    static func fit<T>(_ buffer: inout [T], need: Int) {
        guard oversized(buffer.capacity, need: need) else { return }
        buffer = []
        buffer.reserveCapacity(room(need))
    }

    /// Gives back an oversized buffer whose contents are still read (the frame's views): they are
    /// copied into a buffer with room for twice the need.
    @inline(__always)
    static func fit<T>(keeping buffer: inout [T], need: Int) {
        guard oversized(buffer.capacity, need: need) else { return }
        var kept: [T] = []
        kept.reserveCapacity(max(room(need), buffer.count))
        kept.append(contentsOf: buffer)
        buffer = kept
    }

    /// The bytes of room a buffer holds (for the tests and the benchmarks' accounts).
    @inline(__always)
    static func bytes<T>(_ buffer: [T]) -> Int { buffer.capacity * MemoryLayout<T>.stride }
}
