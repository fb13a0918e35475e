/// The screen-space grid of the pins a frame drew, answering hit tests without the spatial index.
///
/// A frame already asks the index for every pin drawn in the viewport grown by the hit radius r,
/// and projects each one. It records (slot, screen point) here; the first hit test after the
/// frame sorts them into square cells of side r (a counting sort, no allocation once the buffers
/// have grown), and every tap inside the viewport then reads the cells its disc touches: the
/// same pins, at the same screen points to the bit, as the index would give, in about a tenth of
/// the time. The grid is valid for the camera and the map `version` it was recorded at: any
/// change of the camera, of a pin, of a layout or of a gesture makes the map fall back to the
/// index until the next frame. Host projections are not gridded (their lon/lat box of the
/// viewport is not exact).
struct HitGrid {
    /// What the frame recorded: slot and screen point of each drawn pin.
    private var slots: [Int32] = []
    private var xs: [Double] = []
    private var ys: [Double] = []
    /// The map version and viewport of the recording, and whether it may be used.
    private var version: UInt64 = 0
    private var width = 0.0, height = 0.0, r = 0.0
    private var recording = false
    private(set) var usable = false
    /// The cells: entries of cell c are cellStart[c] ..< cellStart[c + 1] of the sorted arrays.
    private var built = false
    private var cell = 1.0
    private var cols = 0, rows = 0
    private var cellStart: [Int32] = []
    private var sortedSlots: [Int32] = []
    private var sortedXY: [Double] = []

    /// A frame starts: it will record the pins it draws in a width × height viewport (camera
    /// views only), for the map at `version`.
    mutating func begin(version: UInt64, width: Double, height: Double, r: Double, camera: Bool) {
        slots.removeAll(keepingCapacity: true)
        xs.removeAll(keepingCapacity: true)
        ys.removeAll(keepingCapacity: true)
        self.version = version
        self.width = width; self.height = height; self.r = r
        recording = camera
        usable = false
        built = false
    }

    @inline(__always)
    mutating func record(_ slot: Int32, _ x: Double, _ y: Double) {
        guard recording else { return }
        slots.append(slot); xs.append(x); ys.append(y)
    }

    /// The frame is complete.
    mutating func end() {
        usable = recording
        recording = false
    }

    /// Forgets the recording (a camera change).
    mutating func invalidate() { usable = false; recording = false }

    /// Whether a tap at (x, y) can be answered here for the map at `version`: the grid is current
    /// and the tap's disc lies inside the recorded area.
    @inline(__always)
    func covers(_ x: Double, _ y: Double, version v: UInt64) -> Bool {
        usable && v == version && x >= 0 && x <= width && y >= 0 && y <= height
    }

    /// Calls `visit(slot, x, y)` for every recorded pin in the cells that the disc of radius r
    /// around (x, y) touches (a superset of the pins within r). Builds the cells on first use.
    @inline(__always)
    mutating func forEachNear(_ x: Double, _ y: Double, _ visit: (Int32, Double, Double) -> Void) {
        if !built { build() }
        // The grid starts at (-r, -r): the column of screen x is Int((x + r) / cell), so the
        // disc's columns run from that of x - r to that of x + r.
        let c0 = max(0, Int(x / cell)), c1 = min(cols - 1, Int((x + 2 * r) / cell))
        let r0 = max(0, Int(y / cell)), r1 = min(rows - 1, Int((y + 2 * r) / cell))
        guard c0 <= c1, r0 <= r1 else { return }
        cellStart.withUnsafeBufferPointer { start in
            sortedSlots.withUnsafeBufferPointer { ss in
                sortedXY.withUnsafeBufferPointer { xy in
                    for row in r0...r1 {
                        // The cells of one row are consecutive: one range.
                        let b = Int(start[row * cols + c0]), e = Int(start[row * cols + c1 + 1])
                        for i in b..<e { visit(ss[i], xy[2 * i], xy[2 * i + 1]) }
                    }
                }
            }
        }
    }

    /// Sorts the recorded pins into cells of side r over [-r, width + r] × [-r, height + r].
    private mutating func build() {
        cell = max(r, 1)
        cols = Int((width + 2 * r) / cell) + 1
        rows = Int((height + 2 * r) / cell) + 1
        let cells = cols * rows
        if cellStart.count < cells + 1 {
            cellStart.append(contentsOf: repeatElement(0, count: cells + 1 - cellStart.count))
        }
        let n = slots.count
        if sortedSlots.count < n {
            sortedSlots.append(contentsOf: repeatElement(0, count: n - sortedSlots.count))
            sortedXY.append(contentsOf: repeatElement(0, count: 2 * n - sortedXY.count))
        }
        let cell = self.cell, cols = self.cols, rows = self.rows, r = self.r
        @inline(__always) func index(_ x: Double, _ y: Double) -> Int {
            min(rows - 1, max(0, Int((y + r) / cell))) * cols + min(cols - 1, max(0, Int((x + r) / cell)))
        }
        cellStart.withUnsafeMutableBufferPointer { start in
            for c in 0...cells { start[c] = 0 }
            for i in 0..<n { start[index(xs[i], ys[i]) + 1] += 1 }
            for c in 0..<cells { start[c + 1] += start[c] }
            // start[c] is where cell c begins; filling moves it to where c ends, then back.
            sortedSlots.withUnsafeMutableBufferPointer { ss in
                sortedXY.withUnsafeMutableBufferPointer { xy in
                    for i in 0..<n {
                        let c = index(xs[i], ys[i]), at = Int(start[c])
                        ss[at] = slots[i]; xy[2 * at] = xs[i]; xy[2 * at + 1] = ys[i]
                        start[c] += 1
                    }
                }
            }
            for c in stride(from: cells, to: 0, by: -1) { start[c] = start[c - 1] }
            start[0] = 0
        }
        built = true
    }
}
