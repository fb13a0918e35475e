/// A map: its pins, its view, its gestures and the events it has for the host. One thread at a
/// time. Every mutating entry point either succeeds or throws and changes nothing.
///
/// The map's facets live in files of their own, each an extension of this class: pins and their
/// hooks (MapPins.swift), the view and the frame (MapFrame.swift), hit tests (MapHitTests.swift),
/// touches and nudges (MapGestures.swift), editing (MapEditing.swift), clusters
/// (MapClusters.swift), stacks (MapStacks.swift), summaries (MapSummaries.swift) and the keyboard
/// (MapKeyboard.swift). This file holds what they share: the state, the one order of an entry
/// point (`change`, `observe`) and the one invalidation path (`changed`, `upToDate`).
public final class Map {
    public let options: Options
    public internal(set) var pins = PinStore()
    /// True coordinates of all pins.
    public let index: SpatialIndex
    let factory: IndexFactory
    public internal(set) var view: View
    public internal(set) var events = EventQueue()
    /// The latest time the host passed; times must never decrease.
    public private(set) var now = -Double.infinity

    /// The selected pin and the pin being placed or edited (PINDROP_NO_ID: none). The edited pin
    /// is the editing room's (its session's pin); tests may set it to stand for a session.
    public internal(set) var selectedID: Int64 {
        get { selection.lowest }
        set { selection = Selection(); if newValue != noID { selection.insert(newValue) } }
    }
    /// The selected pins (behaviour 23, MapSelection.swift); `selectedID` is the lowest of them.
    var selection = Selection()
    /// The pins a drag of a selected pin moves with it (MapSelection.swift), while one is under way.
    var group: GroupDrag?
    /// The keys the host's user holds now (`setModifiers`, MapSelection.swift).
    public internal(set) var modifiers: Modifiers = []
    public internal(set) var editingID: Int64 {
        get { editing.editingID }
        set { editing.editingID = newValue }
    }

    // The rooms of the map, each in its own folder: gestures, spreading, editing, frame.
    let gesture: GestureMachine
    var spread: SpreadLayout
    let editing: Editor

    // Scratch buffers reused across calls so that queries do not allocate once warmed up.
    var candidates: [Int32] = []
    public internal(set) var nearbyResults: [NearbyHit] = []
    /// The frame room: what to draw, in drawing order, with its scratch buffers.
    var frame = FrameBuilder()
    /// The cluster room (nil when cluster_radius is 0): the levels of clusters, kept up to date
    /// through the pin hooks. Read only through `clusterRoom`, which first keeps the selected,
    /// edited and held pins out of it.
    private let clusters: Clusterer?
    /// The clusters of the last `frameClusters` call.
    public internal(set) var clusterViews: [ClusterView] = []
    /// Scratch buffers of the stacks (behaviour 22, MapStacks.swift).
    var keptScratch: [Int32] = []
    var stackGroups: [Int32] = []
    var stackScratch: [Int32] = []
    /// Badges within hit_radius merged into one (MapBadges.swift), and its scratch of badges.
    var badges = BadgeMerger()
    var badgeScratch: [ClusterView] = []
    /// The slots kept out of the clusters (`syncClusterExclusions`), reused.
    private var excludedScratch: [Int32] = []
    /// The snap layers and what the dragged pin snapped to (behaviour 24, MapSnap.swift).
    var snapping = SnapState()
    /// The pins' values and categories (behaviour 19), read by the cluster room.
    public let attributes = PinAttributes()
    /// The members of the cluster last listed in id order, and its key (`clusterMembers`).
    var sortedMembers: (key: UInt64, ids: [Int64]) = (0, [])

    public init(options: Options = Options(), factory: IndexFactory) throws(PindropError) {
        try options.validate()
        self.options = options
        self.factory = factory
        self.gesture = GestureMachine(options: options)
        self.editing = Editor(options: options)
        self.index = factory.makeIndex(sharing: pins.coordinates)
        let view = View.camera(CameraTransform(Camera(centerLon: 0, centerLat: 0, zoom: 0, width: 256, height: 256)))
        self.view = view
        self.spread = SpreadLayout(options: options, view: view)
        self.clusters = Clusterer(radius: options.clusterRadius, maxZoom: options.clusterMaxZoom,
                                    attributes: attributes, byCategory: options.clusterByCategory,
                                    minPoints: Int(options.clusterMinPoints))
    }

    // MARK: - Time

    /// Accepts a host time: finite, within [0, 1e13] ms (`InputRange.checkTime`) and not earlier
    /// than the last one.
    public func advance(to time: Double) throws(PindropError) {
        try checkTime(time)
        now = time
    }

    /// Checks a time without accepting it (for calls that may still fail).
    public func checkTime(_ time: Double) throws(PindropError) {
        try InputRange.checkTime(time)
        guard time >= now else {
            throw .invalid("time went backwards: \(time) ms is earlier than the last time given, \(now) ms")
        }
    }

    // MARK: - The order of an entry point

    /// Every entry point that changes the map runs in this order, so that a failed call changes
    /// nothing: `check` (the time, then `check`'s own checks, which read and may throw but change
    /// nothing), then the time is accepted, then `apply` (which cannot fail) changes the map with
    /// what `check` returned. The caches are invalidated around `apply` (`changed`).
    @inline(__always)
    func change<Checked, Result>(at time: Double, check: () throws(PindropError) -> Checked,
                                 apply: (Checked) -> Result) throws(PindropError) -> Result {
        try checkTime(time)
        let checked = try check()
        now = time
        changed()
        defer { changed() }
        return apply(checked)
    }

    /// `change` for an entry point that takes no time (adding a pin, selecting, the camera).
    /// `redraws: false` for a change that moves nothing drawn (a selection, a title): the last
    /// frame's hit grid stays valid, and what follows from the selection is brought up to date
    /// by `upToDate`, which watches it.
    @inline(__always)
    func change<Checked, Result>(redraws: Bool = true, check: () throws(PindropError) -> Checked,
                                 apply: (Checked) -> Result) throws(PindropError) -> Result {
        let checked = try check()
        if redraws { changed() }
        defer { if redraws { changed() } }
        return apply(checked)
    }

    /// A query at a time (a frame): `check`, then the time is accepted, then `read`, which may use
    /// and refill the scratch buffers and the frame but changes nothing the caches depend on.
    @inline(__always)
    func observe<Checked, Result>(at time: Double, check: () throws(PindropError) -> Checked,
                                  read: (Checked) -> Result) throws(PindropError) -> Result {
        try checkTime(time)
        let checked = try check()
        now = time
        return read(checked)
    }

    // MARK: - Invalidation

    /// Bumped by every change (`changed`): the last frame's hit grid (`frame.hits`) and the state
    /// derived from the selected, edited and held pins are valid only while it is unchanged.
    private(set) var version: UInt64 = 0
    /// What the derived state was last brought up to date from (`upToDate`): the version and the
    /// pins it follows, so that a selection or an edit set from inside (tests do) is seen too.
    private var derivedFrom = DerivedInputs(version: .max, selected: .max, editing: noID, finger: -1, held: -1)

    private struct DerivedInputs: Equatable {
        var version: UInt64, selected: UInt64, editing: Int64, finger: Int32, held: Int32
    }

    /// The one invalidation path: every change of a pin, a layout, the view, the selection, an
    /// edit or a gesture goes through `change`, which calls this before and after it applies
    /// (before, so that a query inside `apply`, a touch's hit test, never reads the last frame's
    /// grid); `syncStacks` calls it too when the stacks kept open change what is drawn.
    @inline(__always)
    func changed() { version &+= 1 }

    /// Brings what follows from the selected, edited and held pins up to date before a query
    /// reads it: the stacks they keep open and the pins kept out of the clusters. Once per change.
    @inline(__always)
    func upToDate() {
        guard derivedInputs != derivedFrom else { return }
        syncStacks()  // may bump `version`: what is drawn collapsed changed
        syncClusterExclusions()
        derivedFrom = derivedInputs
    }

    private var derivedInputs: DerivedInputs {
        DerivedInputs(version: version, selected: selection.version, editing: editingID,
                      finger: gesture.fingerSlot ?? -1, held: gesture.heldSlot)
    }

    /// The cluster room, with the selected, edited and held pins kept out of it (nil when
    /// clustering is off). Every query of the room goes through here; only the hooks below,
    /// which tell it about pins, hold the room itself.
    var clusterRoom: Clusterer? {
        upToDate()
        return clusters
    }

    /// Tells the cluster room which pins to keep out: the selected and edited pins, the pin a
    /// gesture holds and the pins a group drag moves with it.
    private func syncClusterExclusions() {
        guard let room = clusters else { return }
        var out = excludedScratch
        excludedScratch = []
        out.removeAll(keepingCapacity: true)
        appendSelectedSlots(into: &out)
        if editingID != noID, let s = pins.slot(of: editingID) { out.append(s) }
        if let s = gesture.fingerSlot { out.append(s) }
        if let s = gesture.keyboardSlot { out.append(s) }
        room.setExcluded(out)
        excludedScratch = out
    }

    // MARK: - Hooks for the rooms

    // Every pin change reaches every room through these four, called after the store and the
    // index changed (before, for a removal).

    func pinAdded(_ slot: Int32) {
        spread.stackWillChange(slot)
        spread.pinAdded(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinAdded(slot, id: pins.id(slot), mercator: pins.mercator(slot))
    }
    /// A bulk add (add_many): the spreading groups the batch in ascending id order.
    func pinsAdded(_ slots: [Int32]) {
        spread.stackWillChange(-1)
        spread.pinsAdded(slots, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinsAdded(slots, pins)
    }
    func pinMoved(_ slot: Int32) {
        gesture.pinMoved(slot)
        spread.stackWillChange(slot)
        spread.pinMoved(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        editing.pinMoved(id: pins.id(slot))
        clusters?.pinMoved(slot, mercator: pins.mercator(slot))
    }
    func pinWillBeRemoved(_ slot: Int32) {
        gesture.pinWillBeRemoved(slot, self)
        editing.pinWillBeRemoved(id: pins.id(slot))
        spread.stackWillChange(slot)
        spread.pinWillBeRemoved(slot, pins, index)
        spread.stackDidChange(); reportLostStack()
        clusters?.pinWillBeRemoved(slot)
        attributes.reset(slot)
    }

    // MARK: - Events

    /// Queues an event at the map's time.
    @inline(__always)
    func emit(_ e: Event) { events.push(e, time: now) }

    public func pollEvent() -> TimedEvent? { events.pop() }

    // MARK: - Pins by id

    func slot(_ id: Int64) throws(PindropError) -> Int32 {
        guard let s = pins.slot(of: id) else { throw PindropError(.notFound, "no pin with id \(id)") }
        return s
    }

    public var count: Int { pins.count }
}
