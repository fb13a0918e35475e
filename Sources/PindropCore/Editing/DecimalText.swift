/// Fixed-point text of a Double, character for character what C's `printf("%.*f", places, v)`
/// writes with glibc: the exact binary value rounded to `places` decimals, a tie (only a dyadic
/// value such as 1/64 can be one) going to the even digit, a minus sign on every negative value
/// including -0 and values that round to zero, "nan" / "inf" for the others. Pure Swift, so the
/// library needs no Foundation (String(format:) pulled in Foundation and its ICU data).
enum DecimalText {
    static func fixed(_ v: Double, places: Int) -> String {
        precondition((0...9).contains(places), "places must be in 0...9")
        if v.isNaN { return v.sign == .minus ? "-nan" : "nan" }
        let sign = v.sign == .minus ? "-" : ""
        if v.isInfinite { return sign + "inf" }
        let a = v.magnitude
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }

        var integerText: String
        var fraction: UInt64 = 0  // the rounded decimals as an integer in [0, scale)
        if a >= 0x1p63 {
            integerText = digits(ofIntegral: a)  // a double this large has no fraction
        } else {
            var integer = UInt64(a)              // floor(a), exact
            let f = a - Double(integer)          // the fraction bits of a: exact
            // f = m / 2^k with m < 2^53. Below 2^-68, f·10^9 < 1/2 rounds to 0 without a tie.
            if f != 0 && f.exponent >= -68 {
                let k = 52 - Int(f.exponent)     // 53...120
                let m = UInt128(f * Double(sign: .plus, exponent: k, significand: 1))
                let product = m * UInt128(scale)  // < 2^83
                var q = UInt64(product >> k)
                let rest = product & ((UInt128(1) << k) - 1)
                let half = UInt128(1) << (k - 1)
                let lastDigit = places > 0 ? q : integer  // a tie goes to the even last digit
                if rest > half || (rest == half && lastDigit & 1 == 1) { q += 1 }
                if q == scale { q = 0; integer += 1 }
                fraction = q
            }
            integerText = String(integer)
        }
        guard places > 0 else { return sign + integerText }
        let decimals = String(fraction)
        return sign + integerText + "." + String(repeating: "0", count: places - decimals.count) + decimals
    }

    /// The exact decimal digits of an integral double >= 2^63 (= significand · 2^e, e >= 11),
    /// by doubling a base-10^9 number.
    private static func digits(ofIntegral a: Double) -> String {
        let e = Int(a.exponent) - 52
        let significand = UInt64(a.significandBitPattern) | (1 << 52)
        var limbs: [UInt64] = [significand % 1_000_000_000, significand / 1_000_000_000 % 1_000_000_000,
                               significand / 1_000_000_000_000_000_000]  // little-endian, base 10^9
        for _ in 0..<e {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let x = limbs[i] * 2 + carry
                limbs[i] = x % 1_000_000_000
                carry = x / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        var text = String(limbs.last!)
        for limb in limbs.dropLast().reversed() {
            let d = String(limb)
            text += String(repeating: "0", count: 9 - d.count) + d
        }
        return text
    }
}
