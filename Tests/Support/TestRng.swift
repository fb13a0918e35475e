/// A small deterministic generator for the tests' random sequences (a 64-bit LCG, upper bits).
public struct TestRng {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 11
    }
    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() % (1 << 40)) / Double(1 << 40) }
    /// Uniform in 0 ..< n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
