/// Snapping (behaviour 24, docs/editing.md "Snapping"): the snap layers, where a dragged or
/// tap-moved pin lands, and what it snapped to.
extension Map {
    /// Replaces snap layer `layer` (0 ... 1023) with the features of `text` (WKT or GeoJSON,
    /// Snap/SnapText.swift); nil or "" clears it. The layer's items are indexed once, here.
    /// `.invalidArgument` for a layer out of range, `.parse` for bad text; either changes nothing.
    public func setSnapLayer(_ layer: UInt32, _ text: String?) throws(PindropError) {
        try change(check: { () throws(PindropError) -> [SnapItem] in
            guard layer <= SnapState.maxLayer else {
                throw .invalid("snap layer \(layer) is out of range (layers are 0 ... \(SnapState.maxLayer))")
            }
            guard let text else { return [] }
            return SnapTargets.items(of: try SnapText.read(text), layer: layer)
        }, apply: { items in
            snapping.targets.replace(layer: layer, with: items, factory: factory)
            snapping.slot = -1; snapping.hit = .none
        })
    }

    /// What the dragged pin is snapped to now: kind `.none` when no pin is dragged by a finger or
    /// it is not snapped.
    public var snapTarget: SnapHit {
        guard snapping.hit.kind != .none, gesture.isDragging, gesture.heldSlot == snapping.slot else { return .none }
        return snapping.hit
    }

    /// Whether the pin in `slot` is drawn snapped (PINDROP_PIN_SNAPPED).
    @inline(__always)
    func isSnapped(_ slot: Int32) -> Bool {
        slot == snapping.slot && snapping.hit.kind != .none && gesture.isDragging && gesture.heldSlot == slot
    }

    /// Whether a pin moves with the dragged pin `dragged` and so is no snap target: the dragged
    /// pin itself, and in a group drag (behaviour 23, MapGroupDrag.swift) every pin of the group.
    /// The group follows the grabbed pin's drawn point, which is its snapped landing point.
    @inline(__always)
    func movesWithDragged(_ s: Int32, _ dragged: Int32) -> Bool {
        if s == dragged { return true }
        guard let g = group, g.grabbed == dragged else { return false }
        return g.member(s) != nil
    }

    /// Where the pin in `slot` lands when the gesture would put it at `p`: the best snap target
    /// within snap_tolerance points of p, else p (snapping off, nothing near, or
    /// PINDROP_MOD_NO_SNAP held). Records what it snapped to for `snapTarget` and the flag.
    /// One query of the layers' tree, plus one of the pin index with snap_to_pins.
    func snappedLanding(_ slot: Int32, _ p: (lon: Double, lat: Double)) -> (lon: Double, lat: Double) {
        snapping.slot = slot
        snapping.hit = .none
        guard options.snapTolerance > 0, !modifiers.contains(.noSnap) else { return p }
        let hasPins = options.snapToPins
        guard hasPins || !snapping.targets.isEmpty else { return p }
        let m = WebMercator.unclamped(lon: p.lon, lat: p.lat)
        guard m.x.isFinite, m.y.isFinite, let scale = pointsPerUnit(m), scale > 0 else { return p }
        let r = options.snapTolerance / scale
        var best = snapping.targets.nearest(x: m.x, y: m.y, tolerance: r)
        if hasPins { best = nearestPin(slot, m, r, better: best) }
        guard let b = best else { return p }
        snapping.hit = b.hit
        return (b.hit.lon, b.hit.lat)
    }

    /// The pin nearest to m within r (normalised units), if it ranks before `best`: a pin is a
    /// point target like a vertex; ties go to the lower layer (a pin's is 0), then the lower id.
    private func nearestPin(_ slot: Int32, _ m: (x: Double, y: Double), _ r: Double,
                            better best: (hit: SnapHit, d2: Double)?) -> (hit: SnapHit, d2: Double)? {
        let nw = WebMercator.unproject(x: m.x - r, y: m.y - r, worldSize: 1)
        let se = WebMercator.unproject(x: m.x + r, y: m.y + r, worldSize: 1)
        let box = GeoBox(minLon: nw.lon, minLat: se.lat, maxLon: se.lon, maxLat: nw.lat)
        snapping.pinCandidates.removeAll(keepingCapacity: true)
        box.split { index.query($0, into: &snapping.pinCandidates) }
        var out = best
        let r2 = r * r
        for s in snapping.pinCandidates where !movesWithDragged(s, slot) && pins.isAlive(s) {
            let q = pins.mercator(s)
            let dx = q.x - m.x, dy = q.y - m.y
            let d2 = dx * dx + dy * dy
            guard d2 <= r2 else { continue }
            let id = pins.id(s)
            if let o = out {
                if o.hit.kind == .vertex || o.hit.kind == .pin {
                    if d2 > o.d2 { continue }
                    if d2 == o.d2 && !(o.hit.layer > 0 || id < o.hit.feature) { continue }
                }
            }
            let ll = pins.position(s)
            out = (SnapHit(kind: .pin, layer: 0, feature: id, index: 0, lon: ll.lon, lat: ll.lat), d2)
        }
        return out
    }

    /// Screen points per unit of the normalised plane at m: the world's size for the built-in
    /// camera; for a host's projection, measured over a small step east of m.
    private func pointsPerUnit(_ m: (x: Double, y: Double)) -> Double? {
        switch view {
        case .camera(let c): return c.worldSize
        case .host:
            let h = 1e-7
            let a = WebMercator.unproject(x: m.x, y: m.y, worldSize: 1)
            let b = WebMercator.unproject(x: m.x + h, y: m.y, worldSize: 1)
            guard let p = view.toScreen(a.lon, a.lat), let q = view.toScreen(b.lon, b.lat) else { return nil }
            let dx = q.x - p.x, dy = q.y - p.y
            return (dx * dx + dy * dy).squareRoot() / h
        }
    }
}
