// The README's drag and the Lawndale trees' spread, through pindrop's Swift API only.
// `make test-swift-package` builds and runs it; it exits 1 on any answer that is not the
// expected one, each checked against a formula written here (Web Mercator, the haversine).
import Foundation
import PindropKit

func check(_ ok: Bool, _ what: @autoclosure () -> String) {
    guard ok else {
        FileHandle.standardError.write(Data("tree-drag: FAILED: \(what())\n".utf8))
        exit(1)
    }
}

/// Great-circle distance in metres on the Web Mercator sphere (radius 6378137 m).
func metres(_ a: LonLat, _ b: LonLat) -> Double {
    let r = Double.pi / 180
    let h = pow(sin((b.lat - a.lat) * r / 2), 2) + cos(a.lat * r) * cos(b.lat * r) * pow(sin((b.lon - a.lon) * r / 2), 2)
    return 2 * 6378137 * asin(min(1, h.squareRoot()))
}

do {
    // MARK: The README's drag: a tree at the centre of a phone screen; hold it, drag it, let go.

    let tree = LonLat(lon: -118.3535474, lat: 33.8870931)
    let trees = try PinMap()                                          // touch-screen defaults
    try trees.setCamera(Camera(center: tree, zoom: 19, width: 390, height: 844))
    try trees.add(Pin(id: 5603, coordinate: tree))                    // at the screen centre
    try trees.touch(.down, at: ScreenPoint(x: 195, y: 422), timeMs: 0)  // finger down, held still
    try trees.tick(timeMs: 250)                                       // 250 ms later: lifted
    try trees.touch(.move, at: ScreenPoint(x: 255, y: 382), timeMs: 500)  // dragged
    try trees.touch(.up, at: ScreenPoint(x: 255, y: 382), timeMs: 520)    // dropped, moved: save it

    var saved: LonLat?
    for e in trees.events() {
        print("\(Int(e.timeMs)) ms: \(e.event)")
        if case .moved(id: 5603, from: tree, let to, cause: .drag) = e.event { saved = to }
    }
    // It lands 40 points (lift_height) above the finger: screen (255, 342), by Web Mercator.
    let world = 256 * pow(2, 19.0)
    let cx = (tree.lon + 180) / 360 * world
    let cy = (1 - log(tan(Double.pi / 4 + tree.lat * Double.pi / 180 / 2)) / Double.pi) / 2 * world
    let expected = LonLat(lon: (cx + 255 - 195) / world * 360 - 180,
                          lat: atan(sinh(Double.pi * (1 - 2 * (cy + 342 - 422) / world))) * 180 / Double.pi)
    let landed = try trees.position(id: 5603)
    check(saved == landed, "no MOVED (cause drag) event to \(landed), events gave \(String(describing: saved))")
    check(abs(landed.lon - expected.lon) < 1e-9 && abs(landed.lat - expected.lat) < 1e-9,
          "tree 5603 landed at \(landed), not at \(expected)")
    print(String(format: "landed at %.7f, %.7f: 40 points above the finger", landed.lon, landed.lat))

    // MARK: The spread: Lawndale's street trees, those on one spot drawn on a ring.

    let here = URL(fileURLWithPath: #filePath)
    let csv = CommandLine.arguments.count > 1 ? URL(fileURLWithPath: CommandLine.arguments[1])
        : here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/lawndale_trees.csv")
    var inventory: [Pin] = []
    for line in try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
        let f = line.split(separator: ",", maxSplits: 3)
        guard f.count >= 3, let id = Int64(f[0]), let lon = Double(f[1]), let lat = Double(f[2]) else {
            check(false, "\(csv.path): cannot read \(line)"); continue
        }
        inventory.append(Pin(id: id, coordinate: LonLat(lon: lon, lat: lat)))
    }
    inventory.sort { $0.id < $1.id }  // the rule takes points in id order
    let drawn = try Spread.ring(inventory.map(\.coordinate))

    var groups: [LonLat: [Int]] = [:]
    for (i, p) in inventory.enumerated() { groups[p.coordinate, default: []].append(i) }
    for (spot, members) in groups {
        if members.count == 1 {
            check(drawn[members[0]] == spot, "tree \(inventory[members[0]].id), alone, moved")
            continue
        }
        let radius = 1.5 * Double(members.count)  // docs/spreading.md: 1.5 m per tree
        for i in members {
            check(abs(metres(spot, drawn[i]) - radius) < 1e-6,
                  "tree \(inventory[i].id) drawn \(metres(spot, drawn[i])) m from its spot, not \(radius) m")
        }
        check(Set(members.map { drawn[$0] }).count == members.count, "two trees of a stack drawn on one point")
    }
    let stacks = groups.values.filter { $0.count > 1 }
    let largest = stacks.max { $0.count < $1.count }!
    check(largest.count == 305, "the largest stack holds \(largest.count) trees, not the README's 305")
    print("\(inventory.count) trees, \(stacks.count) spots shared by \(stacks.map(\.count).reduce(0, +)); " +
          "the largest, \(largest.count) trees, on a ring of \(1.5 * Double(largest.count)) m")

    // A map holding them draws that stack on the same ring.
    let map = try PinMap()
    try map.add(contentsOf: inventory)
    for i in largest {
        let p = try map.displayPosition(id: inventory[i].id)
        check(abs(p.lon - drawn[i].lon) < 1e-9 && abs(p.lat - drawn[i].lat) < 1e-9,
              "the map draws tree \(inventory[i].id) at \(p), the batch spread at \(drawn[i])")
    }
    print("the map draws the \(largest.count)-tree stack where the batch spread does")
} catch {
    check(false, "\(error)")
}
