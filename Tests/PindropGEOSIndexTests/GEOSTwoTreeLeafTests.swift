import XCTest
import PindropCore
@testable import PindropGEOSIndex
import PindropTestSupport

/// A leaf's points go into one GEOS tree, or two split at a longitude when one would keep room
/// for many more nodes than it has (GEOS 3.11 grows a tree's node vector by doubling). What the
/// trees hold is measured by Tests/c/test_memory.c; here, the answers on the LA trees against a
/// scan of the positions.
final class GEOSTwoTreeLeafTests: XCTestCase {
    /// The LA trees (every 6th) in an index with every leaf built: leaves with two trees exist,
    /// and boxes of every size, many on a two-tree leaf's border, find what a scan finds, also
    /// after moves across borders and the rebuilds they cause.
    func testLATreesInTwoTreeLeavesAnswerAsAScan() throws {
        guard let (_, lonlat) = LATreesFile.every(6) else {
            throw XCTSkip("the LA tree inventory is not at ../shared/data/la_trees.csv")
        }
        let n = lonlat.count / 2
        let index = try GEOSFactory().makeIndex() as! GEOSPointIndex
        var positions = lonlat
        lonlat.withUnsafeBufferPointer { index.insert(slots: (0..<Int32(n)).map { $0 }, lonlat: $0) }
        var out: [Int32] = []
        index.query(GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90), into: &out)
        XCTAssertEqual(out.count, n)
        index.maintain(inserts: 4 * n)
        XCTAssertGreaterThan(index.twoTreeLeafCount, index.builtLeafCount / 4,
                             "\(index.twoTreeLeafCount) of \(index.builtLeafCount) built leaves have two trees")
        var rng: UInt64 = 99
        func uniform() -> Double {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Double(rng >> 11) / 9_007_199_254_740_992
        }
        func scan(_ b: GeoBox) -> [Int32] {
            (0..<n).compactMap { i in
                let x = positions[2 * i], y = positions[2 * i + 1]
                return x >= b.minLon && x <= b.maxLon && y >= b.minLat && y <= b.maxLat ? Int32(i) : nil
            }
        }
        for round in 0..<200 {
            // Centred on a tree (so often on or near a border between a leaf's two trees), or
            // with an edge exactly on a tree's longitude.
            let c = Int(uniform() * Double(n))
            let x = positions[2 * c], y = positions[2 * c + 1]
            let w = [0.0, 0.00005, 0.0005, 0.005, 0.05][round % 5]
            let box = round % 3 == 0 ? GeoBox(minLon: x, minLat: y - w, maxLon: x + w, maxLat: y + w)
                : round % 3 == 1 ? GeoBox(minLon: x - w, minLat: y - w, maxLon: x, maxLat: y + w)
                : GeoBox(minLon: x - w, minLat: y - w, maxLon: x + w, maxLat: y + w)
            out.removeAll()
            index.query(box, into: &out)
            let got = out.sorted(), want = scan(box)
            if got != want {
                XCTFail("round \(round): \(box) gave \(got.count) slots, a scan \(want.count)")
                return
            }
            // Moves: some trees jump a few metres east or west, then the leaves rebuild.
            for _ in 0..<50 {
                let s = Int(uniform() * Double(n))
                positions[2 * s] += (uniform() - 0.5) * 0.002
                index.set(Int32(s), lon: positions[2 * s], lat: positions[2 * s + 1])
            }
            index.maintain(inserts: 2000)
        }
    }
}
