/// The screen-space grid of the pins a frame drew, answering hit tests without the spatial index.
///
/// A frame already asks the index for every pin drawn in the viewport grown by the hit radius r,
/// and projects each one into its views. The first hit test after the frame sorts those views'
/// (id, screen point) into square cells of side r (a counting sort into buffers that are reused),
/// and every tap inside the viewport then reads the cells its disc touches: the same pins, at the
/// same screen points to the bit, as the index would give. The frame itself does nothing more
/// than note its viewport. The grid is valid for the camera and the map `version` it was drawn
/// at: any change of the camera, of a pin, of a layout or of a gesture makes the map fall back to
/// the index until the next frame. Host projections are not gridded (their lon/lat box of the
/// viewport is not exact).
struct HitGrid {
    /// The map version and viewport of the frame, and whether it may be used.
    private var version: UInt64 = 0
    private var width = 0.0, height = 0.0, r = 0.0
    private var gridded = false
    private(set) var usable = false
    /// The cells: entries of cell c are cellStart[c] ..< cellStart[c + 1] of the sorted arrays.
    private var built = false
    private var cell = 1.0
    private var cols = 0, rows = 0
    private var cellStart: [Int32] = []
    private var ids: [Int64] = []
    private var xy: [Double] = []

    /// A frame of a width × height viewport (camera views only) starts, for the map at `version`.
    mutating func begin(version: UInt64, width: Double, height: Double, r: Double, camera: Bool) {
        self.version = version
        self.width = width; self.height = height; self.r = r
        gridded = camera
        usable = false
        built = false
    }

    /// The frame is complete: its views may be gridded.
    mutating func end() { usable = gridded }

    /// Forgets the frame (a camera change).
    mutating func invalidate() { usable = false }

    /// Gives back the room a larger frame left in the sorted copies, for a frame of `n` views
    /// (`FrameScratch`). Called after the frame is built and before its grid is.
    mutating func fit(views n: Int) {
        FrameScratch.fit(&cellStart, need: Int(max(HitGrid.minCells, HitGrid.cellsPerView * Double(n))) + 1)
        FrameScratch.fit(&ids, need: n)
        FrameScratch.fit(&xy, need: 2 * n)
    }

    /// The bytes of room the grid holds.
    var scratchBytes: Int { FrameScratch.bytes(cellStart) + FrameScratch.bytes(ids) + FrameScratch.bytes(xy) }

    /// Whether a tap at (x, y) can be answered here for the map at `version`: the grid is current
    /// and the tap's disc lies inside the frame's area.
    @inline(__always)
    func covers(_ x: Double, _ y: Double, version v: UInt64) -> Bool {
        usable && v == version && x >= 0 && x <= width && y >= 0 && y <= height
    }

    /// Calls `visit(id, x, y)` for every view in the cells that the disc of radius r around (x, y)
    /// touches (a superset of the pins within r). Sorts `views` (the frame's) into cells first use.
    @inline(__always)
    mutating func forEachNear(_ x: Double, _ y: Double, views: [PinView], _ visit: (Int64, Double, Double) -> Void) {
        if !built { build(views) }
        // The grid starts at (-r, -r): the column of screen x is (x + r) / cell, so the disc's
        // columns run from that of x - r to that of x + r.
        let c0 = HitGrid.clamp(x / cell, cols), c1 = HitGrid.clamp((x + 2 * r) / cell, cols)
        let r0 = HitGrid.clamp(y / cell, rows), r1 = HitGrid.clamp((y + 2 * r) / cell, rows)
        guard c0 <= c1, r0 <= r1 else { return }
        cellStart.withUnsafeBufferPointer { start in
            ids.withUnsafeBufferPointer { id in
                xy.withUnsafeBufferPointer { xy in
                    for row in r0...r1 {
                        // The cells of one row are consecutive: one range.
                        let b = Int(start[row * cols + c0]), e = Int(start[row * cols + c1 + 1])
                        for i in b..<e { visit(id[i], xy[2 * i], xy[2 * i + 1]) }
                    }
                }
            }
        }
    }

    /// The most cells along a side: a viewport of any size gets a grid of bounded memory (its
    /// cells grow instead).
    private static let maxSide = 512

    /// floor(v) as a cell number in 0 ..< n, for any v (NaN and infinities included).
    @inline(__always)
    static func clamp(_ v: Double, _ n: Int) -> Int {
        v >= Double(n - 1) ? n - 1 : v > 0 ? Int(v) : 0
    }

    /// The most cells a view may have: a grid for a frame of few views is small whatever its
    /// viewport (four cells a view, at least `minCells`), so a map's memory follows its pins: a
    /// desktop viewport gridded in cells of the hit radius was 18 kB for a frame of one pin.
    private static let cellsPerView = 4.0, minCells = 64.0

    /// Sorts the views into cells of side r (or larger, for a very large viewport or a frame of
    /// few views) over [-r, width + r] × [-r, height + r].
    private mutating func build(_ views: [PinView]) {
        let w = width + 2 * r, h = height + 2 * r, side = Double(HitGrid.maxSide)
        let most = max(HitGrid.minCells, HitGrid.cellsPerView * Double(views.count))
        cell = max(r, 1, w / side, h / side, (w * h / most).squareRoot())
        if !cell.isFinite { cell = .greatestFiniteMagnitude }
        cols = HitGrid.clamp(w / cell, HitGrid.maxSide + 1) + 1
        rows = HitGrid.clamp(h / cell, HitGrid.maxSide + 1) + 1
        let cells = cols * rows
        if cellStart.count < cells + 1 {
            cellStart.append(contentsOf: repeatElement(0, count: cells + 1 - cellStart.count))
        }
        let n = views.count
        if ids.count < n { ids.append(contentsOf: repeatElement(0, count: n - ids.count)) }
        if xy.count < 2 * n { xy.append(contentsOf: repeatElement(0, count: 2 * n - xy.count)) }
        let cell = self.cell, cols = self.cols, rows = self.rows, r = self.r
        @inline(__always) func index(_ x: Double, _ y: Double) -> Int {
            HitGrid.clamp((y + r) / cell, rows) * cols + HitGrid.clamp((x + r) / cell, cols)
        }
        views.withUnsafeBufferPointer { v in
            cellStart.withUnsafeMutableBufferPointer { start in
                for c in 0...cells { start[c] = 0 }
                for i in 0..<n { start[index(v[i].x, v[i].y) + 1] += 1 }
                for c in 0..<cells { start[c + 1] += start[c] }
                // start[c] is where cell c begins; filling moves it to where c ends, then back.
                ids.withUnsafeMutableBufferPointer { id in
                    xy.withUnsafeMutableBufferPointer { xy in
                        for i in 0..<n {
                            let c = index(v[i].x, v[i].y), at = Int(start[c])
                            id[at] = v[i].id; xy[2 * at] = v[i].x; xy[2 * at + 1] = v[i].y
                            start[c] += 1
                        }
                    }
                }
                for c in stride(from: cells, to: 0, by: -1) { start[c] = start[c - 1] }
                start[0] = 0
            }
        }
        built = true
    }
}
