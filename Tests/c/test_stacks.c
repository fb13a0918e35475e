/* Stacks that open on demand through the C ABI (behaviour 22): the options (defaults, an 0.2-size
   struct, validation of spread_on_tap, cluster_min_points and cluster_by_category), a collapsed
   stack in pindrop_map_frame_clusters and not in pindrop_map_frame, a tap that opens it, Esc and
   pindrop_map_close_stack that close it, open_stack by key, stale and unknown keys, and bad input. */
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

/* Four trees on one Lawndale address, one alone 300 m east; zoom 18, 1200 x 800. */
static const double stack_lon = -118.3535, stack_lat = 33.8871;

static pindrop_map *make_map(uint32_t spread_on_tap) {
  static const pindrop_id ids[5] = {1, 2, 3, 4, 9};
  double lonlat[10];
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam;
  int i;
  for (i = 0; i < 4; i++) { lonlat[2 * i] = stack_lon; lonlat[2 * i + 1] = stack_lat; }
  lonlat[8] = stack_lon + 0.0005; lonlat[9] = stack_lat;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  o.spread_on_tap = spread_on_tap;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  if (!map) return NULL;
  cam.center_lon = stack_lon; cam.center_lat = stack_lat; cam.zoom = 18; cam.bearing_deg = 0;
  cam.width = 1200; cam.height = 800;
  CHECK_STATUS(pindrop_map_add_many(map, ids, lonlat, 5), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
  return map;
}

/* The events since the last call, by type; *key gets the request of the last stack event. */
static int count_events(pindrop_map *map, int type, uint64_t *key) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(map, &e)) {
    if (e.type != type) continue;
    CHECK(e.id == PINDROP_NO_ID && e.lon == stack_lon && e.lat == stack_lat);
    if (key) *key = e.request;
    n++;
  }
  return n;
}

static void test_options(void) {
  pindrop_options o;
  unsigned char mem[sizeof(pindrop_options)];
  pindrop_options *old = (pindrop_options *)(void *)mem;
  pindrop_map *map = NULL;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  CHECK(o.cluster_min_points == 2 && o.cluster_by_category == 0 && o.spread_on_tap == 0);
  CHECK(offsetof(pindrop_options, cluster_min_points) > offsetof(pindrop_options, spread_spacing));
  CHECK(offsetof(pindrop_options, cluster_by_category) > offsetof(pindrop_options, cluster_min_points));
  CHECK(offsetof(pindrop_options, spread_on_tap) > offsetof(pindrop_options, cluster_by_category));
  /* Each bad value is refused, no map made, and the message names the field. */
  o.spread_on_tap = 2;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "spread_on_tap") != NULL);
  o.spread_on_tap = 1; o.cluster_by_category = 7;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "cluster_by_category") != NULL);
  o.cluster_by_category = 1; o.cluster_min_points = 1;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "cluster_min_points") != NULL);
  o.cluster_min_points = 3;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  pindrop_map_destroy(map);
  map = NULL;
  /* A caller compiled against 0.2: its struct ends at spread_spacing; the bytes after it (0x7f,
     an invalid spread_on_tap) are not read, and its map keeps groups spread. */
  memset(mem, 0x7f, sizeof mem);
  CHECK_STATUS(pindrop_options_init(old, (uint32_t)offsetof(pindrop_options, cluster_min_points)), PINDROP_OK);
  CHECK(mem[offsetof(pindrop_options, spread_on_tap)] == 0x7f);
  CHECK_STATUS(pindrop_map_create(old, &map), PINDROP_OK);
  pindrop_map_destroy(map);
}

static void test_collapsed_open_and_closed(void) {
  pindrop_map *map = make_map(1);
  pindrop_pin_view views[8];
  pindrop_cluster_view c[4];
  pindrop_id members[8], hit = 0;
  uint64_t key = 0, opened = 0, closed = 0;
  double zoom = -1, lon = 0, lat = 0;
  size_t n, i;
  if (!map) return;
  /* Collapsed: the lone pin is drawn, the four are one item at their spot. */
  CHECK(pindrop_map_frame(map, 0, views, 8) == 1 && views[0].id == 9);
  CHECK(pindrop_map_frame_clusters(map, 0, c, 4) == 1);
  CHECK(c[0].count == 4 && c[0].flags == PINDROP_CLUSTER_STACK);
  CHECK(c[0].lon == stack_lon && c[0].lat == stack_lat);
  CHECK(fabs(c[0].x - 600) < 1e-6 && fabs(c[0].y - 400) < 1e-6);
  key = c[0].key;
  CHECK(key >> 59 == 31);  /* a stack key's tag */
  CHECK_STATUS(pindrop_map_hit_test(map, 600, 400, &hit), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_display_position(map, 3, &lon, &lat), PINDROP_OK);
  CHECK(lon == stack_lon && lat == stack_lat);
  CHECK(pindrop_map_cluster_members(map, key, members, 8) == 4);
  CHECK(members[0] == 1 && members[1] == 2 && members[2] == 3 && members[3] == 4);
  CHECK_STATUS(pindrop_map_cluster_expansion_zoom(map, key, &zoom), PINDROP_OK);
  CHECK(zoom == 18);
  /* A press held past the lift delay lifts nothing; a tap opens it. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 601, 400, 10) == 1);
  CHECK_STATUS(pindrop_map_tick(map, 1000), PINDROP_OK);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 601, 400, 1010) == 1);
  CHECK(count_events(map, PINDROP_EVENT_LIFTED, NULL) == 0);
  CHECK(pindrop_map_frame_clusters(map, 1010, c, 4) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, 601, 400, 1100) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, 601, 400, 1150) == 1);
  CHECK(count_events(map, PINDROP_EVENT_STACK_OPENED, &opened) == 1 && opened == key);
  /* Open: every pin drawn spread, nothing collapsed. */
  n = pindrop_map_frame(map, 1200, views, 8);
  CHECK(n == 5);
  for (i = 0; i < n && i < 8; i++) CHECK(views[i].id == 9 || (views[i].flags & PINDROP_PIN_SPREAD));
  CHECK(pindrop_map_frame_clusters(map, 1200, c, 4) == 0);
  /* Esc closes it; closing again is OK and says nothing. */
  CHECK_STATUS(pindrop_map_cancel_gesture(map, 1300), PINDROP_OK);
  CHECK(count_events(map, PINDROP_EVENT_STACK_CLOSED, &closed) == 1 && closed == key);
  CHECK_STATUS(pindrop_map_close_stack(map, 1300), PINDROP_OK);
  CHECK(count_events(map, PINDROP_EVENT_STACK_CLOSED, NULL) == 0);
  /* By key: open, open again (nothing), close. */
  CHECK_STATUS(pindrop_map_open_stack(map, key, 1400), PINDROP_OK);
  CHECK_STATUS(pindrop_map_open_stack(map, key, 1400), PINDROP_OK);
  CHECK(count_events(map, PINDROP_EVENT_STACK_OPENED, NULL) == 1);
  CHECK_STATUS(pindrop_map_close_stack(map, 1500), PINDROP_OK);
  CHECK(count_events(map, PINDROP_EVENT_STACK_CLOSED, NULL) == 1);
  /* A pin that leaves the group makes the key stale. */
  CHECK_STATUS(pindrop_map_set_position(map, 4, stack_lon - 0.001, stack_lat), PINDROP_OK);
  CHECK_STATUS(pindrop_map_open_stack(map, key, 1600), PINDROP_ERR_NOT_FOUND);
  CHECK(strstr(pindrop_map_last_error(map), "no stack") != NULL);
  CHECK(pindrop_map_cluster_members(map, key, members, 8) == 0);
  CHECK(pindrop_map_frame_clusters(map, 1600, c, 4) == 1 && c[0].count == 3 && c[0].key != key);
  pindrop_map_destroy(map);
}

static void test_bad_input(void) {
  pindrop_map *off = make_map(0);
  pindrop_map *on = make_map(1);
  pindrop_cluster_view c[4];
  if (!off || !on) return;
  /* spread_on_tap off: the group is spread, there is no stack to open; closing is OK. */
  CHECK(pindrop_map_frame_clusters(off, 0, c, 4) == 0);
  CHECK_STATUS(pindrop_map_open_stack(off, (uint64_t)31 << 59, 0), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_close_stack(off, 0), PINDROP_OK);
  /* Unknown keys, cluster-shaped keys, a NULL map, a time going backwards. */
  CHECK_STATUS(pindrop_map_open_stack(on, 0, 10), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_open_stack(on, UINT64_MAX, 10), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_open_stack(on, ((uint64_t)31 << 59) | 77, 10), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_open_stack(NULL, 0, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_close_stack(NULL, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_frame_clusters(on, 10, c, 4) == 1);
  CHECK_STATUS(pindrop_map_open_stack(on, c[0].key, 5), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_close_stack(on, 5), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_open_stack(on, c[0].key, NAN), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_open_stack(on, c[0].key, 20), PINDROP_OK);
  pindrop_map_destroy(off);
  pindrop_map_destroy(on);
}

int main(void) {
  test_options();
  test_collapsed_open_and_closed();
  test_bad_input();
  if (failures) { fprintf(stderr, "%d stack checks failed\n", failures); return 1; }
  printf("stack tests passed\n");
  return 0;
}
