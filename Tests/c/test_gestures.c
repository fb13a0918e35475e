/* Gesture stories through the C contract: a hold lifts at lift_delay_ms, the drop commits the last
   DRAGGED bit for bit, a cancel restores, bad input changes nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pindrop.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static int drain(pindrop_map *m, pindrop_event *out, int capacity) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(m, &e)) {
    if (n < capacity) out[n] = e;
    n++;
  }
  return n;
}

static pindrop_map *make_map(double *pin_x, double *pin_y) {
  pindrop_map *m = NULL;
  pindrop_camera cam;
  double lon, lat;
  cam.center_lon = -118.2; cam.center_lat = 33.8; cam.zoom = 18; cam.bearing_deg = 0;
  cam.width = 1200; cam.height = 800;
  if (pindrop_map_create(NULL, &m) != PINDROP_OK) return NULL;
  pindrop_map_set_camera(m, &cam);
  pindrop_map_to_lonlat(m, 600, 400, &lon, &lat);
  pindrop_map_add(m, 1, lon, lat);
  pindrop_map_to_screen(m, lon, lat, pin_x, pin_y);
  return m;
}

static void test_hold_drag_drop(void) {
  double x, y, lon0, lat0, lon, lat;
  pindrop_event ev[64];
  int n, i, last_dragged = -1, moved = -1;
  pindrop_map *m = make_map(&x, &y);
  CHECK(m != NULL);
  if (!m) return;
  pindrop_map_position(m, 1, &lon0, &lat0);
  CHECK(pindrop_map_next_deadline(m) == INFINITY);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, 1000) == 1);
  CHECK(pindrop_map_next_deadline(m) == 1250);
  CHECK(pindrop_map_tick(m, 1249) == PINDROP_OK);
  CHECK(drain(m, ev, 64) == 0);
  CHECK(pindrop_map_tick(m, 1250) == PINDROP_OK);
  n = drain(m, ev, 64);
  CHECK(n == 1 && ev[0].type == PINDROP_EVENT_LIFTED && ev[0].id == 1);
  for (i = 1; i <= 20; i++) pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + i * 7.3, y - i * 2.1, 1500 + i);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, x + 20 * 7.3, y - 20 * 2.1, 1600) == 1);
  n = drain(m, ev, 64);
  for (i = 0; i < n && i < 64; i++) {
    if (ev[i].type == PINDROP_EVENT_DRAGGED) last_dragged = i;
    if (ev[i].type == PINDROP_EVENT_MOVED) moved = i;
  }
  CHECK(last_dragged >= 0 && moved > last_dragged);
  if (last_dragged >= 0 && moved >= 0) {
    CHECK(memcmp(&ev[moved].lon, &ev[last_dragged].lon, sizeof(double)) == 0);
    CHECK(memcmp(&ev[moved].lat, &ev[last_dragged].lat, sizeof(double)) == 0);
    CHECK(ev[moved].cause == PINDROP_CAUSE_DRAG);
    CHECK(ev[moved].from_lon == lon0 && ev[moved].from_lat == lat0);
    pindrop_map_position(m, 1, &lon, &lat);
    CHECK(lon == ev[moved].lon && lat == ev[moved].lat);
  }
  pindrop_map_destroy(m);
}

static void test_cancel_and_bad_input(void) {
  double x, y, lon0, lat0, lon, lat;
  pindrop_event ev[64];
  int n;
  pindrop_map *m = make_map(&x, &y);
  CHECK(m != NULL);
  if (!m) return;
  pindrop_map_position(m, 1, &lon0, &lat0);
  pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, 0);
  /* Bad input: each is an error and changes nothing. */
  CHECK(pindrop_map_touch(m, 5, PINDROP_TOUCH_MOVE, 1, 1, 10) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(m, 5, PINDROP_TOUCH_UP, 1, 1, 10) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, 10) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(m, 0, (pindrop_touch_phase)42, x, y, 10) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, NAN, y, 10) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x, y, -1) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(strlen(pindrop_map_last_error(m)) > 0);
  CHECK(pindrop_map_tick(m, -5) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_touch(NULL, 0, PINDROP_TOUCH_DOWN, 1, 1, 1) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_tick(NULL, 1) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_cancel_gesture(NULL, 1) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_next_deadline(NULL) == INFINITY);
  CHECK(drain(m, ev, 64) == 0);
  CHECK(pindrop_map_next_deadline(m) == 250);
  /* The press survived: it lifts, drags, and Esc puts the pin back. */
  pindrop_map_tick(m, 250);
  pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + 200, y + 100, 300);
  CHECK(pindrop_map_cancel_gesture(m, 310) == PINDROP_OK);
  n = drain(m, ev, 64);
  CHECK(n >= 3 && ev[n - 1].type == PINDROP_EVENT_DRAG_CANCELLED);
  if (n >= 1) CHECK(ev[n - 1].lon == lon0 && ev[n - 1].lat == lat0);
  pindrop_map_position(m, 1, &lon, &lat);
  CHECK(lon == lon0 && lat == lat0);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, x + 200, y + 100, 320) == 1);
  CHECK(drain(m, ev, 64) == 0);
  pindrop_map_destroy(m);
}

int main(void) {
  test_hold_drag_drop();
  test_cancel_and_bad_input();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("gesture C tests passed\n");
  return failures != 0;
}
