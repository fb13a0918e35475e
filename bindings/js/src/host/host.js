// PindropHost: everything between a pindrop map and a web map that is not the web map's own —
// the pindrop map and its options by input profile, the clock, pointer and key routing, the
// camera, the tick loop, the drawing, the keyboard focus and its announcements, GeoJSON in and
// out, and the events. A layer (leaflet.js, ...) gives it an adapter (see index.js) and forwards
// what the web map says: the view changed (cameraChanged), draw now (render).

import { CLUSTER_ONE_SPOT, CLUSTER_STACK, PIN_ANIMATING, PIN_DRAGGING, MAP_OPTIONS } from "../tables.js";
import { load } from "../load.js";
import { Map as PinMap } from "../map.js";
import { MonotonicClock } from "./clock.js";
import { drainEvents } from "./events.js";
import { CategoryTable } from "./geojson.js";
import { KeyboardRouter } from "./keyboard.js";
import { PointerRouter } from "./input.js";
import { addGeoJSON, addPins, toGeoJSON } from "./loading.js";
import { categoryColour, clusterRadius, focusRing, legendColour, paintFrame } from "./paint.js";
import { PinStore } from "./store.js";

/** The pindrop options of each input profile: a mouse drags at once with the pin under it; a
 *  finger presses and holds (250 ms), and the pin then marks a point 40 points above it. */
export const PROFILES = {
  mouse: { hitRadius: 12, dragThreshold: 3, liftDelayMs: 0, liftHeight: 0 },
  touch: { hitRadius: 22, dragThreshold: 8, liftDelayMs: 250, liftHeight: 40 },
};
/** The hosts' defaults for the other pindrop options: clusters as Leaflet.markercluster draws
 *  them, shared spots opened on a tap as it spiderfies. */
export const MAP_DEFAULTS = { clusterRadius: 60, clusterMaxZoom: 17, spreadMode: "spiral", spreadSpacing: 25, spreadOnTap: true };
/** The host's own options and their defaults (the rest are pindrop map options). */
export const HOST_DEFAULTS = {
  input: "auto",            // the first input profile: "auto" (the device's primary pointer), "mouse" or "touch"
  inputSwitch: true,        // a press of the other kind (a hybrid device) switches the profile
  style: null,              // { cluster, stack, pin, leg, lifted, focus }: see paint.js
  clusterColour: "category",// "category" (by the members' commonest category), "size", or (cluster) => [halo, disc] | null
  clusterClick: "fit",      // "fit" (expansion zoom, centred on the members' bounds), "zoom" (expansion zoom
                            // centred on the cluster), "none", or (event) => void
  title: null,              // (id, feature) => the words that name a pin in announcements
  itemName: "pin",          // what a pin is called in announcements ("tree")
  itemsName: null,          // ... and several of them (default itemName + "s")
  announce: true,           // the ARIA live region
  keyboard: true,           // the keys and the keyboard path
  fitPadding: 40,           // points left around a fitted cluster's members
  chunkMs: 6,               // loading: the main thread's work between two yields
  wasm: undefined,          // load()'s source of pindrop.wasm (default: beside the package)
};

export class PindropHost {
  /** adapter: the web map (index.js describes it); options: pindrop map options and the host's. */
  constructor(adapter, options = {}) {
    this.adapter = adapter;
    this.mapOptions = {};
    this.options = { ...HOST_DEFAULTS };
    for (const [k, v] of Object.entries(options)) {
      if (MAP_OPTIONS.includes(k)) this.mapOptions[k] = v;
      else if (k in HOST_DEFAULTS) this.options[k] = v;
    }
    this.itemName = this.options.itemName;
    this.itemsName = this.options.itemsName || this.itemName + "s";
    this.clock = new MonotonicClock();
    this.store = new PinStore();
    this.categories = new CategoryTable();
    this.map = null;
    this.profile = null;
    this.selected = null;
    this.editing = null;
    this.focus = null;
    this.camera = null;
    this.dirty = true;
    this.animating = false;
    this.lastAnnouncement = "";
    this.lastDownAt = null;
    this.drawn = { pins: 0, clusters: 0, clusterMembers: 0, ms: 0, at: 0 };
    this.drawnClusters = [];   // [{ key, x, y, lon, lat, size, flags }] of the last drawing
    this.drawnPins = [];       // [{ id, x, y, anchorX, anchorY, lift, flags }] of the last drawing (up to 5000)
    this.drawnStacks = [];     // [{ key, x, y, size, label, font, radius, textWidth }]
    this.selectedAt = null;    // [x, y, lift] of the selected pin as last drawn, or null
    this.hoveredCluster = null;
    this.input = new PointerRouter(this);
    this.keys = new KeyboardRouter(this);
    this.deadlineTimer = 0;
    this.loading = Promise.resolve();
    this.loading_ = false;           // a chunked load is under way
    this.loadStats = { calls: [] };  // the last load's calls into the module: [startMs, durationMs]
    this.ready = null;
  }

  // ---- life ------------------------------------------------------------------------------------
  /** Loads the module, builds the map and starts listening; resolves to this host. */
  start() {
    this.ready ??= load(this.options.wasm === undefined ? {} : { source: this.options.wasm }).then(() => {
      if (this.destroyed) return this;
      const chosen = this.options.input;
      const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
      this.buildMap(chosen === "mouse" || chosen === "touch" ? chosen : coarse ? "touch" : "mouse");
      const el = this.adapter.container;
      if (el) {
        this.input.attach(el);
        if (this.options.keyboard) this.keys.attach(el);
        if (this.options.announce) this.live = this.makeLiveRegion(el);
      }
      this.adapter.requestRedraw();
      return this;
    });
    return this.ready;
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.deadlineTimer);
    this.input.detach();
    this.keys.detach();
    if (this.live) this.live.remove();
    if (this.map) this.map.dispose();
    this.map = null;
  }

  /** A new pindrop map for the input profile, from the pins the host keeps (pindrop's options
   *  are fixed when a map is created: a hybrid device's first touch after the mouse, or the
   *  reverse, builds the map again; the undo history starts again). */
  buildMap(profile) {
    const old = this.map;
    if (old) old.dispose();
    const m = new PinMap({ ...MAP_DEFAULTS, ...PROFILES[profile], ...this.mapOptions });
    this.store.fill(m);
    this.map = m;
    this.profile = profile;
    this.cameraChanged();
    if (this.selected !== null) this.attempt(() => m.select(this.selected));
    if (old) { this.drain(); this.render(); }   // the new map's first frame: what a touch right after will hit
    this.fire("mapchange", { map: m, profile });
  }

  /** A press of this kind of pointer ("mouse" or "touch") is coming. */
  inputKind(kind) {
    if (!this.options.inputSwitch || kind === this.profile || this.editing !== null) return;
    this.buildMap(kind);
    this.announce(kind === "touch" ? `Touch input: press and hold a ${this.itemName} to lift it`
      : `Mouse input: drag a ${this.itemName} to move it`);
  }

  makeLiveRegion(el) {
    const live = el.ownerDocument.createElement("div");
    live.className = "pindrop-live";
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    Object.assign(live.style, { position: "absolute", width: "1px", height: "1px", overflow: "hidden",
      clip: "rect(0 0 0 0)", clipPath: "inset(50%)", whiteSpace: "nowrap" });
    el.appendChild(live);
    return live;
  }

  // ---- time and input --------------------------------------------------------------------------
  /** The time to give pindrop: `offered` (e.g. an event's timeStamp) unless it is earlier than the
   *  last time given (see clock.js). */
  now(offered) { return this.clock.now(offered); }

  /** A pointer event for the map (x, y: container points); true when pindrop owns the gesture. */
  touch(pointer, phase, x, y, offeredTime) {
    const t = this.now(offeredTime);
    if (phase === "down") this.lastDownAt = t;
    return this.map.touch(pointer, phase, x, y, t);
  }

  /** Calls f(time); a refusal of pindrop's (nothing to undo, ...) is announced as `failText` and
   *  returns false. */
  attempt(f, failText = "") {
    try { f(this.now()); return true; } catch (err) {
      if (err && err.name && /Pindrop|State|NotFound|InvalidArgument/.test(err.name)) {
        if (failText) this.announce(failText);
        return false;
      }
      throw err;
    }
  }

  refused(err) {
    if (err && err.name === "StateError") this.announce(`Drop the ${this.itemName} being moved with the keyboard first (Space or Enter)`);
    else if (typeof console !== "undefined") console.warn("pindrop", err);
  }

  /** After input: what happened, the next deadline, a new frame. */
  afterInput() {
    this.drain();
    this.scheduleDeadline();
    this.dirty = true;
    this.adapter.requestRedraw();
  }

  drain() { drainEvents(this); }

  scheduleDeadline() {
    if (!this.map) return;
    clearTimeout(this.deadlineTimer);
    const d = this.map.nextDeadline();
    if (d < Infinity) {
      this.deadlineTimer = setTimeout(() => { this.dirty = true; this.adapter.requestRedraw(); },
        Math.max(0, d - this.clock.source()) + 1);
    }
  }

  // ---- the camera and the drawing ----------------------------------------------------------------
  /** The web map's view changed: pindrop's camera follows it, the canvas is sized to it. */
  cameraChanged() {
    if (!this.map) return;
    const cam = this.adapter.camera();
    this.map.setCamera(cam);
    this.camera = cam;
    this.resizeCanvas(cam.width, cam.height);
    this.dirty = true;
    this.adapter.requestRedraw();
  }

  resizeCanvas(w, h) {
    const canvas = this.adapter.canvas;
    if (!canvas) return;
    const dpr = (typeof devicePixelRatio === "number" && devicePixelRatio) || 1;
    if (this.canvasSize && this.canvasSize[0] === w && this.canvasSize[1] === h && this.canvasSize[2] === dpr) return;
    this.canvasSize = [w, h, dpr];
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    canvas.style.width = w + "px"; canvas.style.height = h + "px";
  }

  /** Ticks what is due and draws the frame (the adapter calls it at an animation frame). Draws
   *  again at the next frame while a pin moves by itself or is held. */
  render() {
    const m = this.map;
    if (!m || this.loading_) return;   // drawn when a load ends (loading.js)
    const t0 = this.clock.source();
    const t = this.now();
    if (m.nextDeadline() <= t) { m.tick(t); this.drain(); this.scheduleDeadline(); }
    if (!this.dirty && !this.animating) return;
    this.dirty = false;
    const canvas = this.adapter.canvas;
    if (!canvas) return;
    const ctx = canvas.getContext("2d");
    const dpr = this.canvasSize ? this.canvasSize[2] : 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, canvas.width / dpr, canvas.height / dpr);
    const clusters = m.clusters(t);
    const frame = m.frame(t);
    const badges = paintFrame(ctx, clusters, frame, this.colourOf(clusters), this.options.style);
    this.record(clusters, frame, badges);
    const focus = m.focus;
    this.focus = focus;
    if (focus && focus.kind === "cluster") {
      const c = this.drawnClusters.find((k) => k.key === focus.key);
      if (c) {
        const r = clusterRadius(c.size) + 9, style = this.options.style;
        const ring = () => focusRing(ctx, c.x, c.y, r);
        if (style && style.focus) style.focus(ctx, { x: c.x, y: c.y, radius: r, kind: "cluster", key: c.key }, ring); else ring();
      }
    }
    if (m.nextDeadline() < Infinity) this.animating = true;
    this.drawn = { pins: frame.count, clusters: clusters.count, clusterMembers: this.drawn.clusterMembers,
      ms: this.clock.source() - t0, at: t };
    this.fire("draw", { ctx, time: t });
    if (this.animating) this.adapter.requestRedraw();
  }

  record(clusters, frame, badges) {
    this.drawnStacks = badges.map((b) => ({ key: clusters.key[b.i], x: clusters.x[b.i], y: clusters.y[b.i],
      size: clusters.size[b.i], label: b.label, font: b.font, radius: b.radius, textWidth: b.textWidth }));
    const drawnClusters = [];
    let members = 0;
    for (let i = 0; i < clusters.count; i++) {
      members += clusters.size[i];
      drawnClusters.push({ key: clusters.key[i], x: clusters.x[i], y: clusters.y[i], lon: clusters.lon[i],
        lat: clusters.lat[i], size: clusters.size[i], flags: clusters.flags[i] });
    }
    this.drawnClusters = drawnClusters;
    this.drawn.clusterMembers = members;
    const drawnPins = [], keep = frame.count <= 5000;
    this.animating = false;
    this.selectedAt = null;
    for (let i = 0; i < frame.count; i++) {
      const id = frame.id[i], flags = frame.flags[i];
      if (keep) drawnPins.push({ id, x: frame.x[i], y: frame.y[i], anchorX: frame.anchorX[i], anchorY: frame.anchorY[i], lift: frame.lift[i], flags });
      if (id === this.selected) this.selectedAt = [frame.x[i], frame.y[i], frame.lift[i]];
      if (flags & (PIN_ANIMATING | PIN_DRAGGING)) this.animating = true;   // a lift, a drop, a glide, a held pin
    }
    this.drawnPins = drawnPins;
  }

  /** Cluster i's colours: by its members' commonest category (strong when that holds at least
   *  half of them), by size, or the user's. */
  colourOf(clusters) {
    const how = this.options.clusterColour, m = this.map;
    if (how === "size" || this.categories.names.length < 2 && how === "category") return null;
    if (typeof how === "function") {
      return (i) => how({ key: clusters.key[i], count: clusters.size[i], flags: clusters.flags[i], map: m });
    }
    return (i) => {
      let cats;
      try { cats = m.clusterCategories(clusters.key[i]); } catch (_) { return null; }
      if (!cats.category.length) return null;
      return categoryColour(cats.category[0], cats.count[0] / clusters.size[i]);
    };
  }

  /** The legend of the categories: [{ category, name, colour, count }], most pins first. */
  legend() {
    const counts = new Float64Array(this.categories.names.length);
    const cats = this.store.categories;
    for (let r = 0; r < this.store.count; r++) if (cats[r] < counts.length) counts[cats[r]]++;
    return this.categories.names.map((name, category) => ({ category, name, colour: legendColour(category), count: counts[category] }))
      .sort((a, b) => b.count - a.count || a.category - b.category);
  }

  /** A mouse moves over the map with no button down: the `hover` event, with the drawn cluster
   *  under it (or null) and what it holds in words. */
  hovered(x, y) {
    const c = this.drawnClusters.find((k) => Math.hypot(k.x - x, k.y - y) <= clusterRadius(k.size) + 5) || null;
    if ((c && c.key) === (this.hoveredCluster && this.hoveredCluster.key)) return;
    this.hoveredCluster = c;
    this.fire("hover", { x, y, cluster: c, text: c ? this.describeCluster(c) : null });
  }

  /** A category's name (the GeoJSON value it came from). */
  categoryName(category) { return this.categories.nameOf(category); }

  // ---- words --------------------------------------------------------------------------------------
  titleOf(id) {
    const f = this.store.featureOf(id);
    if (this.options.title) return this.options.title(id, f);
    const name = f && f.properties && (f.properties.name ?? f.properties.title);
    return name ? String(name) : `${this.itemName} ${id}`;
  }

  announce(text) {
    this.lastAnnouncement = text;
    if (this.live) this.live.textContent = text;
    this.fire("announce", { text });
  }

  /** What a drawn cluster holds, in words: its count, its commonest category, "all on one spot". */
  describeCluster(c) {
    const m = this.map;
    let text = `${c.size.toLocaleString("en-US")} ${this.itemsName}`;
    try {
      const cats = m.clusterCategories(c.key);
      const kinds = cats.category.length;
      if (kinds && this.categories.names.length > 1) {
        const name = this.categoryName(cats.category[0]) ?? "mixed";
        text += kinds === 1 ? ` · all ${name}` : ` · ${Math.round((100 * cats.count[0]) / c.size)}% ${name} · ${kinds} kinds`;
      }
      const sum = m.clusterSummary(c.key);
      if (sum && (sum.flags & CLUSTER_ONE_SPOT)) text += " · all on one spot";
    } catch (_) { /* a key gone stale since the drawing */ }
    if (c.flags & CLUSTER_STACK) text += " · tap to open";
    return text;
  }

  fire(type, data) { this.adapter.fire(type, data); }

  // ---- clusters -----------------------------------------------------------------------------------
  /** A cluster was tapped or clicked (CLUSTER_TAPPED), or Enter pressed on it: the `clusterclick`
   *  event, then (unless a listener called preventDefault()) what the clusterClick option says. */
  clusterClicked(e) {
    const key = e.key ?? e.request;
    const c = this.drawnClusters.find((k) => k.key === key);
    let prevented = false;
    this.fire("clusterclick", { pindrop: e.type ? e : null, key, lon: e.lon, lat: e.lat, count: c ? c.size : null,
      preventDefault: () => { prevented = true; } });
    const how = this.options.clusterClick;
    if (prevented || how === "none" || how === false) return;
    if (typeof how === "function") { how({ key, lon: e.lon, lat: e.lat, count: c ? c.size : null, host: this }); return; }
    const done = how === "zoom" ? this.zoomToCluster(key, e.lon, e.lat) : this.fitCluster(key);
    if (done !== null) {
      this.announce(`Zoomed in to ${c ? c.size.toLocaleString("en-US") + " " + this.itemsName : "a cluster"} (zoom ${done.toFixed(1)})`);
    }
  }

  /** The expansion zoom centred on the cluster's point (its members' mean), never less than half
   *  a zoom level in. Returns the zoom. */
  zoomToCluster(key, lon, lat) {
    const zoom = this.camera.zoom;
    let expansion;
    try { expansion = this.map.clusterExpansionZoom(key); } catch (_) { expansion = zoom + 2; }
    const target = Math.min(this.snapZoom(Math.max(expansion, zoom + 0.5), 1), this.adapter.maxZoom());
    this.adapter.setView(lon, lat, target);
    return target;
  }

  /** Fits the cluster's members: centred on their bounds (in Web Mercator), at their expansion
   *  zoom or less when they would not all fit in the view (with fitPadding points around them) —
   *  but always in, to at least the expansion zoom when they cannot fit. Returns the zoom, or
   *  null for a key gone stale. */
  fitCluster(key) {
    const m = this.map, zoom = this.camera.zoom;
    let expansion, ids;
    try { expansion = m.clusterExpansionZoom(key); ids = m.clusterMembers(key); } catch (_) { return null; }
    const b = this.membersBounds(ids);
    if (!b) return null;
    const pad = this.options.fitPadding, w = Math.max(1, this.camera.width - 2 * pad), h = Math.max(1, this.camera.height - 2 * pad);
    // Web Mercator x, y in [0, 1): the world is 256 * 2^zoom points wide
    const dx = Math.max(b.x1 - b.x0, 1e-12), dy = Math.max(b.y1 - b.y0, 1e-12);
    const fits = Math.log2(Math.min(w / (dx * 256), h / (dy * 256)));
    // the map's zoom steps (Leaflet's zoomSnap): the expansion zoom rounded up (the members part),
    // the fitting zoom rounded down (they still fit)
    const up = this.snapZoom(expansion, 1), down = this.snapZoom(fits, -1);
    let target = Math.min(up, down);
    if (!(target > zoom)) target = up;
    target = Math.min(target, this.adapter.maxZoom());
    const lon = ((b.x0 + b.x1) / 2) * 360 - 180;
    const lat = (Math.atan(Math.sinh(Math.PI * (1 - (b.y0 + b.y1)))) * 180) / Math.PI;
    this.adapter.setView(lon, lat, target);
    return target;
  }

  /** A zoom on the map's zoom steps, rounded up (direction 1) or down (-1): the adapter's
   *  snapZoom when it has one, else the zoom itself. */
  snapZoom(zoom, direction) { return this.adapter.snapZoom ? this.adapter.snapZoom(zoom, direction) : zoom; }

  /** The members' bounds in Web Mercator units ([0, 1) both ways, y down): { x0, y0, x1, y1 }. */
  membersBounds(ids) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const id of ids) {
      const r = this.store.rowOf(id);
      const [lon, lat] = r >= 0 ? [this.store.lonlat[2 * r], this.store.lonlat[2 * r + 1]] : this.map.position(id);
      const x = (lon + 180) / 360;
      const s = Math.sin((lat * Math.PI) / 180);
      const y = 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
    return x0 <= x1 ? { x0, y0, x1, y1 } : null;
  }

  // ---- GeoJSON ------------------------------------------------------------------------------------
  /** Adds a FeatureCollection's Point features as pins, in chunks (loading.js): options { id,
   *  value, category }, each a property name or a function (feature, index) => ... (geojson.js
   *  has the id rules). Resolves to the number of pins added; rejects, adding none, when a
   *  feature is refused. */
  addGeoJSON(input, options = {}) { return addGeoJSON(this, input, options); }

  /** Adds pins from arrays (ids, interleaved lonlat; options { values, categories } as typed
   *  arrays), in chunks as addGeoJSON does. Resolves to the number added. */
  addPins(ids, lonlat, options = {}) { return addPins(this, ids, lonlat, options); }

  /** Names categories 0, 1, ... (for the legend and the announcements) when they come as numbers. */
  setCategoryNames(names) {
    const table = new CategoryTable();
    for (const name of names) table.numberOf(name);
    this.categories = table;
    this.dirty = true;
    this.adapter.requestRedraw();
  }

  /** The pins that came from GeoJSON as a FeatureCollection: each feature with its properties
   *  (the same objects) at its pin's true position. */
  toGeoJSON() { return toGeoJSON(this); }

  // ---- pins and edits -----------------------------------------------------------------------------
  /** Adds a pin (kept for a rebuild, and in toGeoJSON when it has a feature). */
  addPin(id, lon, lat, { value = NaN, category = null, feature = null } = {}) {
    if (this.store.has(id)) throw new Error(`a pin ${id} is on the map already`);
    const cat = category === null ? 0 : this.categories.numberOf(category);
    this.map.add(id, lon, lat);
    if (!Number.isNaN(value) || category !== null) this.map.setAttributes([id], Float64Array.of(value), Uint32Array.of(cat));
    this.store.add(id, lon, lat, value, cat, feature);
    this.afterInput();
  }

  removePin(id) {
    this.map.remove(id);
    this.store.remove(id);
    if (this.selected === id) this.selected = null;
    this.afterInput();
  }

  /** Places a new pin at (lon, lat) as an edit (pindrop's place): a tap or a drag moves it, then
   *  commit() keeps it or cancelEdit() takes it away. */
  place(id, lon, lat) {
    const ok = this.attempt((t) => this.map.place(id, lon, lat, t), `Finish the ${this.itemName} being edited first`);
    if (ok) {
      this.store.add(id, lon, lat);
      this.editing = id;
      this.attempt(() => this.map.select(id));
      this.afterInput();
    }
    return ok;
  }

  /** Starts editing a pin: a single tap on the map moves it there. */
  edit(id) {
    const ok = this.attempt((t) => this.map.edit(id, t), `Finish the ${this.itemName} being edited first`);
    if (ok) { this.editing = id; this.afterInput(); }
    return ok;
  }

  commit() {
    const ok = this.attempt((t) => this.map.commit(t));
    this.editing = null;
    this.afterInput();
    return ok;
  }

  /** Ends the edit without keeping it: an edited pin goes back, a placed one goes away. */
  cancelEdit() {
    const id = this.editing;
    this.attempt((t) => this.map.cancelEdit(t));
    this.editing = null;
    if (id !== null) {
      let there = true;
      try { this.map.position(id); } catch (_) { there = false; }
      if (!there) { this.store.remove(id); if (this.selected === id) this.selected = null; }
    }
    this.afterInput();
    this.announce("Editing cancelled");
  }
}
