/* Behaviour 20 through the C ABI: the keyboard focus in reading order (checked against a qsort of
   the frame), the FOCUSED flag, the keyboard drag (key lift, nudges as DRAGGED, key drop with
   cause KEYBOARD, undo), auto-pan, cancel, and the refusals, which change nothing. */
#include <pindrop.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

#define W 1200.0
#define H 800.0
#define R 22.0 /* hit_radius */
#define MAXV 256

static int by_reading_order(const void *pa, const void *pb) {
  const pindrop_pin_view *a = (const pindrop_pin_view *)pa, *b = (const pindrop_pin_view *)pb;
  double ra = floor(a->y / R), rb = floor(b->y / R);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

/* Drains the events: how many of `type`, the last of them in *last. */
static int drain(pindrop_map *map, int type, pindrop_event *last) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(map, &e) == 1)
    if (e.type == type) { n++; if (last) *last = e; }
  return n;
}

static void add_at(pindrop_map *map, pindrop_id id, double x, double y) {
  double lon, lat;
  CHECK(pindrop_map_to_lonlat(map, x, y, &lon, &lat) == PINDROP_OK);
  CHECK(pindrop_map_add(map, id, lon, lat) == PINDROP_OK);
}

int main(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.3535474, 33.8870931, 18, 0, W, H};
  static pindrop_pin_view views[MAXV], order[MAXV];
  pindrop_focus f, g;
  pindrop_event e;
  size_t n, m, i;
  double lon0, lat0, x0, y0, lon, lat, x, y;
  unsigned seed = 12345;
  int k;

  /* The ABI of pindrop_focus: 40 bytes, fields where the header puts them. */
  CHECK(sizeof(pindrop_focus) == 40);
  CHECK(offsetof(pindrop_focus, id) == 8 && offsetof(pindrop_focus, key) == 16);
  CHECK(offsetof(pindrop_focus, x) == 24 && offsetof(pindrop_focus, y) == 32);
  CHECK(PINDROP_PIN_FOCUSED == 32 && PINDROP_CAUSE_KEYBOARD == 8 && PINDROP_FOCUS_CLUSTER == 2);

  pindrop_options_init(&o, sizeof o);
  CHECK(pindrop_map_create(&o, &map) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(map, &cam) == PINDROP_OK);

  /* No frame yet: nothing to focus. */
  CHECK(pindrop_map_focus_step(map, 1, &f) == PINDROP_OK && f.kind == PINDROP_FOCUS_NONE && f.id == PINDROP_NO_ID);

  /* 120 pins over and around the viewport, some sharing a point (ties by id). */
  for (k = 0; k < 120; k++) {
    seed = seed * 1103515245u + 12345u;
    x = (double)((seed >> 8) % 1400) - 100;
    seed = seed * 1103515245u + 12345u;
    y = (double)((seed >> 8) % 1000) - 100;
    add_at(map, k + 1, x, y);
    if (k % 10 == 0) add_at(map, 1000 + k, x, y);
  }
  n = pindrop_map_frame(map, 0, views, MAXV);
  CHECK(n > 0 && n <= MAXV);
  /* The oracle: the views inside the viewport, sorted by (row, x, id). Spread pins are drawn on
     their rings, which the frame already says. */
  for (i = 0, m = 0; i < n && i < MAXV; i++)
    if (views[i].x >= 0 && views[i].x <= W && views[i].y >= 0 && views[i].y <= H) order[m++] = views[i];
  qsort(order, m, sizeof order[0], by_reading_order);
  CHECK(m > 50);
  {
    size_t index = 7, total = 7;
    CHECK(pindrop_map_focus_rank(map, &index, &total) == PINDROP_OK && index == m && total == m);  /* none yet */
    CHECK(pindrop_map_focus_rank(map, NULL, &total) == PINDROP_ERR_INVALID_ARGUMENT);
  }
  for (i = 0; i < m; i++) {
    size_t index = 0, total = 0;
    CHECK(pindrop_map_focus_step(map, 1, &f) == PINDROP_OK);
    CHECK(pindrop_map_focus_rank(map, &index, &total) == PINDROP_OK && index == i && total == m);
    CHECK(f.kind == PINDROP_FOCUS_PIN && f.id == order[i].id && f.key == 0 && f.reserved == 0);
    CHECK(f.x == order[i].x && f.y == order[i].y);
  }
  CHECK(pindrop_map_focus_step(map, 1, &f) == PINDROP_OK && f.id == order[0].id);      /* wraps */
  CHECK(pindrop_map_focus_step(map, -1, &f) == PINDROP_OK && f.id == order[m - 1].id); /* and back */
  CHECK(pindrop_map_focus_step(map, -1, &f) == PINDROP_OK && f.id == order[m - 2].id);

  /* Bad steps and pointers: INVALID_ARGUMENT with a message; the focus stays. */
  CHECK(pindrop_map_focus_step(map, 0, &g) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_last_error(map)[0] != '\0');
  CHECK(pindrop_map_focus_step(map, 2, &g) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_focus_step(map, 1, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_focus_step(NULL, 1, &g) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_focused(map, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_focused(map, &g) == PINDROP_OK && g.id == f.id);

  /* The next frame flags the focused pin, and only it. */
  n = pindrop_map_frame(map, 10, views, MAXV);
  for (i = 0, k = 0; i < n && i < MAXV; i++)
    if (views[i].flags & PINDROP_PIN_FOCUSED) { k++; CHECK(views[i].id == f.id); }
  CHECK(k == 1);

  /* Key lift with nothing selected, key drop with no keyboard drag: STATE. */
  CHECK(pindrop_map_key_lift(map, 20) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_last_error(map)[0] != '\0');
  CHECK(pindrop_map_key_drop(map, 20) == PINDROP_ERR_STATE);
  CHECK(drain(map, PINDROP_EVENT_LIFTED, NULL) == 0);

  /* Alt+Space on the focused pin: select it, lift it. */
  CHECK(pindrop_map_select(map, f.id) == PINDROP_OK);
  CHECK(pindrop_map_position(map, f.id, &lon0, &lat0) == PINDROP_OK);
  CHECK(pindrop_map_key_lift(map, 100) == PINDROP_OK);
  CHECK(drain(map, PINDROP_EVENT_LIFTED, &e) == 1 && e.id == f.id && e.lon == lon0 && e.lat == lat0);
  n = pindrop_map_frame(map, 100, views, MAXV);
  CHECK(n > 0 && views[n - 1].id == f.id);
  /* Its lift is rising (ANIMATING until lift_duration_ms has passed). */
  CHECK(views[n - 1].flags == (PINDROP_PIN_SELECTED | PINDROP_PIN_DRAGGING | PINDROP_PIN_FOCUSED | PINDROP_PIN_ANIMATING |
                               (views[n - 1].flags & PINDROP_PIN_SPREAD)));
  x0 = views[n - 1].x; y0 = views[n - 1].y;

  /* Refused while the keyboard holds it: a second lift, a touch; nothing changes. */
  CHECK(pindrop_map_key_lift(map, 110) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, x0, y0, 110) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, x0, y0, 110) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_undo(map, 110) == PINDROP_ERR_STATE);  /* nothing to undo */
  CHECK(drain(map, PINDROP_EVENT_DRAG_CANCELLED, NULL) == 0);

  /* Arrows: three of 1 point right, one Shift+down of 10. DRAGGED each; nothing saved. */
  for (k = 0; k < 3; k++) CHECK(pindrop_map_nudge(map, 1, 0, 200 + 10 * k) == PINDROP_OK);
  CHECK(pindrop_map_nudge(map, 0, 10, 300) == PINDROP_OK);
  CHECK(pindrop_map_to_lonlat(map, x0 + 3, y0 + 10, &lon, &lat) == PINDROP_OK);
  CHECK(drain(map, PINDROP_EVENT_DRAGGED, &e) == 4);
  CHECK(fabs(e.lon - lon) < 1e-12 && fabs(e.lat - lat) < 1e-12);
  CHECK(pindrop_map_position(map, f.id, &lon, &lat) == PINDROP_OK && lon == lon0 && lat == lat0);

  /* Space: DROPPED, MOVED with cause KEYBOARD, bit for bit the last DRAGGED. */
  lon = e.lon; lat = e.lat;
  CHECK(pindrop_map_key_drop(map, 400) == PINDROP_OK);
  CHECK(pindrop_map_poll_event(map, &e) == 1 && e.type == PINDROP_EVENT_DROPPED && e.lon == lon && e.lat == lat);
  CHECK(pindrop_map_poll_event(map, &e) == 1 && e.type == PINDROP_EVENT_MOVED && e.cause == PINDROP_CAUSE_KEYBOARD);
  CHECK(e.lon == lon && e.lat == lat && e.from_lon == lon0 && e.from_lat == lat0 && e.id == f.id);
  CHECK(drain(map, PINDROP_EVENT_GEOCODE_REQUEST, NULL) == 1);
  CHECK(pindrop_map_key_drop(map, 410) == PINDROP_ERR_STATE);

  /* Ctrl+Z: one step takes the whole keyboard drag back. */
  CHECK(pindrop_map_undo(map, 500) == PINDROP_OK);
  CHECK(drain(map, PINDROP_EVENT_MOVED, &e) == 1 && e.cause == PINDROP_CAUSE_UNDO);
  CHECK(pindrop_map_position(map, f.id, &lon, &lat) == PINDROP_OK && lon == lon0 && lat == lat0);
  CHECK(pindrop_map_undo(map, 510) == PINDROP_ERR_STATE);

  /* Toward the right edge: auto-pan asks for ticks; Esc puts the pin back. */
  CHECK(pindrop_map_key_lift(map, 600) == PINDROP_OK);
  CHECK(pindrop_map_nudge(map, W - 5 - x0, 0, 610) == PINDROP_OK);  /* 5 points from the edge */
  CHECK(fabs(pindrop_map_next_deadline(map) - (610 + 1000.0 / 60)) < 1e-9);
  CHECK(pindrop_map_tick(map, 710) == PINDROP_OK);
  /* 35 points deep in the 40-point band: 600 * 35 / 40 = 525 points per second, for 100 ms. */
  CHECK(drain(map, PINDROP_EVENT_AUTOPAN, &e) == 1 && fabs(e.dx - 52.5) < 1e-6 && e.dy == 0);
  CHECK(pindrop_map_cancel_gesture(map, 720) == PINDROP_OK);
  CHECK(drain(map, PINDROP_EVENT_DRAG_CANCELLED, &e) == 1 && e.lon == lon0 && e.lat == lat0);
  CHECK(pindrop_map_position(map, f.id, &lon, &lat) == PINDROP_OK && lon == lon0 && lat == lat0);
  CHECK(pindrop_map_next_deadline(map) == INFINITY);
  CHECK(pindrop_map_key_lift(map, 700) == PINDROP_ERR_INVALID_ARGUMENT);  /* time went back */
  CHECK(pindrop_map_key_lift(NULL, 800) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_key_drop(NULL, 800) == PINDROP_ERR_INVALID_ARGUMENT);

  /* The facts of an announcement: distance and bearing on pindrop's sphere. 0.001 degree of
     latitude is 6378137 * pi / 180000 m, due north; of longitude at the equator, due east. */
  CHECK(pindrop_distance(0, 0, 0, 0.001, &x, &y) == PINDROP_OK);
  CHECK(fabs(x - 6378137.0 * 3.14159265358979323846 / 180000) < 1e-9 && fabs(y) < 1e-9);
  CHECK(pindrop_distance(0, 0, 0.001, 0, &x, &y) == PINDROP_OK && fabs(y - 90) < 1e-9);
  CHECK(pindrop_distance(0, 0.001, 0, 0, &x, NULL) == PINDROP_OK);
  CHECK(pindrop_distance(0, 0, -0.001, 0, &x, &y) == PINDROP_OK && fabs(y - 270) < 1e-9);
  CHECK(pindrop_distance(NAN, 0, 0, 0, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT && pindrop_last_error()[0] != '\0');
  CHECK(pindrop_distance(0, 0, 0, 91, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_distance(0, 0, 0, 0, NULL, &y) == PINDROP_ERR_INVALID_ARGUMENT);

  pindrop_map_destroy(map);
  if (failures) { fprintf(stderr, "test_keyboard: %d failures\n", failures); return 1; }
  printf("test_keyboard: ok\n");
  return 0;
}
