/// What the map accepts from a host beyond "finite": the ranges of touch points, nudges,
/// bearings and times that a real host can mean. A value outside is refused (INVALID_ARGUMENT)
/// with a message naming the argument, its value and the range, and the call changes nothing.
/// The table of every argument's range is docs/robustness.md, "Accepted ranges"; the header
/// repeats each where the function is documented.
public enum InputRange {
    /// Points a screen point may lie outside the viewport on each side: more than any display,
    /// so that a mouse captured beyond a small map widget is still accepted (a desktop of 7680
    /// points is 0.08 % of it), and less than a double needs to keep a point's fraction.
    public static let screenMargin = 1e7
    /// The largest |bearing| in degrees (2,777 turns, as a host summing a rotation gesture might
    /// pass): a double still holds such a bearing to 1.2e-10°, and it is used modulo 360.
    public static let maxBearing = 1e6
    /// The latest time in milliseconds (10^13 ms: 317 years of a monotonic clock, and Unix time
    /// in milliseconds until the year 2286), where a double still spaces times 0.002 ms apart,
    /// finer than any deadline (auto-pan's 1000/60 ms) needs.
    public static let maxTime = 1e13

    /// A time: finite and within [0, maxTime] ms.
    @inline(__always)
    public static func checkTime(_ time: Double) throws(PindropError) {
        guard time.isFinite else { throw .invalid("time \(time) ms is not finite") }
        guard time >= 0, time <= maxTime else {
            throw .invalid("time \(time) ms is outside [0, 1e13] ms (milliseconds of a monotonic clock)")
        }
    }

    /// A touch point: finite and within the viewport grown by `screenMargin` points each side.
    /// (Queries take any finite point: a pin's screen point at zoom 30 may lie 10^11 points away.)
    @inline(__always)
    public static func checkScreenPoint(_ x: Double, _ y: Double, width: Double, height: Double,
                                        _ what: @autoclosure () -> String = "screen point") throws(PindropError) {
        guard x.isFinite, y.isFinite else { throw .invalid("\(what()) (\(x), \(y)) is not finite") }
        guard x >= -screenMargin, x <= width + screenMargin, y >= -screenMargin, y <= height + screenMargin else {
            throw .invalid("\(what()) (\(x), \(y)) is outside the \(width)x\(height) viewport grown by 1e7 points"
                           + " on each side: x in [-1e7, width + 1e7], y in [-1e7, height + 1e7]")
        }
    }

    /// A nudge: finite, |dx| and |dy| at most `screenMargin` points (a keyboard moves a pin by a
    /// point or ten; a host may send a page, or move a held pin off the screen, but not farther
    /// than a screen point may lie outside the view).
    @inline(__always)
    public static func checkNudge(dx: Double, dy: Double) throws(PindropError) {
        guard dx.isFinite, dy.isFinite else { throw .invalid("nudge (\(dx), \(dy)) is not finite") }
        guard abs(dx) <= screenMargin, abs(dy) <= screenMargin else {
            throw .invalid("nudge (\(dx), \(dy)) points is too far: |dx| and |dy| must be <= 1e7 points")
        }
    }

    /// A camera bearing: finite and |bearing| <= maxBearing degrees.
    @inline(__always)
    public static func checkBearing(_ bearing: Double) throws(PindropError) {
        guard bearing.isFinite else { throw .invalid("camera bearing_deg \(bearing) is not finite") }
        guard abs(bearing) <= maxBearing else {
            throw .invalid("camera bearing_deg \(bearing) is outside [-1e6, 1e6] degrees (it is used modulo 360)")
        }
    }
}
