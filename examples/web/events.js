// What happened: pindrop's events, drained after every input and tick, kept for the tests
// (window.pindropPage.events) and acted on: the selection and its callout, the true positions the
// page keeps, the live region's announcements, auto-pan, and zooming into a tapped cluster.

import { distance } from "pindrop";
import { answerGeocode, fillCallout } from "./callout.js";
import { announce, page, storePosition, treeTitle, tryCall, ui } from "./page.js";

export function drain() {
  const m = page.map;
  let droppedId = null, movedAfterDrop = false;
  for (const e of m.events()) {
    page.events.push(e);
    ui.dirty = true;
    switch (e.type) {
      case "SELECTED":
        page.selected = e.id;
        if (!m.callout(e.id, "title")) tryCall(() => m.setTitle(e.id, treeTitle(e.id)), "");
        fillCallout(); announce(`Selected ${treeTitle(e.id)}`);
        break;
      case "DESELECTED": if (page.selected === e.id) page.selected = null; fillCallout(); break;
      case "LIFTED": announce(`Lifted ${treeTitle(e.id)}`); break;
      case "DRAGGED":
        page.lastDragged = { id: e.id, lon: e.lon, lat: e.lat };
        if (e.id === page.selected) {   // the callout shows where the tree would land now (drawn
          // with the next frame: a write per pointer event would make the next event's
          // getBoundingClientRect lay the page out again, 100-200 µs each)
          ui.dragText = `→ ${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}`;
        }
        break;
      case "DROPPED": droppedId = e.id; break;
      case "DRAG_CANCELLED": storePosition(e.id, e.lon, e.lat); if (e.id === page.selected) fillCallout(); announce(`Move cancelled: ${treeTitle(e.id)} is back where it was`); break;
      case "MOVED": {
        page.lastMoved = e;
        if (e.id === droppedId) movedAfterDrop = true;
        storePosition(e.id, e.lon, e.lat);
        const { metres: d, bearing } = distance(e.fromLon, e.fromLat, e.lon, e.lat);
        const what = treeTitle(e.id);
        const how = { DRAG: "Dropped", TAP: "Moved", PLACE: "Placed", NUDGE: "Nudged", SNAP: "Snapped",
                      KEYBOARD: "Dropped", UNDO: "Undone:", REDO: "Redone:" }[e.cause] || "Moved";
        if (e.cause === "UNDO") announce(`Undone: ${what} is back where it was, ${fmtM(d)} away`);
        else if (e.cause === "PLACE") announce(`Placed ${what}`);
        else announce(`${how} ${what}: moved ${fmtM(d)}${d > 0 ? " " + compass(bearing) : ""}`);
        if (e.id === page.selected) fillCallout();
        break;
      }
      case "GEOCODE_REQUEST": answerGeocode(e); break;
      case "CALLOUT_CHANGED": if (e.id === page.selected) fillCallout(); break;
      case "NEARBY": announce(`${page.announcements.at(-1) || ""} — tree #${e.other} is ${fmtM(e.distanceM)} away: is it already on the map?`); break;
      case "AUTOPAN": page.leaflet.panBy([e.dx, e.dy], { animate: false }); break;
      case "CLUSTER_TAPPED": zoomIntoCluster(e); break;
      case "STACK_OPENED": {
        const c = page.drawnClusters.find((k) => k.key === e.request);
        announce(`Opened a stack of ${c ? c.size + " trees" : "trees"} sharing one spot: each can be dragged out`);
        break;
      }
      case "STACK_CLOSED": announce("Closed the stack"); break;
      default: break;
    }
  }
  if (droppedId !== null && !movedAfterDrop) announce(`Dropped ${treeTitle(droppedId)} where it was`);
}

export function zoomIntoCluster(e) {
  const m = page.map;
  let zoom;
  try { zoom = m.clusterExpansionZoom(e.request); } catch (err) { zoom = page.leaflet.getZoom() + 2; }
  const c = page.drawnClusters.find((k) => k.key === e.request);
  const target = Math.min(Math.max(zoom, page.leaflet.getZoom() + 0.5), page.leaflet.getMaxZoom());
  page.leaflet.setView([e.lat, e.lon], target, { animate: false });
  announce(`Zoomed in to ${c ? c.size.toLocaleString("en-US") + " trees" : "a cluster"} (zoom ${target.toFixed(1)})`);
}

const fmtM = (d) => (d < 10 ? d.toFixed(1) : d.toFixed(0)) + " m";
// The compass direction of a bearing (degrees clockwise from north).
const compass = (deg) => ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"][Math.round(deg / 45) % 8];
