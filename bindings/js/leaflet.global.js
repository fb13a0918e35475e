// pindrop's Leaflet layer as a plain script: load Leaflet, then this file, then
//   L.pindropLayer({ clusterRadius: 60 }).addTo(map).addGeoJSON(trees, { id: "tree_id" });
// Written by scripts/build-global.mjs from src/leaflet/layer.js: do not edit.
(function () {
  "use strict";
  var L = window.L;
  if (!L || !L.Layer) throw new Error("pindrop: load Leaflet before leaflet.global.js");
  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var core = null;
  function loadCore() {
    core = core || import(new URL("src/host/index.js", base).href);
    return core;
  }

  // PindropLayer: pindrop as a Leaflet layer. `L.pindropLayer(options).addTo(map)` (or
  // `pindropLayer(options)` from "pindrop/leaflet") owns a canvas pane over the map and does what
  // a host of pindrop does (src/host): input routing for mouse, touch and pen, the exact camera,
  // the clock, the tick loop, the drawing, the keyboard path with its announcements, GeoJSON in and
  // out, and Leaflet events for what happened. Every pindrop map option passes through; `layer.map`
  // is the pindrop map (null until `layer.ready` resolves).
  //
  // This file has no imports: the ES entry (../leaflet.js) and the plain script
  // (leaflet.global.js, written from this file by scripts/build-global.mjs) both call
  // definePindropLayer(L, loadCore), with loadCore() resolving to the host core's module.

  function definePindropLayer(L, loadCore) {
    const PANE = "pindropPane";

    // The Leaflet map as the host core's adapter (src/host/index.js describes its members).
    function leafletAdapter(layer, map, canvas) {
      let frame = 0;
      return {
        container: map.getContainer(),
        canvas,
        camera() {
          // the container's middle as Leaflet unprojects it: getCenter() can be half a pixel off
          // (Leaflet rounds its pixel origin)
          const size = map.getSize();
          const c = map.containerPointToLatLng(L.point(size.x / 2, size.y / 2)).wrap();
          return { centerLon: c.lng, centerLat: c.lat, zoom: map.getZoom(), bearingDeg: 0, width: size.x, height: size.y };
        },
        toLonLat(x, y) { const c = map.containerPointToLatLng(L.point(x, y)); return [c.lng, c.lat]; },
        toPoint(lon, lat) { const p = map.latLngToContainerPoint(L.latLng(lat, lon)); return [p.x, p.y]; },
        panBy(dx, dy) { map.panBy(L.point(dx, dy), { animate: false }); },
        setView(lon, lat, zoom) { map.setView(L.latLng(lat, lon), zoom, { animate: false }); },
        snapZoom(zoom, direction) {
          const snap = map.options.zoomSnap;
          if (!snap) return zoom;
          const steps = zoom / snap, near = Math.round(steps);
          if (Math.abs(steps - near) < 1e-9) return near * snap;
          return (direction > 0 ? Math.ceil(steps) : Math.floor(steps)) * snap;
        },
        maxZoom() { const z = map.getMaxZoom(); return Number.isFinite(z) ? z : 22; },
        setDragPan(on) {
          if (!map.dragging) return;
          if (!on && map.dragging.enabled()) { layer._dragPanOff = true; map.dragging.disable(); }
          else if (on && layer._dragPanOff) { layer._dragPanOff = false; map.dragging.enable(); }
        },
        requestRedraw() {
          if (frame) return;
          frame = requestAnimationFrame(() => { frame = 0; if (layer.host) layer.host.render(); });
        },
        fire(type, data) { layer.fire(type, data); },
        isOwnControl(el) { return !!(el && el.closest && el.closest(".leaflet-control-container")); },
      };
    }

    const PindropLayer = L.Layer.extend({
      options: { pane: PANE },

      initialize(options) {
        L.setOptions(this, options);
        this.host = null;
        this._core = loadCore();
        let added;
        this._added = new Promise((resolve) => { added = resolve; });
        this._resolveAdded = added;
        /** Resolves to the layer once it is on a map with its pindrop map built. */
        this.ready = this._added.then((host) => host.start()).then(() => this);
      },

      onAdd(map) {
        const pane = map.getPane(this.options.pane) || map.createPane(this.options.pane, map.getContainer());
        pane.style.zIndex = 450;
        pane.style.pointerEvents = "none";
        this._pane = pane;
        const canvas = this._canvas = L.DomUtil.create("canvas", "pindrop-canvas leaflet-zoom-animated", pane);
        Object.assign(canvas.style, { position: "absolute", left: "0", top: "0", pointerEvents: "none" });
        this._core.then((core) => {
          if (this._map !== map) return;
          const options = { ...this.options };
          delete options.pane;
          this.host = new core.PindropHost(leafletAdapter(this, map, canvas), options);
          this._resolveAdded(this.host);
          return this.ready.then(() => { if (this._map === map) this.fire("ready", { map: this.host.map }); });
        }).catch((err) => this.fire("error", { error: err }));
      },

      onRemove(map) {
        if (this.host) this.host.destroy();
        this.host = null;
        L.DomUtil.remove(this._canvas);
        this._canvas = null;
        if (this._pane && !this._pane.firstChild) { L.DomUtil.remove(this._pane); delete map._panes[this.options.pane]; }
      },

      getEvents() {
        return { move: this._viewChanged, zoom: this._viewChanged, resize: this._viewChanged, viewreset: this._viewChanged,
          zoomanim: this._zoomAnim, zoomend: this._zoomEnd };
      },

      _viewChanged() { if (this.host) this.host.cameraChanged(); },

      // Leaflet's zoom animation scales the map's panes; the canvas is scaled along (as Leaflet's
      // own canvas renderer is), and drawn at the new zoom when it ends.
      _zoomAnim(e) {
        const map = this._map, canvas = this._canvas;
        if (!canvas) return;
        const scale = map.getZoomScale(e.zoom, map.getZoom());
        const topLeft = map.project(map.containerPointToLatLng(L.point(0, 0)), map.getZoom());
        const newTopLeft = map.project(e.center, e.zoom).subtract(map.getSize().divideBy(2));
        L.DomUtil.setTransform(canvas, topLeft.multiplyBy(scale).subtract(newTopLeft), scale);
      },
      _zoomEnd() { if (this._canvas) this._canvas.style.transform = ""; },

      // ---- the API --------------------------------------------------------------------------------
      /** Adds a FeatureCollection's Point features as pins, in chunks with `progress` events:
       *  options { id, value, category }, each a property name or (feature, index) => ... Resolves
       *  to the number added; rejects, adding none, naming a refused feature. */
      addGeoJSON(geojson, options) { return this.ready.then(() => this.host.addGeoJSON(geojson, options)); },
      /** The pins that came from GeoJSON, at their true positions, their properties intact. */
      toGeoJSON() { return this.host ? this.host.toGeoJSON() : { type: "FeatureCollection", features: [] }; },
      /** Adds pins from arrays: ids, interleaved lonlat, options { values, categories } (typed
       *  arrays), in chunks with `progress` events. Resolves to the number added. */
      addPins(ids, lonlat, options) { return this.ready.then(() => this.host.addPins(ids, lonlat, options)); },
      /** Names the categories 0, 1, ... given as numbers to addPins (the legend's names). */
      setCategoryNames(names) { return this.ready.then(() => this.host.setCategoryNames(names)); },
      /** What a drawn cluster holds, in words ("608 trees · 23% Platanus racemosa · 36 kinds"). */
      describeCluster(cluster) { return this.host.describeCluster(cluster); },
      /** Adds one pin: options { value, category, feature }. */
      addPin(id, lon, lat, options) { return this.host.addPin(id, lon, lat, options); },
      removePin(id) { return this.host.removePin(id); },
      /** The categories with their colours, for a legend: [{ category, name, colour }]. */
      legend() { return this.host ? this.host.legend() : []; },
      /** Selects a pin (null: none). */
      select(id) { this.host.attempt(() => this.host.map.select(id)); this.host.afterInput(); return this; },
      undo() { return this.host.attempt((t) => this.host.map.undo(t), "Nothing to undo") && (this.host.afterInput(), true); },
      redo() { return this.host.attempt((t) => this.host.map.redo(t), "Nothing to redo") && (this.host.afterInput(), true); },
      /** Edits: place a new pin, edit one (a tap on the map moves it), keep or cancel the edit. */
      place(id, lon, lat) { return this.host.place(id, lon, lat); },
      edit(id) { return this.host.edit(id); },
      commit() { return this.host.commit(); },
      cancelEdit() { return this.host.cancelEdit(); },
      /** Fits a cluster's members in the view (what a click on it does by default). */
      fitCluster(key) { return this.host.fitCluster(key); },
      /** Says something in the layer's ARIA live region. */
      announce(text) { this.host.announce(text); return this; },
      /** Draws again at the next animation frame. */
      redraw() { if (this.host) { this.host.dirty = true; this.host.adapter.requestRedraw(); } return this; },
      /** The time the layer gives pindrop now: pass it to any pindrop call that takes a time. */
      now() { return this.host.now(); },
    });

    /** The pindrop map (null until `ready`): for anything the layer does not say itself. */
    Object.defineProperty(PindropLayer.prototype, "map", { get() { return this.host ? this.host.map : null; } });

    return PindropLayer;
  }

  L.PindropLayer = definePindropLayer(L, loadCore);
  L.pindropLayer = function (options) { return new L.PindropLayer(options); };
})();
