#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gesture room (docs/gestures.md: grab, pan or drag, lift, drop, cancel, taps and
/// tap-to-move, auto-pan), sans-IO: the map passes it classified inputs with the map's time,
/// `runTimeouts` resolves what is due, `nextDeadline` says when the next tick is due. No timers,
/// threads or clocks inside.
///
/// Two machines run side by side (docs/gestures.md draws both):
///  - the pointer machine (`State`): what the pointers that are down mean;
///  - the tap window (`TapWindow`): a single tap on the map waiting `double_tap_ms` for a second
///    touch before it moves the edited pin or clears the selection.
/// Animations (the lift, the drop with its bounce, the glide back after a cancel) are data, read
/// by `frame` at the time it is given.
///
/// The machine sees the map only through a `GestureContext` (the time, the view, where a pin
/// rests, the selection) and changes nothing outside itself: what it does to the map (select a
/// pin, a user move, an event) it hands to `context.apply` as a `GestureEffect`, one at a time,
/// so the drag path allocates nothing. Its methods are generic over the context, so the map's
/// calls are specialised. A class: applying a user move calls back into it (`pinMoved`).
final class GestureMachine {
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
        case clusterPress(MarkerPress)
        /// One pointer is down on a collapsed stack (behaviour 22; off every pin): a tap on it opens
        /// it; it never lifts anything, and moving it pans.
        case stackPress(MarkerPress)
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
            case .stackPress: "stackPress"
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
        /// A pointer went down off every pin, within hit_radius of a collapsed stack's drawn point
        /// (nearer than any cluster).
        case downOnStack(pointer: Int32, stack: ClusterView, x: Double, y: Double)
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
            case .downOnStack: "downOnStack"
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
        /// The last landing point reported by DRAGGED (meaningful once `dragged`): the snapped
        /// point (behaviour 24) of the unsnapped one, `rawLon`, `rawLat`.
        var landingLon = 0.0, landingLat = 0.0
        var rawLon = Double.nan, rawLat = Double.nan
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

    /// A press on a marker that stands for pins: a cluster, or a collapsed stack (behaviour 22).
    struct MarkerPress {
        var pointer: Int32
        var marker: ClusterView
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
        /// The keyboard lifted a pin (the keyboard machine, GestureKeyboard.swift).
        case keyLift

        var name: StaticString {
            switch self {
            case .tap: "tap"
            case .down: "down"
            case .timeout: "timeout"
            case .cancelGesture: "cancelGesture"
            case .keyLift: "keyLift"
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
    /// The keyboard drag (GestureKeyboard.swift), beside the pointer machine.
    var keyboard = KeyState.keyIdle
    /// Every pointer that is down, pindrop's and the host's.
    private(set) var pointers: [Int32] = {
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
    /// The map's options (thresholds, durations, auto-pan), read in place.
    let options: Options
    /// PINDROP_TRACE_GESTURES was set when the map was made.
    let traceToStandardError = traceGesturesToStandardError

    static let maxPointers = 32
    /// While auto-panning, a tick is due this often (60 Hz); the distance covers the elapsed time
    /// whatever the host's tick rate.
    static let autopanInterval = 1000.0 / 60.0

    init(options: Options) { self.options = options }

    /// Whether a finger holds the pin: pressed on it, or it is lifted or dragged (an animation
    /// after a gesture does not count).
    func holds(_ slot: Int32) -> Bool {
        if slot == heldSlot { return true }
        if case .pressed(let p) = state { return p.slot == slot }
        return false
    }

    /// The pin a finger is on (pressed, lifted or dragged), if any.
    var fingerSlot: Int32? {
        switch state {
        case .pressed(let p): p.slot
        case .lifted(let h), .dragging(let h): h.slot
        case .idle, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished: nil
        }
    }

    /// Whether a gesture is under way: a pointer down (pindrop's or the host's), or a pin held
    /// (by any means). Esc closes the open stack only when none is (behaviour 22).
    var isUnderWay: Bool {
        if heldSlot >= 0 { return true }
        if case .idle = state { return false }
        return true
    }

    var isDragging: Bool { if case .dragging = state { true } else { false } }
    var isPressed: Bool { if case .pressed = state { true } else { false } }
    var isTapWindowOpen: Bool { if case .open = tapWindow { true } else { false } }

    // MARK: - Pointers

    func isDown(_ pointer: Int32) -> Bool { pointers.contains(pointer) }
    var pointerCount: Int { pointers.count }

    /// Whether (x, y) is more than drag_threshold from where the pointer the machine follows went
    /// down (false for any other pointer): the classification of a MOVE or UP.
    @inline(__always)
    func beyondDownPoint(_ pointer: Int32, _ x: Double, _ y: Double) -> Bool {
        let d: (x: Double, y: Double)
        switch state {
        case .pressed(let p) where p.pointer == pointer: d = (p.downX, p.downY)
        case .lifted(let h) where h.pointer == pointer, .dragging(let h) where h.pointer == pointer: d = (h.downX, h.downY)
        case .mapTouch(let t) where t.pointer == pointer: d = (t.downX, t.downY)
        case .clusterPress(let m) where m.pointer == pointer, .stackPress(let m) where m.pointer == pointer:
            d = (m.downX, m.downY)
        case .idle, .pressed, .lifted, .dragging, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished:
            return false
        }
        return beyondThreshold(d.x, d.y, x, y)
    }

    @inline(__always)
    func beyondThreshold(_ x0: Double, _ y0: Double, _ x: Double, _ y: Double) -> Bool {
        let dx = x - x0, dy = y - y0, t = options.dragThreshold
        return dx * dx + dy * dy > t * t
    }

    // MARK: - Entry points (the map classifies, the machine transitions)

    /// A pointer went down (`input` is downOnPin, downOnCluster, downOnStack or downOffPins): the tap window
    /// sees it first (a second tap closes it), then the pointer machine.
    func down<C: GestureContext>(_ input: Input, pointer: Int32, x: Double, y: Double, _ c: C) -> Bool {
        pointers.append(pointer)
        downIsSecondTap = tapHandle(.down(x: x, y: y), c)
        return handle(input, c)
    }

    /// A pointer went up or was cancelled.
    func pointerLeft<C: GestureContext>(_ input: Input, pointer: Int32, _ c: C) -> Bool {
        if let i = pointers.firstIndex(of: pointer) { pointers.remove(at: i) }
        return handle(input, c)
    }

    /// A tick: auto-pan accounting and the rising landing point, while dragging (by finger or
    /// by keyboard).
    func tick<C: GestureContext>(_ c: C) {
        if isDragging { handle(.tick, c) }
        if case .keyDragging = keyboard { keyHandle(.tick, c) }
    }

    /// pindrop_map_cancel_gesture: closes the tap window, ends the gesture (a finger's or the
    /// keyboard's).
    func cancelGesture<C: GestureContext>(_ c: C) {
        tapHandle(.cancelGesture, c)
        handle(.cancelGesture, c)
        if keyHold != nil { keyHandle(.cancelGesture, c) }
    }

    /// The camera or the projection changed: a dragged pin stays under the finger, so its landing
    /// point moves on the map.
    func viewChanged<C: GestureContext>(_ c: C) {
        switch state {
        case .lifted, .dragging: handle(.viewChanged, c)
        case .idle, .pressed, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished: break
        }
        if keyHold != nil { keyHandle(.viewChanged, c) }
    }

    /// Runs the timeouts that are due at the context's time, earliest first.
    func runTimeouts<C: GestureContext>(_ c: C) {
        while isPressed || isTapWindowOpen {
            var liftDue = Double.infinity, tapDue = Double.infinity
            if case .pressed(let p) = state, let d = liftDeadline(p, c), d <= c.now { liftDue = d }
            if case .open(let t) = tapWindow, t.deadline <= c.now { tapDue = t.deadline }
            if liftDue == .infinity && tapDue == .infinity { return }
            if tapDue <= liftDue { tapHandle(.timeout, c) } else { handle(.liftTimeout, c) }
        }
    }

    /// When the next tick is due (ms), +infinity when nothing is pending.
    func nextDeadline<C: GestureContext>(_ c: C) -> Double {
        var d = Double.infinity
        if case .pressed(let p) = state, let lift = liftDeadline(p, c) { d = min(d, lift) }
        if case .open(let t) = tapWindow { d = min(d, t.deadline) }
        if case .dragging(let h) = state, h.autopan.isActive { d = min(d, h.autopan.last + GestureMachine.autopanInterval) }
        if case .keyDragging(let h) = keyboard, h.autopan.isActive { d = min(d, h.autopan.last + GestureMachine.autopanInterval) }
        return d
    }

    /// When a press lifts its pin: touch profile and a draggable pin only.
    func liftDeadline<C: GestureContext>(_ p: Press, _ c: C) -> Double? {
        guard options.liftDelayMs > 0, c.isDraggable(p.slot) else { return nil }
        return p.downTime + options.liftDelayMs
    }

    // MARK: - Dispatch

    /// Runs the handler of the current state on `input` and traces the transition. Returns whether
    /// pindrop owns the event (the return value of `touch`; ignored for the other inputs).
    @discardableResult
    func handle<C: GestureContext>(_ input: Input, _ c: C) -> Bool {
        let from: StaticString = isTracing ? state.name : ""
        let owns: Bool
        switch state {
        case .idle: owns = idleHandle(input, c)
        case .pressed(let p): owns = pressedHandle(p, input, c)
        case .lifted(let h): owns = liftedHandle(h, input, c)
        case .dragging(let h): owns = draggingHandle(h, input, c)
        case .mapTouch(let t): owns = mapTouchHandle(t, input, c)
        case .clusterPress(let p): owns = clusterPressHandle(p, input, c)
        case .stackPress(let p): owns = stackPressHandle(p, input, c)
        case .hostGesture: owns = hostGestureHandle(input)
        case .finished(let p): owns = finishedHandle(p, input)
        }
        if isTracing { traceTransition("pointer", from, input.name, state.name, c.now) }
        return owns
    }

    /// Runs the tap window's handler; returns whether a DOWN is the second touch of a double tap.
    @discardableResult
    func tapHandle<C: GestureContext>(_ input: TapInput, _ c: C) -> Bool {
        let from = tapWindow
        let result: Bool
        switch from {
        case .closed: result = tapClosedHandle(input)
        case .open(let t): result = tapOpenHandle(t, input, c)
        }
        if isTracing { traceTransition("tap", from.name, input.name, tapWindow.name, c.now) }
        return result
    }

    /// Whether transitions are traced (a trace closure, or PINDROP_TRACE_GESTURES).
    @inline(__always)
    var isTracing: Bool { trace != nil || traceToStandardError }

    func traceTransition(_ machine: StaticString, _ from: StaticString, _ input: StaticString, _ to: StaticString, _ time: Double) {
        if let trace {
            trace(GestureTransition(machine: machine, from: from, input: input, to: to, time: time))
        } else if traceToStandardError {
            #if !arch(wasm32)
            let t = GestureTransition(machine: machine, from: from, input: input, to: to, time: time)
            fputs(t.description + "\n", stderr)
            #endif
        }
    }

    // MARK: - What the map asks (drawn positions, frame, pin changes)

    /// Where the gesture draws a pin (lifted, dragged, or animating after a gesture), or nil.
    @inline(__always)
    func drawnPosition<C: GestureContext>(_ slot: Int32, _ c: C) -> (lon: Double, lat: Double)? {
        if slot == heldSlot {
            if let k = keyHold { return keyDrawnPosition(k, c) }
            return heldDrawnPosition(c)
        }
        if let d = drop, d.slot == slot { return dropDrawnPosition(d, c) }
        return nil
    }

    /// Slots the gesture draws away from their true coordinate, for hit tests and frames.
    func candidates(into out: inout [Int32]) {
        if heldSlot >= 0 { out.append(heldSlot) }
        if let d = drop, d.slot != heldSlot { out.append(d.slot) }
    }

    func flags(_ slot: Int32) -> PinFlags {
        slot == heldSlot ? .dragging : []
    }

    /// Whether the pin's drawing changes after time t with no input (`PinFlags.animating`): a held
    /// pin's lift still rising, or a drop whose lift still falls or whose drawn point still glides.
    func isAnimating(_ slot: Int32, at time: Double) -> Bool {
        if slot == heldSlot {
            if let k = keyHold { return liftProgress(from: k.liftStart, at: time) < 1 }
            switch state {
            case .lifted(let h), .dragging(let h): return liftProgress(from: h.liftStart, at: time) < 1
            case .idle, .pressed, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished: return false
            }
        }
        guard let d = drop, d.slot == slot else { return false }
        return dropProgress(d, at: time) < 1 && (d.fromLift != 0 || d.offsetX != 0 || d.offsetY != 0)
    }

    /// 0 at rest .. 1 fully lifted; below 0 during the drop bounce.
    func lift(_ slot: Int32, at time: Double) -> Double {
        if slot == heldSlot {
            if let k = keyHold { return keyVisualLift(k, at: time) }
            switch state {
            case .lifted(let h), .dragging(let h): return visualLift(h, at: time)
            case .idle, .pressed, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished: return 0
            }
        }
        if let d = drop, d.slot == slot { return dropLift(d, at: time) }
        return 0
    }

    /// A pin's true coordinate changed (an undo, the host): an animation still running from where
    /// it was is dropped, so the pin is drawn where it now is. A gesture that moves the pin starts
    /// its own animation afterwards.
    func pinMoved(_ slot: Int32) {
        if let d = drop, d.slot == slot { drop = nil }
    }

    func pinWillBeRemoved<C: GestureContext>(_ slot: Int32, _ c: C) {
        handle(.pinRemoved(slot: slot), c)
        if keyHold != nil { keyHandle(.pinRemoved(slot: slot), c) }
        if let d = drop, d.slot == slot { drop = nil }
    }
}

/// What the gesture room sees of the map. `Map` implements it; a test can stand in for it.
protocol GestureContext: AnyObject {
    /// The map's time (ms), the time of the input being handled.
    var now: Double { get }
    var view: View { get }
    var selectedID: Int64 { get }
    var editingID: Int64 { get }
    func slotOf(_ id: Int64) -> Int32?
    /// A pin's true coordinate.
    func truePosition(_ slot: Int32) -> (lon: Double, lat: Double)
    /// Where a pin is drawn without a gesture: its place in a spread layout, else its coordinate.
    func restingPosition(_ slot: Int32) -> (lon: Double, lat: Double)
    /// Whether the pin is on the map and draggable.
    func isDraggable(_ slot: Int32) -> Bool
    /// Applies one effect; returns whether it took effect (the editing rules may refuse a user move).
    @discardableResult
    func apply(_ effect: GestureEffect) -> Bool
    /// Where a dragged or tap-moved pin lands when the gesture would put it at p: the snap
    /// target (behaviour 24, MapSnap.swift), else p.
    func snappedLanding(_ slot: Int32, _ p: (lon: Double, lat: Double)) -> (lon: Double, lat: Double)
}

extension GestureContext {
    /// Contexts without snap layers (the gesture room's tests) land where the finger says.
    func snappedLanding(_ slot: Int32, _ p: (lon: Double, lat: Double)) -> (lon: Double, lat: Double) { p }
}

/// What the gesture room does to the map, applied by the map in the order given.
enum GestureEffect: Equatable {
    /// An event for the host, at the map's time.
    case emit(Event)
    /// Selects a pin (PINDROP_NO_ID: clears the selection).
    case select(Int64)
    /// A user move through the map's single path (editing rules, MOVED, history).
    case userMove(slot: Int32, lon: Double, lat: Double, cause: Event.Cause)
    /// Opens the collapsed stack with this key (a tap on it; behaviour 22).
    case openStack(UInt64)
    /// Closes the open stack, if any (a tap on the map away from it).
    case closeStack
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
/// A WebAssembly module has neither an environment nor a standard error: it traces through the
/// trace closure only.
#if arch(wasm32)
let traceGesturesToStandardError = false
#else
let traceGesturesToStandardError = getenv("PINDROP_TRACE_GESTURES") != nil
#endif

