import Glibc

/// The gesture state machine (docs/gestures.md: grab, pan or drag, lift, drop, cancel, taps and
/// tap-to-move, auto-pan), sans-IO: the host passes touches
/// with their times, `tick` resolves timeouts, `nextDeadline` says when the next tick is due, and
/// what happened comes out as events. No timers, threads or clocks inside.
///
/// Two machines run side by side (docs/gestures.md draws both):
///  - the pointer machine (`State`): what the pointers that are down mean;
///  - the tap window (`TapWindow`): a single tap on the map waiting `double_tap_ms` for a second
///    touch before it moves the edited pin or clears the selection.
/// Animations (the lift, the drop with its bounce, the glide back after a cancel) are data, read
/// by `frame` at the time it is given.
struct GestureMachine {
    /// What the pointers that are down mean. Each case has one handler in GestureHandlers.swift.
    enum State {
        /// No pointer is down.
        case idle
        /// One pointer is down on a pin; not yet known whether it is a tap, a hold or a pan.
        case pressed(Press)
        /// The hold was recognised: the pin is raised; the finger has not yet moved more than
        /// drag_threshold from where it went down, so the pin does not follow it yet.
        case lifted(Hold)
        /// The pin follows the finger: its landing point is the finger plus the grab offset,
        /// lift_height above.
        case dragging(Hold)
        /// One pointer is down off every pin: the host's, but it may turn out to be a tap on the map.
        case mapTouch(MapTouch)
        /// One pointer is down on a cluster (and off every pin): a tap on it is CLUSTER_TAPPED; it
        /// never lifts anything, and moving it pans.
        case clusterPress(ClusterPress)
        /// Every pointer belongs to the host until all are up (a pan, a pinch, an abandoned press).
        case hostGesture
        /// pindrop's gesture ended early (cancel_gesture, or its pin was removed): the rest of this
        /// pointer's touch is swallowed so that the host does not start a pan half way through.
        case finished(pointer: Int32)

        var name: StaticString {
            switch self {
            case .idle: "idle"
            case .pressed: "pressed"
            case .lifted: "lifted"
            case .dragging: "dragging"
            case .mapTouch: "mapTouch"
            case .clusterPress: "clusterPress"
            case .hostGesture: "hostGesture"
            case .finished: "finished"
            }
        }
    }

    /// What the pointer machine reacts to, classified where touches come in (`Map.touch`): a DOWN
    /// is hit-tested, a MOVE or UP of the pointer the machine follows is measured against where it
    /// went down (drag_threshold). The handlers only transition.
    enum Input {
        /// A pointer went down within hit_radius of a pin's drawn position (the winner of the hit test).
        case downOnPin(pointer: Int32, slot: Int32, id: Int64, x: Double, y: Double)
        case downOffPins(pointer: Int32, x: Double, y: Double)
        /// A pointer went down off every pin, within hit_radius of a cluster's drawn point.
        case downOnCluster(pointer: Int32, cluster: ClusterView, x: Double, y: Double)
        /// A move that crosses no threshold: within drag_threshold of the followed pointer's down
        /// point, or a move of a pointer the machine does not follow.
        case move(pointer: Int32, x: Double, y: Double)
        /// The followed pointer is more than drag_threshold from where it went down.
        case moveBeyondThreshold(pointer: Int32, x: Double, y: Double)
        /// `beyondThreshold`: the followed pointer lifted more than drag_threshold from where it went down.
        case up(pointer: Int32, x: Double, y: Double, beyondThreshold: Bool)
        case cancel(pointer: Int32)
        /// lift_delay_ms has passed since the press.
        case liftTimeout
        /// A tick (auto-pan accounting, the landing point rising during the lift animation).
        case tick
        /// pindrop_map_cancel_gesture.
        case cancelGesture
        /// The camera or projection changed.
        case viewChanged
        /// A pin is about to be removed.
        case pinRemoved(slot: Int32)

        var name: StaticString {
            switch self {
            case .downOnPin: "downOnPin"
            case .downOffPins: "downOffPins"
            case .downOnCluster: "downOnCluster"
            case .move: "move"
            case .moveBeyondThreshold: "moveBeyondThreshold"
            case .up: "up"
            case .cancel: "cancel"
            case .liftTimeout: "liftTimeout"
            case .tick: "tick"
            case .cancelGesture: "cancelGesture"
            case .viewChanged: "viewChanged"
            case .pinRemoved: "pinRemoved"
            }
        }
    }

    struct Press {
        var pointer: Int32
        var slot: Int32
        var id: Int64
        var downX, downY, downTime: Double
    }

    /// A lifted or dragged pin.
    struct Hold {
        var pointer: Int32
        var slot: Int32
        var id: Int64
        /// Where the finger went down, and where it is now.
        var downX, downY, fingerX, fingerY: Double
        /// The pin's drawn screen point minus the finger's down point, taken when the pin lifted.
        var offsetX, offsetY: Double
        /// The pin's drawn position when it lifted (where a lifted, not yet moved pin rises from).
        var originLon, originLat: Double
        /// When the lift animation started, and the lift it started from (a pin caught during its
        /// drop animation rises from where it is).
        var liftStart, liftFrom: Double
        /// The last landing point reported by DRAGGED (meaningful once `dragged`).
        var landingLon = 0.0, landingLat = 0.0
        var dragged = false
        var autopan = Autopan()
    }

    /// Auto-pan bookkeeping: the velocity (points per second) since `last`, and the distance owed
    /// to the host since the last AUTOPAN event. Integrated piecewise exactly, so the distance does
    /// not depend on how often the host ticks.
    struct Autopan {
        var vx = 0.0, vy = 0.0, last = 0.0, owedX = 0.0, owedY = 0.0
        var isActive: Bool { vx != 0 || vy != 0 || owedX != 0 || owedY != 0 }
    }

    struct ClusterPress {
        var pointer: Int32
        var cluster: ClusterView
        var downX, downY, downTime: Double
    }

    struct MapTouch {
        var pointer: Int32
        var downX, downY, downTime: Double
        /// This touch went down within double_tap_slop of a pending tap: it is the second tap of a
        /// double tap and never becomes a single tap itself.
        var secondTap: Bool
    }

    /// The tap window: a single tap on the map waiting for a possible second touch.
    enum TapWindow {
        case closed
        case open(PendingTap)

        var name: StaticString {
            switch self {
            case .closed: "closed"
            case .open: "open"
            }
        }
    }

    enum TapInput {
        case tap(PendingTap)
        case down(x: Double, y: Double)
        case timeout
        case cancelGesture

        var name: StaticString {
            switch self {
            case .tap: "tap"
            case .down: "down"
            case .timeout: "timeout"
            case .cancelGesture: "cancelGesture"
            }
        }
    }

    struct PendingTap {
        var x, y: Double
        var lon, lat: Double
        var deadline: Double
        /// The pins edited and selected when the tap was made: the tap acts on those only, so a
        /// selection or an edit that changed in the meantime is left alone.
        var editing: Int64
        var selected: Int64
    }

    /// The animation after a gesture ended: the lift falls from `fromLift` with a small bounce
    /// below 0, and the drawn point glides from `offset` (screen points from where the pin now
    /// belongs) back to 0.
    struct Drop {
        var slot: Int32
        var start: Double
        var fromLift: Double
        var offsetX, offsetY: Double
    }

    var state = State.idle
    var tapWindow = TapWindow.closed
    /// Every pointer that is down, pindrop's and the host's.
    var pointers: [Int32] = {
        var a: [Int32] = []
        a.reserveCapacity(GestureMachine.maxPointers)
        return a
    }()
    /// The slot of the lifted or dragged pin (-1: none); a fast check for the per-pin hooks.
    var heldSlot: Int32 = -1
    var drop: Drop?
    /// Whether the DOWN being handled is the second tap of a double tap.
    var downIsSecondTap = false
    /// Receives every transition (`state → input → state`), for debugging and for the tests.
    var trace: ((GestureTransition) -> Void)?

    static let maxPointers = 32

    /// Whether a finger holds the pin: pressed on it, or it is lifted or dragged (an animation
    /// after a gesture does not count).
    func holds(_ slot: Int32) -> Bool {
        if slot == heldSlot { return true }
        if case .pressed(let p) = state { return p.slot == slot }
        return false
    }
    /// While auto-panning, a tick is due this often (60 Hz); the distance covers the elapsed time
    /// whatever the host's tick rate.
    static let autopanInterval = 1000.0 / 60.0
}

/// One transition of a gesture machine, as the debug trace reports it.
public struct GestureTransition: CustomStringConvertible {
    /// "pointer" or "tap".
    public let machine: StaticString
    public let from: StaticString
    public let input: StaticString
    public let to: StaticString
    public let time: Double

    public var description: String { "[\(machine) t=\(time)] \(from) → \(input) → \(to)" }
}

/// The phase of a touch (`pindrop_touch_phase`).
public enum TouchPhase: Int32, Sendable, CaseIterable {
    case down = 0, move, up, cancel
}

/// Set PINDROP_TRACE_GESTURES in the environment to print every transition to standard error.
let traceGesturesToStandardError = getenv("PINDROP_TRACE_GESTURES") != nil

// MARK: - The public entry points

extension Map {
    /// Feeds one touch (or mouse) event. Returns true when pindrop owns the gesture (the host must
    /// not pan or zoom with this event), false when the host's map should handle it. Bad input
    /// (non-finite position, time going backwards, a DOWN for a pointer already down, a MOVE / UP /
    /// CANCEL for a pointer that is not down) throws and changes nothing. CANCEL ignores x and y.
    public func touch(pointer: Int32, phase: TouchPhase, x: Double, y: Double, time: Double) throws(PindropError) -> Bool {
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        if phase != .cancel {
            guard x.isFinite, y.isFinite else { throw .invalid("touch position (\(x), \(y)) is not finite") }
        }
        try checkTime(time)
        let isDown = gesture.pointers.contains(pointer)
        switch phase {
        case .down:
            guard !isDown else {
                throw .invalid("pointer \(pointer) is already down (send PINDROP_TOUCH_UP or _CANCEL for it first)")
            }
            guard gesture.pointers.count < GestureMachine.maxPointers else {
                throw .invalid("more than \(GestureMachine.maxPointers) pointers down at once")
            }
        case .move, .up, .cancel:
            guard isDown else { throw .invalid("pointer \(pointer) is not down (no PINDROP_TOUCH_DOWN for it)") }
        }
        try advance(to: time)
        gestureRunTimeouts()
        switch phase {
        case .down:
            gesture.pointers.append(pointer)
            gesture.downIsSecondTap = tapWindowHandle(.down(x: x, y: y))
            if let id = hit(x, y), let slot = pins.slot(of: id) {
                return gestureHandle(.downOnPin(pointer: pointer, slot: slot, id: id, x: x, y: y))
            }
            if let c = clusterHit(x, y) {
                return gestureHandle(.downOnCluster(pointer: pointer, cluster: c, x: x, y: y))
            }
            return gestureHandle(.downOffPins(pointer: pointer, x: x, y: y))
        case .move:
            if beyondDownPoint(pointer, x, y) { return gestureHandle(.moveBeyondThreshold(pointer: pointer, x: x, y: y)) }
            return gestureHandle(.move(pointer: pointer, x: x, y: y))
        case .up:
            removePointer(pointer)
            return gestureHandle(.up(pointer: pointer, x: x, y: y, beyondThreshold: beyondDownPoint(pointer, x, y)))
        case .cancel:
            removePointer(pointer)
            return gestureHandle(.cancel(pointer: pointer))
        }
    }

    /// Whether (x, y) is more than drag_threshold from where the pointer the machine follows went
    /// down (false for any other pointer): the classification of a MOVE or UP.
    @inline(__always)
    func beyondDownPoint(_ pointer: Int32, _ x: Double, _ y: Double) -> Bool {
        let d: (x: Double, y: Double)
        switch gesture.state {
        case .pressed(let p) where p.pointer == pointer: d = (p.downX, p.downY)
        case .lifted(let h) where h.pointer == pointer, .dragging(let h) where h.pointer == pointer: d = (h.downX, h.downY)
        case .mapTouch(let t) where t.pointer == pointer: d = (t.downX, t.downY)
        case .clusterPress(let c) where c.pointer == pointer: d = (c.downX, c.downY)
        case .idle, .pressed, .lifted, .dragging, .mapTouch, .clusterPress, .hostGesture, .finished: return false
        }
        return beyondThreshold(d.x, d.y, x, y)
    }

    /// Resolves the timeouts due at `time`: the lift delay, the double-tap window, auto-pan.
    public func tick(time: Double) throws(PindropError) {
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        try advance(to: time)
        gestureRunTimeouts()
        if case .dragging = gesture.state { gestureHandle(.tick) }
    }

    /// When the next tick is due (ms), +infinity when nothing is pending.
    public var nextDeadline: Double {
        var d = Double.infinity
        if case .pressed(let p) = gesture.state, let lift = liftDeadline(p) { d = min(d, lift) }
        if case .open(let t) = gesture.tapWindow { d = min(d, t.deadline) }
        if case .dragging(let h) = gesture.state, h.autopan.isActive {
            d = min(d, h.autopan.last + GestureMachine.autopanInterval)
        }
        return d
    }

    /// Cancels the gesture in progress (the Esc key): a lifted pin goes back to where it was,
    /// a pending tap-to-move is forgotten. Nothing happens when there is no gesture.
    public func cancelGesture(time: Double) throws(PindropError) {
        version &+= 1  // hit grid glue: a gesture may change where pins are drawn
        try advance(to: time)
        gestureRunTimeouts()
        tapWindowHandle(.cancelGesture)
        gestureHandle(.cancelGesture)
    }

    /// The transitions of both gesture machines, for debugging (nil: off).
    public var gestureTrace: ((GestureTransition) -> Void)? {
        get { gesture.trace }
        set { gesture.trace = newValue }
    }

    /// The name of the pointer machine's state (for tests and debugging).
    public var gestureStateName: StaticString { gesture.state.name }

    // MARK: - Dispatch

    /// Runs the handler of the current state on `input` and traces the transition.
    @discardableResult
    func gestureHandle(_ input: GestureMachine.Input) -> Bool {
        let from = gesture.state
        let owns: Bool
        switch from {
        case .idle: owns = idleHandle(input)
        case .pressed(let p): owns = pressedHandle(p, input)
        case .lifted(let h): owns = liftedHandle(h, input)
        case .dragging(let h): owns = draggingHandle(h, input)
        case .mapTouch(let t): owns = mapTouchHandle(t, input)
        case .clusterPress(let c): owns = clusterPressHandle(c, input)
        case .hostGesture: owns = hostGestureHandle(input)
        case .finished(let p): owns = finishedHandle(p, input)
        }
        traceTransition("pointer", from.name, input.name, gesture.state.name)
        return owns
    }

    @discardableResult
    func tapWindowHandle(_ input: GestureMachine.TapInput) -> Bool {
        let from = gesture.tapWindow
        let result: Bool
        switch from {
        case .closed: result = tapClosedHandle(input)
        case .open(let t): result = tapOpenHandle(t, input)
        }
        traceTransition("tap", from.name, input.name, gesture.tapWindow.name)
        return result
    }

    @inline(__always)
    func traceTransition(_ machine: StaticString, _ from: StaticString, _ input: StaticString, _ to: StaticString) {
        if let trace = gesture.trace {
            trace(GestureTransition(machine: machine, from: from, input: input, to: to, time: now))
        } else if traceGesturesToStandardError {
            let t = GestureTransition(machine: machine, from: from, input: input, to: to, time: now)
            fputs(t.description + "\n", stderr)
        }
    }

    func removePointer(_ pointer: Int32) {
        if let i = gesture.pointers.firstIndex(of: pointer) { gesture.pointers.remove(at: i) }
    }

    /// Runs the timeouts that are due at `now`, earliest first.
    func gestureRunTimeouts() {
        while true {
            var liftDue = Double.infinity, tapDue = Double.infinity
            if case .pressed(let p) = gesture.state, let d = liftDeadline(p), d <= now { liftDue = d }
            if case .open(let t) = gesture.tapWindow, t.deadline <= now { tapDue = t.deadline }
            if liftDue == .infinity && tapDue == .infinity { return }
            if tapDue <= liftDue { tapWindowHandle(.timeout) } else { gestureHandle(.liftTimeout) }
        }
    }

    /// When a press lifts its pin: touch profile and a draggable pin only.
    func liftDeadline(_ p: GestureMachine.Press) -> Double? {
        guard options.liftDelayMs > 0, pins.isAlive(p.slot), pins.isDraggable(p.slot) else { return nil }
        return p.downTime + options.liftDelayMs
    }

    /// Called when the camera or the projection changes: a dragged pin stays under the finger, so
    /// its landing point moves on the map.
    func gestureViewChanged() {
        switch gesture.state {
        case .lifted, .dragging: gestureHandle(.viewChanged)
        case .idle, .pressed, .mapTouch, .clusterPress, .hostGesture, .finished: break
        }
    }
}

// MARK: - Hooks the map calls (drawn positions, frame, removal)

extension Map {
    /// Where the gesture draws a pin (lifted, dragged, or animating after a gesture), or nil.
    @inline(__always)
    func gestureDrawnPosition(_ slot: Int32) -> (lon: Double, lat: Double)? {
        if slot == gesture.heldSlot { return heldDrawnPosition() }
        if let d = gesture.drop, d.slot == slot { return dropDrawnPosition(d) }
        return nil
    }

    /// Slots the gesture draws away from their true coordinate, for hit tests and frames.
    func gestureCandidates(_ box: GeoBox, into out: inout [Int32]) {
        if gesture.heldSlot >= 0 { out.append(gesture.heldSlot) }
        if let d = gesture.drop, d.slot != gesture.heldSlot { out.append(d.slot) }
    }

    func gestureFlags(_ slot: Int32) -> PinFlags {
        slot == gesture.heldSlot ? .dragging : []
    }

    /// 0 at rest .. 1 fully lifted; below 0 during the drop bounce.
    func gestureLift(_ slot: Int32, time: Double) -> Double {
        if slot == gesture.heldSlot {
            switch gesture.state {
            case .lifted(let h), .dragging(let h): return GestureMachine.visualLift(h, at: time, options)
            case .idle, .pressed, .mapTouch, .clusterPress, .hostGesture, .finished: return 0
            }
        }
        if let d = gesture.drop, d.slot == slot { return GestureMachine.dropLift(d, at: time, options) }
        return 0
    }

    /// A pin's true coordinate changed (an undo, the host): an animation still running from where
    /// it was is dropped, so the pin is drawn where it now is. A gesture that moves the pin starts
    /// its own animation afterwards.
    func gesturePinMoved(_ slot: Int32) {
        if let d = gesture.drop, d.slot == slot { gesture.drop = nil }
    }

    func gesturePinWillBeRemoved(_ slot: Int32) {
        gestureHandle(.pinRemoved(slot: slot))
        if let d = gesture.drop, d.slot == slot { gesture.drop = nil }
    }
}
