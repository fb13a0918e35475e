import CPindrop
import PindropCore

// The view, pins, queries and the frame.

@_cdecl("pindrop_map_set_camera")
public func pindrop_map_set_camera(_ map: OpaquePointer?, _ camera: UnsafePointer<pindrop_camera>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let c = try required(camera, "camera").pointee
        try m.setCamera(Camera(centerLon: c.center_lon, centerLat: c.center_lat, zoom: c.zoom,
                               bearingDeg: c.bearing_deg, width: c.width, height: c.height))
    }
}

@_cdecl("pindrop_map_set_projection")
public func pindrop_map_set_projection(_ map: OpaquePointer?, _ project: pindrop_project_fn?,
                                       _ unproject: pindrop_unproject_fn?, _ user: UnsafeMutableRawPointer?,
                                       _ width: Double, _ height: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let project = try required(project, "project")
        let unproject = try required(unproject, "unproject")
        try m.setProjection(HostProjection(
            width: width, height: height,
            project: { lon, lat in
                var x = Double.nan, y = Double.nan
                return project(user, lon, lat, &x, &y) == 0 ? (x, y) : nil
            },
            unproject: { x, y in
                var lon = Double.nan, lat = Double.nan
                return unproject(user, x, y, &lon, &lat) == 0 ? (lon, lat) : nil
            }))
    }
}

@_cdecl("pindrop_map_to_screen")
public func pindrop_map_to_screen(_ map: OpaquePointer?, _ lon: Double, _ lat: Double,
                                  _ x: UnsafeMutablePointer<Double>?, _ y: UnsafeMutablePointer<Double>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let px = try required(x, "x"), py = try required(y, "y")
        let p = try m.toScreen(lon: lon, lat: lat)
        px.pointee = p.x; py.pointee = p.y
    }
}

@_cdecl("pindrop_map_to_lonlat")
public func pindrop_map_to_lonlat(_ map: OpaquePointer?, _ x: Double, _ y: Double,
                                  _ lon: UnsafeMutablePointer<Double>?, _ lat: UnsafeMutablePointer<Double>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let plon = try required(lon, "lon"), plat = try required(lat, "lat")
        let p = try m.toLonLat(x: x, y: y)
        plon.pointee = p.lon; plat.pointee = p.lat
    }
}

@_cdecl("pindrop_map_add")
public func pindrop_map_add(_ map: OpaquePointer?, _ id: Int64, _ lon: Double, _ lat: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.add(id: id, lon: lon, lat: lat) }
}

@_cdecl("pindrop_map_add_many")
public func pindrop_map_add_many(_ map: OpaquePointer?, _ ids: UnsafePointer<Int64>?,
                                 _ lonlat: UnsafePointer<Double>?, _ n: Int) -> pindrop_status {
    call(map) { m throws(PindropError) in
        guard try checkedCount(n, stride: 16, "n") > 0 else { return }
        let ids = try required(ids, "ids"), lonlat = try required(lonlat, "lonlat")
        try needMemory(bytes(m.count + n, times: addManyBytesPerPin, plus: 1 << 20), "adding \(n) pins to a map of \(m.count)")
        try m.addMany(ids: UnsafeBufferPointer(start: ids, count: n),
                      lonlat: UnsafeBufferPointer(start: lonlat, count: 2 * n))
    }
}

@_cdecl("pindrop_map_remove")
public func pindrop_map_remove(_ map: OpaquePointer?, _ id: Int64) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.remove(id: id) }
}

@_cdecl("pindrop_map_set_position")
public func pindrop_map_set_position(_ map: OpaquePointer?, _ id: Int64, _ lon: Double, _ lat: Double) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.setPosition(id: id, lon: lon, lat: lat) }
}

@_cdecl("pindrop_map_position")
public func pindrop_map_position(_ map: OpaquePointer?, _ id: Int64,
                                 _ lon: UnsafeMutablePointer<Double>?, _ lat: UnsafeMutablePointer<Double>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let plon = try required(lon, "lon"), plat = try required(lat, "lat")
        let p = try m.position(id: id)
        plon.pointee = p.lon; plat.pointee = p.lat
    }
}

@_cdecl("pindrop_map_display_position")
public func pindrop_map_display_position(_ map: OpaquePointer?, _ id: Int64,
                                         _ lon: UnsafeMutablePointer<Double>?, _ lat: UnsafeMutablePointer<Double>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let plon = try required(lon, "lon"), plat = try required(lat, "lat")
        let p = try m.displayPosition(id: id)
        plon.pointee = p.lon; plat.pointee = p.lat
    }
}

@_cdecl("pindrop_map_set_draggable")
public func pindrop_map_set_draggable(_ map: OpaquePointer?, _ id: Int64, _ draggable: Int32) -> pindrop_status {
    call(map) { m throws(PindropError) in try m.setDraggable(id: id, draggable != 0) }
}

@_cdecl("pindrop_map_count")
public func pindrop_map_count(_ map: OpaquePointer?) -> Int {
    handle(map)?.map.count ?? 0
}

@_cdecl("pindrop_map_hit_test")
public func pindrop_map_hit_test(_ map: OpaquePointer?, _ x: Double, _ y: Double, _ outID: UnsafeMutablePointer<Int64>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        let out = try required(outID, "out_id")
        guard let id = try m.hitTest(x: x, y: y) else {
            // A constant message: a miss is an ordinary answer and must stay cheap.
            throw PindropError(.notFound, "no pin within hit_radius of the point")
        }
        out.pointee = id
    }
}

@_cdecl("pindrop_map_hit_test_many")
public func pindrop_map_hit_test_many(_ map: OpaquePointer?, _ xy: UnsafePointer<Double>?, _ n: Int,
                                      _ outIDs: UnsafeMutablePointer<Int64>?) -> pindrop_status {
    call(map) { m throws(PindropError) in
        guard try checkedCount(n, stride: 16, "n") > 0 else { return }
        let xy = try required(xy, "xy"), out = try required(outIDs, "out_ids")
        try m.hitTestMany(xy: UnsafeBufferPointer(start: xy, count: 2 * n),
                          out: UnsafeMutableBufferPointer(start: out, count: n))
    }
}

@_cdecl("pindrop_map_nearby")
public func pindrop_map_nearby(_ map: OpaquePointer?, _ lon: Double, _ lat: Double, _ radius: Double,
                               _ outIDs: UnsafeMutablePointer<Int64>?, _ outDistance: UnsafeMutablePointer<Double>?,
                               _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedCount(capacity, stride: MemoryLayout<Double>.stride, "capacity")
        let total = try m.nearby(lon: lon, lat: lat, radius: radius)
        let hits = m.nearbyResults
        for i in 0..<min(capacity, total) {
            outIDs?[i] = hits[i].id
            outDistance?[i] = hits[i].distance
        }
        return total
    }
}

@_cdecl("pindrop_map_frame")
public func pindrop_map_frame(_ map: OpaquePointer?, _ time: Double, _ out: UnsafeMutablePointer<pindrop_pin_view>?,
                              _ capacity: Int) -> Int {
    countCall(map) { m throws(PindropError) in
        let capacity = try checkedBuffer(out, capacity, "out")
        let total = try m.frame(time: time)
        let views = m.frameViews
        for i in 0..<min(capacity, total) {
            let v = views[i]
            out![i] = pindrop_pin_view(id: v.id, x: v.x, y: v.y, anchor_x: v.anchorX, anchor_y: v.anchorY,
                                       lift: v.lift, flags: v.flags.rawValue)
        }
        return total
    }
}

@_cdecl("pindrop_map_poll_event")
public func pindrop_map_poll_event(_ map: OpaquePointer?, _ out: UnsafeMutablePointer<pindrop_event>?) -> Int32 {
    guard let h = handle(map), let out, let e = h.map.pollEvent() else { return 0 }
    out.pointee = flatten(e)
    return 1
}

/// A Core event as the header's `pindrop_event`: the fields its kind does not use stay 0
/// (`id` and `other`: PINDROP_NO_ID; `cause`: PINDROP_CAUSE_NONE).
func flatten(_ t: TimedEvent) -> pindrop_event {
    var out = pindrop_event(type: t.event.kind.rawValue, cause: Event.Cause.none.rawValue, id: noID, other: noID,
                            lon: 0, lat: 0, from_lon: 0, from_lat: 0, dx: 0, dy: 0, distance_m: 0,
                            time_ms: t.time, request: 0)
    func put(_ p: LonLat) { out.lon = p.lon; out.lat = p.lat }
    switch t.event {
    case .selected(let id), .deselected(let id):
        out.id = id
    case .lifted(let id, let p), .dragged(let id, let p), .dropped(let id, let p), .dragCancelled(let id, let p),
         .calloutChanged(let id, let p):
        out.id = id; put(p)
    case .moved(let id, let from, let to, let cause):
        out.id = id; put(to); out.from_lon = from.lon; out.from_lat = from.lat; out.cause = cause.rawValue
    case .geocodeRequest(let id, let p, let request):
        out.id = id; put(p); out.request = request
    case .nearby(let id, let other, let p, let distance):
        out.id = id; out.other = other; put(p); out.distance_m = distance
    case .autopan(let id, let dx, let dy):
        out.id = id; out.dx = dx; out.dy = dy
    case .clusterTapped(let key, let p):
        put(p); out.request = key
    case .stackOpened(let key, let p), .stackClosed(let key, let p):
        put(p); out.request = key
    }
    return out
}
