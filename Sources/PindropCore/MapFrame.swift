/// The map's view and its frame (docs/architecture.md, "the frame room"): the camera or the host's
/// projection, screen points, and what a frame draws, in drawing order.
extension Map {
    // MARK: - View

    public func setCamera(_ camera: Camera) throws(PindropError) {
        try change(check: { () throws(PindropError) in try camera.validate() }, apply: {
            view = .camera(CameraTransform(camera))
            spread.viewChanged(view)
            gesture.viewChanged(self)
        })
    }

    public func setProjection(_ projection: HostProjection) throws(PindropError) {
        try change(check: { () throws(PindropError) in
            guard projection.width.isFinite, projection.height.isFinite, projection.width > 0, projection.height > 0 else {
                throw .invalid("viewport \(projection.width)x\(projection.height) must be finite and > 0")
            }
        }, apply: {
            view = .host(projection)
            spread.viewChanged(view)
            gesture.viewChanged(self)
        })
    }

    public func toScreen(lon: Double, lat: Double) throws(PindropError) -> (x: Double, y: Double) {
        try checkLonLat(lon, lat)
        guard let p = view.toScreen(lon, lat) else {
            if case .camera = view {
                throw .invalid("(\(lon), \(lat)) has no finite screen point in Web Mercator at this camera (a pole, or too near one)")
            }
            throw .invalid("the host projection failed for (\(lon), \(lat))")
        }
        return p
    }

    public func toLonLat(x: Double, y: Double) throws(PindropError) -> (lon: Double, lat: Double) {
        guard x.isFinite, y.isFinite else { throw .invalid("screen point (\(x), \(y)) is not finite") }
        guard let p = view.toLonLatUnwrapped(x, y) else { throw .invalid("the host projection failed for (\(x), \(y))") }
        guard p.lon.isFinite, p.lat.isFinite else {
            throw .invalid("screen point (\(x), \(y)) is too far outside the view for a coordinate")
        }
        return (Sphere.normalizeLon(p.lon), min(90, max(-90, p.lat)))
    }

    // MARK: - Frame

    public typealias PinView = PindropCore.PinView

    /// The views of the last `frame` call, in drawing order.
    public var frameViews: [PinView] { frame.views }

    /// Fills `frameViews` with the pins drawn inside the viewport grown by hit_radius, in drawing
    /// order, and returns their number.
    @discardableResult
    public func frame(time: Double) throws(PindropError) -> Int {
        try observe(at: time, check: { () throws(PindropError) -> GeoBox in try viewportBox() }, read: { box in
            let r = options.hitRadius
            let w = view.width, h = view.height
            candidates.removeAll(keepingCapacity: true)
            upToDate()
            let clustered = clusterFrame(margin: r, box: box, pins: &candidates)
            if !clustered {
                clusterViews.removeAll(keepingCapacity: true)
                drawnCandidates(box, into: &candidates)
            }
            // The stack items too, so that the focus settles among what frame_clusters draws.
            appendStacks(box: box, margin: r, singles: clustered ? candidates : nil)
            mergeBadges()
            removeCollapsed(&candidates)  // drawn as stack items (frameClusters)
            // The hit grid holds the views' pins: not when clusters stand for some of them.
            let camera: Bool = if case .camera = view { true } else { false }
            frame.build(candidates, capacity: pins.capacity, margin: r, width: w, height: h, time: time, self,
                        grid: camera && !clustered, version: version)
            FrameScratch.fit(&candidates, need: candidates.count)  // a larger frame's room given back
            settleFocus(width: w, height: h)
            index.maintain(inserts: Map.maintainPerFrame)
            return frame.views.count
        })
    }

    /// The viewport grown by hit_radius, as a box of coordinates: what a frame and frame_clusters
    /// draw. INVALID_ARGUMENT when the host projection fails for it.
    func viewportBox() throws(PindropError) -> GeoBox {
        let r = options.hitRadius
        guard let box = view.box(x0: -r, y0: -r, x1: view.width + r, y1: view.height + r) else {
            throw .invalid("the host projection failed for the viewport")
        }
        return box
    }

    @inline(__always)
    func flags(_ slot: Int32) -> PinFlags {
        let id = pins.id(slot)
        var f = gesture.flags(slot)
        if gesture.isAnimating(slot, at: now) { f.insert(.animating) }
        if selection.contains(id) { f.insert(.selected) }
        if group != nil { f.formUnion(groupFlags(slot)) }
        if id == editingID { f.insert(.editing) }
        if spread.isSpread(slot) { f.insert(.spread) }
        if editing.area != nil && outsideWhereDrawn(slot) { f.insert(.invalid) }
        if isSnapped(slot) { f.insert(.snapped) }
        return f
    }

    /// Whether a gesture draws the pin over a point outside the allowed area (INVALID).
    @inline(never)
    private func outsideWhereDrawn(_ slot: Int32) -> Bool {
        guard let p = gesture.drawnPosition(slot, self) else { return false }
        return editing.isOutside(p)
    }
}

// MARK: - What the frame room asks

extension Map: FrameSource {
    @inline(__always)
    func frameScreenPoints(_ s: Int32) -> (drawn: (x: Double, y: Double), anchor: (x: Double, y: Double))? {
        let over = drawnOverride(s)
        if case .camera(let c) = view {
            // A pin's true coordinate is projected from its kept Mercator point.
            let t = c.toScreen(mercator: pins.mercator(s))
            guard let d = over else { return (t, t) }
            return (c.toScreen(laidOut: d.lon, d.lat), t)
        }
        let d = over ?? pins.position(s)
        guard let q = view.toScreen(d.lon, d.lat) else { return nil }
        let t = pins.position(s)
        return (q, (t.lon == d.lon && t.lat == d.lat) ? q : (view.toScreen(t.lon, t.lat) ?? q))
    }

    @inline(__always) func frameID(_ slot: Int32) -> Int64 { pins.id(slot) }
    @inline(__always) func frameLift(_ slot: Int32, time: Double) -> Double { gesture.lift(slot, at: time) }
    @inline(__always) func frameFlags(_ slot: Int32) -> PinFlags { flags(slot) }
}
