// Compiled (not run) by leaflet.test.js: leaflet.d.ts describes the layer as its README uses it.
import { pindropLayer, withLeaflet, PindropLayer } from "../leaflet.js";

export async function use(leafletMap: unknown): Promise<number> {
  const layer: PindropLayer = pindropLayer({ clusterRadius: 60, input: "auto", itemName: "tree", clusterClick: "fit" }).addTo(leafletMap);
  layer.on("pinmoved", (e) => console.log(e.id, e.lon, e.lat, e.distanceM, e.cause, e.feature?.properties));
  layer.on("clusterclick", (e) => { if (e.count !== null && e.count > 1000) e.preventDefault(); });
  layer.on("progress", (e) => console.log(e.loaded / e.total));
  const n: number = await layer.addGeoJSON({ type: "FeatureCollection", features: [] }, { id: "tree_id", category: (f) => String(f.properties?.species) });
  const back = layer.toGeoJSON();
  const Layer = withLeaflet({});
  new Layer({ style: { cluster: (ctx, item, paint) => { paint(); } } });
  // @ts-expect-error an event the layer does not fire
  layer.on("pinmovedd", () => {});
  // @ts-expect-error input is "auto", "mouse" or "touch"
  pindropLayer({ input: "pen" });
  return n + back.features.length + (layer.map ? layer.map.count : 0);
}
