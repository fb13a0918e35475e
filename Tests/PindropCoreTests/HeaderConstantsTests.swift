import XCTest
@testable import PindropCore

/// The constants that cross the boundary are written once, in include/pindrop.h; this test checks
/// every status, event type, cause, pin flag, cluster flag, spread mode, outside policy, touch
/// phase, callout part and focus kind against Core's Swift types, both ways (each header name has
/// a Swift case with its value, and each Swift case has a header name), and each option's default
/// against Core's `Options()`. The header's values come through HeaderTables.swift, which
/// tools/gen_tables.py writes from the header with the C compiler's values (Tests/tables checks it
/// is fresh; Core cannot import the header itself).
final class HeaderConstantsTests: XCTestCase {
    static let header = HeaderTables.constants

    /// "dragCancelled" -> "DRAG_CANCELLED", "duplicateID" -> "DUPLICATE_ID".
    static func upperSnake(_ camel: String) -> String {
        var out = ""
        var previousLower = false
        for c in camel {
            if c.isUppercase && previousLower { out += "_" }
            out += c.uppercased()
            previousLower = c.isLowercase
        }
        return out
    }

    /// Checks `cases` (Swift name, value) against the header names that start with `prefix`.
    func check(_ prefix: String, _ cases: [(String, Int)], file: StaticString = #filePath, line: UInt = #line) {
        let header = Self.header.filter { $0.key.hasPrefix(prefix) }
        XCTAssertFalse(header.isEmpty, "no \(prefix)* constants found in the header", file: file, line: line)
        var seen = Set<String>()
        for (name, value) in cases {
            let cName = prefix + name
            seen.insert(cName)
            XCTAssertEqual(header[cName], value, "\(cName) in include/pindrop.h vs Swift", file: file, line: line)
        }
        for name in header.keys where !seen.contains(name) {
            XCTFail("\(name) of include/pindrop.h has no Swift counterpart", file: file, line: line)
        }
    }

    func testTheTablesAreRead() {
        XCTAssertEqual(Self.header["PINDROP_OK"], 0)
        XCTAssertEqual(Self.header["PINDROP_EVENT_DESELECTED"], 1, "implicit values are counted")
        XCTAssertEqual(Self.upperSnake("duplicateID"), "DUPLICATE_ID")
    }

    func testStatuses() {
        // Errors are PINDROP_ERR_*, the others (OK, STALE) plain.
        let header = Self.header.filter { ["PINDROP_OK", "PINDROP_STALE"].contains($0.key) || $0.key.hasPrefix("PINDROP_ERR_") }
        let swift = Status.allCases.map { s in
            ("PINDROP_" + (s.rawValue < 0 ? "ERR_" : "") + Self.upperSnake("\(s)"), Int(s.rawValue))
        }
        XCTAssertEqual(Set(header.keys), Set(swift.map(\.0)))
        for (name, value) in swift { XCTAssertEqual(header[name], value, name) }
    }

    func testEventTypesAndCauses() {
        check("PINDROP_EVENT_", Event.Kind.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
        check("PINDROP_CAUSE_", Event.Cause.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
    }

    func testPinFlags() {
        check("PINDROP_PIN_", PinFlags.all.map { ($0.name, Int($0.flag.rawValue)) })
        XCTAssertEqual(PinFlags.all.reduce(PinFlags()) { $0.union($1.flag) }.rawValue.nonzeroBitCount, PinFlags.all.count,
                       "one bit each")
    }

    func testClusterFlags() {
        check("PINDROP_CLUSTER_", ClusterFlags.all.map { ($0.name, Int($0.flag.rawValue)) })
        XCTAssertEqual(ClusterFlags.all.reduce(ClusterFlags()) { $0.union($1.flag) }.rawValue.nonzeroBitCount,
                       ClusterFlags.all.count, "one bit each")
    }

    func testModesPhasesAndCalloutParts() {
        check("PINDROP_SPREAD_", Options.SpreadMode.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
        check("PINDROP_OUTSIDE_", Options.OutsidePolicy.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
        check("PINDROP_TOUCH_", TouchPhase.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
        let parts = Map.CalloutPart.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) }
        for (name, value) in parts { XCTAssertEqual(Self.header["PINDROP_" + name], value, name) }
    }

    func testFocusKinds() {
        check("PINDROP_FOCUS_", Focus.Kind.allCases.map { (Self.upperSnake("\($0)"), Int($0.rawValue)) })
    }

    /// Behaviour 19's constants: the cluster flags, and PINDROP_CATEGORY_MIXED (UINT32_MAX).
    func testClusterFlagsAndMixedCategory() {
        XCTAssertEqual(ClusterSummary.oneSpot, ClusterFlags.oneSpot.rawValue)
        XCTAssertEqual(HeaderTables.categoryMixed, UInt64(UInt32.max))
        XCTAssertEqual(UInt64(PinAttributes.mixed), HeaderTables.categoryMixed)
    }

    /// Core's defaults are the header's PINDROP_DEFAULT_* (the library's pindrop_options_init
    /// writes the macros themselves; Core's `Options()` is what Swift callers and these tests get).
    func testOptionDefaults() {
        let o = Options()
        let core: [String: Double] = [
            "hit_radius": o.hitRadius, "drag_threshold": o.dragThreshold, "lift_delay_ms": o.liftDelayMs,
            "lift_height": o.liftHeight, "lift_duration_ms": o.liftDurationMs, "drop_duration_ms": o.dropDurationMs,
            "tap_max_ms": o.tapMaxMs, "double_tap_ms": o.doubleTapMs, "double_tap_slop": o.doubleTapSlop,
            "autopan_margin": o.autopanMargin, "autopan_speed": o.autopanSpeed, "min_spacing_m": o.minSpacingM,
            "spread_mode": Double(o.spreadMode.rawValue), "spread_tolerance_m": o.spreadToleranceM,
            "outside_policy": Double(o.outsidePolicy.rawValue), "cluster_radius": o.clusterRadius,
            "cluster_max_zoom": o.clusterMaxZoom, "spread_spacing": o.spreadSpacing,
            "cluster_min_points": Double(o.clusterMinPoints), "cluster_by_category": o.clusterByCategory ? 1 : 0,
            "spread_on_tap": o.spreadOnTap ? 1 : 0,
            "snap_tolerance": o.snapTolerance, "snap_to_pins": o.snapToPins ? 1 : 0,
        ]
        XCTAssertEqual(core, HeaderTables.optionDefaults)
    }

    /// Behaviour 23's modifier bits (PINDROP_MOD_*).
    func testModifiers() {
        check("PINDROP_MOD_", [("ADD", Int(Modifiers.add.rawValue)), ("NO_SNAP", Int(Modifiers.noSnap.rawValue))])
    }
}
