import PindropCore

/// Spreading a whole data set at once, no map involved (docs/spreading.md): where each point of
/// a group that shares a spot is drawn. Points alone on their spot keep their coordinate.
public enum Spread {
    /// The ring rule: a group of n points on a ring of 1.5·n metres around its spot, as a map with
    /// `SpreadMode.ring` draws it. `toleranceM`: points within this many metres share a spot (0:
    /// the very same coordinate). Returns one drawn position per point, in the input's order.
    public static func ring(_ points: [LonLat], toleranceM: Double = 0) throws(PindropError) -> [LonLat] {
        try run(points) { (lonlat, out) throws(PindropCore.PindropError) in
            try SpreadRule.spread(lonlat: lonlat, tolerance: toleranceM, into: out)
        }
    }

    /// The spiral rule at a zoom: a group's points `spacingPt` screen points apart on a compact
    /// spiral, as a map with `SpreadMode.spiral` draws it at `zoom`.
    public static func spiral(_ points: [LonLat], toleranceM: Double = 0, spacingPt: Double = 25,
                              zoom: Double) throws(PindropError) -> [LonLat] {
        try run(points) { (lonlat, out) throws(PindropCore.PindropError) in
            try SpiralRule.spread(lonlat: lonlat, tolerance: toleranceM, spacing: spacingPt, zoom: zoom, into: out)
        }
    }

    private static func run(_ points: [LonLat],
                            _ rule: (UnsafeBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) throws(PindropCore.PindropError) -> Void)
        throws(PindropError) -> [LonLat] {
        let lonlat = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * points.count)
        let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * points.count)
        defer { lonlat.deallocate(); out.deallocate() }
        for (i, p) in points.enumerated() { lonlat[2 * i] = p.lon; lonlat[2 * i + 1] = p.lat }
        out.initialize(repeating: 0)
        try core { () throws(PindropCore.PindropError) in try rule(UnsafeBufferPointer(lonlat), out) }
        return (0..<points.count).map { LonLat(lon: out[2 * $0], lat: out[2 * $0 + 1]) }
    }
}
