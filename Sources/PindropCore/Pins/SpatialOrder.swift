/// The order in which a large batch of pins is stored: along a Z-order (Morton) curve over the
/// batch's bounding box, so that pins near each other on the map get nearby slots. Queries then
/// read the slot-indexed arrays (coordinates, ids, index tiers) from a few cache lines instead of
/// one cache miss per candidate; on the 916k LA trees this more than halves hit-test time.
enum SpatialOrder {
    /// Batches smaller than this keep their order (the sort would not pay for itself).
    static let minimumCount = 4096

    /// Indices 0..<n of the points (lonlat[2i], lonlat[2i+1]) in Z-order, or nil to keep the order
    /// given. A stable radix sort on 32-bit keys (16 bits per axis): two passes of 16 bits.
    static func zOrder(_ lonlat: UnsafeBufferPointer<Double>) -> [UInt32]? {
        let n = lonlat.count / 2
        guard n >= minimumCount, n <= Int(UInt32.max) else { return nil }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for i in 0..<n {
            let x = lonlat[2 * i], y = lonlat[2 * i + 1]
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        let sx = maxX > minX ? 65535 / (maxX - minX) : 0, sy = maxY > minY ? 65535 / (maxY - minY) : 0
        // Key in the high 32 bits, the point's index in the low 32 bits.
        var keys = [UInt64](unsafeUninitializedCapacity: n) { buf, count in
            for i in 0..<n {
                let qx = UInt32(min(65535, max(0, (lonlat[2 * i] - minX) * sx)))
                let qy = UInt32(min(65535, max(0, (lonlat[2 * i + 1] - minY) * sy)))
                buf[i] = UInt64(spread(qx) | (spread(qy) << 1)) << 32 | UInt64(i)
            }
            count = n
        }
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 65536)
        for shift in [32, 48] as [UInt64] {
            for i in counts.indices { counts[i] = 0 }
            for k in keys { counts[Int((k >> shift) & 0xFFFF)] += 1 }
            var sum = 0
            for i in counts.indices { let c = counts[i]; counts[i] = sum; sum += c }
            for k in keys {
                let b = Int((k >> shift) & 0xFFFF)
                scratch[counts[b]] = k
                counts[b] += 1
            }
            swap(&keys, &scratch)
        }
        return keys.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The 16 low bits of v spread to the even bits of the result.
    @inline(__always)
    static func spread(_ v: UInt32) -> UInt32 {
        var x = v & 0xFFFF
        x = (x | (x << 8)) & 0x00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333
        x = (x | (x << 1)) & 0x5555_5555
        return x
    }
}
