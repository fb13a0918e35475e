/* Several pins at once through the C ABI (behaviour 23): the 0.4 options (defaults, an 0.3-size
   struct, validation of snap_tolerance and snap_to_pins), pindrop_map_set_modifiers,
   pindrop_map_select_many's modes and all-or-nothing refusals, pindrop_map_selection and
   pindrop_map_selected, pindrop_map_select_in_rect, the add-modifier tap, and a drag of one selected
   pin that moves the group: one MOVED per pin in ascending id order, one undo for all. */
#include <pindrop.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)
#define CHECK_STATUS(call, want) do { pindrop_status got_ = (call); if (got_ != (want)) { \
  fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call, \
          pindrop_status_string(got_), pindrop_status_string(want)); failures++; } } while (0)

static const double lon0 = -118.3535, lat0 = 33.8871;

/* Pins 1-3 about 100 points apart around the centre, 4 far in the corner; zoom 19, 1200 x 800,
   mouse profile (lift_delay_ms 0), no lift height. */
static pindrop_map *make_map(void) {
  static const pindrop_id ids[4] = {1, 2, 3, 4};
  double lonlat[8];
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam;
  static const double xy[8] = {500, 400, 600, 420, 700, 380, 200, 200};
  int i;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  o.lift_delay_ms = 0; o.lift_height = 0;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  if (!map) return NULL;
  cam.center_lon = lon0; cam.center_lat = lat0; cam.zoom = 19; cam.bearing_deg = 0;
  cam.width = 1200; cam.height = 800;
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
  for (i = 0; i < 4; i++)
    CHECK_STATUS(pindrop_map_to_lonlat(map, xy[2 * i], xy[2 * i + 1], &lonlat[2 * i], &lonlat[2 * i + 1]), PINDROP_OK);
  CHECK_STATUS(pindrop_map_add_many(map, ids, lonlat, 4), PINDROP_OK);
  return map;
}

static void drain(pindrop_map *map) {
  pindrop_event e;
  while (pindrop_map_poll_event(map, &e)) {}
}

/* The ids of the events of one type since the last call, in order; returns how many. */
static int ids_of(pindrop_map *map, int type, pindrop_id *out, int capacity, int32_t *cause) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(map, &e)) {
    if (e.type != type) continue;
    if (n < capacity) out[n] = e.id;
    if (cause) *cause = e.cause;
    n++;
  }
  return n;
}

static void test_options(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  unsigned char mem[sizeof(pindrop_options)];
  pindrop_options *old = (pindrop_options *)(void *)mem;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  CHECK(o.snap_tolerance == PINDROP_DEFAULT_SNAP_TOLERANCE && o.snap_tolerance == 0);
  CHECK(o.snap_to_pins == PINDROP_DEFAULT_SNAP_TO_PINS && o.snap_to_pins == 0);
  CHECK(offsetof(pindrop_options, snap_tolerance) > offsetof(pindrop_options, spread_on_tap));
  CHECK(offsetof(pindrop_options, snap_to_pins) > offsetof(pindrop_options, snap_tolerance));
  o.snap_tolerance = NAN;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "snap_tolerance") != NULL);
  o.snap_tolerance = -1;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  o.snap_tolerance = 2e7;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  o.snap_tolerance = 12; o.snap_to_pins = 2;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "snap_to_pins") != NULL);
  o.snap_to_pins = 1;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  pindrop_map_destroy(map);
  map = NULL;
  /* An 0.3-size struct (up to spread_on_tap) gets the defaults, whatever lies beyond it. */
  memset(mem, 0xff, sizeof mem);
  CHECK_STATUS(pindrop_options_init(old, (uint32_t)offsetof(pindrop_options, snap_tolerance)), PINDROP_OK);
  CHECK(old->spread_on_tap == 0);
  CHECK_STATUS(pindrop_map_create(old, &map), PINDROP_OK);
  pindrop_map_destroy(map);
}

static void test_modifiers_and_bad_input(void) {
  pindrop_map *map = make_map();
  pindrop_id ids[8], bad[2] = {3, 42};
  pindrop_id first[2] = {1, 2};
  if (!map) return;
  CHECK_STATUS(pindrop_map_set_modifiers(map, PINDROP_MOD_ADD | PINDROP_MOD_NO_SNAP), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_modifiers(map, 4), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(strstr(pindrop_map_last_error(map), "modifiers") != NULL);
  CHECK_STATUS(pindrop_map_set_modifiers(map, 0), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_modifiers(NULL, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_many(map, first, 2, PINDROP_SELECT_SET), PINDROP_OK);
  drain(map);
  /* Unknown id, unknown mode, NULL ids with n > 0, NaN corners, a time that went back: nothing changes. */
  CHECK_STATUS(pindrop_map_select_many(map, bad, 2, PINDROP_SELECT_SET), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_select_many(map, bad, 1, 4), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_many(map, NULL, 0, -1), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_many(map, NULL, 2, PINDROP_SELECT_ADD), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_in_rect(map, NAN, 0, 100, 100, PINDROP_SELECT_SET, 10), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_in_rect(map, 0, 0, 1200, 800, 9, 10), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_select_in_rect(map, 0, 0, 1200, 800, PINDROP_SELECT_SET, 10), PINDROP_OK);
  CHECK_STATUS(pindrop_map_select_many(map, first, 2, PINDROP_SELECT_SET), PINDROP_OK);
  drain(map);
  CHECK_STATUS(pindrop_map_select_in_rect(map, 0, 0, 1200, 800, PINDROP_SELECT_SET, 5), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_selection(map, ids, 8) == 2 && ids[0] == 1 && ids[1] == 2);
  CHECK(ids_of(map, PINDROP_EVENT_SELECTED, ids, 8, NULL) == 0);
  /* The count without a buffer; NULL with a capacity is refused (0 and the last error). */
  CHECK(pindrop_map_selection(map, NULL, 0) == 2);
  CHECK(pindrop_map_selection(map, NULL, 3) == 0);
  pindrop_map_destroy(map);
}

static void test_modes(void) {
  pindrop_map *map = make_map();
  pindrop_id ids[8], got[8], sel = 0;
  int n;
  if (!map) return;
  ids[0] = 3; ids[1] = 1; ids[2] = 2; ids[3] = 3;
  CHECK_STATUS(pindrop_map_select_many(map, ids, 4, PINDROP_SELECT_SET), PINDROP_OK);
  n = ids_of(map, PINDROP_EVENT_SELECTED, got, 8, NULL);
  CHECK(n == 3 && got[0] == 1 && got[1] == 2 && got[2] == 3);
  CHECK_STATUS(pindrop_map_selected(map, &sel), PINDROP_OK);
  CHECK(sel == 1);
  ids[0] = 1; ids[1] = 4;
  CHECK_STATUS(pindrop_map_select_many(map, ids, 2, PINDROP_SELECT_TOGGLE), PINDROP_OK);
  CHECK(pindrop_map_selection(map, got, 2) == 3 && got[0] == 2 && got[1] == 3);  /* capacity 2 of 3 */
  CHECK_STATUS(pindrop_map_selected(map, &sel), PINDROP_OK);
  CHECK(sel == 2);
  CHECK_STATUS(pindrop_map_select_many(map, ids + 1, 1, PINDROP_SELECT_REMOVE), PINDROP_OK);
  CHECK(pindrop_map_selection(map, got, 8) == 2);
  CHECK_STATUS(pindrop_map_select_many(map, NULL, 0, PINDROP_SELECT_SET), PINDROP_OK);
  CHECK(pindrop_map_selection(map, got, 8) == 0);
  CHECK_STATUS(pindrop_map_selected(map, &sel), PINDROP_OK);
  CHECK(sel == PINDROP_NO_ID);
  /* The rectangle: pins 1 and 2 are drawn inside (450..650, 350..450). */
  CHECK_STATUS(pindrop_map_select_in_rect(map, 650, 450, 450, 350, PINDROP_SELECT_SET, 10), PINDROP_OK);
  CHECK(pindrop_map_selection(map, got, 8) == 2 && got[0] == 1 && got[1] == 2);
  /* The add modifier's tap adds pin 3. */
  CHECK_STATUS(pindrop_map_set_modifiers(map, PINDROP_MOD_ADD), PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 700, 380, 20) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 700, 380, 40) == 1);
  CHECK(pindrop_map_selection(map, got, 8) == 3 && got[2] == 3);
  /* Every selected pin is flagged. */
  {
    pindrop_pin_view views[8];
    size_t k, m = pindrop_map_frame(map, 50, views, 8);
    int flagged = 0;
    for (k = 0; k < m; k++) if (views[k].flags & PINDROP_PIN_SELECTED) flagged++;
    CHECK(m == 4 && flagged == 3);
  }
  pindrop_map_destroy(map);
}

static void test_group_drag(void) {
  pindrop_map *map = make_map();
  pindrop_id ids[3] = {1, 2, 3}, got[8];
  double before[8], after[8];
  int32_t cause = -1;
  int i;
  if (!map) return;
  CHECK_STATUS(pindrop_map_select_many(map, ids, 3, PINDROP_SELECT_SET), PINDROP_OK);
  for (i = 0; i < 4; i++) CHECK_STATUS(pindrop_map_position(map, i + 1, &before[2 * i], &before[2 * i + 1]), PINDROP_OK);
  drain(map);
  /* Press pin 2 (600, 420), drag by (40, -30), release. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 600, 420, 100) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 620, 405, 110) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, 640, 390, 120) == 1);
  {
    pindrop_pin_view views[8];
    size_t k, m = pindrop_map_frame(map, 125, views, 8);
    int dragging = 0;
    for (k = 0; k < m; k++) {
      if (!(views[k].flags & PINDROP_PIN_DRAGGING)) continue;
      dragging++;
      if (views[k].id == 3) CHECK(fabs(views[k].x - 740) < 1e-6 && fabs(views[k].y - 350) < 1e-6);
    }
    CHECK(dragging == 3);
  }
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 640, 390, 130) == 1);
  CHECK(ids_of(map, PINDROP_EVENT_MOVED, got, 8, &cause) == 3);
  CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3 && cause == PINDROP_CAUSE_DRAG);
  for (i = 0; i < 4; i++) CHECK_STATUS(pindrop_map_position(map, i + 1, &after[2 * i], &after[2 * i + 1]), PINDROP_OK);
  for (i = 0; i < 3; i++) CHECK(after[2 * i] != before[2 * i]);
  CHECK(after[6] == before[6] && after[7] == before[7]);
  /* One undo puts all three back. */
  CHECK_STATUS(pindrop_map_undo(map, 200), PINDROP_OK);
  CHECK(ids_of(map, PINDROP_EVENT_MOVED, got, 8, &cause) == 3 && cause == PINDROP_CAUSE_UNDO);
  for (i = 0; i < 3; i++) {
    double lon, lat;
    CHECK_STATUS(pindrop_map_position(map, i + 1, &lon, &lat), PINDROP_OK);
    CHECK(lon == before[2 * i] && lat == before[2 * i + 1]);
  }
  CHECK_STATUS(pindrop_map_undo(map, 210), PINDROP_ERR_STATE);
  /* A nudge moves the selection too. */
  CHECK_STATUS(pindrop_map_nudge(map, 1, 0, 300), PINDROP_OK);
  CHECK(ids_of(map, PINDROP_EVENT_MOVED, got, 8, &cause) == 3 && cause == PINDROP_CAUSE_NUDGE);
  pindrop_map_destroy(map);
}

int main(void) {
  test_options();
  test_modifiers_and_bad_input();
  test_modes();
  test_group_drag();
  if (failures) {
    fprintf(stderr, "test_selection: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_selection: ok\n");
  return 0;
}
