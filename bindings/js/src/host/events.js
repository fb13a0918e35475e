// What happened, for the map's user: each pindrop event the host drains becomes a layer event
// (fired through the adapter) and, where a person should hear of it, an announcement in the ARIA
// live region. The host also acts on some: AUTOPAN pans the map, CLUSTER_TAPPED zooms in, MOVED
// and DRAG_CANCELLED keep the host's copy of the true positions.
//
// Layer events, each with `pindrop` (the pindrop event) and, for a pin from GeoJSON, `feature`:
//   pinselected {id, lon, lat}        pindeselected {id}
//   pindragstart {id, lon, lat}       pindrag {id, lon, lat}       pindragend {id, lon, lat, cancelled}
//   pinmoved {id, lon, lat, fromLon, fromLat, cause, distanceM}
//   geocoderequest {id, lon, lat, request, answer(text)}          calloutchange {id}
//   nearby {id, other, distanceM, otherFeature}                   autopan {dx, dy}
//   clusterclick {key, lon, lat, count, preventDefault()}          stackopened {key}   stackclosed {key}
//   pindropevent {pindrop} for every event, before the one above.

import { distance } from "../distance.js";

const HOW = { DRAG: "Dropped", TAP: "Moved", PLACE: "Placed", NUDGE: "Nudged", SNAP: "Snapped", KEYBOARD: "Dropped",
  UNDO: "Undone:", REDO: "Redone:" };

export const formatMetres = (d) => (d < 10 ? d.toFixed(1) : d.toFixed(0)) + " m";
/** The compass direction of a bearing (degrees clockwise from north). */
export const compass = (deg) => ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"][Math.round(deg / 45) % 8];

/** Drains the map's events into layer events and announcements. */
export function drainEvents(host) {
  const m = host.map;
  if (!m) return;
  let droppedId = null, movedAfterDrop = false;
  for (const e of m.events()) {
    host.dirty = true;
    const feature = e.id !== null ? host.store.featureOf(e.id) : undefined;
    const base = { pindrop: e, id: e.id, feature };
    host.fire("pindropevent", { pindrop: e });
    switch (e.type) {
      case "SELECTED":
        host.selected = e.id;
        host.fire("pinselected", { ...base, lon: e.lon, lat: e.lat });
        host.announce(`Selected ${host.titleOf(e.id)}`);
        break;
      case "DESELECTED":
        if (host.selected === e.id) host.selected = null;
        host.fire("pindeselected", base);
        break;
      case "LIFTED":
        host.fire("pindragstart", { ...base, lon: e.lon, lat: e.lat });
        host.announce(`Lifted ${host.titleOf(e.id)}`);
        break;
      case "DRAGGED": host.fire("pindrag", { ...base, lon: e.lon, lat: e.lat }); break;
      case "DROPPED":
        droppedId = e.id;
        host.fire("pindragend", { ...base, lon: e.lon, lat: e.lat, cancelled: false });
        break;
      case "DRAG_CANCELLED":
        host.store.move(e.id, e.lon, e.lat);
        host.fire("pindragend", { ...base, lon: e.lon, lat: e.lat, cancelled: true });
        host.announce(`Move cancelled: ${host.titleOf(e.id)} is back where it was`);
        break;
      case "MOVED": {
        if (e.id === droppedId) movedAfterDrop = true;
        host.store.move(e.id, e.lon, e.lat);
        const { metres, bearing } = distance(e.fromLon, e.fromLat, e.lon, e.lat);
        const distanceM = e.distanceM ?? metres;
        host.fire("pinmoved", { ...base, lon: e.lon, lat: e.lat, fromLon: e.fromLon, fromLat: e.fromLat, cause: e.cause, distanceM });
        const what = host.titleOf(e.id);
        if (e.cause === "UNDO") host.announce(`Undone: ${what} is back where it was, ${formatMetres(metres)} away`);
        else if (e.cause === "PLACE") host.announce(`Placed ${what}`);
        else host.announce(`${HOW[e.cause] || "Moved"} ${what}: moved ${formatMetres(metres)}${metres > 0 ? " " + compass(bearing) : ""}`);
        break;
      }
      case "GEOCODE_REQUEST":
        host.fire("geocoderequest", { ...base, lon: e.lon, lat: e.lat, request: e.request,
          answer: (text) => host.map !== null && host.map === m && m.answerGeocode(e.request, text) });
        break;
      case "CALLOUT_CHANGED": host.fire("calloutchange", base); break;
      case "NEARBY":
        host.fire("nearby", { ...base, other: e.other, distanceM: e.distanceM, otherFeature: host.store.featureOf(e.other) });
        host.announce(`${host.lastAnnouncement} — ${host.titleOf(e.other)} is ${formatMetres(e.distanceM)} away: is it already on the map?`);
        break;
      case "AUTOPAN":
        host.adapter.panBy(e.dx, e.dy);
        host.fire("autopan", { pindrop: e, dx: e.dx, dy: e.dy });
        break;
      case "CLUSTER_TAPPED": host.clusterClicked(e); break;
      case "STACK_OPENED": {
        const c = host.drawnClusters.find((k) => k.key === e.key);
        host.fire("stackopened", { pindrop: e, key: e.key, count: c ? c.size : null });
        host.announce(`Opened a stack of ${c ? c.size + " " + host.itemsName : host.itemsName} sharing one spot: each can be dragged out`);
        break;
      }
      case "STACK_CLOSED":
        host.fire("stackclosed", { pindrop: e, key: e.key });
        host.announce("Closed the stack");
        break;
      default: break;
    }
  }
  if (droppedId !== null && !movedAfterDrop) host.announce(`Dropped ${host.titleOf(droppedId)} where it was`);
}
