import PindropCore

/// Edges that meet where the OGC rules forbid it: two edges of one ring meeting anywhere but at
/// the vertex they share ("Ring Self-intersection"), edges of different rings or polygons
/// crossing or overlapping along a stretch ("Self-intersection"). Rings may touch at points.
/// Edges are swept in order of their least longitude, so only edges whose boxes overlap are
/// compared.
enum Intersections {
    private struct Edge {
        var ax, ay, bx, by: Double
        var polygon: Int32, ring: Int32, index: Int32, ringEdges: Int32
        var minX: Double { min(ax, bx) }
        var maxX: Double { max(ax, bx) }
    }

    static func check(_ polygons: [[[Double]]], _ type: String) throws(PindropError) {
        var edges: [Edge] = []
        for (p, polygon) in polygons.enumerated() {
            for (r, ring) in polygon.enumerated() {
                let n = ring.count / 2 - 1
                for i in 0..<n {
                    edges.append(Edge(ax: ring[2 * i], ay: ring[2 * i + 1], bx: ring[2 * i + 2], by: ring[2 * i + 3],
                                      polygon: Int32(p), ring: Int32(r), index: Int32(i), ringEdges: Int32(n)))
                }
            }
        }
        edges.sort { $0.minX < $1.minX }
        for i in edges.indices {
            let a = edges[i]
            let aMaxX = a.maxX, aMinY = min(a.ay, a.by), aMaxY = max(a.ay, a.by)
            var j = i + 1
            while j < edges.count, edges[j].minX <= aMaxX {
                let b = edges[j]
                j += 1
                guard min(b.ay, b.by) <= aMaxY, max(b.ay, b.by) >= aMinY else { continue }
                let sameRing = a.polygon == b.polygon && a.ring == b.ring
                if sameRing {
                    let d = abs(Int(a.index) - Int(b.index))
                    if d == 1 || d == Int(a.ringEdges) - 1 {
                        // Adjacent: they share one vertex; invalid only if they fold back over each other.
                        if a.ringEdges > 2, let p = foldBack(a, b) {
                            throw invalid(type, "Ring Self-intersection", p.0, p.1)
                        }
                        continue
                    }
                    if let p = meet(a, b, touchingAllowed: false) { throw invalid(type, "Ring Self-intersection", p.0, p.1) }
                } else if let p = meet(a, b, touchingAllowed: true) {
                    throw invalid(type, "Self-intersection", p.0, p.1)
                }
            }
        }
    }

    static func invalid(_ type: String, _ reason: String, _ x: Double, _ y: Double) -> PindropError {
        PindropError(.parse, "the area's \(type) is invalid: \(reason)[\(x) \(y)]")
    }

    /// Two adjacent edges that are collinear and point back over each other: where they overlap.
    private static func foldBack(_ a: Edge, _ b: Edge) -> (Double, Double)? {
        // The shared vertex and the two far ends.
        let (sx, sy, ux, uy, vx, vy): (Double, Double, Double, Double, Double, Double)
        if a.bx == b.ax && a.by == b.ay { (sx, sy, ux, uy, vx, vy) = (a.bx, a.by, a.ax, a.ay, b.bx, b.by) }
        else if a.ax == b.bx && a.ay == b.by { (sx, sy, ux, uy, vx, vy) = (a.ax, a.ay, a.bx, a.by, b.ax, b.ay) }
        else { return nil }
        guard Orientation.index(ux, uy, sx, sy, vx, vy) == 0 else { return nil }
        let dot = (ux - sx) * (vx - sx) + (uy - sy) * (vy - sy)
        return dot > 0 ? (sx, sy) : nil
    }

    /// Where two edges meet in a way the rules forbid: any common point when touching is not
    /// allowed, else a proper crossing or a collinear overlap longer than a point.
    private static func meet(_ a: Edge, _ b: Edge, touchingAllowed: Bool) -> (Double, Double)? {
        let o1 = Orientation.index(a.ax, a.ay, a.bx, a.by, b.ax, b.ay)
        let o2 = Orientation.index(a.ax, a.ay, a.bx, a.by, b.bx, b.by)
        if o1 != 0 && o1 == o2 { return nil }
        let o3 = Orientation.index(b.ax, b.ay, b.bx, b.by, a.ax, a.ay)
        let o4 = Orientation.index(b.ax, b.ay, b.bx, b.by, a.bx, a.by)
        if o3 != 0 && o3 == o4 { return nil }
        if o1 == 0 && o2 == 0 {
            // Collinear: the overlap of their extents along the line.
            let horizontal = abs(a.bx - a.ax) >= abs(a.by - a.ay)
            func key(_ x: Double, _ y: Double) -> Double { horizontal ? x : y }
            let lo = max(min(key(a.ax, a.ay), key(a.bx, a.by)), min(key(b.ax, b.ay), key(b.bx, b.by)))
            let hi = min(max(key(a.ax, a.ay), key(a.bx, a.by)), max(key(b.ax, b.ay), key(b.bx, b.by)))
            if lo > hi { return nil }
            let point: (Double, Double)
            if key(a.ax, a.ay) == lo { point = (a.ax, a.ay) } else if key(a.bx, a.by) == lo { point = (a.bx, a.by) }
            else if key(b.ax, b.ay) == lo { point = (b.ax, b.ay) } else { point = (b.bx, b.by) }
            if lo < hi || !touchingAllowed { return point }
            return nil
        }
        let proper = o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0
        if proper || !touchingAllowed {
            // The crossing point (an endpoint when one lies on the other edge).
            if o1 == 0 { return (b.ax, b.ay) }
            if o2 == 0 { return (b.bx, b.by) }
            if o3 == 0 { return (a.ax, a.ay) }
            if o4 == 0 { return (a.bx, a.by) }
            let d = (a.bx - a.ax) * (b.by - b.ay) - (a.by - a.ay) * (b.bx - b.ax)
            let t = ((b.ax - a.ax) * (b.by - b.ay) - (b.ay - a.ay) * (b.bx - b.ax)) / d
            return (a.ax + t * (a.bx - a.ax), a.ay + t * (a.by - a.ay))
        }
        return nil
    }
}

/// Rings in the wrong place: a hole outside its shell, a hole inside another hole, a polygon of a
/// MultiPolygon inside another (not in one of its holes).
enum Nesting {
    /// 0 outside, 1 on the ring, 2 inside (GEOS's ray-crossing rule).
    static func locate(_ ring: [Double], _ x: Double, _ y: Double) -> Int {
        var crossings = 0
        let n = ring.count / 2 - 1
        for i in 0..<n {
            let p1x = ring[2 * i], p1y = ring[2 * i + 1], p2x = ring[2 * i + 2], p2y = ring[2 * i + 3]
            if p1x < x && p2x < x { continue }
            if x == p2x && y == p2y { return 1 }
            if p1y == y && p2y == y {
                if x >= min(p1x, p2x) && x <= max(p1x, p2x) { return 1 }
                continue
            }
            if (p1y > y && p2y <= y) || (p2y > y && p1y <= y) {
                var o = Orientation.index(p1x, p1y, p2x, p2y, x, y)
                if o == 0 { return 1 }
                if p2y < p1y { o = -o }
                if o == 1 { crossings += 1 }
            }
        }
        return crossings & 1 == 1 ? 2 : 0
    }

    /// A vertex of `ring` that is not on `other`, located in `other` (nil: every vertex is on it).
    static func where_(_ ring: [Double], in other: [Double]) -> (Int, Double, Double)? {
        var i = 0
        while i + 1 < ring.count {
            let l = locate(other, ring[i], ring[i + 1])
            if l != 1 { return (l, ring[i], ring[i + 1]) }
            i += 2
        }
        return nil
    }

    struct Box {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        init(_ ring: [Double]) {
            var i = 0
            while i + 1 < ring.count {
                minX = min(minX, ring[i]); maxX = max(maxX, ring[i]); minY = min(minY, ring[i + 1]); maxY = max(maxY, ring[i + 1])
                i += 2
            }
        }
        func overlaps(_ o: Box) -> Bool { minX <= o.maxX && maxX >= o.minX && minY <= o.maxY && maxY >= o.minY }
    }

    static func check(_ polygons: [[[Double]]], _ type: String) throws(PindropError) {
        for polygon in polygons {
            let shell = polygon[0]
            let holes = polygon.dropFirst()
            let boxes = polygon.map { Box($0) }
            for (k, hole) in holes.enumerated() {
                if let (l, x, y) = where_(hole, in: shell), l == 0 {
                    throw Intersections.invalid(type, "Hole lies outside shell", x, y)
                }
                for (m, other) in holes.enumerated() where m != k && boxes[k + 1].overlaps(boxes[m + 1]) {
                    if let (l, x, y) = where_(hole, in: other), l == 2 {
                        throw Intersections.invalid(type, "Holes are nested", x, y)
                    }
                }
            }
        }
        guard polygons.count > 1 else { return }
        let shellBoxes = polygons.map { Box($0[0]) }
        for i in polygons.indices {
            for j in polygons.indices where i != j && shellBoxes[i].overlaps(shellBoxes[j]) {
                guard let (l, x, y) = where_(polygons[i][0], in: polygons[j][0]), l == 2 else { continue }
                // Inside j's shell: valid only inside one of j's holes.
                var inHole = false
                for hole in polygons[j].dropFirst() where locate(hole, x, y) != 0 { inHole = true; break }
                if !inHole { throw Intersections.invalid(type, "Nested shells", x, y) }
            }
        }
    }
}
