import Glibc
import XCTest
@testable import PindropCore

/// DecimalText against its oracle, glibc's own printf("%.*f"), over values chosen to break a
/// rounding shortcut: ties (odd multiples of 1/64 and finer dyadic fractions), the doubles on either
/// side of every 5-decimal tie near the coordinates maps use, negative zero, tiny and huge values.
final class DecimalTextTests: XCTestCase {
    private func printf(_ v: Double, _ places: Int) -> String {
        var buf = [CChar](repeating: 0, count: 400)
        let n = withVaList([Int32(places), v]) { vsnprintf(&buf, buf.count, "%.*f", $0) }
        precondition(n > 0 && Int(n) < buf.count)
        return String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func check(_ values: [Double], places: [Int] = [5], file: StaticString = #filePath, line: UInt = #line) {
        var failures = 0
        for v in values {
            for p in places where DecimalText.fixed(v, places: p) != printf(v, p) {
                failures += 1
                if failures <= 10 {
                    XCTFail("\(v.bitPattern) (\(v)) at \(p) places: \(DecimalText.fixed(v, places: p)) != printf's \(printf(v, p))",
                            file: file, line: line)
                }
            }
        }
        XCTAssertEqual(failures, 0, "mismatches out of \(values.count) values", file: file, line: line)
    }

    func testKnownTexts() {
        XCTAssertEqual(DecimalText.fixed(0.015625, places: 5), "0.01562")    // 1/64: a tie, to even
        XCTAssertEqual(DecimalText.fixed(0.046875, places: 5), "0.04688")    // 3/64: a tie, to even
        XCTAssertEqual(DecimalText.fixed(-0.0, places: 5), "-0.00000")
        XCTAssertEqual(DecimalText.fixed(-0.000004, places: 5), "-0.00000")
        XCTAssertEqual(DecimalText.fixed(-179.999996, places: 5), "-180.00000")
        XCTAssertEqual(DecimalText.fixed(33.8870931, places: 5), "33.88709")
        XCTAssertEqual(DecimalText.fixed(2.5, places: 0), "2")
        XCTAssertEqual(DecimalText.fixed(0x1p63, places: 2), "9223372036854775808.00")
        XCTAssertEqual(DecimalText.fixed(.nan, places: 5), "nan")
        XCTAssertEqual(DecimalText.fixed(-.infinity, places: 5), "-inf")
    }

    func testTiesAtEveryDyadicStepAgreeWithPrintf() {
        // Every multiple of 2^-6 in [-200, 200]: the odd ones are ties at 5 decimals (and the
        // halves ties at 0). Multiples of 2^-k for k = 7...12 on a narrower range, at 0...6 places.
        var wide: [Double] = []
        var x = -200.0
        while x <= 200 { wide.append(x); x += 0x1p-6 }
        check(wide, places: [0, 5])
        var narrow: [Double] = []
        for k in 7...12 {
            let step = Double(sign: .plus, exponent: -k, significand: 1)
            var x = -2.0
            while x <= 2 { narrow.append(x); x += step }
        }
        check(narrow, places: [0, 1, 2, 3, 4, 5, 6])
    }

    func testNeighboursOfDecimalTiesAgreeWithPrintf() {
        // The doubles nearest to each k·1e-5 + 0.5e-5 and the two on either side, over lat/lon ranges.
        var values: [Double] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let k = Int.random(in: -18_000_000...18_000_000, using: &generator)
            let tie = (Double(k) + 0.5) / 100_000
            values += [tie, tie.nextUp, tie.nextDown, tie.nextUp.nextUp, tie.nextDown.nextDown]
        }
        check(values)
    }

    func testRandomCoordinatesAndBitPatternsAgreeWithPrintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, 1e-300, 4.9999999e-6,
                                5e-6, -5e-6, 0.5, 1.5, 99999.999995, 0x1p52 + 0.5, 0x1p53, 0x1p63.nextDown,
                                0x1p63, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for _ in 0..<30_000 { values.append(Double.random(in: -180...180, using: &generator)) }
        for _ in 0..<20_000 {
            let v = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
            if v.isFinite { values.append(v) }
        }
        check(values, places: [5])
        check(Array(values.prefix(10_000)), places: [0, 3, 9])
    }
}
