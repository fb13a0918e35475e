import CPindrop
import Glibc
import PindropCore

// Versions, statuses, options, map lifetime. Arguments are checked and converted here; the
// behaviour lives in PindropCore.

private let versionString: UnsafePointer<CChar> =
    UnsafePointer(strdup("\(PINDROP_VERSION_MAJOR).\(PINDROP_VERSION_MINOR).\(PINDROP_VERSION_PATCH)")!)

@_cdecl("pindrop_version")
public func pindrop_version() -> UnsafePointer<CChar> { versionString }

/// The status names, in the binary (no allocation: a block allocated on first use would sit for
/// good wherever the heap had room at that moment, in the middle of a large map's freed memory).
private func statusName(_ status: Int32) -> StaticString {
    switch status {
    case PINDROP_OK.rawValue: return "PINDROP_OK"
    case PINDROP_STALE.rawValue: return "PINDROP_STALE"
    case PINDROP_ERR_INVALID_ARGUMENT.rawValue: return "PINDROP_ERR_INVALID_ARGUMENT"
    case PINDROP_ERR_NOT_FOUND.rawValue: return "PINDROP_ERR_NOT_FOUND"
    case PINDROP_ERR_DUPLICATE_ID.rawValue: return "PINDROP_ERR_DUPLICATE_ID"
    case PINDROP_ERR_PARSE.rawValue: return "PINDROP_ERR_PARSE"
    case PINDROP_ERR_STATE.rawValue: return "PINDROP_ERR_STATE"
    case PINDROP_ERR_GEOS.rawValue: return "PINDROP_ERR_GEOS"
    case PINDROP_ERR_NO_MEMORY.rawValue: return "PINDROP_ERR_NO_MEMORY"
    default: return "PINDROP_UNKNOWN_STATUS"
    }
}

@_cdecl("pindrop_status_string")
public func pindrop_status_string(_ status: pindrop_status) -> UnsafePointer<CChar> {
    cString(statusName(status.rawValue))
}

/// The smallest struct a caller may pass: struct_size and hit_radius.
private let minimumOptionsSize = MemoryLayout<pindrop_options>.offset(of: \pindrop_options.hit_radius)! + 8

/// The defaults, from the header's PINDROP_DEFAULT_* macros: what pindrop_options_init writes and
/// what a map takes for the fields a caller's struct does not have (or for options NULL).
private let headerDefaults = pindrop_options(
    struct_size: UInt32(MemoryLayout<pindrop_options>.size), hit_radius: PINDROP_DEFAULT_HIT_RADIUS,
    drag_threshold: PINDROP_DEFAULT_DRAG_THRESHOLD, lift_delay_ms: PINDROP_DEFAULT_LIFT_DELAY_MS,
    lift_height: PINDROP_DEFAULT_LIFT_HEIGHT, lift_duration_ms: PINDROP_DEFAULT_LIFT_DURATION_MS,
    drop_duration_ms: PINDROP_DEFAULT_DROP_DURATION_MS, tap_max_ms: PINDROP_DEFAULT_TAP_MAX_MS,
    double_tap_ms: PINDROP_DEFAULT_DOUBLE_TAP_MS, double_tap_slop: PINDROP_DEFAULT_DOUBLE_TAP_SLOP,
    autopan_margin: PINDROP_DEFAULT_AUTOPAN_MARGIN, autopan_speed: PINDROP_DEFAULT_AUTOPAN_SPEED,
    min_spacing_m: PINDROP_DEFAULT_MIN_SPACING_M, spread_mode: Int32(PINDROP_DEFAULT_SPREAD_MODE),
    spread_tolerance_m: PINDROP_DEFAULT_SPREAD_TOLERANCE_M, outside_policy: Int32(PINDROP_DEFAULT_OUTSIDE_POLICY),
    cluster_radius: PINDROP_DEFAULT_CLUSTER_RADIUS, cluster_max_zoom: PINDROP_DEFAULT_CLUSTER_MAX_ZOOM,
    spread_spacing: PINDROP_DEFAULT_SPREAD_SPACING, cluster_min_points: UInt32(PINDROP_DEFAULT_CLUSTER_MIN_POINTS),
    cluster_by_category: UInt32(PINDROP_DEFAULT_CLUSTER_BY_CATEGORY), spread_on_tap: UInt32(PINDROP_DEFAULT_SPREAD_ON_TAP),
    snap_tolerance: PINDROP_DEFAULT_SNAP_TOLERANCE, snap_to_pins: UInt32(PINDROP_DEFAULT_SNAP_TO_PINS))

@_cdecl("pindrop_options_init")
public func pindrop_options_init(_ options: UnsafeMutablePointer<pindrop_options>?, _ structSize: UInt32) -> pindrop_status {
    guard let options else { return failWithoutMap(PindropError(.invalidArgument, "options is NULL")) }
    guard Int(structSize) >= minimumOptionsSize else {
        return failWithoutMap(PindropError(.invalidArgument,
            "struct_size \(structSize) is too small (pass sizeof(pindrop_options), at least \(minimumOptionsSize))"))
    }
    var full = headerDefaults
    full.struct_size = structSize
    // Write only the caller's struct_size bytes: an older, smaller struct is filled as far as it goes.
    let n = min(Int(structSize), MemoryLayout<pindrop_options>.size)
    withUnsafeBytes(of: &full) { src in
        UnsafeMutableRawPointer(options).copyMemory(from: src.baseAddress!, byteCount: n)
    }
    return statusOK
}

/// The header's defaults as a caller's struct, for pindrop_map_create with options NULL.
private let defaultsPointer: UnsafePointer<pindrop_options> = {
    let p = UnsafeMutablePointer<pindrop_options>.allocate(capacity: 1)
    p.initialize(to: headerDefaults)
    return UnsafePointer(p)
}()

/// Reads a caller's options struct of options->struct_size bytes into Core's Options.
private func readOptions(_ p: UnsafePointer<pindrop_options>) throws(PindropError) -> Options {
    let size = Int(p.pointee.struct_size)
    guard size >= minimumOptionsSize else {
        throw PindropError(.invalidArgument, "options.struct_size \(size) is too small (call pindrop_options_init)")
    }
    var c = headerDefaults
    withUnsafeMutableBytes(of: &c) { dst in
        dst.baseAddress!.copyMemory(from: UnsafeRawPointer(p), byteCount: min(size, MemoryLayout<pindrop_options>.size))
    }
    var o = Options()
    o.hitRadius = c.hit_radius; o.dragThreshold = c.drag_threshold; o.liftDelayMs = c.lift_delay_ms
    o.liftHeight = c.lift_height; o.liftDurationMs = c.lift_duration_ms; o.dropDurationMs = c.drop_duration_ms
    o.tapMaxMs = c.tap_max_ms; o.doubleTapMs = c.double_tap_ms; o.doubleTapSlop = c.double_tap_slop
    o.autopanMargin = c.autopan_margin; o.autopanSpeed = c.autopan_speed; o.minSpacingM = c.min_spacing_m
    o.spreadToleranceM = c.spread_tolerance_m
    o.clusterRadius = c.cluster_radius; o.clusterMaxZoom = c.cluster_max_zoom; o.spreadSpacing = c.spread_spacing
    guard let mode = Options.SpreadMode(rawValue: c.spread_mode) else {
        throw PindropError(.invalidArgument, "options.spread_mode \(c.spread_mode) is not PINDROP_SPREAD_OFF, _RING or _SPIRAL")
    }
    guard let policy = Options.OutsidePolicy(rawValue: c.outside_policy) else {
        throw PindropError(.invalidArgument, "options.outside_policy \(c.outside_policy) is not PINDROP_OUTSIDE_REVERT or _SNAP")
    }
    o.spreadMode = mode; o.outsidePolicy = policy
    o.clusterMinPoints = c.cluster_min_points
    guard c.cluster_by_category <= 1 else {
        throw PindropError(.invalidArgument, "options.cluster_by_category \(c.cluster_by_category) is not 0 or 1")
    }
    o.clusterByCategory = c.cluster_by_category == 1
    guard c.spread_on_tap <= 1 else {
        throw PindropError(.invalidArgument, "options.spread_on_tap \(c.spread_on_tap) is not 0 or 1")
    }
    o.spreadOnTap = c.spread_on_tap == 1
    o.snapTolerance = c.snap_tolerance
    guard c.snap_to_pins <= 1 else {
        throw PindropError(.invalidArgument, "options.snap_to_pins \(c.snap_to_pins) is not 0 or 1")
    }
    o.snapToPins = c.snap_to_pins == 1
    return o
}

@_cdecl("pindrop_map_create")
public func pindrop_map_create(_ options: UnsafePointer<pindrop_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> pindrop_status {
    guard let out else { return failWithoutMap(PindropError(.invalidArgument, "out is NULL")) }
    out.pointee = nil
    do throws(PindropError) {
        let o = try readOptions(options ?? defaultsPointer)
        ThreadError.prepare()
        try needMemory(mapCreateBytes, "a new map")
        let map = try Map(options: o, factory: makeIndexFactory())
        out.pointee = OpaquePointer(Unmanaged.passRetained(Handle(map: map)).toOpaque())
        return statusOK
    } catch {
        return failWithoutMap(error)
    }
}

@_cdecl("pindrop_map_destroy")
public func pindrop_map_destroy(_ map: OpaquePointer?) {
    guard let map else { return }
    Unmanaged<Handle>.fromOpaque(UnsafeRawPointer(map)).release()
}

@_cdecl("pindrop_map_last_error")
public func pindrop_map_last_error(_ map: OpaquePointer?) -> UnsafePointer<CChar> {
    handle(map)?.lastError ?? nullMapMessage
}
