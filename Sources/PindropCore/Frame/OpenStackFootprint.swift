/// Badges under an open stack (docs/clusters.md, "Badges under an open stack"): while a stack is
/// drawn open (the open stack, or the group of the selected, edited or held pin), a badge whose
/// screen point lies within `hit_radius` points of one of its pins is neither drawn nor hit, so
/// that no closed badge covers the opened grid and what a touch there finds is what is drawn
/// there. The badge comes back when the stack closes.
///
/// The footprint is the screen points of the pins drawn spread, gathered per frame (or per hit
/// test between frames) by the map; the check is a bounding-box test, then a scan of the points
/// that stops at the first one within reach. Its buffers are kept, so a warmed frame allocates
/// nothing here.
struct OpenStackFootprint {
    private var x: [Double] = []
    private var y: [Double] = []
    private var minX = Double.infinity, minY = Double.infinity
    private var maxX = -Double.infinity, maxY = -Double.infinity

    /// Whether no pin is drawn spread (nothing is hidden).
    var isEmpty: Bool { x.isEmpty }

    /// Forgets the last footprint.
    mutating func removeAll() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
    }

    /// Adds the screen point of a pin drawn spread (points that are not finite are left out).
    mutating func add(_ px: Double, _ py: Double) {
        guard px.isFinite, py.isFinite else { return }
        x.append(px); y.append(py)
        minX = min(minX, px); maxX = max(maxX, px)
        minY = min(minY, py); maxY = max(maxY, py)
    }

    /// Whether (px, py) lies within r points of a pin of the footprint.
    func covers(_ px: Double, _ py: Double, radius r: Double) -> Bool {
        guard !x.isEmpty, px >= minX - r, px <= maxX + r, py >= minY - r, py <= maxY + r else { return false }
        let r2 = r * r
        for i in x.indices {
            let dx = x[i] - px, dy = y[i] - py
            if dx * dx + dy * dy <= r2 { return true }
        }
        return false
    }

    /// Removes from `views` the badges the footprint covers, keeping the others in their order.
    func removeCovered(_ views: inout [ClusterView], radius r: Double) {
        guard !x.isEmpty else { return }
        var w = 0
        for i in views.indices where !covers(views[i].x, views[i].y, radius: r) {
            views[w] = views[i]
            w += 1
        }
        views.removeLast(views.count - w)
    }
}
