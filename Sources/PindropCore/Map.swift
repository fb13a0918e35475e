/// A map: its pins, its view, its gestures and the events it has for the host. One thread at a
/// time. Every mutating entry point either succeeds or throws and changes nothing.
public final class Map {
    public let options: Options
    public internal(set) var pins = PinStore()
    /// True coordinates of all pins.
    public let index: SpatialIndex
    let factory: IndexFactory
    public internal(set) var view: View
    public internal(set) var events = EventQueue()
    /// The latest time the host passed; times must never decrease.
    public internal(set) var now = -Double.infinity

    /// The selected pin and the pin being placed or edited (PINDROP_NO_ID: none).
    public internal(set) var selectedID: Int64 = noID
    public internal(set) var editingID: Int64 = noID

    // The rooms of the map, each in its own folder: gestures, spreading, editing.
    var gesture = GestureMachine()
    var spread = SpreadLayout()
    var editing = EditingState()

    // Scratch buffers reused across calls so that queries do not allocate once warmed up.
    var candidates: [Int32] = []
    public internal(set) var nearbyResults: [NearbyHit] = []
    public internal(set) var frameViews: [PinView] = []
    // The frame's scratch: a generation stamp per slot (a candidate seen twice in one frame is
    // drawn once), and the draw-order sort's keys and spare buffers.
    var frameSeen: [UInt32] = []
    var frameGeneration: UInt32 = 0
    var frameKeys: [FrameKey] = []
    var frameBucketStart: [Int] = []
    var frameLate: [PinView] = []
    var frameSpare: [PinView] = []
    // Hit grid glue: the frame records the pins it draws; hit tests inside the viewport read them
    // while `version` (bumped by every change of a pin, a layout or a gesture) is unchanged.
    var hitGrid = HitGrid()
    var version: UInt64 = 0

    public init(options: Options = Options(), factory: IndexFactory) throws(PindropError) {
        try options.validate()
        self.options = options
        self.factory = factory
        self.index = factory.makeIndex(sharing: pins.coordinates)
        self.view = .camera(CameraTransform(Camera(centerLon: 0, centerLat: 0, zoom: 0, width: 256, height: 256)))
    }

    // MARK: - Time

    /// Accepts a host time: finite and not earlier than the last one.
    public func advance(to time: Double) throws(PindropError) {
        guard time.isFinite else { throw .invalid("time \(time) ms is not finite") }
        guard time >= now else {
            throw .invalid("time went backwards: \(time) ms is earlier than the last time given, \(now) ms")
        }
        now = time
    }

    /// Checks a time without accepting it (for calls that may still fail).
    public func checkTime(_ time: Double) throws(PindropError) {
        guard time.isFinite else { throw .invalid("time \(time) ms is not finite") }
        guard time >= now else {
            throw .invalid("time went backwards: \(time) ms is earlier than the last time given, \(now) ms")
        }
    }

    // MARK: - View

    public func setCamera(_ camera: Camera) throws(PindropError) {
        try camera.validate()
        view = .camera(CameraTransform(camera))
        hitGrid.invalidate()
        gestureViewChanged()
    }

    public func setProjection(_ projection: HostProjection) throws(PindropError) {
        guard projection.width.isFinite, projection.height.isFinite, projection.width > 0, projection.height > 0 else {
            throw .invalid("viewport \(projection.width)x\(projection.height) must be finite and > 0")
        }
        view = .host(projection)
        hitGrid.invalidate()
        gestureViewChanged()
    }

    public func toScreen(lon: Double, lat: Double) throws(PindropError) -> (x: Double, y: Double) {
        try checkLonLat(lon, lat)
        guard let p = view.toScreen(lon, lat) else { throw .invalid("the host projection failed for (\(lon), \(lat))") }
        return p
    }

    public func toLonLat(x: Double, y: Double) throws(PindropError) -> (lon: Double, lat: Double) {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        guard let p = view.toLonLatUnwrapped(x, y) else { throw .invalid("the host projection failed for (\(x), \(y))") }
        return (Sphere.normalizeLon(p.lon), min(90, max(-90, p.lat)))
    }

    // MARK: - Pins

    func slot(_ id: Int64) throws(PindropError) -> Int32 {
        guard let s = pins.slot(of: id) else { throw PindropError(.notFound, "no pin with id \(id)") }
        return s
    }

    public var count: Int { pins.count }

    public func add(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        guard id != noID else { throw .invalid("PINDROP_NO_ID is not a valid pin id") }
        try checkLonLat(lon, lat)
        guard !pins.contains(id) else { throw PindropError(.duplicateID, "a pin with id \(id) already exists") }
        let slot = pins.insert(id: id, lon: lon, lat: lat)
        index.set(slot, lon: lon, lat: lat)
        pinAdded(slot)
    }

    /// Adds ids[i] at (lonlat[2i], lonlat[2i+1]); all or nothing.
    public func addMany(ids: UnsafeBufferPointer<Int64>, lonlat: UnsafeBufferPointer<Double>) throws(PindropError) {
        let n = ids.count
        guard lonlat.count == 2 * n else { throw .invalid("add_many needs 2n coordinates") }
        for i in 0..<n {
            guard ids[i] != noID else { throw .invalid("ids[\(i)] is PINDROP_NO_ID") }
            try checkLonLat(lonlat[2 * i], lonlat[2 * i + 1], "pin \(i) (id \(ids[i]))")
        }
        // Ids are checked by inserting them (one hash probe each); a repeated id takes the
        // batch's inserts back before failing.
        let before = pins.capacity
        pins.reserve(n)
        var slots = [Int32](); slots.reserveCapacity(n)
        for i in 0..<n {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            guard let s = pins.insertIfNew(id: ids[i], lon: x, lat: y) else {
                pins.undoInserts(slots, previousCapacity: before)
                throw PindropError(.duplicateID, pins.contains(ids[i])
                    ? "ids[\(i)] = \(ids[i]) already exists on the map"
                    : "ids[\(i)] = \(ids[i]) appears twice in the batch")
            }
            slots.append(s)
        }
        index.insert(slots: slots, lonlat: lonlat)
        pinsAdded(slots)
    }

    public func remove(id: Int64) throws(PindropError) {
        let s = try slot(id)
        pinWillBeRemoved(s)
        index.remove(s)
        pins.remove(s)
        if selectedID == id { setSelected(noID) }
        if editingID == id { editingID = noID }
    }

    /// The host moves a pin (not a user move: no MOVED event, no history entry).
    public func setPosition(id: Int64, lon: Double, lat: Double) throws(PindropError) {
        let s = try slot(id)
        try checkLonLat(lon, lat)
        movePin(s, lon: lon, lat: lat)
    }

    /// Moves a pin's true coordinate and keeps the index and the layouts in step.
    func movePin(_ s: Int32, lon: Double, lat: Double) {
        pins.move(s, lon: lon, lat: lat)
        index.set(s, lon: lon, lat: lat)
        pinMoved(s)
    }

    public func position(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        pins.position(try slot(id))
    }

    public func displayPosition(id: Int64) throws(PindropError) -> (lon: Double, lat: Double) {
        drawnPosition(try slot(id))
    }

    public func setDraggable(id: Int64, _ draggable: Bool) throws(PindropError) {
        pins.setDraggable(try slot(id), draggable)
    }

    // MARK: - Hooks for the layouts (spreading) and gestures

    func pinAdded(_ slot: Int32) { version &+= 1; spreadPinAdded(slot) }
    /// A bulk add (add_many): the spreading groups the batch in ascending id order.
    func pinsAdded(_ slots: [Int32]) { version &+= 1; spreadPinsAdded(slots) }
    func pinMoved(_ slot: Int32) {
        version &+= 1
        spreadPinMoved(slot)
        editingPinMoved(slot)
    }
    func pinWillBeRemoved(_ slot: Int32) {
        version &+= 1
        gesturePinWillBeRemoved(slot)
        editingPinWillBeRemoved(slot)
        spreadPinWillBeRemoved(slot)
    }

    /// Where a pin is drawn (lon, lat): where a gesture holds it, else its place in a spread
    /// layout, else its true coordinate.
    @inline(__always)
    func drawnPosition(_ slot: Int32) -> (lon: Double, lat: Double) {
        drawnOverride(slot) ?? pins.position(slot)
    }

    /// Where a gesture or a spread layout draws a pin, or nil when it is drawn at its true coordinate.
    @inline(__always)
    func drawnOverride(_ slot: Int32) -> (lon: Double, lat: Double)? {
        if let p = gestureDrawnPosition(slot) { return p }
        return spreadDrawnPosition(slot)
    }

    /// Appends the slots whose drawn position may lie in `box` (a superset is fine).
    func drawnCandidates(_ box: GeoBox, into out: inout [Int32]) {
        box.split { index.query($0, into: &out) }
        spreadCandidates(box, into: &out)
        gestureCandidates(box, into: &out)
    }

    /// Every user move goes through here, the one place that emits MOVED: the editing rules may
    /// redirect or refuse the target (allowed area), then the pin moves and the editing rules see
    /// the result (callouts, geocoding, nearby warnings, history). Returns whether it moved.
    @discardableResult
    func applyUserMove(_ slot: Int32, lon: Double, lat: Double, cause: Event.Cause) -> Bool {
        guard let target = resolveUserMove(slot, lon: lon, lat: lat, cause: cause) else { return false }
        let from = pins.position(slot)
        movePin(slot, lon: target.lon, lat: target.lat)
        pushMoved(pins.id(slot), from: from, to: (target.lon, target.lat), cause: target.cause)
        userMoved(slot, from: from, cause: target.cause)
        return true
    }

    /// The MOVED event (also used by commit of a placement, which saves a pin without moving it).
    func pushMoved(_ id: Int64, from: (lon: Double, lat: Double), to: (lon: Double, lat: Double), cause: Event.Cause) {
        var e = Event(.moved, id: id, time: now)
        e.cause = cause
        e.lon = to.lon; e.lat = to.lat; e.fromLon = from.lon; e.fromLat = from.lat
        events.push(e)
    }

    /// Changes the selection, emitting DESELECTED for the old pin and SELECTED for the new one.
    func setSelected(_ id: Int64) {
        guard id != selectedID else { return }
        if selectedID != noID { events.push(Event(.deselected, id: selectedID, time: now)) }
        selectedID = id
        if id != noID { events.push(Event(.selected, id: id, time: now)) }
    }

    // MARK: - Queries

    /// The pin drawn nearest to (x, y) within hit_radius, ties to the edited, then the selected,
    /// then the higher id. Nil when there is none (or the view cannot place the point).
    public func hitTest(x: Double, y: Double) throws(PindropError) -> Int64? {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        defer { index.maintain(inserts: Map.maintainPerQuery) }  // index glue
        return hit(x, y)
    }

    /// How much deferred index work (GEOS inserts, and the tree builds they complete) a host
    /// query does: a hit test or nearby call, and a frame. See docs/index.md.
    static let maintainPerQuery = 32, maintainPerFrame = 256

    /// hit_test for n points xy[2i], xy[2i+1]; misses are PINDROP_NO_ID. All or nothing.
    public func hitTestMany(xy: UnsafeBufferPointer<Double>, out: UnsafeMutableBufferPointer<Int64>) throws(PindropError) {
        for i in 0..<out.count where !xy[2 * i].isFinite || !xy[2 * i + 1].isFinite {
            throw .invalid("screen point \(i) (\(xy[2 * i]), \(xy[2 * i + 1])) is not finite")
        }
        for i in 0..<out.count { out[i] = hit(xy[2 * i], xy[2 * i + 1]) ?? noID }
        index.maintain(inserts: Map.maintainPerQuery)  // index glue
    }

    func hit(_ x: Double, _ y: Double) -> Int64? {
        let r = options.hitRadius, r2 = r * r
        if hitGrid.covers(x, y, version: version) {
            var best: Int32 = -1
            var bestD2 = r2
            hitGrid.forEachNear(x, y) { s, px, py in
                let d2 = (px - x) * (px - x) + (py - y) * (py - y)
                if d2 < bestD2 || (d2 == bestD2 && (best < 0 || beatsOnTie(s, best))) { best = s; bestD2 = d2 }
            }
            return best < 0 ? nil : pins.id(best)
        }
        guard let box = view.discBox(x: x, y: y, r: r) else { return nil }
        // The scratch buffer is taken out of the map for the call: no allocation once warmed up,
        // and no exclusive access to the map held while the index fills it.
        var found = candidates
        candidates = []
        defer { candidates = found }
        found.removeAll(keepingCapacity: true)
        drawnCandidates(box, into: &found)
        var best: Int32 = -1
        var bestD2 = r2
        @inline(__always) func consider(_ s: Int32, _ q: (x: Double, y: Double)) {
            let d2 = (q.x - x) * (q.x - x) + (q.y - y) * (q.y - y)
            if d2 < bestD2 || (d2 == bestD2 && (best < 0 || beatsOnTie(s, best))) { best = s; bestD2 = d2 }
        }
        if case .camera(let c) = view {
            // A pin drawn at its true coordinate is projected from its kept Mercator point.
            for s in found {
                if let p = drawnOverride(s) {
                    consider(s, c.toScreen(p.lon, p.lat))
                } else {
                    consider(s, c.toScreen(mercator: pins.mercator(s)))
                }
            }
        } else {
            for s in found {
                let p = drawnPosition(s)
                guard let q = view.toScreen(p.lon, p.lat) else { continue }
                consider(s, q)
            }
        }
        return best < 0 ? nil : pins.id(best)
    }

    /// The tie rule of hit testing: the pin being edited, then the selected one, then the higher id.
    func beatsOnTie(_ a: Int32, _ b: Int32) -> Bool {
        let ia = pins.id(a), ib = pins.id(b)
        func rank(_ id: Int64) -> Int { id == editingID ? 2 : id == selectedID ? 1 : 0 }
        let ra = rank(ia), rb = rank(ib)
        return ra != rb ? ra > rb : ia > ib
    }

    public struct NearbyHit: Sendable, Equatable {
        public var id: Int64
        public var distance: Double
    }

    /// Pins whose true coordinate is within `radius` metres of (lon, lat), nearest first (ties:
    /// lower id). Returns the count; the hits are in `nearbyResults`.
    @discardableResult
    public func nearby(lon: Double, lat: Double, radius: Double) throws(PindropError) -> Int {
        try checkLonLat(lon, lat)
        guard radius.isFinite, radius >= 0 else { throw .invalid("radius \(radius) m must be finite and >= 0") }
        nearbyResults.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        Sphere.boundingBox(lon: lon, lat: lat, meters: radius).split { index.query($0, into: &candidates) }
        for s in candidates {
            let p = pins.position(s)
            let d = Sphere.distance(lon, lat, p.lon, p.lat)
            if d <= radius { nearbyResults.append(NearbyHit(id: pins.id(s), distance: d)) }
        }
        nearbyResults.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        index.maintain(inserts: Map.maintainPerQuery)  // index glue
        return nearbyResults.count
    }

    // MARK: - Frame

    public struct PinView: Sendable, Equatable {
        public var id: Int64
        public var x, y, anchorX, anchorY, lift: Double
        public var flags: UInt32
    }

    public static let flagSelected: UInt32 = 1, flagEditing: UInt32 = 2, flagDragging: UInt32 = 4,
                      flagSpread: UInt32 = 8, flagInvalid: UInt32 = 16

    /// Fills `frameViews` with the pins drawn inside the viewport grown by hit_radius, in drawing
    /// order, and returns their number.
    @discardableResult
    public func frame(time: Double) throws(PindropError) -> Int {
        try checkTime(time)
        let r = options.hitRadius
        let w = view.width, h = view.height
        guard let box = view.box(x0: -r, y0: -r, x1: w + r, y1: h + r) else {
            throw .invalid("the host projection failed for the viewport")
        }
        try advance(to: time)  // only once nothing can fail: a failed call changes nothing
        frameViews.removeAll(keepingCapacity: true)
        frameLate.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        drawnCandidates(box, into: &candidates)
        let generation = nextFrameGeneration()
        let camera: CameraTransform? = if case .camera(let c) = view { c } else { nil }
        hitGrid.begin(version: version, width: w, height: h, r: r, camera: camera != nil)
        for s in candidates {
            // A pin can be a candidate both by its true and by its drawn position: drawn once.
            guard frameSeen[Int(s)] != generation else { continue }
            frameSeen[Int(s)] = generation
            let over = drawnOverride(s)
            let q: (x: Double, y: Double), a: (x: Double, y: Double)
            if let c = camera {
                let t = c.toScreen(mercator: pins.mercator(s))
                if let d = over { q = c.toScreen(d.lon, d.lat); a = t } else { q = t; a = t }
            } else {
                let d = over ?? pins.position(s)
                guard let p = view.toScreen(d.lon, d.lat) else { continue }
                q = p
                let t = pins.position(s)
                a = (t.lon == d.lon && t.lat == d.lat) ? q : (view.toScreen(t.lon, t.lat) ?? q)
            }
            guard q.x >= -r, q.x <= w + r, q.y >= -r, q.y <= h + r else { continue }
            hitGrid.record(s, q.x, q.y)
            let v = PinView(id: pins.id(s), x: q.x, y: q.y, anchorX: a.x, anchorY: a.y,
                            lift: gestureLift(s, time: time), flags: flags(s))
            if drawRank(v) == 0 { frameViews.append(v) } else { frameLate.append(v) }
        }
        sortFrameViews()
        hitGrid.end()
        index.maintain(inserts: Map.maintainPerFrame)  // index glue
        return frameViews.count
    }

    /// A fresh stamp for `frameSeen`, grown to every slot; cleared only when the counter wraps.
    private func nextFrameGeneration() -> UInt32 {
        if frameSeen.count < pins.capacity {
            frameSeen.append(contentsOf: repeatElement(0, count: pins.capacity - frameSeen.count))
        }
        frameGeneration &+= 1
        if frameGeneration == 0 {
            for i in frameSeen.indices { frameSeen[i] = 0 }
            frameGeneration = 1
        }
        return frameGeneration
    }

    /// A view's place in the draw order among the ordinary pins: its y (-0.0 made 0.0), id and index.
    struct FrameKey {
        var y: Double
        var id: Int64
        var index: Int32

        @inline(__always)
        static func before(_ a: FrameKey, _ b: FrameKey) -> Bool { a.y != b.y ? a.y < b.y : a.id < b.id }
    }

    /// Puts `frameViews` (ordinary pins) in drawing order — by y, then id — and appends the
    /// selected and dragged pins (`frameLate`) after them by rank, y, id. A bucket sort: as many
    /// buckets as views over the frame's range of y (the bucket of y never decreases as y grows),
    /// filled by one counting pass, then each bucket — a view or two on average — put in order by
    /// insertion (a heap sort for a large one, such as pins stacked on one coordinate). No
    /// allocation once the buffers have grown.
    private func sortFrameViews() {
        let n = frameViews.count
        frameKeys.removeAll(keepingCapacity: true)
        var lo = Double.infinity, hi = -Double.infinity
        for v in frameViews { lo = min(lo, v.y); hi = max(hi, v.y) }
        let last = n - 1
        let scale = hi > lo ? Double(max(last, 0)) / (hi - lo) : 0
        @inline(__always) func bucket(_ y: Double) -> Int {
            let f = (y - lo) * scale
            return f >= Double(last) ? last : f > 0 ? Int(f) : 0
        }
        if frameBucketStart.count < n + 1 {
            frameBucketStart.append(contentsOf: repeatElement(0, count: n + 1 - frameBucketStart.count))
        }
        if frameKeys.capacity < n { frameKeys.reserveCapacity(n) }
        frameKeys.append(contentsOf: repeatElement(FrameKey(y: 0, id: 0, index: 0), count: n))
        frameViews.withUnsafeBufferPointer { views in
            frameKeys.withUnsafeMutableBufferPointer { keys in
                frameBucketStart.withUnsafeMutableBufferPointer { start in
                    for b in 0...n { start[b] = 0 }
                    for v in views { start[bucket(v.y) + 1] += 1 }
                    for b in 0..<n { start[b + 1] += start[b] }
                    // start[b] is now where bucket b begins; fill moves it to where b ends.
                    for i in 0..<n {
                        let v = views[i], b = bucket(v.y)
                        keys[start[b]] = FrameKey(y: v.y + 0, id: v.id, index: Int32(truncatingIfNeeded: i))
                        start[b] += 1
                    }
                    var begin = 0
                    for b in 0..<n {
                        let end = start[b]
                        if end - begin > 1 { Map.sortKeys(keys, begin, end) }
                        begin = end
                    }
                }
            }
        }
        frameSpare.removeAll(keepingCapacity: true)
        for k in frameKeys { frameSpare.append(frameViews[Int(k.index)]) }
        swap(&frameViews, &frameSpare)
        if !frameLate.isEmpty {
            frameLate.sort { a, b in
                let ka = drawRank(a), kb = drawRank(b)
                if ka != kb { return ka < kb }
                return a.y != b.y ? a.y < b.y : a.id < b.id
            }
            frameViews.append(contentsOf: frameLate)
        }
    }

    /// Sorts keys[begin..<end] by (y, id) in place: insertion for a few, a heap sort for many.
    private static func sortKeys(_ keys: UnsafeMutableBufferPointer<FrameKey>, _ begin: Int, _ end: Int) {
        if end - begin <= 24 {
            for i in (begin + 1)..<end {
                let k = keys[i]
                var j = i
                while j > begin && FrameKey.before(k, keys[j - 1]) { keys[j] = keys[j - 1]; j -= 1 }
                keys[j] = k
            }
            return
        }
        let count = end - begin
        @inline(__always) func siftDown(_ root: Int, _ size: Int) {
            var r = root
            while true {
                var child = 2 * r + 1
                if child >= size { return }
                if child + 1 < size && FrameKey.before(keys[begin + child], keys[begin + child + 1]) { child += 1 }
                if !FrameKey.before(keys[begin + r], keys[begin + child]) { return }
                keys.swapAt(begin + r, begin + child)
                r = child
            }
        }
        for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
        for size in stride(from: count - 1, to: 0, by: -1) {
            keys.swapAt(begin, begin + size)
            siftDown(0, size)
        }
    }

    /// 0 for ordinary pins, then the selected pin, and the dragged pin drawn last of all.
    @inline(__always)
    func drawRank(_ v: PinView) -> Int {
        v.flags & Map.flagDragging != 0 ? 2 : v.flags & Map.flagSelected != 0 ? 1 : 0
    }

    func flags(_ slot: Int32) -> UInt32 {
        let id = pins.id(slot)
        var f: UInt32 = 0
        if id == selectedID { f |= Map.flagSelected }
        if id == editingID { f |= Map.flagEditing }
        return f | gestureFlags(slot) | spreadFlags(slot) | editingFlags(slot)
    }

    // MARK: - Events

    public func pollEvent() -> Event? { events.pop() }
}
