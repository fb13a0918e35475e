/// The two-tree split of a leaf of `GEOSPointIndex`.
///
/// GEOS 3.11 keeps a tree's nodes (48 bytes each) in one vector that grows by doubling as
/// points are inserted, and only grows it to the tree's exact size when that is larger: a
/// tree of n points holds room for max(2^ceil(log2 n), about 1.044 n) nodes, 1.5 times what it
/// needs on average and up to twice (513 points take the room of 1,024). So a leaf of n points
/// whose tree would keep that slack gets two: the 2^floor(log2 n) westernmost points in one
/// (built to its exact size) and the rest in `east`, split at a longitude so that a query
/// whose box lies on one side reads one tree (docs/spatial-index.md, "Bytes per pin").
extension GEOSPointIndex {
    /// How many of a leaf's n points go into its west tree (n when one tree holds them all):
    /// the largest power of two below n when its tree and the rest's hold fewer nodes than one
    /// tree of n points would.
    static func westCount(_ n: Int) -> Int {
        guard n > 2 else { return n }
        let west = 1 << (Int.bitWidth - 1 - n.leadingZeroBitCount)  // 2^floor(log2 n)
        return west < n && nodeRoom(west) + nodeRoom(n - west) < nodeRoom(n) ? west : n
    }

    /// The nodes GEOS 3.11 keeps room for in a built tree of n points: its vector's room after
    /// n inserts (doubling from 1: 2^ceil(log2 n)), or the tree's exact node count when that is
    /// larger (it then reserves exactly that).
    static func nodeRoom(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let room = 1 << (Int.bitWidth - (n - 1).leadingZeroBitCount)
        var size = n, level = n
        while level > 1 { level = (level + nodeCapacity - 1) / nodeCapacity; size += level }
        return max(room, size)
    }

    /// Reorders `gather` so that its first k slots are the k westernmost (ties anywhere), and
    /// returns a longitude between them and the rest (a selection: linear time on average).
    func partitionByLongitude(first k: Int) -> Double {
        coords.withBuffer { ll in
            gather.withUnsafeMutableBufferPointer { g in
                @inline(__always) func x(_ i: Int) -> Double { ll[2 * Int(g[i])] }
                var lo = 0, hi = g.count - 1
                while lo < hi {
                    // Median of three as the pivot, then a three-way partition of lo...hi.
                    let a = x(lo), b = x((lo + hi) / 2), c = x(hi)
                    let pivot = max(min(a, b), min(max(a, b), c))
                    var lt = lo, i = lo, gt = hi
                    while i <= gt {
                        let v = x(i)
                        if v < pivot { g.swapAt(lt, i); lt += 1; i += 1 } else if v > pivot { g.swapAt(i, gt); gt -= 1 } else { i += 1 }
                    }
                    // lo..<lt below the pivot, lt...gt equal, gt+1...hi above.
                    if k < lt { hi = lt - 1 } else if k > gt + 1 { lo = gt + 1 } else { break }
                }
                // The first k are now the k smallest: the boundary lies between the largest of
                // them and the smallest of the rest.
                var west = -Double.infinity
                for i in 0..<k { west = max(west, x(i)) }
                return west
            }
        }
    }
}
