/// The tree over a map's snap targets (behaviour 24): the vertices and segments of every snap
/// layer, as boxes in the normalised Web Mercator plane (x, y in [0, 1], as
/// `WebMercator.normalized`). Core defines it; PindropGEOSIndex implements it with GEOS's
/// STRtree, PindropSwiftIndex in plain Swift for pindrop.wasm. Both return every item whose box
/// meets the query box, and may return a few more near it: the ranking of the candidates is
/// Core's (`SnapTargets.nearest`), which measures each and keeps those within the tolerance, so
/// both answer every snap alike.
///
/// The tree is built once per change of the layers and never inserted into afterwards (a GEOS
/// STRtree must not be, SPEC §4): `build` replaces everything.
public protocol SnapIndex: AnyObject {
    /// Replaces the items: item i has the box (boxes[4i], boxes[4i+1]) – (boxes[4i+2], boxes[4i+3])
    /// (min x, min y, max x, max y). An empty buffer empties the tree.
    func build(boxes: UnsafeBufferPointer<Double>)
    /// Appends every item whose box meets the query box (edges included), and possibly others, to
    /// `out`, in any order.
    func query(minX: Double, minY: Double, maxX: Double, maxY: Double, into out: inout [Int32])
}
