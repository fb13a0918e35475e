import XCTest
@testable import PindropCore
import PindropTestSupport

/// Paging through a cluster's members (`clusterMembers`, behind `pindrop_map_cluster_members_from`)
/// keeps the last key's sorted list instead of walking the cluster for every page. The list may
/// only be served while the key is valid: after random adds, removes and moves, asking for any
/// key handed out earlier gives either exactly the pins the cluster holds now (a walk of the
/// room, sorted by id) or NOT_FOUND, never the list of a cluster whose pins changed.
final class ClusterMembersPagingTests: XCTestCase {
    func testTheKeptListIsServedOnlyWhileItsKeyIsValid() throws {
        var rng = SplitMix(seed: 31)
        let s = Story({ $0.clusterRadius = 60 }, zoom: 14)
        var next: Int64 = 1
        var live: [Int64] = []
        func addNear(_ x: Double, _ y: Double) {
            s.addPin(next, atScreen: x, y); live.append(next); next += 1
        }
        // Groups of 2-12 pins a few points apart, spread over the view.
        for _ in 0..<40 {
            let x = rng.uniform(50, 1150), y = rng.uniform(50, 750)
            for _ in 0..<Int(rng.next() % 11 + 2) { addNear(x + rng.uniform(-8, 8), y + rng.uniform(-8, 8)) }
        }
        var keys: [UInt64] = []
        var t = 0.0, served = 0, stale = 0, staleKept = 0
        var lastPaged: UInt64?
        for step in 0..<600 {
            t += 1
            try s.map.frameClusters(time: t)
            keys.append(contentsOf: s.map.clusterViews.filter { $0.flags & ClusterFlags.stack.rawValue == 0 }.map(\.key))
            if keys.isEmpty { continue }
            // Page through a cluster of this frame, then ask again for keys of earlier frames.
            // The key paged last (its list is the kept one) first, whatever the change did to it.
            let earlier = (0..<6).map { _ in keys[Int(rng.next() % UInt64(keys.count))] }
            let asked = [lastPaged].compactMap { $0 } + earlier + [s.map.clusterViews.randomElement(using: &rng)?.key].compactMap { $0 }
            for key in asked {
                lastPaged = key
                var slots: [Int32] = []
                let room = try XCTUnwrap(s.map.clusterRoom)
                if room.members(key, into: &slots) {
                    let truth = slots.map { s.map.pins.id($0) }.sorted()
                    XCTAssertEqual(try s.map.clusterMembers(key: key), truth, "step \(step), key \(key)")
                    XCTAssertEqual(try s.map.clusterMembers(key: key), truth, "step \(step), the kept list")
                    served += 1
                } else {
                    if key == lastKeptBefore(s) { staleKept += 1 }
                    XCTAssertThrowsError(try s.map.clusterMembers(key: key), "step \(step): stale key \(key) served") { e in
                        XCTAssertEqual((e as? PindropError)?.status, .notFound)
                    }
                    stale += 1
                }
            }
            // One change: a short move (its cluster keeps it, or not), a long one, an add or a removal.
            let id = live[Int(rng.next() % UInt64(live.count))]
            switch rng.next() % 4 {
            case 0:
                let p = s.screenOf(id)
                let q = try s.map.toLonLat(x: p.x + rng.uniform(-3, 3), y: p.y + rng.uniform(-3, 3))
                try s.map.setPosition(id: id, lon: q.lon, lat: q.lat)
            case 1:
                let q = try s.map.toLonLat(x: rng.uniform(50, 1150), y: rng.uniform(50, 750))
                try s.map.setPosition(id: id, lon: q.lon, lat: q.lat)
            case 2:
                let p = s.screenOf(id)
                addNear(p.x + rng.uniform(-5, 5), p.y + rng.uniform(-5, 5))
            default:
                guard live.count > 20 else { continue }
                try s.map.remove(id: id)
                live.removeAll { $0 == id }
            }
        }
        XCTAssertGreaterThan(served, 300)
        XCTAssertGreaterThan(stale, 300)
        XCTAssertGreaterThan(staleKept, 10, "keys whose list was the kept one went stale")
    }

    private func lastKeptBefore(_ s: Story) -> UInt64 { s.map.sortedMembers.key }
}
