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
