#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tokens of WKT and GeoJSON text, shared by every reader of geometry text: allowed areas
/// (PindropSwiftIndex's AreaText) and snap layers (SnapText). Builds in Embedded Swift (no
/// Foundation): numbers are read with C's strtod, as GEOS's readers do.
public enum GeoText {
    /// Why a text could not be read; `message` names what and where.
    public struct Failure: Error {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// A JSON value (numbers as Double, as GEOS's reader takes coordinates).
    public indirect enum JSON {
        case object([(String, JSON)]), array([JSON]), string(String), number(Double), bool(Bool), null

        public subscript(key: String) -> JSON? {
            guard case .object(let members) = self else { return nil }
            for (k, v) in members where k == key { return v }
            return nil
        }
    }

    /// GEOS's LinearRing rules for a ring of interleaved lon, lat: 0 or at least 4 points, the
    /// last repeating the first.
    public static func checkRing(_ ring: [Double]) throws(Failure) {
        let n = ring.count / 2
        if n == 0 { return }
        guard n >= 4 else { throw Failure("Invalid number of points in LinearRing found \(n) - must be 0 or >= 4") }
        guard ring[0] == ring[2 * n - 2], ring[1] == ring[2 * n - 1] else {
            throw Failure("Points of LinearRing do not form a closed linestring")
        }
    }

    /// A cursor over the text's bytes: whitespace, punctuation, words, numbers, JSON values.
    public struct Scanner {
        public let bytes: [UInt8]
        public var i = 0

        public init(bytes: [UInt8]) { self.bytes = bytes }

        public mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || (bytes[i] >= 9 && bytes[i] <= 13) { i += 1 }
        }

        public mutating func peek() -> UInt8? { skipSpace(); return i < bytes.count ? bytes[i] : nil }

        public mutating func expect(_ c: Character) throws(Failure) {
            guard peek() == c.asciiValue else {
                throw Failure("expected '\(c)' at position \(i)\(i < bytes.count ? "" : " (end of text)")")
            }
            i += 1
        }

        public mutating func word() -> String {
            skipSpace()
            let start = i
            while i < bytes.count, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self).uppercased()
        }

        /// A number as C's strtod reads it (correctly rounded).
        public mutating func number() throws(Failure) -> Double {
            skipSpace()
            let start = i
            while i < bytes.count {
                let c = bytes[i]
                if (c >= 48 && c <= 57) || c == 43 || c == 45 || c == 46 || c == 69 || c == 101 { i += 1 } else { break }
            }
            guard i > start else { throw Failure("expected a number at position \(start)") }
            // Followed by a delimiter strtod stops at: read in place (no copy per number).
            if i < bytes.count, bytes[i] == 32 || bytes[i] == 44 || bytes[i] == 41 || bytes[i] == 93 || bytes[i] == 125 {
                let length = i - start
                let value = bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) -> Double in
                    let p = UnsafeRawPointer(b.baseAddress! + start).assumingMemoryBound(to: CChar.self)
                    var end: UnsafeMutablePointer<CChar>? = nil
                    let v = strtod(p, &end)
                    let used = end.map { UnsafePointer($0) - p } ?? -1
                    return used == length ? v : Double.nan
                }
                guard !value.isNaN else {
                    throw Failure("bad number \"\(String(decoding: bytes[start..<i], as: UTF8.self))\"")
                }
                return value
            }
            var text = Array(bytes[start..<i]); text.append(0)
            let length = text.count - 1
            let value = text.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) -> Double in
                let p = UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self)
                var end: UnsafeMutablePointer<CChar>? = nil
                let v = strtod(p, &end)
                let used = end.map { UnsafePointer($0) - p } ?? -1
                return used == length ? v : Double.nan
            }
            guard !value.isNaN else {
                throw Failure("bad number \"\(String(decoding: bytes[start..<i], as: UTF8.self))\"")
            }
            return value
        }

        public mutating func wordAhead() -> String {
            let save = i
            let w = word()
            i = save
            return w
        }

        /// A WKT geometry's head: its type word, the coordinates' dimensions (2, or 3 and 4 after
        /// Z, M or ZM) and whether it is EMPTY (the word then read too).
        public mutating func wktHead() -> (type: String, dims: Int, empty: Bool) {
            let type = word()
            var dims = 2
            var w = wordAhead()
            if w == "Z" || w == "M" { _ = word(); dims = 3; w = wordAhead() }
            else if w == "ZM" { _ = word(); dims = 4; w = wordAhead() }
            let empty = w == "EMPTY"
            if empty { _ = word() }
            return (type, dims, empty)
        }

        public mutating func comma() throws(Failure) -> Bool {
            if peek() == UInt8(ascii: ",") { i += 1; return true }
            return false
        }

        /// Skips a balanced parenthesised group (the coordinates of a type the area refuses).
        public mutating func skipGroup() throws(Failure) {
            try expect("(")
            var depth = 1
            while i < bytes.count && depth > 0 {
                if bytes[i] == UInt8(ascii: "(") { depth += 1 } else if bytes[i] == UInt8(ascii: ")") { depth -= 1 }
                i += 1
            }
            guard depth == 0 else { throw Failure("unbalanced parentheses") }
        }

        public mutating func json() throws(Failure) -> JSON {
            guard let c = peek() else { throw Failure("unexpected end of text") }
            switch c {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, JSON)] = []
                if peek() == UInt8(ascii: "}") { i += 1; return .object(members) }
                repeat {
                    guard peek() == UInt8(ascii: "\"") else { throw Failure("expected a key at position \(i)") }
                    let k = try string()
                    try expect(":")
                    members.append((k, try json()))
                } while try comma()
                try expect("}")
                return .object(members)
            case UInt8(ascii: "["):
                i += 1
                var items: [JSON] = []
                if peek() == UInt8(ascii: "]") { i += 1; return .array(items) }
                repeat { items.append(try json()) } while try comma()
                try expect("]")
                return .array(items)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let w = word()
                switch w {
                case "TRUE": return .bool(true)
                case "FALSE": return .bool(false)
                case "NULL": return .null
                default: throw Failure("unexpected \"\(w.lowercased())\"")
                }
            default:
                return .number(try number())
            }
        }

        public mutating func string() throws(Failure) -> String {
            i += 1  // the opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if c == UInt8(ascii: "\\") {
                    guard i < bytes.count else { break }
                    let e = bytes[i]; i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "u"):
                        // Keys and types are ASCII; an escaped character elsewhere is kept as '?'.
                        i = min(bytes.count, i + 4); out.append(UInt8(ascii: "?"))
                    default: out.append(e)
                    }
                } else {
                    out.append(c)
                }
            }
            throw Failure("unterminated string")
        }
    }
}
