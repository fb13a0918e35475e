// Painting pindrop's frame into one 2D canvas, bottom to top: clusters, the legs of spread pins,
// pins at rest, collapsed stacks, lifted pins as a teardrop whose tip is where they will land
// (paintFrame). Shared by the page and the benchmark, so that the benchmark's "including drawing"
// is the page's drawing.
//
// `clusters` and `frame` are what the package's Map.clusters(t) and Map.frame(t) return: typed
// arrays `count` long ({key, x, y, lon, lat, size, flags} and {id, x, y, anchorX, anchorY, lift,
// flags}), read here before the next call reuses them.

import { CLUSTER_ONE_SPOT, CLUSTER_STACK, PIN_DRAGGING, PIN_EDITING, PIN_FOCUSED, PIN_INVALID, PIN_SELECTED, PIN_SPREAD } from "pindrop";

export const COLORS = {
  pin: "#2e7d32", selected: "#1565c0", editing: "#ef6c00", invalid: "#c62828", leg: "rgba(40,60,40,.55)",
};

// Leaflet.markercluster's colours: small, medium, large
export function clusterStyle(count) {
  if (count < 10) return ["rgba(181,226,140,.6)", "rgba(110,204,57,.85)"];
  if (count < 100) return ["rgba(241,211,87,.6)", "rgba(240,194,12,.85)"];
  return ["rgba(253,156,115,.6)", "rgba(241,128,23,.85)"];
}

export const clusterRadius = (count) => 10 + 3.2 * Math.log10(count);

export function shortCount(n) {
  if (n < 1000) return String(n);
  if (n < 10000) return (n / 1000).toFixed(1).replace(/\.0$/, "") + "k";
  if (n < 1e6) return Math.round(n / 1000) + "k";
  return (n / 1e6).toFixed(1) + "M";
}

// The whole frame, bottom to top. A collapsed stack comes after the pins at rest: a tree a few
// points from a stack of 305 would otherwise cover its count (the Lawndale stacks sit among
// single trees). Lifted pins come last, above everything, as the one the user holds should.
// Returns the stacks' badges as paintStacks drew them.
export function paintFrame(ctx, clusters, frame, colour = null) {
  paintClusters(ctx, clusters, colour);
  paintPins(ctx, frame, false);
  const badges = paintStacks(ctx, clusters);
  paintPins(ctx, frame, true);
  return badges;
}

export const STACK_FONT = "600 11px system-ui, sans-serif";
const STACK_MIN_RADIUS = 9, STACK_PADDING = 3;   // points: a pin's disc and a little

// Collapsed stacks (CLUSTER_STACK): three discs, the front one sized to its count's measured text
// with STACK_PADDING either side ("305" is about 20 points wide in system-ui at 11 px, more than
// the 18 of a pin-sized disc, and white text beyond the disc is lost on the pale map). Returns
// [{ i, label, font, radius, textWidth }], one per stack drawn.
export function paintStacks(ctx, clusters) {
  const badges = [];
  ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = STACK_FONT;
  for (let i = 0; i < clusters.count; i++) {
    if (!(clusters.flags[i] & CLUSTER_STACK)) continue;
    const x = clusters.x[i], y = clusters.y[i], label = shortCount(clusters.size[i]);
    const textWidth = ctx.measureText(label).width;
    const radius = Math.max(STACK_MIN_RADIUS, textWidth / 2 + STACK_PADDING);
    for (let k = 2; k >= 0; k--) {
      ctx.beginPath(); ctx.arc(x + 3 * k, y - 3 * k, radius, 0, 2 * Math.PI);
      ctx.fillStyle = COLORS.pin; ctx.fill(); ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5; ctx.stroke();
    }
    ctx.fillStyle = "#fff";
    ctx.fillText(label, x, y);
    badges.push({ i, label, font: STACK_FONT, radius, textWidth });
  }
  return badges;
}

// Clusters other than collapsed stacks (paintStacks draws those, above the pins).
// colour(i) may give a cluster's fill (e.g. by its dominant category); null = by size
export function paintClusters(ctx, clusters, colour = null) {
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (let i = 0; i < clusters.count; i++) {
    const x = clusters.x[i], y = clusters.y[i], count = clusters.size[i], flags = clusters.flags[i];
    if (flags & CLUSTER_STACK) continue;
    const r = clusterRadius(count);
    let [outer, inner] = clusterStyle(count);
    const own = colour && colour(i);
    if (own) { outer = own[0]; inner = own[1]; }
    ctx.beginPath(); ctx.arc(x, y, r + 5, 0, 2 * Math.PI); ctx.fillStyle = outer; ctx.fill();
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fillStyle = inner; ctx.fill();
    if (flags & CLUSTER_ONE_SPOT) {
      ctx.setLineDash([3, 3]); ctx.strokeStyle = "#333"; ctx.lineWidth = 1.5; ctx.stroke(); ctx.setLineDash([]);
    }
    ctx.font = "600 12px system-ui, sans-serif";
    if (own) {   // a category's colour: white figures with a dark edge read on any hue
      ctx.lineWidth = 3; ctx.strokeStyle = "rgba(0,0,0,.55)"; ctx.strokeText(shortCount(count), x, y);
      ctx.fillStyle = "#fff";
    } else ctx.fillStyle = "#1b1b1b";
    ctx.fillText(shortCount(count), x, y);
  }
}

// The pins at rest with the legs of spread pins under them (lifted = false), or the lifted and
// dragged ones (lifted = true), each in the frame's drawing order.
export function paintPins(ctx, frame, lifted) {
  const { count: n, x: xs, y: ys, anchorX, anchorY, lift: lifts, flags: pinFlags } = frame;
  const isLifted = (i) => lifts[i] > 0.001 || (pinFlags[i] & PIN_DRAGGING) !== 0;
  if (!lifted) {
    ctx.strokeStyle = COLORS.leg; ctx.lineWidth = 1.2;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      if (pinFlags[i] & PIN_SPREAD) { ctx.moveTo(anchorX[i], anchorY[i]); ctx.lineTo(xs[i], ys[i]); }
    }
    ctx.stroke();
  }
  for (let i = 0; i < n; i++) {
    if (isLifted(i) !== lifted) continue;
    const x = xs[i], y = ys[i], lift = lifts[i], flags = pinFlags[i];
    let fill = COLORS.pin;
    if (flags & PIN_EDITING) fill = COLORS.editing;
    else if (flags & PIN_SELECTED) fill = COLORS.selected;
    if (flags & PIN_INVALID) fill = COLORS.invalid;
    if (lifted) paintLifted(ctx, x, y, Math.max(0, Math.min(1, lift)), fill);
    else {
      const bounce = lift < 0 ? -lift : 0;      // below 0 during the drop's bounce
      const r = (flags & (PIN_SELECTED | PIN_EDITING)) ? 7 : 5;
      ctx.beginPath(); ctx.arc(x, y, r * (1 + 0.6 * bounce), 0, 2 * Math.PI);
      ctx.fillStyle = fill; ctx.fill(); ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5; ctx.stroke();
    }
    if (flags & PIN_FOCUSED) focusRing(ctx, x, y, 11);
  }
}

export function focusRing(ctx, x, y, r) {
  ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.strokeStyle = "#111"; ctx.lineWidth = 2.5; ctx.setLineDash([4, 3]); ctx.stroke(); ctx.setLineDash([]);
}

// A lifted pin: a teardrop whose tip is the point it will land on, with a shadow there.
export function paintLifted(ctx, x, y, lift, fill) {
  const h = 26 + 8 * lift;
  ctx.beginPath(); ctx.ellipse(x, y, 6 + 3 * lift, 2.5 + lift, 0, 0, 2 * Math.PI);
  ctx.fillStyle = "rgba(0,0,0,.25)"; ctx.fill();
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.bezierCurveTo(x - 4, y - h * 0.45, x - 10, y - h * 0.6, x - 10, y - h);
  ctx.arc(x, y - h, 10, Math.PI, 0);
  ctx.bezierCurveTo(x + 10, y - h * 0.6, x + 4, y - h * 0.45, x, y);
  ctx.fillStyle = fill; ctx.fill(); ctx.strokeStyle = "#fff"; ctx.lineWidth = 2; ctx.stroke();
  ctx.beginPath(); ctx.arc(x, y - h, 3.5, 0, 2 * Math.PI); ctx.fillStyle = "#fff"; ctx.fill();
  ctx.beginPath(); ctx.moveTo(x - 4, y); ctx.lineTo(x + 4, y); ctx.moveTo(x, y - 4); ctx.lineTo(x, y + 4);
  ctx.strokeStyle = "#111"; ctx.lineWidth = 1; ctx.stroke();
}

// The canvas over the Leaflet map: a custom L.Layer in the map's container, sized to it (device
// pixels), redrawn by its owner on every view change rather than moved with the map pane.
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

// Leaflet's view as pindrop's camera: the container's centre as Leaflet itself unprojects it
// (Leaflet rounds its pixel origin, so getCenter() can sit up to half a pixel off the middle).
export function cameraOf(lmap) {
  const size = lmap.getSize();
  const c = lmap.containerPointToLatLng(L.point(size.x / 2, size.y / 2)).wrap();
  return { centerLon: c.lng, centerLat: c.lat, zoom: lmap.getZoom(), bearingDeg: 0, width: size.x, height: size.y };
}
