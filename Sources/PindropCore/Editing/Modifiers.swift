/// The keys the host's user holds (`pindrop_map_set_modifiers`, PINDROP_MOD_*): they apply from
/// the next call on, until the host sets them again.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A tap adds an unselected pin to the selection or removes a selected one (behaviour 23;
    /// Shift or Ctrl in desktop GIS).
    public static let add = Modifiers(rawValue: 1)
    /// Snapping is off while held (behaviour 24).
    public static let noSnap = Modifiers(rawValue: 2)

    /// Every bit the map knows.
    public static let all: Modifiers = [.add, .noSnap]

    /// The modifiers of a host's bits; bits the map does not know are INVALID_ARGUMENT.
    public static func checked(_ bits: UInt32) throws(PindropError) -> Modifiers {
        let m = Modifiers(rawValue: bits)
        guard all.isSuperset(of: m) else {
            throw .invalid("modifiers \(bits) has bits other than PINDROP_MOD_ADD (1) and PINDROP_MOD_NO_SNAP (2):"
                           + " \(bits & ~all.rawValue) is not a modifier")
        }
        return m
    }
}
