import CPindrop
import PindropCore

// Batch spreading for GIS tools: rule 11 over a whole data set, no map involved.

@_cdecl("pindrop_spread")
public func pindrop_spread(_ lonlat: UnsafePointer<Double>?, _ n: Int, _ tolerance: Double,
                           _ out: UnsafeMutablePointer<Double>?) -> pindrop_status {
    guard n > 0 else { return tolerance.isFinite && tolerance >= 0 ? statusOK : statusInvalid }
    guard let lonlat, let out, n <= Int.max / 16 else { return statusInvalid }
    do throws(PindropError) {
        try SpreadRule.spread(lonlat: UnsafeBufferPointer(start: lonlat, count: 2 * n), tolerance: tolerance,
                              into: UnsafeMutableBufferPointer(start: out, count: 2 * n))
        return statusOK
    } catch {
        return pindrop_status(rawValue: error.status.rawValue)
    }
}

// Batch compact spreading: rule 17 (spiral in screen points at a zoom) over a whole data set.

@_cdecl("pindrop_spread_spiral")
public func pindrop_spread_spiral(_ lonlat: UnsafePointer<Double>?, _ n: Int, _ tolerance: Double,
                                  _ spacing: Double, _ zoom: Double,
                                  _ out: UnsafeMutablePointer<Double>?) -> pindrop_status {
    // A size_t of 2^63 or more arrives as a negative Int.
    guard n >= 0 else { return statusInvalid }
    do throws(PindropError) {
        guard n > 0 else {
            // Nothing to lay out, but the parameters are still checked.
            try SpiralRule.spread(lonlat: UnsafeBufferPointer(start: nil, count: 0), tolerance: tolerance,
                                  spacing: spacing, zoom: zoom, into: UnsafeMutableBufferPointer(start: nil, count: 0))
            return statusOK
        }
        guard let lonlat, let out, n <= Int.max / 16 else { return statusInvalid }
        try SpiralRule.spread(lonlat: UnsafeBufferPointer(start: lonlat, count: 2 * n), tolerance: tolerance,
                              spacing: spacing, zoom: zoom, into: UnsafeMutableBufferPointer(start: out, count: 2 * n))
        return statusOK
    } catch {
        return pindrop_status(rawValue: error.status.rawValue)
    }
}
