/// The orientation of three points exactly as GEOS 3.11 decides it (CGAlgorithmsDD::
/// orientationIndex): a floating-point filter, then double-double arithmetic (JTS's DD) where
/// the filter cannot tell. 1 = counter-clockwise (q left of p1 → p2), -1 = clockwise, 0 = collinear.
enum Orientation {
    static func index(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
                      _ qx: Double, _ qy: Double) -> Int {
        if let i = filter(p1x, p1y, p2x, p2y, qx, qy) { return i }
        let dx1 = DD(p2x).adding(DD(-p1x)), dy1 = DD(p2y).adding(DD(-p1y))
        let dx2 = DD(qx).adding(DD(-p2x)), dy2 = DD(qy).adding(DD(-p2y))
        let d = dx1.multiplied(by: dy2).adding(dy1.multiplied(by: dx2).negated)
        return d.signum
    }

    /// GEOS's orientationIndexFilter: the sign of the determinant when rounding cannot have
    /// changed it, else nil.
    @inline(__always)
    static func filter(_ pax: Double, _ pay: Double, _ pbx: Double, _ pby: Double,
                       _ pcx: Double, _ pcy: Double) -> Int? {
        let detLeft = (pax - pcx) * (pby - pcy)
        let detRight = (pay - pcy) * (pbx - pcx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return sign(det) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return sign(det) }
            detSum = -detLeft - detRight
        } else {
            return sign(det)
        }
        let errorBound = 1e-15 * detSum
        if det >= errorBound || -det >= errorBound { return sign(det) }
        return nil
    }

    @inline(__always)
    static func sign(_ d: Double) -> Int { d > 0 ? 1 : (d < 0 ? -1 : 0) }
}

/// A double-double number (hi + lo), the arithmetic of JTS's and GEOS's DD class, operation for
/// operation, so that the same inputs round the same way.
struct DD {
    var hi: Double, lo: Double
    static let split = 134217729.0  // 2^27 + 1

    init(_ x: Double) { hi = x; lo = 0 }
    init(_ hi: Double, _ lo: Double) { self.hi = hi; self.lo = lo }

    var negated: DD { DD(-hi, -lo) }

    var signum: Int {
        if hi > 0 { return 1 }
        if hi < 0 { return -1 }
        if lo > 0 { return 1 }
        if lo < 0 { return -1 }
        return 0
    }

    func adding(_ y: DD) -> DD {
        var S = hi + y.hi
        var T = lo + y.lo
        var e = S - hi
        var f = T - lo
        var s = S - e
        var t = T - f
        s = (y.hi - e) + (hi - s)
        t = (y.lo - f) + (lo - t)
        e = s + T
        let H = S + e
        let h = e + (S - H)
        e = t + h
        let zhi = H + e
        let zlo = e + (H - zhi)
        S = 0; T = 0; f = 0
        return DD(zhi, zlo)
    }

    func multiplied(by y: DD) -> DD {
        var C = DD.split * hi
        var hx = C - hi
        var c = DD.split * y.hi
        hx = C - hx
        let tx = hi - hx
        var hy = c - y.hi
        C = hi * y.hi
        hy = c - hy
        let ty = y.hi - hy
        c = ((((hx * hy - C) + hx * ty) + tx * hy) + tx * ty) + (hi * y.lo + lo * y.hi)
        let zhi = C + c
        hx = C - zhi
        let zlo = c + hx
        return DD(zhi, zlo)
    }
}
