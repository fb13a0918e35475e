/// The pins a drag of one selected pin moves with it (behaviour 23): every other selected,
/// draggable pin, each with its Web Mercator offset (world of size 1) from where the grabbed pin
/// was drawn when it lifted. While the grabbed pin is held they are drawn at its drawn position
/// plus their offset, so the group moves rigidly on the screen at every zoom; their true
/// coordinates change only at the drop, as the grabbed pin's does. Made at the lift (O(group)),
/// read per drawn member (O(1) each): a finger move costs nothing per member. A class, so that the
/// map's check for a group under way (`group != nil`, per drawn pin) is one pointer's.
final class GroupDrag {
    /// The grabbed pin.
    let grabbed: Int32
    let grabbedID: Int64
    /// The other pins, in ascending id order, and their offsets.
    private(set) var slots: [Int32] = []
    private(set) var ids: [Int64] = []
    private(set) var dx: [Double] = []
    private(set) var dy: [Double] = []
    /// Member slot → its index in the arrays above.
    private var index: [Int64: Int] = [:]
    /// The grabbed pin's drawn Mercator point for the last (version, time) asked, so that a frame
    /// projects it once, not once per member.
    private var anchor: (version: UInt64, time: Double, x: Double, y: Double)?

    /// `origin`: the grabbed pin's drawn Mercator point at the lift. `members`: (slot, id, Mercator
    /// point) of the other pins, in ascending id order (the selection's order).
    init(grabbed: Int32, id: Int64, origin: (x: Double, y: Double), members: [(slot: Int32, id: Int64, x: Double, y: Double)]) {
        self.grabbed = grabbed
        self.grabbedID = id
        slots.reserveCapacity(members.count); ids.reserveCapacity(members.count)
        dx.reserveCapacity(members.count); dy.reserveCapacity(members.count)
        index.reserveCapacity(members.count)
        for (i, m) in members.enumerated() {
            slots.append(m.slot); ids.append(m.id)
            dx.append(m.x - origin.x); dy.append(m.y - origin.y)
            index[Int64(m.slot)] = i
        }
    }

    var count: Int { slots.count }

    @inline(__always)
    func member(_ slot: Int32) -> Int? { index.isEmpty ? nil : index[Int64(slot)] }

    /// Whether the grabbed pin is held now (by a finger or the keyboard).
    @inline(__always)
    func isHeld(_ m: Map) -> Bool { m.gesture.heldSlot == grabbed }

    func appendMembers(into out: inout [Int32]) { out.append(contentsOf: slots) }

    /// The Mercator point of member i when the grabbed pin is at Mercator point (x, y).
    @inline(__always)
    func point(_ i: Int, anchorX x: Double, anchorY y: Double) -> (x: Double, y: Double) {
        (x + dx[i], y + dy[i])
    }

    /// (lon, lat) of a Mercator point of a world of size 1, longitude wrapped into [-180, 180]; nil
    /// when it has no coordinate.
    @inline(__always)
    static func lonLat(_ p: (x: Double, y: Double)) -> (lon: Double, lat: Double)? {
        let q = WebMercator.unproject(x: p.x, y: p.y, worldSize: 1)
        guard q.lon.isFinite, q.lat.isFinite else { return nil }
        return (Sphere.normalizeLon(q.lon), min(90, max(-90, q.lat)))
    }

    /// The cached anchor for (version, time), if it is the one asked.
    func cachedAnchor(version: UInt64, time: Double) -> (x: Double, y: Double)? {
        guard let a = anchor, a.version == version, a.time == time else { return nil }
        return (a.x, a.y)
    }

    func cacheAnchor(version: UInt64, time: Double, _ p: (x: Double, y: Double)) {
        anchor = (version, time, p.x, p.y)
    }

    /// A member was removed: it leaves the group.
    func remove(_ slot: Int32) {
        guard let i = index[Int64(slot)] else { return }
        slots.remove(at: i); ids.remove(at: i); dx.remove(at: i); dy.remove(at: i)
        index.removeAll(keepingCapacity: true)
        for (j, s) in slots.enumerated() { index[Int64(s)] = j }
    }
}

/// The targets of a user move of several pins (a group's drop, a nudge of a selection): slots in
/// ascending id order and where each goes.
struct GroupMove {
    var slots: [Int32] = []
    var lon: [Double] = []
    var lat: [Double] = []
}
