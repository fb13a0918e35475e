// The page's drawing is the Leaflet layer's (pindrop/leaflet, src/host/paint.js in the package);
// this module keeps the names the web benchmark (benchmarks/web) imports from the page, so that
// its "including drawing" is still the page's drawing.

export { COLORS, STACK_FONT, clusterRadius, clusterStyle, focusRing, paintClusters, paintFrame, paintLifted, paintPins,
  paintStacks, shortCount } from "/pindrop/src/host/paint.js";

// A canvas over a Leaflet map, sized to it (device pixels): the benchmark draws into it.
export function makeOverlay() {
  const CanvasOverlay = L.Layer.extend({
    onAdd(map) {
      this._canvas = L.DomUtil.create("canvas", "pindrop-canvas", map.getContainer());
      this._ctx = this._canvas.getContext("2d");
      const s = map.getSize();
      this.resize(s.x, s.y);
    },
    onRemove() { L.DomUtil.remove(this._canvas); },
    resize(w, h) {
      const dpr = window.devicePixelRatio || 1;
      if (!this._canvas) return;
      if (this._w === w && this._h === h && this._dpr === dpr) return;
      this._w = w; this._h = h; this._dpr = dpr;
      this._canvas.width = Math.round(w * dpr); this._canvas.height = Math.round(h * dpr);
      this._canvas.style.width = w + "px"; this._canvas.style.height = h + "px";
    },
    begin() {
      const ctx = this._ctx;
      ctx.setTransform(this._dpr, 0, 0, this._dpr, 0, 0);
      ctx.clearRect(0, 0, this._w, this._h);
      return ctx;
    },
  });
  return new CanvasOverlay();
}

// Leaflet's view as pindrop's camera (the layer's adapter does the same).
export function cameraOf(lmap) {
  const size = lmap.getSize();
  const c = lmap.containerPointToLatLng(L.point(size.x / 2, size.y / 2)).wrap();
  return { centerLon: c.lng, centerLat: c.lat, zoom: lmap.getZoom(), bearingDeg: 0, width: size.x, height: size.y };
}
