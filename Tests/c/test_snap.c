/* Snapping through the C ABI (behaviour 24, docs/editing.md "Snapping"): a snap layer from WKT and
   from GeoJSON, a drag that lands on a vertex and on a segment, pindrop_map_snap_target and the
   SNAPPED flag while dragging, the drop committing exactly the snapped point, PINDROP_MOD_NO_SNAP,
   and the refusals (bad text, a feature without an integer id, a layer of 2^32-1, a NaN or negative
   tolerance, out NULL) that change nothing. */
#include <pindrop.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* The last DRAGGED and the MOVED among the events waiting; returns how many MOVED. */
static int drain(pindrop_map *map, double *dlon, double *dlat, double *mlon, double *mlat) {
  pindrop_event e;
  int moved = 0;
  while (pindrop_map_poll_event(map, &e) == 1) {
    if (e.type == PINDROP_EVENT_DRAGGED) { *dlon = e.lon; *dlat = e.lat; }
    if (e.type == PINDROP_EVENT_MOVED) { *mlon = e.lon; *mlat = e.lat; moved++; }
  }
  return moved;
}

static uint32_t flags_of(pindrop_map *map, pindrop_id id, double t) {
  pindrop_pin_view v[8];
  size_t n = pindrop_map_frame(map, t, v, 8), i;
  for (i = 0; i < n && i < 8; i++) if (v[i].id == id) return v[i].flags;
  return 0xffffffffu;
}

int main(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.3, 34.0, 18, 0, 800, 600};
  pindrop_snap s;
  double vlon, vlat, alon, alat, blon, blat, x, y, dlon = 0, dlat = 0, mlon = 0, mlat = 0;
  char text[512];

  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.lift_height = 0;
  /* A tolerance that is NaN or negative is refused when the map is made. */
  o.snap_tolerance = NAN;
  CHECK(pindrop_map_create(&o, &map) == PINDROP_ERR_INVALID_ARGUMENT && map == NULL);
  CHECK(strstr(pindrop_last_error(), "snap_tolerance") != NULL);
  o.snap_tolerance = -1;
  CHECK(pindrop_map_create(&o, &map) == PINDROP_ERR_INVALID_ARGUMENT && map == NULL);
  o.snap_tolerance = 12;
  CHECK(pindrop_map_create(&o, &map) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(map, &cam) == PINDROP_OK);
  CHECK(pindrop_map_to_lonlat(map, 100, 300, &x, &y) == PINDROP_OK);
  CHECK(pindrop_map_add(map, 1, x, y) == PINDROP_OK);

  /* A vertex at (500, 300) and a street from (300, 400) to (700, 400). */
  CHECK(pindrop_map_to_lonlat(map, 500, 300, &vlon, &vlat) == PINDROP_OK);
  CHECK(pindrop_map_to_lonlat(map, 300, 400, &alon, &alat) == PINDROP_OK);
  CHECK(pindrop_map_to_lonlat(map, 700, 400, &blon, &blat) == PINDROP_OK);
  snprintf(text, sizeof text, "POINT (%.17g %.17g)", vlon, vlat);
  CHECK(pindrop_map_set_snap_layer(map, 0, text) == PINDROP_OK);
  snprintf(text, sizeof text, "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":77,"
           "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[%.17g,%.17g],[%.17g,%.17g]]}}]}",
           alon, alat, blon, blat);
  CHECK(pindrop_map_set_snap_layer(map, 5, text) == PINDROP_OK);

  /* Not dragging: kind NONE. out NULL: INVALID_ARGUMENT. */
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_NONE);
  CHECK(pindrop_map_snap_target(map, NULL) == PINDROP_ERR_INVALID_ARGUMENT);

  /* Drag near the vertex: DRAGGED reports it exactly, the target says so, the pin is SNAPPED. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 100, 300, 0) >= 0);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 200, 300, 16) >= 0);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 506, 296, 32) >= 0);
  drain(map, &dlon, &dlat, &mlon, &mlat);
  CHECK(dlon == vlon && dlat == vlat);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK);
  CHECK(s.kind == PINDROP_SNAP_VERTEX && s.layer == 0 && s.feature == 0 && s.index == 0);
  CHECK(s.lon == vlon && s.lat == vlat);
  CHECK(flags_of(map, 1, 32) & PINDROP_PIN_SNAPPED);

  /* Near the street: the nearest point on it, straight below the finger. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 560, 392, 48) >= 0);
  drain(map, &dlon, &dlat, &mlon, &mlat);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK);
  CHECK(s.kind == PINDROP_SNAP_SEGMENT && s.layer == 5 && s.feature == 77 && s.index == 0);
  CHECK(pindrop_map_to_screen(map, dlon, dlat, &x, &y) == PINDROP_OK);
  CHECK(fabs(x - 560) < 1e-6 && fabs(y - 400) < 1e-6);

  /* NO_SNAP held: the next move lands on the finger; released: the next move snaps again. */
  CHECK(pindrop_map_set_modifiers(map, PINDROP_MOD_NO_SNAP) == PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 561, 392, 64) >= 0);
  drain(map, &dlon, &dlat, &mlon, &mlat);
  CHECK(pindrop_map_to_screen(map, dlon, dlat, &x, &y) == PINDROP_OK);
  CHECK(fabs(x - 561) < 1e-6 && fabs(y - 392) < 1e-6);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_NONE);
  CHECK(!(flags_of(map, 1, 64) & PINDROP_PIN_SNAPPED));
  CHECK(pindrop_map_set_modifiers(map, 0) == PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 562, 392, 80) >= 0);
  drain(map, &dlon, &dlat, &mlon, &mlat);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_SEGMENT);

  /* The drop commits exactly the last DRAGGED, the snapped point. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 562, 392, 96) >= 0);
  CHECK(drain(map, &dlon, &dlat, &mlon, &mlat) == 1);
  CHECK(mlon == s.lon && mlat == s.lat);
  CHECK(pindrop_map_position(map, 1, &x, &y) == PINDROP_OK && x == s.lon && y == s.lat);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_NONE);

  /* Refusals, each with a message, changing nothing. */
  CHECK(pindrop_map_set_snap_layer(map, 0, "POINT (1 2") == PINDROP_ERR_PARSE);
  CHECK(strstr(pindrop_map_last_error(map), "WKT") != NULL);
  CHECK(pindrop_map_set_snap_layer(map, 0, "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}")
        == PINDROP_ERR_PARSE);
  CHECK(strstr(pindrop_map_last_error(map), "id") != NULL);
  CHECK(pindrop_map_set_snap_layer(map, 4294967295u, "POINT (1 2)") == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(pindrop_map_last_error(map), "4294967295") != NULL);
  CHECK(pindrop_map_set_snap_layer(map, 4294967295u, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_set_snap_layer(NULL, 0, "POINT (1 2)") == PINDROP_ERR_INVALID_ARGUMENT);
  /* The vertex still snaps: drag pin 1 back to it. */
  CHECK(pindrop_map_to_screen(map, mlon, mlat, &x, &y) == PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, x, y, 1000) >= 0);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 504, 303, 1016) >= 0);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_VERTEX && s.lon == vlon);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 504, 303, 1032) >= 0);

  /* Clearing layers (NULL and ""): nothing to snap to. */
  CHECK(pindrop_map_set_snap_layer(map, 0, NULL) == PINDROP_OK);
  CHECK(pindrop_map_set_snap_layer(map, 5, "") == PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 500, 300, 2000) >= 0);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 560, 396, 2016) >= 0);
  CHECK(pindrop_map_snap_target(map, &s) == PINDROP_OK && s.kind == PINDROP_SNAP_NONE);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 560, 396, 2032) >= 0);

  pindrop_map_destroy(map);
  if (failures) { fprintf(stderr, "test_snap: %d failures\n", failures); return 1; }
  printf("test_snap: ok\n");
  return 0;
}
