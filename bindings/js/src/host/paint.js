// Painting a pindrop frame into a 2D canvas, bottom to top: clusters, the legs of spread pins,
// pins at rest, collapsed stacks, lifted pins as a teardrop whose tip is where they will land,
// with its shadow there, then the keyboard focus ring. Each kind of item has a style hook:
//
//   style: { cluster, stack, pin, leg, lifted, focus }   each (ctx, item, paintDefault) => void
//
// A hook draws the item itself, or calls paintDefault() and draws over it. `item` holds what the
// frame says of it: {x, y, count, flags, key, colour} for a cluster or a stack, {id, x, y,
// anchorX, anchorY, lift, flags, fill} for a pin or a leg, {x, y, radius, kind} for the focus.
// `clusters` and `frame` are what Map.clusters(t) and Map.frame(t) return: typed arrays read here
// before the next call reuses them.

import { CLUSTER_ONE_SPOT, CLUSTER_STACK, PIN_DRAGGING, PIN_EDITING, PIN_FOCUSED, PIN_INVALID, PIN_SELECTED, PIN_SPREAD } from "../tables.js";

export const COLORS = {
  pin: "#2e7d32", selected: "#1565c0", editing: "#ef6c00", invalid: "#c62828", leg: "rgba(40,60,40,.55)",
  focus: "#111", oneSpot: "#fff",
};

/** Leaflet.markercluster's colours by size (small, medium, large): [halo, disc]. */
export function clusterStyle(count) {
  if (count < 10) return ["rgba(181,226,140,.6)", "rgba(110,204,57,.85)"];
  if (count < 100) return ["rgba(241,211,87,.6)", "rgba(240,194,12,.85)"];
  return ["rgba(253,156,115,.6)", "rgba(241,128,23,.85)"];
}

/** A category's colour: a hue per category (the golden angle apart), strong when the category
 *  holds at least half of a cluster (share >= 0.5), pale when less. [halo, disc]. */
export function categoryColour(category, share = 1) {
  const hue = (category * 137.508) % 360, sat = share >= 0.5 ? 65 : 30;
  return [`hsla(${hue},${sat}%,60%,.45)`, `hsla(${hue},${sat}%,50%,.9)`];
}

/** The legend's swatch of a category (its strong disc colour). */
export const legendColour = (category) => categoryColour(category, 1)[1];

export const clusterRadius = (count) => 10 + 3.2 * Math.log10(count);

export function shortCount(n) {
  if (n < 1000) return String(n);
  if (n < 10000) return (n / 1000).toFixed(1).replace(/\.0$/, "") + "k";
  if (n < 1e6) return Math.round(n / 1000) + "k";
  return (n / 1e6).toFixed(1) + "M";
}

export const STACK_FONT = "600 11px system-ui, sans-serif";
const STACK_MIN_RADIUS = 9, STACK_PADDING = 3;   // points: a pin's disc and a little
const FOCUS_DASH = [4, 3];

/**
 * The whole frame, bottom to top. A collapsed stack comes after the pins at rest (a tree a few
 * points from a stack of 305 would otherwise cover its count); lifted pins come last. `colour(i)`
 * may give cluster i's [halo, disc] (e.g. by category); null: by size. Returns the stacks' badges
 * as drawn: [{ i, label, font, radius, textWidth }].
 */
export function paintFrame(ctx, clusters, frame, colour = null, style = null) {
  paintClusters(ctx, clusters, colour, style);
  paintPins(ctx, frame, false, style);
  const badges = paintStacks(ctx, clusters, style);
  paintPins(ctx, frame, true, style);
  return badges;
}

/** Collapsed stacks (CLUSTER_STACK): three discs, the front one sized to its count's measured
 *  text with STACK_PADDING either side. */
export function paintStacks(ctx, clusters, style = null) {
  const badges = [];
  const hook = style && style.stack;
  for (let i = 0; i < clusters.count; i++) {
    if (!(clusters.flags[i] & CLUSTER_STACK)) continue;
    const x = clusters.x[i], y = clusters.y[i], label = shortCount(clusters.size[i]);
    ctx.font = STACK_FONT;
    const textWidth = ctx.measureText(label).width;
    const radius = Math.max(STACK_MIN_RADIUS, textWidth / 2 + STACK_PADDING);
    const paint = () => {
      ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = STACK_FONT;
      for (let k = 2; k >= 0; k--) {
        ctx.beginPath(); ctx.arc(x + 3 * k, y - 3 * k, radius, 0, 2 * Math.PI);
        ctx.fillStyle = COLORS.pin; ctx.fill(); ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5; ctx.stroke();
      }
      ctx.fillStyle = "#fff";
      ctx.fillText(label, x, y);
    };
    if (hook) hook(ctx, { x, y, count: clusters.size[i], flags: clusters.flags[i], key: clusters.key[i], label, radius }, paint);
    else paint();
    badges.push({ i, label, font: STACK_FONT, radius, textWidth });
  }
  return badges;
}

/**
 * Clusters other than collapsed stacks. A cluster whose members all share one spot
 * (CLUSTER_ONE_SPOT) is drawn as a stack of coins: two white-edged discs offset behind the
 * front one, solid lines only (the keyboard focus ring is the one dashed dark ring).
 */
export function paintClusters(ctx, clusters, colour = null, style = null) {
  const hook = style && style.cluster;
  for (let i = 0; i < clusters.count; i++) {
    const flags = clusters.flags[i];
    if (flags & CLUSTER_STACK) continue;
    const x = clusters.x[i], y = clusters.y[i], count = clusters.size[i];
    const own = colour && colour(i);
    const paint = () => paintCluster(ctx, x, y, count, flags, own);
    if (hook) hook(ctx, { x, y, count, flags, key: clusters.key[i], colour: own || clusterStyle(count) }, paint);
    else paint();
  }
}

export function paintCluster(ctx, x, y, count, flags, own = null) {
  const r = clusterRadius(count);
  const [outer, inner] = own || clusterStyle(count);
  ctx.beginPath(); ctx.arc(x, y, r + 5, 0, 2 * Math.PI); ctx.fillStyle = outer; ctx.fill();
  if (flags & CLUSTER_ONE_SPOT) {
    for (let k = 2; k >= 1; k--) {     // the coins behind, up and to the right
      ctx.beginPath(); ctx.arc(x + 2.5 * k, y - 2.5 * k, r, 0, 2 * Math.PI);
      ctx.fillStyle = inner; ctx.fill(); ctx.strokeStyle = COLORS.oneSpot; ctx.lineWidth = 1.5; ctx.stroke();
    }
  }
  ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fillStyle = inner; ctx.fill();
  if (flags & CLUSTER_ONE_SPOT) { ctx.strokeStyle = COLORS.oneSpot; ctx.lineWidth = 1.5; ctx.stroke(); }
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.font = "600 12px system-ui, sans-serif";
  if (own) {   // a category's colour: white figures with a dark edge read on any hue
    ctx.lineWidth = 3; ctx.strokeStyle = "rgba(0,0,0,.55)"; ctx.strokeText(shortCount(count), x, y);
    ctx.fillStyle = "#fff";
  } else ctx.fillStyle = "#1b1b1b";
  ctx.fillText(shortCount(count), x, y);
}

function pinFill(flags) {
  if (flags & PIN_INVALID) return COLORS.invalid;
  if (flags & PIN_EDITING) return COLORS.editing;
  if (flags & PIN_SELECTED) return COLORS.selected;
  return COLORS.pin;
}

/** The pins at rest with the legs of spread pins under them (lifted = false), or the lifted and
 *  dragged ones (lifted = true), each in the frame's drawing order. */
export function paintPins(ctx, frame, lifted, style = null) {
  const { count: n, x: xs, y: ys, anchorX, anchorY, lift: lifts, flags: pinFlags } = frame;
  const isLifted = (i) => lifts[i] > 0.001 || (pinFlags[i] & PIN_DRAGGING) !== 0;
  const itemOf = (i) => ({ id: frame.id[i], x: xs[i], y: ys[i], anchorX: anchorX[i], anchorY: anchorY[i], lift: lifts[i],
    flags: pinFlags[i], fill: pinFill(pinFlags[i]) });
  if (!lifted) {
    const legHook = style && style.leg;
    ctx.strokeStyle = COLORS.leg; ctx.lineWidth = 1.2;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      if (!(pinFlags[i] & PIN_SPREAD)) continue;
      if (legHook) {
        const item = itemOf(i);
        legHook(ctx, item, () => { ctx.beginPath(); ctx.moveTo(item.anchorX, item.anchorY); ctx.lineTo(item.x, item.y);
          ctx.strokeStyle = COLORS.leg; ctx.lineWidth = 1.2; ctx.stroke(); });
      } else { ctx.moveTo(anchorX[i], anchorY[i]); ctx.lineTo(xs[i], ys[i]); }
    }
    if (!legHook) ctx.stroke();
  }
  const hook = style && (lifted ? style.lifted : style.pin);
  const focusHook = style && style.focus;
  for (let i = 0; i < n; i++) {
    if (isLifted(i) !== lifted) continue;
    const x = xs[i], y = ys[i], lift = lifts[i], flags = pinFlags[i], fill = pinFill(flags);
    const paint = lifted ? () => paintLifted(ctx, x, y, Math.max(0, Math.min(1, lift)), fill) : () => {
      const bounce = lift < 0 ? -lift : 0;      // below 0 during the drop's bounce
      const r = (flags & (PIN_SELECTED | PIN_EDITING)) ? 7 : 5;
      ctx.beginPath(); ctx.arc(x, y, r * (1 + 0.6 * bounce), 0, 2 * Math.PI);
      ctx.fillStyle = fill; ctx.fill(); ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5; ctx.stroke();
    };
    if (hook) hook(ctx, itemOf(i), paint); else paint();
    if (flags & PIN_FOCUSED) {
      const ring = () => focusRing(ctx, x, y, 11);
      if (focusHook) focusHook(ctx, { x, y, radius: 11, kind: "pin", id: frame.id[i] }, ring); else ring();
    }
  }
}

/** The keyboard focus ring: the one dashed dark ring of the drawing. */
export function focusRing(ctx, x, y, r) {
  ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.strokeStyle = COLORS.focus; ctx.lineWidth = 2.5; ctx.setLineDash(FOCUS_DASH); ctx.stroke(); ctx.setLineDash([]);
}

/** A lifted pin: a teardrop whose tip is the point it will land on, with a shadow there. */
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
