import XCTest
@testable import PindropCore

/// The constants that cross the boundary are written once, in include/pindrop.h; this test reads
/// the header and checks every status, event type, cause, pin flag, spread mode, outside policy,
/// touch phase and callout part against Core's Swift types, both ways: each header name has a
/// Swift case with its value, and each Swift case has a header name (bindings/python/tests/
/// test_constants.py does the same for Python).
final class HeaderConstantsTests: XCTestCase {
    /// Every enumerator of the header's enums: name -> value (implicit values counted as C does).
    static let header: [String: Int] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../include/pindrop.h").standardized
        var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        // Comments out: /* ... */ and // ...
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: " ")
        }
        var values: [String: Int] = [:]
        var rest = Substring(text)
        while let e = rest.range(of: "enum") {
            rest = rest[e.upperBound...]
            guard let open = rest.firstIndex(of: "{"), let close = rest.firstIndex(of: "}") else { break }
            // A `typedef enum name {` or `enum {`; an `enum name` used as a type has no brace before ';'.
            if let semi = rest.firstIndex(of: ";"), semi < open { continue }
            var next = 0
            for item in rest[rest.index(after: open)..<close].split(separator: ",") {
                let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                guard let name = parts.first, !name.isEmpty else { continue }
                if parts.count == 2 { next = Int(parts[1]) ?? Int.min }
                values[name] = next
                next += 1
            }
            rest = rest[close...]
        }
        return values
    }()

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

    func testTheHeaderIsRead() {
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

    /// Behaviour 19's constants: the cluster flags, and PINDROP_CATEGORY_MIXED (a #define).
    func testClusterFlagsAndMixedCategory() throws {
        XCTAssertEqual(ClusterSummary.oneSpot, ClusterFlags.oneSpot.rawValue)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../include/pindrop.h").standardized
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains("#define PINDROP_CATEGORY_MIXED UINT32_MAX"))
        XCTAssertEqual(PinAttributes.mixed, UInt32.max)
    }
}
