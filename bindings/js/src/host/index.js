// pindrop's web host core: what every web map layer of pindrop needs, whatever the web map is
// (Leaflet: ../leaflet.js; MapLibre GL JS builds on the same). A layer creates
//
//   const host = new PindropHost(adapter, options);   // options: pindrop map options + the host's
//   await host.start();                                // loads pindrop.wasm, builds the map, listens
//
// and forwards two things from its web map: `host.cameraChanged()` on every move, zoom and
// resize, and `host.render()` when the adapter's requestRedraw() comes due (an animation frame).
// `host.destroy()` stops it. `host.map` is the pindrop Map.
//
// The adapter: an object the layer writes for its web map, with
//
//   container          the HTMLElement the map's pointer events reach (the map's container):
//                      the host listens on it, on the capture phase, before the map's handlers
//   canvas             an HTMLCanvasElement over the map at the container's top-left, for the
//                      host's 2D drawing; the host sizes it (CSS pixels × devicePixelRatio)
//   camera()           { centerLon, centerLat, zoom, width, height, bearingDeg }: the view as
//                      pindrop's camera (zoom: the Web Mercator zoom of 256-point tiles; the
//                      centre as the map itself unprojects the container's middle)
//   toLonLat(x, y)     a container point → [lon, lat], by the map's own projection
//   toPoint(lon, lat)  [lon, lat] → a container point [x, y]
//   panBy(dx, dy)      pans the view by container points, at once (no animation)
//   setView(lon, lat, zoom)   moves the view there, at once
//   maxZoom()          the map's largest zoom
//   setDragPan(on)     turns the map's own drag-pan on or off (off while pindrop holds a pointer)
//   requestRedraw()    asks for host.render() at the next animation frame (several asks, one call)
//   fire(type, data)   emits a layer event (host/events.js lists them)
//   isOwnControl(el)   true when el is in the map's own controls (zoom buttons, attribution):
//                      pointers and keys there are left to the map
//
// Optional members (additions since the first version; the host does without them):
//
//   snapZoom(zoom, direction)   the zoom on the map's zoom steps (Leaflet's zoomSnap), rounded
//                      up (direction 1) or down (-1); without it, zooms are not snapped
//
// Additions only from here on: a new member of the adapter is optional for the host.
//
// The modules: host.js (PindropHost), clock.js (the monotonic clock), input.js (pointer routing),
// keyboard.js (keys, the keyboard path, no keyboard trap), events.js (layer events and
// announcements), paint.js (the drawing and its style hooks), geojson.js and loading.js (GeoJSON
// in and out, chunked loading), store.js (the pins kept on the JavaScript side).

export { PindropHost, PROFILES, MAP_DEFAULTS, HOST_DEFAULTS } from "./host.js";
export { MonotonicClock } from "./clock.js";
export { CategoryTable, featuresOf, nameFeature, readFeatures, toFeatureCollection, usableId } from "./geojson.js";
export {
  COLORS, STACK_FONT, categoryColour, clusterRadius, clusterStyle, focusRing, legendColour, paintCluster, paintClusters,
  paintFrame, paintLifted, paintPins, paintStacks, shortCount,
} from "./paint.js";
export { compass, formatMetres } from "./events.js";
export { PinStore } from "./store.js";
