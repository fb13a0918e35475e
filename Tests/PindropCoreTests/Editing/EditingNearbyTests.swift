import Foundation
import XCTest
@testable import PindropCore

/// A pin placed or moved within min_spacing_m of others is reported, nearest first.
final class EditingNearbyTests: XCTestCase {
    typealias F = EditingFixture
    let lon0 = -118.3525, lat0 = 33.9005

    func testTwoMetresWarnsAndFourMetresDoesNotWithThreeMetreSpacing() throws {
        let m = try F.map { $0.minSpacingM = 3 }
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.add(id: 2, lon: lon0, lat: lat0 + 0.01)

        // Pin 2 dropped 2 m due north of pin 1 (along a meridian: exactly 2 m on the sphere).
        try F.move(m, 2, lon0, lat0 + F.dLat(2))
        let near = F.drain(m).filter { $0.kind == .nearby }
        XCTAssertEqual(near.count, 1)
        XCTAssertEqual(near[0].id, 2)
        XCTAssertEqual(near[0].other, 1)
        XCTAssertEqual(near[0].distanceM, 2, accuracy: 1e-6)
        XCTAssertEqual(near[0].lon, lon0); XCTAssertEqual(near[0].lat, lat0)

        // 4 m north: no warning.
        try F.move(m, 2, lon0, lat0 + F.dLat(4))
        XCTAssertTrue(F.drain(m).filter { $0.kind == .nearby }.isEmpty)
    }

    func testWarningsComeNearestFirstAfterTheMove() throws {
        let m = try F.map { $0.minSpacingM = 5 }
        // Three trees 1 m, 3 m and 4.5 m north of the drop point, one 6 m south (too far).
        try m.add(id: 10, lon: lon0, lat: lat0 + F.dLat(4.5))
        try m.add(id: 11, lon: lon0, lat: lat0 + F.dLat(1))
        try m.add(id: 12, lon: lon0, lat: lat0 + F.dLat(3))
        try m.add(id: 13, lon: lon0, lat: lat0 - F.dLat(6))
        try m.add(id: 99, lon: lon0 + 1, lat: lat0)
        try F.move(m, 99, lon0, lat0, cause: .tap)
        let events = F.drain(m)
        XCTAssertEqual(F.kinds(events), [.moved, .calloutChanged, .geocodeRequest, .nearby, .nearby, .nearby])
        let near = events.filter { $0.kind == .nearby }
        XCTAssertEqual(near.map(\.other), [11, 12, 10])
        XCTAssertEqual(near.map(\.distanceM)[0], 1, accuracy: 1e-6)
        XCTAssertEqual(near.map(\.distanceM)[1], 3, accuracy: 1e-6)
        XCTAssertEqual(near.map(\.distanceM)[2], 4.5, accuracy: 1e-6)
        XCTAssertTrue(near.allSatisfy { $0.id == 99 })
    }

    func testDistanceIsTheGreatCircleAcrossLongitudeToo() throws {
        let m = try F.map { $0.minSpacingM = 10 }
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.add(id: 2, lon: 0, lat: 0)
        // 0.00005° east at this latitude: haversine written out here as the oracle.
        let lon = lon0 + 0.00005
        try F.move(m, 2, lon, lat0)
        let r = 6378137.0, phi = lat0 * .pi / 180, dl = 0.00005 * .pi / 180
        let h = cos(phi) * cos(phi) * sin(dl / 2) * sin(dl / 2)
        let oracle = 2 * r * asin(h.squareRoot())
        let near = F.drain(m).filter { $0.kind == .nearby }
        XCTAssertEqual(near.count, 1)
        XCTAssertEqual(near[0].distanceM, oracle, accuracy: 1e-9)
    }

    func testNoWarningWhenSpacingIsOff() throws {
        let m = try F.map()
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.add(id: 2, lon: 0, lat: 0)
        try F.move(m, 2, lon0, lat0)
        XCTAssertTrue(F.drain(m).filter { $0.kind == .nearby }.isEmpty)
    }

    func testPlacementWarnsAtOnceAndAgainAfterEachMove() throws {
        let m = try F.map { $0.minSpacingM = 3 }
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.place(id: 2, lon: lon0, lat: lat0, time: 10)
        let atPlace = F.drain(m)
        XCTAssertEqual(F.kinds(atPlace), [.calloutChanged, .geocodeRequest, .nearby])
        XCTAssertEqual(atPlace[2].other, 1)
        XCTAssertEqual(atPlace[2].distanceM, 0)
        try F.move(m, 2, lon0, lat0 + F.dLat(1), cause: .tap)
        XCTAssertEqual(F.drain(m).filter { $0.kind == .nearby }.map(\.other), [1])
        try m.commit(time: 20)
        XCTAssertEqual(F.kinds(F.drain(m)), [.moved], "commit saves; it does not warn again")
    }

    func testUndoLandingNearAPinWarns() throws {
        let m = try F.map { $0.minSpacingM = 3 }
        try m.add(id: 1, lon: lon0, lat: lat0)
        try m.add(id: 2, lon: lon0, lat: lat0 + F.dLat(2))
        try F.move(m, 2, lon0, lat0 + 0.01)
        _ = F.drain(m)
        try m.undo(time: 1)
        XCTAssertEqual(F.drain(m).filter { $0.kind == .nearby }.map(\.other), [1])
    }
}
