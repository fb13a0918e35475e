// Type declarations of the pindrop package (index.js). See docs/web.md.

// Symbol.dispose for TypeScript before 5.2 (the same declaration as @types/node's and 5.2's lib).
declare global {
  interface SymbolConstructor { readonly dispose: unique symbol; }
}

export type Id = number | bigint;
export type Phase = "down" | "move" | "up" | "cancel";
/** A cluster's or a collapsed stack's key: all 64 bits (a level, a generation and a slot). A key
 *  argument also takes a non-negative safe integer. */
export type Key = bigint;
export type EventType = "SELECTED" | "DESELECTED" | "LIFTED" | "DRAGGED" | "DROPPED" | "DRAG_CANCELLED" |
  "MOVED" | "GEOCODE_REQUEST" | "CALLOUT_CHANGED" | "NEARBY" | "AUTOPAN" | "CLUSTER_TAPPED" |
  "STACK_OPENED" | "STACK_CLOSED";
export type Cause = "NONE" | "DRAG" | "TAP" | "PLACE" | "UNDO" | "REDO" | "SNAP" | "NUDGE" | "KEYBOARD";

export const PIN_SELECTED: 1, PIN_EDITING: 2, PIN_DRAGGING: 4, PIN_SPREAD: 8, PIN_INVALID: 16;
/** Since 0.3: the pin with the keyboard focus. */
export const PIN_FOCUSED: 32;
/** Since 0.3: the pin's drawing still changes with no input (lift, drop, glide): keep drawing. */
export const PIN_ANIMATING: 64;
/** Since 0.3: Clusters.flags and ClusterSummary.flags. */
export const CLUSTER_ONE_SPOT: 1, CLUSTER_STACK: 2;
/** Since 0.3: ClusterSummary.category when the members' categories differ (UINT32_MAX). */
export const CATEGORY_MIXED: 4294967295;
export const EVENT_TYPES: readonly EventType[];
export const CAUSES: readonly Cause[];

/** A URL: the platform's URL (DOM, Node) or any object with an href. Declared here rather than
 *  as the DOM's `URL`, so that a program type-checks without the DOM's or Node's declarations. */
export interface URLLike { readonly href: string; }
export interface LoadOptions {
  /** The module: a URL, a path (Node) or its bytes. Default: pindrop.wasm beside index.js. */
  source?: string | URLLike | ArrayBuffer | ArrayBufferView;
  /** Load a new module even if one is loaded (after an InternalError). */
  fresh?: boolean | 0 | 1;
}
/** Loads the WebAssembly module once; resolves to its version. Rejects with a TypeError for an
 *  unknown option or a value of the wrong type. */
export function load(options?: LoadOptions | string | URLLike | ArrayBuffer | ArrayBufferView): Promise<string>;
export function version(): string;

export interface MapOptions {
  hitRadius?: number; dragThreshold?: number; liftDelayMs?: number; liftHeight?: number;
  liftDurationMs?: number; dropDurationMs?: number; tapMaxMs?: number; doubleTapMs?: number;
  doubleTapSlop?: number; autopanMargin?: number; autopanSpeed?: number; minSpacingM?: number;
  spreadMode?: "ring" | "spiral" | "off"; spreadToleranceM?: number;
  outsidePolicy?: "revert" | "snap"; clusterRadius?: number; clusterMaxZoom?: number; spreadSpacing?: number;
  /** Since 0.3: a cluster that would hold fewer pins is not formed (default 2; >= 2). */
  clusterMinPoints?: number;
  /** Since 0.3: only pins of one category are clustered together (default false). */
  clusterByCategory?: boolean | 0 | 1;
  /** Since 0.3: groups are drawn collapsed, one stack item, until tapped open (default false). */
  spreadOnTap?: boolean | 0 | 1;
  /** Return ids as BigInt everywhere (frame().id is then a BigInt64Array). Without it, ids are
   *  numbers (frame().id a Float64Array) and a new pin's id beyond ±(2^53 − 1) is a TypeError. */
  bigintIds?: boolean | 0 | 1;
}

export interface Camera {
  centerLon: number; centerLat: number; zoom: number; width: number; height: number; bearingDeg?: number;
}

/** One event; fields that do not apply to its type are null. */
export interface PindropEvent {
  /** A type newer than this package reads "EVENT_<number>". */
  type: EventType | string;
  /** MOVED only. */
  cause: Cause | null;
  id: Id | null;
  /** NEARBY: the pin already there. */
  other: Id | null;
  lon: number | null; lat: number | null;
  fromLon: number | null; fromLat: number | null;
  /** AUTOPAN: screen points to move the camera centre by. */
  dx: number | null; dy: number | null;
  distanceM: number | null;
  timeMs: number;
  /** GEOCODE_REQUEST: the request to answer (a number, a BigInt beyond 2^53); CLUSTER_TAPPED,
   *  STACK_OPENED, STACK_CLOSED: the cluster's or stack's key (a BigInt). */
  request: number | bigint | null;
  /** CLUSTER_TAPPED, STACK_OPENED, STACK_CLOSED only: the cluster's or stack's key. */
  key?: Key;
}

/** What frame() returns: views into buffers the next call reuses. */
export interface Frame {
  count: number;
  id: Float64Array | BigInt64Array;
  x: Float64Array; y: Float64Array;
  anchorX: Float64Array; anchorY: Float64Array;
  lift: Float64Array;
  flags: Uint32Array;
}

/** What clusters() returns: views into buffers the next call reuses. */
export interface Clusters {
  count: number;
  key: BigUint64Array;
  x: Float64Array; y: Float64Array;
  lon: Float64Array; lat: Float64Array;
  size: Uint32Array;
  /** CLUSTER_ONE_SPOT, CLUSTER_STACK (a collapsed stack). */
  flags: Uint32Array;
}

/** What a cluster or a collapsed stack holds (clusterSummary). Since 0.3. */
export interface ClusterSummary {
  count: number;
  /** Members with a value (not NaN). */
  valued: number;
  /** The members' common category, or CATEGORY_MIXED. */
  category: number;
  /** CLUSTER_ONE_SPOT when every member shares one point. */
  flags: number;
  /** Over the valued members; NaN when none has a value. */
  valueSum: number; valueMin: number; valueMax: number; valueMean: number;
}

/** A cluster's categories and their pin counts, most pins first (clusterCategories). */
export interface ClusterCategories { category: Uint32Array; count: Uint32Array; }

/** What has the keyboard focus. Since 0.3. */
export interface Focus {
  kind: "none" | "pin" | "cluster";
  /** The pin, when kind is "pin". */
  id: Id | null;
  /** The cluster's key, when kind is "cluster". */
  key: Key | null;
  /** Its drawn screen point in the last frame (points). */
  x: number; y: number;
}

export class Map {
  constructor(options?: MapOptions);
  dispose(): void;
  readonly disposed: boolean;
  [Symbol.dispose](): void;
  lastError(): string;

  setCamera(centerLon: number, centerLat: number, zoom: number, width: number, height: number, bearingDeg?: number): void;
  setCamera(camera: Camera): void;
  toScreen(lon: number, lat: number): [number, number];
  toLonLat(x: number, y: number): [number, number];

  add(id: Id, lon: number, lat: number): void;
  addMany(ids: ArrayLike<Id> | BigInt64Array, lonlat: Float64Array | ArrayLike<number>): void;
  remove(id: Id): void;
  setPosition(id: Id, lon: number, lat: number): void;
  position(id: Id): [number, number];
  displayPosition(id: Id): [number, number];
  setDraggable(id: Id, draggable: boolean): void;
  readonly count: number;
  readonly size: number;

  hitTest(x: number, y: number): Id | null;
  hitTestMany(xy: Float64Array | ArrayLike<number>): (Id | null)[];
  nearby(lon: number, lat: number, radiusM: number, limit?: number): { id: Id; distanceM: number }[];

  frame(timeMs: number): Frame;
  clusters(timeMs: number): Clusters;
  /** Members in ascending id order from offset, at most limit (default: all). */
  clusterMembers(key: Key | number, offset?: number, limit?: number): Id[];
  clusterExpansionZoom(key: Key | number): number;

  setAttributes(ids: ArrayLike<Id> | BigInt64Array, values?: ArrayLike<number> | Float64Array | number | null,
    categories?: ArrayLike<number> | Uint32Array | number | null): void;
  clusterSummary(key: Key | number): ClusterSummary;
  clusterCategories(key: Key | number): ClusterCategories;

  focusStep(step: 1 | -1): Focus;
  readonly focus: Focus;
  /** index from 0, null when none of the items has the focus. */
  readonly focusRank: { index: number | null; total: number };
  keyLift(timeMs: number): void;
  keyDrop(timeMs: number): void;

  openStack(key: Key | number, timeMs: number): void;
  closeStack(timeMs: number): void;

  touch(pointer: number, phase: Phase, x: number, y: number, timeMs: number): boolean;
  tick(timeMs: number): void;
  nextDeadline(): number;
  advance(timeMs: number): void;
  cancelGesture(timeMs: number): void;
  pollEvent(): PindropEvent | null;
  events(): PindropEvent[];

  place(id: Id, lon: number, lat: number, timeMs: number): void;
  edit(id: Id, timeMs: number): void;
  commit(timeMs: number): void;
  cancelEdit(timeMs: number): void;
  select(id: Id | null): void;
  selected(): Id | null;
  nudge(dx: number, dy: number, timeMs: number): void;

  setTitle(id: Id, title: string | null): void;
  answerGeocode(request: number | bigint, subtitle: string): boolean;
  callout(id: Id, which?: "title" | "subtitle"): string;
  title(id: Id): string;
  subtitle(id: Id): string;

  setAllowedArea(area: string | object | null): void;
  undo(timeMs: number): void;
  redo(timeMs: number): void;
}

/** Great-circle distance (metres) and initial bearing (degrees clockwise from north, [0, 360)). Since 0.3. */
export function distance(fromLon: number, fromLat: number, toLon: number, toLat: number): { metres: number; bearing: number };

export interface SpreadOptions { toleranceM?: number; layout?: "ring" | "spiral"; spacing?: number; zoom?: number; }
export function spread(lonlat: Float64Array | ArrayLike<number>, options?: SpreadOptions): Float64Array;

export class PindropError extends Error {
  constructor(message: string, status?: number, fn?: string);
  /** The pindrop_status (negative): -5, PINDROP_ERR_STATE, for a disposed map too. */
  status: number;
  /** The C function that failed; for a disposed map, the Map method called. */
  function: string;
}
export class InvalidArgument extends PindropError {}
export class NotFound extends PindropError {}
export class DuplicateId extends PindropError {}
export class ParseError extends PindropError {}
export class StateError extends PindropError {}
export class GeosError extends PindropError {}
export class NoMemory extends PindropError {}
export class InternalError extends PindropError {}
export function __memoryBytes(): number;
