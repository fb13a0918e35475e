import CPindrop
import PindropCore

// Several pins at once (behaviour 23, since 0.4.0): the modifiers the host's user holds.
// Checked and converted here; the behaviour lives in PindropCore (MapSelection.swift).

@_cdecl("pindrop_map_set_modifiers")
public func pindrop_map_set_modifiers(_ map: OpaquePointer?, _ modifiers: UInt32) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.setModifiers(modifiers) }
}
