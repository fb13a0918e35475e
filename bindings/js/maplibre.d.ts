// Types of pindrop/maplibre (src/maplibre.js): pindrop as a MapLibre GL JS 5.x custom layer.
// The MapLibre map is typed loosely (no dependency on maplibre-gl's types).

import type { PinMap } from "./index.js";

/** Options: pindrop map options (MapOptions) and the web host's own. */
export interface PindropLayerOptions {
  /** the MapLibre layer id (default "pindrop") */
  id?: string;
  input?: "auto" | "mouse" | "touch";
  style?: Record<string, unknown> | null;
  clusterColour?: "category" | "size" | ((cluster: { key: bigint; count: number; flags: number; map: PinMap }) => [string, string] | null);
  clusterClick?: "fit" | "zoom" | "none" | ((e: { key: bigint; lon: number; lat: number; count: number | null }) => void);
  title?: ((id: number | bigint, feature: GeoJSONFeature | undefined) => string) | null;
  itemName?: string;
  itemsName?: string | null;
  announce?: boolean;
  keyboard?: boolean;
  fitPadding?: number;
  chunkMs?: number;
  wasm?: unknown;
  [pindropMapOption: string]: unknown;
}

export interface GeoJSONFeature {
  type: "Feature";
  id?: string | number;
  geometry: { type: string; coordinates: unknown };
  properties: { [name: string]: unknown } | null;
}
export interface GeoJSONFeatureCollection { type: "FeatureCollection"; features: GeoJSONFeature[] }

/** A layer event: what happened, with `type` and `target` (the layer). */
export interface PindropLayerEvent {
  type: string;
  target: PindropLayer;
  id?: number | bigint;
  lon?: number;
  lat?: number;
  feature?: GeoJSONFeature;
  [field: string]: unknown;
}

export class PindropLayer {
  constructor(options?: PindropLayerOptions);
  readonly id: string;
  readonly type: "custom";
  readonly renderingMode: "2d";
  /** the pindrop map, once the layer is on a MapLibre map */
  readonly map: PinMap | null;
  /** the MapLibre map the layer is on, or null */
  readonly maplibre: unknown;
  /** why the layer draws nothing now (a pitched map, the globe, terrain), or null */
  readonly suspended: { reason: "pitch" | "globe" | "terrain"; message: string } | null;
  readonly ready: Promise<PindropLayer>;
  onAdd(map: unknown, gl?: unknown): void;
  onRemove(map: unknown, gl?: unknown): void;
  render(gl?: unknown, options?: unknown): void;
  on(type: string, listener: (e: PindropLayerEvent) => void): this;
  off(type: string, listener: (e: PindropLayerEvent) => void): this;
  once(type: string, listener: (e: PindropLayerEvent) => void): this;
  addGeoJSON(input: GeoJSONFeatureCollection | GeoJSONFeature[] | GeoJSONFeature,
    options?: { id?: string | ((f: GeoJSONFeature, i: number) => unknown); value?: string | ((f: GeoJSONFeature, i: number) => unknown);
      category?: string | ((f: GeoJSONFeature, i: number) => unknown) }): Promise<number>;
  toGeoJSON(): GeoJSONFeatureCollection;
  legend(): { category: number; name: unknown; colour: string }[];
  addPin(id: number | bigint, lon: number, lat: number, attributes?: { value?: number; category?: unknown; feature?: GeoJSONFeature | null }): void;
  removePin(id: number | bigint): void;
  place(id: number | bigint, lon: number, lat: number): boolean;
  edit(id: number | bigint): boolean;
  commit(): boolean;
  cancelEdit(): void;
  attempt(f: (timeMs: number) => unknown, failText?: string): boolean;
}

/** A new pindrop layer: map.addLayer(pindropLayer(options)). */
export function pindropLayer(options?: PindropLayerOptions): PindropLayer;
/** Why pindrop cannot draw this MapLibre view (pitch, globe, terrain), or null. */
export function refusal(map: unknown): { reason: "pitch" | "globe" | "terrain"; message: string } | null;
