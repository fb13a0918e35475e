import Foundation

/// The LA street-tree inventory the tests run on: ../shared/data/la_trees.csv next to the
/// repository (columns city,idx,lat,lon; rows grouped by city). nil where the file is not there,
/// so that each test can say it skipped.
public enum LATreesFile {
    public static let data: Data? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try? Data(contentsOf: root.appendingPathComponent("../shared/data/la_trees.csv"))
    }()

    /// Every `stride`-th tree as interleaved lon, lat; ids are the line numbers.
    public static func every(_ stride: Int) -> (ids: [Int64], lonlat: [Double])? {
        guard let data else { return nil }
        var ids: [Int64] = [], lonlat: [Double] = []
        var line = 0
        for row in data.split(separator: 10).dropFirst() {
            line += 1
            guard line % stride == 0 else { continue }
            let f = row.split(separator: UInt8(ascii: ","))
            guard f.count == 4, let lat = Double(String(decoding: f[2], as: UTF8.self)),
                  let lon = Double(String(decoding: f[3], as: UTF8.self)) else { continue }
            ids.append(Int64(line)); lonlat.append(lon); lonlat.append(lat)
        }
        return (ids, lonlat)
    }
}
