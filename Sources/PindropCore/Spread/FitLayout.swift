import Glibc

/// Behaviour 22: where the pins of an opened stack are drawn (docs/spreading.md, "An open stack
/// fits the view"). With `spread_on_tap`, a stack that opens is laid out in screen points inside
/// the view, whatever its size, instead of on its ring (3n/2 metres) or its spiral:
///
/// - a triangular (hexagonal) lattice of spacing d, one lattice point on the stack's centre c
///   (its screen point, clamped into the view inset by d/2 when the centre is outside it);
/// - only the lattice points inside the view inset by d/2 are used, nearest to c first (ties:
///   the smaller bearing clockwise from screen up), pin k of the n (in the order the map hands
///   them, ascending id for one stack) on the k-th;
/// - d is `spread_spacing` when n points fit at that spacing; else the largest spacing at which
///   they fit (found by bisection to 1/1024 of a point), so every pin lies in the view, at
///   least d from every other. On a 390×844 phone view the 305-tree stack fits at about 29 points.
///
/// Pure: it knows nothing of the map; `SpreadLayout` hands it the view's size, the centre and n.
/// A lattice point of `FitLayout.layout`: its squared distance from the centre, its bearing, where.
struct FitPoint { var d2, a, x, y: Double }  // d2: in (d/2)², exact

enum FitLayout {
    /// The lattice's rows are √3/2·d apart; points of odd rows are shifted by d/2.
    static let rowStep = 0.8660254037844386

    /// How many lattice points of spacing d around c lie inside [d/2, w − d/2] × [d/2, h − d/2],
    /// capped at `cap`.
    static func capacity(spacing d: Double, cx: Double, cy: Double, width w: Double, height h: Double, cap: Int) -> Int {
        let m = d / 2, x0 = m, x1 = w - m, y0 = m, y1 = h - m
        guard x1 >= x0, y1 >= y0 else { return 0 }
        let dy = d * rowStep
        let jLo = Int((y0 - cy) / dy - 1), jHi = Int((y1 - cy) / dy + 1)
        var count = 0
        for j in jLo...jHi {
            let y = cy + Double(j) * dy
            guard y >= y0, y <= y1 else { continue }
            let shift = (j & 1) != 0 ? d / 2 : 0
            // columns i with x0 <= cx + shift + i·d <= x1
            let iLo = ((x0 - cx - shift) / d).rounded(.up), iHi = ((x1 - cx - shift) / d).rounded(.down)
            if iHi >= iLo { count += Int(iHi - iLo) + 1 }
            if count >= cap { return cap }
        }
        return count
    }

    /// The spacing the n pins are laid out at in a view of w × h points (see the type's comment).
    static func spacing(n: Int, preferred: Double, cx: Double, cy: Double, width w: Double, height h: Double) -> Double {
        let c = clampCentre(cx, cy, spacing: preferred, width: w, height: h)
        if capacity(spacing: preferred, cx: c.x, cy: c.y, width: w, height: h, cap: n) >= n { return preferred }
        var lo = 0.0, hi = preferred
        while hi - lo > 1.0 / 1024 {
            let mid = (lo + hi) / 2
            let c = clampCentre(cx, cy, spacing: mid, width: w, height: h)
            if capacity(spacing: mid, cx: c.x, cy: c.y, width: w, height: h, cap: n) >= n { lo = mid } else { hi = mid }
        }
        return max(lo, 1.0 / 1024)
    }

    /// The centre clamped into the view inset by d/2 (the view's middle when that inset is empty).
    static func clampCentre(_ x: Double, _ y: Double, spacing d: Double, width w: Double, height h: Double) -> (x: Double, y: Double) {
        let m = d / 2
        let cx = w - m >= m ? min(max(x, m), w - m) : w / 2
        let cy = h - m >= m ? min(max(y, m), h - m) : h / 2
        return (cx, cy)
    }

    @inline(__always)
    static func before(_ p: FitPoint, _ q: FitPoint) -> Bool { p.d2 != q.d2 ? p.d2 < q.d2 : p.a < q.a }

    /// The n screen points (x, y interleaved into `out`, which is replaced) of a stack centred at
    /// screen point (x, y) in a view of w × h points; returns the spacing used.
    @discardableResult
    static func layout(n: Int, preferred: Double, x: Double, y: Double, width w: Double, height h: Double,
                       into out: inout [Double], scratch points: inout [FitPoint]) -> Double {
        out.removeAll(keepingCapacity: true)
        guard n > 0 else { return preferred }
        let d = spacing(n: n, preferred: preferred, cx: x, cy: y, width: w, height: h)
        let c = clampCentre(x, y, spacing: d, width: w, height: h)
        let m = d / 2, dy = d * rowStep
        // Lattice points inside the inset view, by distance from c: grow the radius until n fit.
        var radius = d * (Double(n).squareRoot() + 2)
        while true {
            points.removeAll(keepingCapacity: true)
            let jr = Int(radius / dy) + 1
            let qMax = (2 * radius / d) * (2 * radius / d)
            for j in -jr...jr {
                let py = c.y + Double(j) * dy
                guard py >= m, py <= h - m else { continue }
                let shift = (j & 1) != 0 ? d / 2 : 0
                let ir = Int(radius / d) + 1
                for i in -ir...ir {
                    let px = c.x + shift + Double(i) * d
                    guard px >= m, px <= w - m else { continue }
                    let ox = px - c.x, oy = py - c.y
                    // The squared distance in (d/2)² units is an integer, (2i + shift)² + 3j², so
                    // points at one distance are cut and ordered alike.
                    let u = 2 * i + (j & 1)
                    let d2 = Double(u * u + 3 * j * j)
                    guard d2 <= qMax else { continue }
                    var a = atan2(ox, -oy)  // clockwise from screen up
                    if a < 0 { a += 2 * Double.pi }
                    points.append(FitPoint(d2: d2, a: a, x: px, y: py))
                }
            }
            if points.count >= n || radius > 2 * (w + h) { break }
            radius *= 1.5
        }
        points.heapSortInPlace(by: before)  // by distance, then bearing, in place (Support/HeapSort.swift)
        for k in 0..<min(n, points.count) { out.append(points[k].x); out.append(points[k].y) }
        // Not reached for a bisected spacing (n points fit); a guard against rounding at the edge.
        while out.count < 2 * n { out.append(c.x); out.append(c.y) }
        return d
    }
}
