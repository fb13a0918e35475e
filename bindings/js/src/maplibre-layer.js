// The MapLibre layer of pindrop, PindropLayer (see ./maplibre.js, "pindrop/maplibre", for what it
// does). This file has no import or export: it is both a module that ./maplibre.js imports and
// a plain script,
//
//   <script src="maplibre-gl.js"></script>
//   <script src="pindrop/src/maplibre-layer.js"></script>
//   <script> map.addLayer(maplibregl.pindropLayer({ itemName: "tree" })); </script>
//
// which sets maplibregl.pindropLayer and maplibregl.PindropLayer and loads the host core
// (./host/index.js, beside it) with a dynamic import() when a layer is first added.

(function (root) {
  "use strict";

  /** The PindropLayer class, whose layers get the host core's module from loadCore(). */
  function definePindropLayer(loadCore) {
  const CONTROLS = ".maplibregl-control-container, .maplibregl-ctrl, .maplibregl-marker, .maplibregl-popup";

  /** Why pindrop cannot work on this view ("pitch", "globe", "terrain"), with the words, or null. */
  function refusal(map) {
    const pitch = map.getPitch();
    if (pitch !== 0) {
      return { reason: "pitch", message: `pindrop/maplibre: the map is pitched (${+pitch.toFixed(2)}°); pindrop draws, ` +
        "hit-tests and clusters on a flat view only (pitch 0). The layer sets maxPitch 0 while it is on the map." };
    }
    const projection = typeof map.getProjection === "function" ? map.getProjection() : null;
    const type = projection && projection.type;
    if (type && type !== "mercator") {
      return { reason: "globe", message: `pindrop/maplibre: the map's projection is "${typeof type === "string" ? type : "an expression"}"; ` +
        "pindrop works on the Web Mercator projection only (map.setProjection({ type: \"mercator\" }))." };
    }
    if (typeof map.getTerrain === "function" && map.getTerrain()) {
      return { reason: "terrain", message: "pindrop/maplibre: the map has 3D terrain; pindrop works on a flat map only (map.setTerrain(null))." };
    }
    return null;
  }

  class PindropLayer {
    /** options: pindrop map options and the host's (host/host.js HOST_DEFAULTS), and `id`, the
     *  MapLibre layer id (default "pindrop"). */
    constructor(options = {}) {
      const { id = "pindrop", ...rest } = options;
      this.id = id;
      this.type = "custom";
      this.renderingMode = "2d";
      this.options = rest;
      this.host = null;
      this.maplibre = null;          // the MapLibre map, while the layer is on one
      this.suspended = null;         // { reason, message } while the view is one pindrop cannot draw
      this.listeners = new globalThis.Map();
      let added;
      this.added = new Promise((resolve) => { added = resolve; });
      this.resolveAdded = added;
      /** Resolves to the layer once it is on a map with its pindrop map built. */
      this.ready = this.added.then((host) => host.start()).then(() => this);
    }

    /** The pindrop map (PinMap) for anything the layer does not do itself; null until `ready`. */
    get map() { return this.host ? this.host.map : null; }

    // ---- events ------------------------------------------------------------------------------------
    on(type, fn) {
      if (!this.listeners.has(type)) this.listeners.set(type, new Set());
      this.listeners.get(type).add(fn);
      return this;
    }
    off(type, fn) { const s = this.listeners.get(type); if (s) s.delete(fn); return this; }
    once(type, fn) {
      const wrapped = (e) => { this.off(type, wrapped); fn(e); };
      return this.on(type, wrapped);
    }
    fire(type, data = {}) {
      const s = this.listeners.get(type);
      if (!s || s.size === 0) return;
      const event = { ...data, type, target: this };
      for (const fn of [...s]) fn(event);
    }

    // ---- the custom layer's life ----------------------------------------------------------------------
    onAdd(map) {
      const why = refusal(map);
      if (why) {
        // MapLibre has put the layer in the style before calling onAdd: out again, then the error
        map.removeLayer(this.id);
        throw new Error(why.message);
      }
      this.maplibre = map;
      this.maxPitch = map.getMaxPitch();
      map.setMaxPitch(0);
      this.canvas = document.createElement("canvas");
      this.canvas.className = "pindrop-canvas";
      Object.assign(this.canvas.style, { position: "absolute", left: "0", top: "0", pointerEvents: "none" });
      this.canvas.setAttribute("aria-hidden", "true");
      // The canvas container (where MapLibre's own handlers listen) covers the map, so that the
      // keyboard's focus on it shows; it is the map's one tab stop (the WebGL canvas's is lent to it).
      const box = map.getCanvasContainer(), gl = map.getCanvas();
      this.saved = { position: box.style.position, inset: box.style.inset, tabIndex: gl.getAttribute("tabindex"),
        role: box.getAttribute("role"), label: box.getAttribute("aria-label") };
      Object.assign(box.style, { position: "absolute", inset: "0" });
      if (!this.saved.role) box.setAttribute("role", "application");
      if (!this.saved.label) box.setAttribute("aria-label", gl.getAttribute("aria-label") || "Map");
      gl.setAttribute("tabindex", "-1");
      gl.after(this.canvas);
      this.onView = () => { this.checkView(); if (this.host && !this.suspended) this.host.cameraChanged(); };
      for (const type of ["move", "resize", "pitch", "terrain", "projectiontransition", "styledata"]) map.on(type, this.onView);
      loadCore().then((core) => {
        if (this.maplibre !== map || this.host) return;
        const host = this.host = new core.PindropHost(this.adapter(map, box), this.options);
        this.resolveAdded(host);
        return host.start().then(() => { if (this.host === host) this.fire("ready", { map: host.map }); });
      }).catch((err) => this.fire("error", { error: err }));
    }

    onRemove(map) {
      if (this.maplibre !== map) return;     // refused in onAdd
      if (this.frame) cancelAnimationFrame(this.frame);
      this.frame = 0;
      for (const type of ["move", "resize", "pitch", "terrain", "projectiontransition", "styledata"]) map.off(type, this.onView);
      if (this.host) this.host.destroy();
      this.canvas.remove();
      const box = map.getCanvasContainer(), gl = map.getCanvas(), s = this.saved;
      box.style.position = s.position; box.style.inset = s.inset;
      if (!s.role) box.removeAttribute("role");
      if (!s.label) box.removeAttribute("aria-label");
      if (box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
      if (s.tabIndex === null) gl.removeAttribute("tabindex"); else gl.setAttribute("tabindex", s.tabIndex);
      if (map.getMaxPitch() === 0) map.setMaxPitch(this.maxPitch);
      this.host = null;
      this.maplibre = null;
    }

    /** MapLibre draws a frame (the view moved, or the style changed): pindrop's frame goes into
     *  the 2D canvas in the same one, so that the pins never lag the map. */
    render() { this.draw(); }

    /** A frame that only pindrop's drawing needs (a pin lifted, dragged, dropped; a tick): the 2D
     *  canvas alone, at the next animation frame, without making MapLibre draw its WebGL frame again. */
    requestRedraw() {
      if (this.frame || !this.host) return;
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
    }

    draw() {
      if (!this.host || this.suspended) return;
      this.host.render();
    }

    /** Suspends the layer on a view pindrop cannot draw (see the top of this file), resumes it after. */
    checkView() {
      const why = refusal(this.maplibre);
      if (why && !this.suspended) {
        this.suspended = why;
        const host = this.host;
        if (host && host.map) host.attempt((t) => host.map.cancelGesture(t));
        if (host) host.input.pointers.clear();
        this.setDragPan(true);
        const ctx = this.canvas.getContext("2d");
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
        if (typeof console !== "undefined") console.warn(why.message);
        this.fire("suspended", why);
      } else if (!why && this.suspended) {
        this.suspended = null;
        this.fire("resumed", {});
      }
    }

    setDragPan(on) {
      const pan = this.maplibre && this.maplibre.dragPan;
      if (!pan) return;
      if (!on && !this.panHeld) { this.panHeld = true; this.panWasOn = pan.isEnabled(); if (this.panWasOn) pan.disable(); }
      else if (on && this.panHeld) { this.panHeld = false; if (this.panWasOn) pan.enable(); }
    }

    /** The host core's adapter (host/index.js) for a MapLibre map. */
    adapter(map, box) {
      const layer = this;
      return {
        container: box,
        canvas: this.canvas,
        camera() {
          const gl = map.getCanvas(), width = gl.clientWidth || 1, height = gl.clientHeight || 1;
          const c = map.unproject([width / 2, height / 2]).wrap();
          return { centerLon: c.lng, centerLat: c.lat, zoom: map.getZoom() + 1, bearingDeg: map.getBearing(), width, height };
        },
        toLonLat(x, y) { const c = map.unproject([x, y]); return [c.lng, c.lat]; },
        toPoint(lon, lat) { const p = map.project([lon, lat]); return [p.x, p.y]; },
        panBy(dx, dy) { map.panBy([dx, dy], { animate: false }); },
        setView(lon, lat, zoom) { map.jumpTo({ center: [lon, lat], zoom: zoom - 1 }); },
        maxZoom() { return map.getMaxZoom() + 1; },
        setDragPan(on) { layer.setDragPan(on); },
        requestRedraw() { layer.requestRedraw(); },
        fire(type, data) { layer.fire(type, data); },
        // The map's controls, markers and popups, and everything while the layer is suspended.
        isOwnControl(el) { return !!layer.suspended || !!(el && el.closest && el.closest(CONTROLS)); },
      };
    }

    // ---- what the host does, on the layer -------------------------------------------------------------
    /** Adds a FeatureCollection's points as pins, in chunks with `progress` events ({ id, value,
     *  category }: host/geojson.js); the layer keeps its last drawing until the load ends. Waits
     *  for the layer to be on a map. Resolves to the number added; rejects, adding none, naming a
     *  refused feature. */
    addGeoJSON(input, options) { return this.ready.then(() => this.host.addGeoJSON(input, options)); }
    /** Pins without GeoJSON: ids, interleaved lonlat, { values, categories }; in chunks. */
    addPins(ids, lonlat, options) { return this.ready.then(() => this.host.addPins(ids, lonlat, options)); }
    setCategoryNames(names) { return this.ready.then(() => this.host.setCategoryNames(names)); }
    /** The pins that came from GeoJSON, at their true positions, with their properties. */
    toGeoJSON() { return this.host ? this.host.toGeoJSON() : { type: "FeatureCollection", features: [] }; }
    /** The categories' legend: [{ category, name, colour, count }], the commonest first. */
    legend() { return this.host ? this.host.legend() : []; }
    describeCluster(cluster) { return this.needHost("describeCluster").describeCluster(cluster); }
    addPin(id, lon, lat, attributes) { return this.needHost("addPin").addPin(id, lon, lat, attributes); }
    removePin(id) { return this.needHost("removePin").removePin(id); }
    select(id) { const h = this.needHost("select"); h.attempt(() => h.map.select(id)); h.afterInput(); return this; }
    undo() { const h = this.needHost("undo"); return h.attempt((t) => h.map.undo(t), "Nothing to undo") && (h.afterInput(), true); }
    redo() { const h = this.needHost("redo"); return h.attempt((t) => h.map.redo(t), "Nothing to redo") && (h.afterInput(), true); }
    place(id, lon, lat) { return this.needHost("place").place(id, lon, lat); }
    edit(id) { return this.needHost("edit").edit(id); }
    commit() { return this.needHost("commit").commit(); }
    cancelEdit() { return this.needHost("cancelEdit").cancelEdit(); }
    fitCluster(key) { return this.needHost("fitCluster").fitCluster(key); }
    announce(text) { this.needHost("announce").announce(text); return this; }
    redraw() { if (this.host) { this.host.dirty = true; this.requestRedraw(); } return this; }
    now() { return this.needHost("now").now(); }
    /** A pindrop map call that may be refused (nothing to undo, ...): false and the announcement. */
    attempt(f, failText) { return this.needHost("attempt").attempt(f, failText); }

    needHost(what) {
      if (!this.host) throw new Error(`pindrop/maplibre: ${what}() needs the layer on a map (map.addLayer(layer))`);
      return this.host;
    }
  }

    return { PindropLayer, refusal };
  }

  root.__pindropMapLibre = definePindropLayer;
  const script = typeof document !== "undefined" ? document.currentScript : null;
  if (script && script.src && root.maplibregl && !root.maplibregl.pindropLayer) {   // a plain script
    let core = null;
    const loadCore = () => (core = core || import(new URL("host/index.js", script.src).href));
    const { PindropLayer } = definePindropLayer(loadCore);
    root.maplibregl.PindropLayer = PindropLayer;
    root.maplibregl.pindropLayer = (options) => new PindropLayer(options);
  }
})(globalThis);
