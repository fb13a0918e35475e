import CPindrop
import PindropCore

// Batch spreading for GIS tools: the ring rule (docs/spreading.md) over a whole data set, no map involved.

@_cdecl("pindrop_spread")
public func pindrop_spread(_ lonlat: UnsafePointer<Double>?, _ n: Int, _ tolerance: Double,
                           _ out: UnsafeMutablePointer<Double>?) -> pindrop_status {
    do throws(PindropError) {
        guard try checkedCount(n, stride: 16, "n") > 0 else {
            guard tolerance.isFinite && tolerance >= 0 else {
                throw PindropError(.invalidArgument, "tolerance_m \(tolerance) must be finite and >= 0")
            }
            return statusOK
        }
        let lonlat = try required(lonlat, "lonlat"), out = try required(out, "out_lonlat")
        try SpreadRule.spread(lonlat: UnsafeBufferPointer(start: lonlat, count: 2 * n), tolerance: tolerance,
                              into: UnsafeMutableBufferPointer(start: out, count: 2 * n))
        return statusOK
    } catch {
        return failWithoutMap(error)
    }
}

// Batch compact spreading: the spiral in screen points at a zoom (docs/spreading.md) over a whole data set.

@_cdecl("pindrop_spread_spiral")
public func pindrop_spread_spiral(_ lonlat: UnsafePointer<Double>?, _ n: Int, _ tolerance: Double,
                                  _ spacing: Double, _ zoom: Double,
                                  _ out: UnsafeMutablePointer<Double>?) -> pindrop_status {
    do throws(PindropError) {
        guard try checkedCount(n, stride: 16, "n") > 0 else {
            // Nothing to lay out, but the parameters are still checked.
            try SpiralRule.spread(lonlat: UnsafeBufferPointer(start: nil, count: 0), tolerance: tolerance,
                                  spacing: spacing, zoom: zoom, into: UnsafeMutableBufferPointer(start: nil, count: 0))
            return statusOK
        }
        let lonlat = try required(lonlat, "lonlat"), out = try required(out, "out_lonlat")
        try SpiralRule.spread(lonlat: UnsafeBufferPointer(start: lonlat, count: 2 * n), tolerance: tolerance,
                              spacing: spacing, zoom: zoom, into: UnsafeMutableBufferPointer(start: out, count: 2 * n))
        return statusOK
    } catch {
        return failWithoutMap(error)
    }
}
