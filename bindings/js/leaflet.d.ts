// Type declarations of "pindrop/leaflet" (src/leaflet.js). Leaflet's own types are not needed:
// the layer is declared with the members a program uses; `L` is whatever Leaflet namespace the
// page has.
import type { Id, Key, MapOptions, PinMap, PindropEvent, Cause } from "./index.js";

/** A GeoJSON Feature as the layer reads it: a Point with any properties. */
export interface PointFeature {
  type: "Feature";
  id?: string | number;
  properties: { [name: string]: unknown } | null;
  geometry: { type: "Point"; coordinates: number[] };
}
export interface FeatureCollection { type: "FeatureCollection"; features: PointFeature[]; }

/** A pin's id, value or category: a property's name, or a function of the feature. */
export type FeatureReader<T> = string | ((feature: PointFeature, index: number) => T);
export interface GeoJSONOptions {
  id?: FeatureReader<string | number | bigint>;
  value?: FeatureReader<number | null>;
  category?: FeatureReader<string | number | null>;
}

export interface StyleItem { x: number; y: number; [field: string]: unknown; }
export type StyleHook = (ctx: unknown, item: StyleItem, paintDefault: () => void) => void;
export interface Style { cluster?: StyleHook; stack?: StyleHook; pin?: StyleHook; leg?: StyleHook; lifted?: StyleHook; focus?: StyleHook; }

export interface PindropLayerOptions extends MapOptions {
  /** The first input profile: "auto" (default: the device's primary pointer), "mouse" or "touch". */
  input?: "auto" | "mouse" | "touch";
  /** A press of the other kind of pointer switches the profile (default true). */
  inputSwitch?: boolean;
  style?: Style | null;
  clusterColour?: "category" | "size" | ((cluster: { key: Key; count: number; flags: number }) => [string, string] | null);
  /** What a click on a cluster does after the clusterclick event: "fit" (default), "zoom", "none" or your function. */
  clusterClick?: "fit" | "zoom" | "none" | ((cluster: { key: Key; lon: number; lat: number; count: number | null }) => void);
  title?: (id: Id, feature: PointFeature | undefined) => string;
  itemName?: string;
  itemsName?: string;
  announce?: boolean;
  keyboard?: boolean;
  fitPadding?: number;
  chunkMs?: number;
  wasm?: string | { href: string } | ArrayBuffer | ArrayBufferView;
  pane?: string;
}

export interface PinEvent { id: Id; lon: number; lat: number; feature?: PointFeature; pindrop: PindropEvent; }
export interface PinMovedEvent extends PinEvent { fromLon: number; fromLat: number; cause: Cause; distanceM: number; }
export interface LayerEvents {
  pinselected: PinEvent; pindeselected: PinEvent; pindragstart: PinEvent; pindrag: PinEvent;
  pindragend: PinEvent & { cancelled: boolean }; pinmoved: PinMovedEvent;
  geocoderequest: PinEvent & { request: number | bigint; answer(text: string): boolean };
  calloutchange: PinEvent; nearby: PinEvent & { other: Id; distanceM: number; otherFeature?: PointFeature };
  autopan: { dx: number; dy: number; pindrop: PindropEvent };
  clusterclick: { key: Key; lon: number; lat: number; count: number | null; preventDefault(): void; pindrop: PindropEvent | null };
  stackopened: { key: Key; count: number | null; pindrop: PindropEvent }; stackclosed: { key: Key; pindrop: PindropEvent };
  progress: { phase: "read" | "add"; loaded: number; total: number }; load: { count: number };
  announce: { text: string }; draw: { ctx: unknown; time: number };
  hover: { x: number; y: number; cluster: { key: Key; x: number; y: number; size: number; flags: number } | null; text: string | null };
  mapchange: { map: PinMap; profile: "mouse" | "touch" }; ready: { map: PinMap }; pindropevent: { pindrop: PindropEvent };
}

export declare class PindropLayer {
  constructor(options?: PindropLayerOptions);
  /** The pindrop map, null until `ready`. */
  readonly map: PinMap | null;
  readonly ready: Promise<PindropLayer>;
  addTo(map: unknown): this;
  remove(): this;
  on<K extends keyof LayerEvents>(type: K, fn: (e: LayerEvents[K]) => void, context?: unknown): this;
  off<K extends keyof LayerEvents>(type: K, fn?: (e: LayerEvents[K]) => void, context?: unknown): this;
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
}
/** A new layer on the page's Leaflet (the global L) or the one given. */
export declare function pindropLayer(options?: PindropLayerOptions, leaflet?: unknown): PindropLayer;
/** The layer class for a Leaflet namespace (a bundler's `import L from "leaflet"`). */
export declare function withLeaflet(leaflet: unknown): typeof PindropLayer;
