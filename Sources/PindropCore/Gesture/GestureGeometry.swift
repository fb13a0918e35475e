#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a held pin is drawn, the animation curves and the auto-pan velocity. Everything is
/// computed from the finger's screen point and the current view, in double precision, every time:
/// nothing accumulates, so a pin cannot drift or jitter at any zoom.
extension GestureMachine {
    // MARK: - Landing point

    /// Where the lifted or dragged pin is drawn now.
    func heldDrawnPosition<C: GestureContext>(_ c: C) -> (lon: Double, lat: Double)? {
        switch state {
        case .lifted(let h):
            let r = raise(h, at: c.now)
            if r == 0 { return (h.originLon, h.originLat) }
            guard let q = c.view.toScreen(h.originLon, h.originLat) else { return (h.originLon, h.originLat) }
            return lonLat(q.x, q.y - r, c) ?? (h.originLon, h.originLat)
        case .dragging(let h):
            // Before its first landing point (the view could not place one) it stays where it rose.
            guard let raw = landingPosition(h, at: c.now, c) else {
                return h.dragged ? (h.landingLon, h.landingLat) : (h.originLon, h.originLat)
            }
            // Drawn where DRAGGED last reported it (snapped or not) while the finger's point is the same.
            if h.dragged && raw.lon == h.rawLon && raw.lat == h.rawLat { return (h.landingLon, h.landingLat) }
            return c.snappedLanding(h.slot, raw)
        case .idle, .pressed, .mapTouch, .clusterPress, .stackPress, .hostGesture, .finished:
            return nil
        }
    }

    /// The landing point of a dragged pin at time t: the finger plus the grab offset, raised by
    /// lift_height as far as the lift animation has gone. Nil if the view cannot place it.
    @inline(__always)
    func landingPosition<C: GestureContext>(_ h: Hold, at t: Double, _ c: C) -> (lon: Double, lat: Double)? {
        let s = landingScreen(h, at: t)
        return lonLat(s.x, s.y, c)
    }

    /// (lon, lat) under a screen point, longitude wrapped into [-180, 180]; nil if the view fails.
    @inline(__always)
    func lonLat<C: GestureContext>(_ x: Double, _ y: Double, _ c: C) -> (lon: Double, lat: Double)? {
        guard let p = c.view.toLonLatUnwrapped(x, y), p.lon.isFinite, p.lat.isFinite else { return nil }
        return (Sphere.normalizeLon(p.lon), min(90, max(-90, p.lat)))
    }

    /// Where a pin is drawn while it glides after a gesture, or nil once it is where it belongs.
    func dropDrawnPosition<C: GestureContext>(_ d: Drop, _ c: C) -> (lon: Double, lat: Double)? {
        guard d.offsetX != 0 || d.offsetY != 0 else { return nil }
        let k = GestureMachine.glideCurve(dropProgress(d, at: c.now))
        guard k > 0 else { return nil }
        let base = c.restingPosition(d.slot)
        guard let q = c.view.toScreen(base.lon, base.lat) else { return nil }
        return lonLat(q.x + d.offsetX * k, q.y + d.offsetY * k, c)
    }

    /// Drops a held pin that has a landing point, for a finger or the keyboard alike: DROPPED there,
    /// then the user move (MOVED, bit for bit the last DRAGGED, through the editing rules) unless
    /// the pin is already there, then the drop animation from where it was drawn.
    func land<C: GestureContext>(slot: Int32, id: Int64, at landing: (lon: Double, lat: Double), fromLift: Double,
                                 cause: Event.Cause, _ c: C) {
        c.apply(.emit(.dropped(id: id, at: LonLat(landing))))
        let before = c.view.toScreen(landing.lon, landing.lat)
        let t = c.truePosition(slot)
        if t.lon != landing.lon || t.lat != landing.lat {
            c.apply(.userMove(slot: slot, lon: landing.lon, lat: landing.lat, cause: cause))
        }
        startDropAnimation(slot, fromLift: fromLift, before: before, c)
    }

    /// Starts the animation after a gesture on `slot`, which was drawn at screen point `before`.
    func startDropAnimation<C: GestureContext>(_ slot: Int32, fromLift: Double, before: (x: Double, y: Double)?, _ c: C) {
        var ox = 0.0, oy = 0.0
        let rest = c.restingPosition(slot)
        if let b = before, let a = c.view.toScreen(rest.lon, rest.lat) { ox = b.x - a.x; oy = b.y - a.y }
        guard options.dropDurationMs > 0, fromLift != 0 || ox != 0 || oy != 0 else {
            if let d = drop, d.slot == slot { drop = nil }
            return
        }
        drop = Drop(slot: slot, start: c.now, fromLift: fromLift, offsetX: ox, offsetY: oy)
    }

    // MARK: - Auto-pan

    /// Points per second the host should pan: in each axis, proportional to how deep the finger or
    /// the landing point (whichever is deeper) is inside the autopan_margin band, autopan_speed at
    /// the very edge (or beyond it). Positive dx: the view moves right.
    func autopanVelocity<C: GestureContext>(_ h: Hold, _ c: C) -> (vx: Double, vy: Double) {
        let l = landingScreen(h, at: c.now)
        return autopanVelocity(fingerX: h.fingerX, fingerY: h.fingerY, landingX: l.x, landingY: l.y, c)
    }

    /// The auto-pan velocity for a finger (or the keyboard's screen point) and a landing point.
    func autopanVelocity<C: GestureContext>(fingerX: Double, fingerY: Double, landingX: Double, landingY: Double,
                                            _ c: C) -> (vx: Double, vy: Double) {
        let m = options.autopanMargin, s = options.autopanSpeed
        guard m > 0, s > 0 else { return (0, 0) }
        func band(_ p: Double, _ size: Double) -> Double {
            let low = min(m, max(0, m - p)), high = min(m, max(0, p - (size - m)))
            return (high - low) / m
        }
        func axis(_ a: Double, _ b: Double, _ size: Double) -> Double {
            let va = band(a, size), vb = band(b, size)
            return abs(vb) > abs(va) ? vb : va
        }
        let view = c.view
        return (s * axis(fingerX, landingX, view.width), s * axis(fingerY, landingY, view.height))
    }

    // MARK: - Curves

    /// The lift animation: 0 → 1 over lift_duration_ms, easing out (cubic): quick off the ground,
    /// gentle at the top.
    @inline(__always)
    func liftProgress(from start: Double, at t: Double) -> Double {
        let d = options.liftDurationMs
        guard d > 0 else { return 1 }
        let p = min(1, max(0, (t - start) / d))
        let q = 1 - p
        return 1 - q * q * q
    }

    /// How far above the finger (plus grab offset) the landing point is at time t, in points.
    @inline(__always)
    func raise(_ h: Hold, at t: Double) -> Double {
        options.liftHeight * liftProgress(from: h.liftStart, at: t)
    }

    /// The lift value a host draws for a held pin (it rises from where a drop left it).
    func visualLift(_ h: Hold, at t: Double) -> Double {
        h.liftFrom + (1 - h.liftFrom) * liftProgress(from: h.liftStart, at: t)
    }

    /// The drop: for the first 60% of drop_duration_ms the lift falls like a weight (1 − (u/0.6)²),
    /// then it bounces once below 0, to −12% of where it fell from, and settles at exactly 0.
    static func dropCurve(_ u: Double) -> Double {
        if u <= 0 { return 1 }
        if u >= 1 { return 0 }
        if u < 0.6 { let v = u / 0.6; return 1 - v * v }
        return -0.12 * sin(Double.pi * (u - 0.6) / 0.4)
    }

    /// The glide of the drawn point after a gesture (back after a cancel or an unmoved release,
    /// onto a spread ring, to a snapped point): 1 → 0 along 1 − smoothstep, never overshooting.
    static func glideCurve(_ u: Double) -> Double {
        if u <= 0 { return 1 }
        if u >= 1 { return 0 }
        return 1 - u * u * (3 - 2 * u)
    }

    func dropProgress(_ d: Drop, at t: Double) -> Double {
        let dur = options.dropDurationMs
        guard dur > 0 else { return 1 }
        return (t - d.start) / dur
    }

    func dropLift(_ d: Drop, at t: Double) -> Double {
        d.fromLift * GestureMachine.dropCurve(dropProgress(d, at: t))
    }

    /// The landing point's screen position at time t: the finger plus the grab offset, raised by
    /// lift_height as far as the lift animation has gone.
    @inline(__always)
    func landingScreen(_ h: Hold, at t: Double) -> (x: Double, y: Double) {
        (h.fingerX + h.offsetX, h.fingerY + h.offsetY - raise(h, at: t))
    }

    /// Adds the distance auto-pan owes since the last accounting at the velocity it had.
    func accountAutopan(_ h: inout Hold, now: Double) {
        accountAutopan(&h.autopan, now: now)
    }

    func accountAutopan(_ a: inout Autopan, now: Double) {
        let dt = (now - a.last) / 1000
        if dt > 0 {
            a.owedX += a.vx * dt
            a.owedY += a.vy * dt
        }
        a.last = now
    }
}
