// Type declarations of "pindrop/maplibre" (src/maplibre.js): pindrop as a MapLibre GL JS 5.x
// custom layer. MapLibre's own types are not needed: the map is `unknown` here. The GeoJSON,
// style and event types are the web host core's, declared with the Leaflet layer's.
import type { Id, Key, MapOptions, PinMap } from "./index.js";
import type { FeatureCollection, GeoJSONOptions, LayerEvents, PointFeature, Style } from "./leaflet.js";

export type { FeatureCollection, GeoJSONOptions, LayerEvents, PointFeature, Style };

export interface PindropLayerOptions extends MapOptions {
  /** The MapLibre layer id (default "pindrop"). */
  id?: string;
  /** The first input profile: "auto" (default: the device's primary pointer), "mouse" or "touch". */
  input?: "auto" | "mouse" | "touch";
  inputSwitch?: boolean;
  style?: Style | null;
  clusterColour?: "category" | "size" | ((cluster: { key: Key; count: number; flags: number }) => [string, string] | null);
  clusterClick?: "fit" | "zoom" | "none" | ((cluster: { key: Key; lon: number; lat: number; count: number | null }) => void);
  title?: (id: Id, feature: PointFeature | undefined) => string;
  itemName?: string;
  itemsName?: string;
  announce?: boolean;
  keyboard?: boolean;
  fitPadding?: number;
  chunkMs?: number;
  wasm?: string | { href: string } | ArrayBuffer | ArrayBufferView;
}

/** Why the layer draws nothing now: the view is pitched, on the globe or on terrain. */
export interface Refusal { reason: "pitch" | "globe" | "terrain"; message: string; }

export interface MapLibreLayerEvents extends LayerEvents {
  suspended: Refusal;
  resumed: Record<string, never>;
  error: { error: unknown };
}

export declare class PindropLayer {
  constructor(options?: PindropLayerOptions);
  readonly id: string;
  readonly type: "custom";
  readonly renderingMode: "2d";
  /** The pindrop map, null until `ready`. */
  readonly map: PinMap | null;
  /** Resolves to the layer once it is on a map with its pindrop map built. */
  readonly ready: Promise<PindropLayer>;
  /** The MapLibre map the layer is on, or null. */
  readonly maplibre: unknown;
  readonly suspended: Refusal | null;
  onAdd(map: unknown, gl?: unknown): void;
  onRemove(map: unknown, gl?: unknown): void;
  render(gl?: unknown, options?: unknown): void;
  on<K extends keyof MapLibreLayerEvents>(type: K, fn: (e: MapLibreLayerEvents[K] & { type: K; target: PindropLayer }) => void): this;
  off<K extends keyof MapLibreLayerEvents>(type: K, fn: (e: MapLibreLayerEvents[K] & { type: K; target: PindropLayer }) => void): this;
  once<K extends keyof MapLibreLayerEvents>(type: K, fn: (e: MapLibreLayerEvents[K] & { type: K; target: PindropLayer }) => void): this;
  addGeoJSON(geojson: FeatureCollection | PointFeature[] | PointFeature, options?: GeoJSONOptions): Promise<number>;
  toGeoJSON(): FeatureCollection;
  addPins(ids: ArrayLike<Id>, lonlat: Float64Array, options?: { values?: Float64Array | null; categories?: Uint32Array | null }): Promise<number>;
  setCategoryNames(names: (string | number | null)[]): Promise<void>;
  describeCluster(cluster: { key: Key; size: number; flags: number }): string;
  addPin(id: Id, lon: number, lat: number, options?: { value?: number; category?: string | number | null; feature?: PointFeature | null }): void;
  removePin(id: Id): void;
  legend(): { category: number; name: string | number | null; colour: string; count: number }[];
  select(id: Id | null): this;
  undo(): boolean;
  redo(): boolean;
  place(id: Id, lon: number, lat: number): boolean;
  edit(id: Id): boolean;
  commit(): boolean;
  cancelEdit(): void;
  fitCluster(key: Key): number | null;
  announce(text: string): this;
  redraw(): this;
  now(): number;
  attempt(f: (timeMs: number) => unknown, failText?: string): boolean;
}

/** A new layer: map.addLayer(pindropLayer(options)). */
export declare function pindropLayer(options?: PindropLayerOptions): PindropLayer;
/** Why pindrop cannot draw this MapLibre view (pitched, globe, terrain), or null. */
export declare function refusal(map: unknown): Refusal | null;
