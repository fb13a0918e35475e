/* The foundation through the C ABI: versions, statuses, options, map lifetime, the view (camera and
   host projection callbacks), pins, queries and frames, and every kind of bad input of the contract:
   each gives its documented status and a message, and changes nothing. */
#include <pindrop.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)
#define CHECK_STATUS(call, want) do { pindrop_status got_ = (call); if (got_ != (want)) { \
  fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call, \
          pindrop_status_string(got_), pindrop_status_string(want)); failures++; } } while (0)

/* Everything observable about a small map of known ids, to show that a failed call changed nothing. */
typedef struct snapshot {
  size_t count;
  double lon[8], lat[8];
  int present[8];
} snapshot;

static const pindrop_id known_ids[8] = {1, 2, 3, 4, 5, 6, 7, 100};

static snapshot take(const pindrop_map *map) {
  snapshot s;
  int i;
  memset(&s, 0, sizeof s);
  s.count = pindrop_map_count(map);
  for (i = 0; i < 8; i++) {
    s.present[i] = pindrop_map_position(map, known_ids[i], &s.lon[i], &s.lat[i]) == PINDROP_OK;
  }
  return s;
}

static int same(const snapshot *a, const snapshot *b) {
  int i;
  if (a->count != b->count) return 0;
  for (i = 0; i < 8; i++) {
    if (a->present[i] != b->present[i]) return 0;
    if (a->present[i] && (a->lon[i] != b->lon[i] || a->lat[i] != b->lat[i])) return 0;
  }
  return 1;
}

/* Expects `call` to fail with `want`, a non-empty last error, and no change to the map. */
#define EXPECT_FAIL(map, call, want) do { snapshot before_ = take(map), after_; \
  CHECK_STATUS(call, want); \
  CHECK(strlen(pindrop_map_last_error(map)) > 0); \
  after_ = take(map); \
  if (!same(&before_, &after_)) { fprintf(stderr, "%s:%d: %s changed the map\n", __FILE__, __LINE__, #call); failures++; } \
} while (0)

static void test_versions_and_statuses(void) {
  char expect[64];
  static const pindrop_status all[] = {PINDROP_OK, PINDROP_STALE, PINDROP_ERR_INVALID_ARGUMENT, PINDROP_ERR_NOT_FOUND,
                                       PINDROP_ERR_DUPLICATE_ID, PINDROP_ERR_PARSE, PINDROP_ERR_STATE, PINDROP_ERR_GEOS,
                                       PINDROP_ERR_NO_MEMORY};
  static const char *names[] = {"PINDROP_OK", "PINDROP_STALE", "PINDROP_ERR_INVALID_ARGUMENT", "PINDROP_ERR_NOT_FOUND",
                                "PINDROP_ERR_DUPLICATE_ID", "PINDROP_ERR_PARSE", "PINDROP_ERR_STATE", "PINDROP_ERR_GEOS",
                                "PINDROP_ERR_NO_MEMORY"};
  size_t i;
  snprintf(expect, sizeof expect, "%d.%d.%d", PINDROP_VERSION_MAJOR, PINDROP_VERSION_MINOR, PINDROP_VERSION_PATCH);
  CHECK(strcmp(pindrop_version(), expect) == 0);
  CHECK(PINDROP_OK == 0);
  CHECK(PINDROP_NO_ID == INT64_MIN);
  for (i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(strcmp(pindrop_status_string(all[i]), names[i]) == 0);
  CHECK(strcmp(pindrop_status_string((pindrop_status)-99), "PINDROP_UNKNOWN_STATUS") == 0);
  CHECK(strcmp(pindrop_status_string((pindrop_status)42), "PINDROP_UNKNOWN_STATUS") == 0);
}

/* The options struct of an older, smaller header: it ends after double_tap_slop. */
typedef struct old_options {
  uint32_t struct_size;
  double hit_radius, drag_threshold, lift_delay_ms, lift_height, lift_duration_ms, drop_duration_ms,
      tap_max_ms, double_tap_ms, double_tap_slop;
} old_options;

static void test_options(void) {
  pindrop_options o;
  old_options old[2];
  pindrop_map *map = NULL;
  unsigned char guard[sizeof(old_options)];

  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  CHECK(o.struct_size == sizeof o);
  CHECK(o.hit_radius == 22 && o.drag_threshold == 5 && o.lift_delay_ms == 250 && o.lift_height == 40);
  CHECK(o.lift_duration_ms == 200 && o.drop_duration_ms == 250 && o.tap_max_ms == 250 && o.double_tap_ms == 300);
  CHECK(o.double_tap_slop == 40 && o.autopan_margin == 40 && o.autopan_speed == 600 && o.min_spacing_m == 0);
  CHECK(o.spread_mode == PINDROP_SPREAD_RING && o.spread_tolerance_m == 0 && o.outside_policy == PINDROP_OUTSIDE_REVERT);
  CHECK(o.cluster_radius == 0 && o.cluster_max_zoom == 17 && o.spread_spacing == 25);
  CHECK_STATUS(pindrop_options_init(NULL, sizeof o), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_options_init(&o, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_options_init(&o, 8), PINDROP_ERR_INVALID_ARGUMENT);

  /* A smaller struct is filled as far as it goes and not a byte further. */
  memset(old, 0xAB, sizeof old);
  memset(guard, 0xAB, sizeof guard);
  CHECK_STATUS(pindrop_options_init((pindrop_options *)(void *)&old[0], sizeof(old_options)), PINDROP_OK);
  CHECK(old[0].struct_size == sizeof(old_options));
  CHECK(old[0].hit_radius == 22 && old[0].double_tap_slop == 40);
  CHECK(memcmp(&old[1], guard, sizeof guard) == 0);
  old[0].hit_radius = 30;
  CHECK_STATUS(pindrop_map_create((const pindrop_options *)(const void *)&old[0], &map), PINDROP_OK);
  CHECK(map != NULL);
  pindrop_map_destroy(map);

  /* A 0.1 struct (it ends before cluster_radius) still creates a map; the fields it lacks take
     their defaults, whatever lies in memory after it. */
  {
    unsigned char bytes[sizeof(pindrop_options)];
    pindrop_options *p = (pindrop_options *)(void *)bytes;
    uint32_t v01 = (uint32_t)offsetof(pindrop_options, cluster_radius);
    memset(bytes, 0xFF, sizeof bytes); /* NaN in every field a 0.2 library would read too far */
    CHECK_STATUS(pindrop_options_init(p, v01), PINDROP_OK);
    CHECK(p->struct_size == v01 && p->outside_policy == PINDROP_OUTSIDE_REVERT);
    map = NULL;
    CHECK_STATUS(pindrop_map_create(p, &map), PINDROP_OK);
    CHECK(map != NULL);
    pindrop_map_destroy(map);
  }

  /* Bad options: no map, *out NULL. */
  {
    int field;
    for (field = 0; field < 12; field++) {
      pindrop_options_init(&o, sizeof o);
      switch (field) {
        case 0: o.hit_radius = 0; break;
        case 1: o.drag_threshold = -1; break;
        case 2: o.lift_delay_ms = NAN; break;
        case 3: o.min_spacing_m = INFINITY; break;
        case 4: o.spread_mode = 7; break;
        case 5: o.outside_policy = -1; break;
        case 6: o.cluster_radius = -1; break;
        case 7: o.cluster_max_zoom = 31; break;
        case 8: o.spread_spacing = 0; break;
        case 9: o.spread_spacing = NAN; break;
        case 10: o.cluster_max_zoom = -0.5; break;
        default: o.struct_size = 4; break;
      }
      map = (pindrop_map *)&o; /* anything non-NULL: create must reset it */
      CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
      CHECK(map == NULL);
    }
  }
  CHECK_STATUS(pindrop_map_create(NULL, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_create(NULL, &map), PINDROP_OK);
  pindrop_map_destroy(map);
  pindrop_map_destroy(NULL); /* a no-op */
}

static void test_null_map(void) {
  double a, b;
  pindrop_id id;
  pindrop_camera cam = {0, 0, 1, 0, 100, 100};
  pindrop_id ids[1] = {1};
  double ll[2] = {0, 0};
  pindrop_pin_view views[2];
  CHECK(strlen(pindrop_map_last_error(NULL)) > 0);
  CHECK_STATUS(pindrop_map_set_camera(NULL, &cam), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_to_screen(NULL, 0, 0, &a, &b), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_to_lonlat(NULL, 0, 0, &a, &b), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_add(NULL, 1, 0, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_add_many(NULL, ids, ll, 1), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_remove(NULL, 1), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_position(NULL, 1, 0, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_position(NULL, 1, &a, &b), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_display_position(NULL, 1, &a, &b), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_draggable(NULL, 1, 0), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_count(NULL) == 0);
  CHECK_STATUS(pindrop_map_hit_test(NULL, 0, 0, &id), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_hit_test_many(NULL, ll, 1, ids), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_nearby(NULL, 0, 0, 10, ids, ll, 1) == 0);
  CHECK(pindrop_map_frame(NULL, 0, views, 2) == 0);
}

/* A host projection: plate carrée, 1000 points per degree, origin at (10, 50), y down. It fails
   (returns non-zero) while *fail is set. */
static int project(void *user, double lon, double lat, double *x, double *y) {
  if (*(const int *)user) return 1;
  *x = (lon - 10) * 1000;
  *y = (50 - lat) * 1000;
  return 0;
}
static int unproject(void *user, double x, double y, double *lon, double *lat) {
  if (*(const int *)user) return -1;
  *lon = 10 + x / 1000;
  *lat = 50 - y / 1000;
  return 0;
}
static int project_nan(void *user, double lon, double lat, double *x, double *y) {
  (void)user; (void)lon; (void)lat;
  *x = NAN; *y = 0;
  return 0;
}

static void test_host_projection(void) {
  pindrop_map *map = NULL;
  int fail = 0;
  double x = 0, y = 0, lon = 0, lat = 0;
  pindrop_id id = 0;
  pindrop_pin_view views[4];
  CHECK_STATUS(pindrop_map_create(NULL, &map), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_projection(map, project, unproject, &fail, 500, 500), PINDROP_OK);
  CHECK_STATUS(pindrop_map_add(map, 1, 10.1, 49.9), PINDROP_OK);
  CHECK_STATUS(pindrop_map_to_screen(map, 10.1, 49.9, &x, &y), PINDROP_OK);
  CHECK(fabs(x - 100) < 1e-9 && fabs(y - 100) < 1e-9);
  CHECK_STATUS(pindrop_map_to_lonlat(map, 250, 300, &lon, &lat), PINDROP_OK);
  CHECK(fabs(lon - 10.25) < 1e-12 && fabs(lat - 49.7) < 1e-12);
  CHECK_STATUS(pindrop_map_hit_test(map, 110, 95, &id), PINDROP_OK);
  CHECK(id == 1);
  CHECK(pindrop_map_frame(map, 10, views, 4) == 1);
  CHECK(views[0].id == 1 && fabs(views[0].x - 100) < 1e-9);

  fail = 1;
  EXPECT_FAIL(map, pindrop_map_to_screen(map, 10.1, 49.9, &x, &y), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_to_lonlat(map, 1, 1, &lon, &lat), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_frame(map, 20, views, 4) == 0);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  CHECK_STATUS(pindrop_map_hit_test(map, 110, 95, &id), PINDROP_ERR_NOT_FOUND);
  fail = 0;
  CHECK(pindrop_map_frame(map, 20, views, 4) == 1);

  CHECK_STATUS(pindrop_map_set_projection(map, project_nan, unproject, &fail, 500, 500), PINDROP_OK);
  EXPECT_FAIL(map, pindrop_map_to_screen(map, 10.1, 49.9, &x, &y), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_frame(map, 30, views, 4) == 0); /* the pin cannot be placed: off-screen */

  EXPECT_FAIL(map, pindrop_map_set_projection(map, NULL, unproject, &fail, 500, 500), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_projection(map, project, NULL, &fail, 500, 500), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_projection(map, project, unproject, &fail, 0, 500), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_projection(map, project, unproject, &fail, 500, NAN), PINDROP_ERR_INVALID_ARGUMENT);
  pindrop_map_destroy(map);
}

static void test_pins_queries_and_bad_input(void) {
  pindrop_map *map = NULL;
  pindrop_options o;
  pindrop_camera cam = {-118.3, 34.05, 17, 0, 800, 600};
  pindrop_id ids[5] = {1, 2, 3, 4, 5}, out[4], bad_ids[3];
  double ll[10] = {-118.3, 34.05, -118.3001, 34.0501, -118.3, 34.05, -118.31, 34.06, 179.9999, -17};
  double bad_ll[6], x, y, lon, lat, dist[4], xy[6];
  pindrop_pin_view views[8];
  const double nan = NAN, inf = INFINITY;
  size_t n, i;
  pindrop_id hit;

  pindrop_options_init(&o, sizeof o);
  o.spread_mode = PINDROP_SPREAD_OFF;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  CHECK(strcmp(pindrop_map_last_error(map), "") == 0);
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
  CHECK_STATUS(pindrop_map_add_many(map, ids, ll, 5), PINDROP_OK);
  CHECK_STATUS(pindrop_map_add_many(map, NULL, NULL, 0), PINDROP_OK);
  CHECK_STATUS(pindrop_map_add(map, 100, 0, 0), PINDROP_OK);
  CHECK(pindrop_map_count(map) == 6);

  /* Positions, the centre of the view, hits and ties (1 and 3 share a spot: the higher id wins). */
  CHECK_STATUS(pindrop_map_position(map, 4, &lon, &lat), PINDROP_OK);
  CHECK(lon == -118.31 && lat == 34.06);
  CHECK_STATUS(pindrop_map_display_position(map, 4, &lon, &lat), PINDROP_OK);
  CHECK(lon == -118.31 && lat == 34.06);
  CHECK_STATUS(pindrop_map_to_screen(map, -118.3, 34.05, &x, &y), PINDROP_OK);
  CHECK(fabs(x - 400) < 1e-9 && fabs(y - 300) < 1e-9);
  CHECK_STATUS(pindrop_map_hit_test(map, 405, 298, &hit), PINDROP_OK);
  CHECK(hit == 3);
  CHECK_STATUS(pindrop_map_hit_test(map, 10, 10, &hit), PINDROP_ERR_NOT_FOUND);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  xy[0] = 400; xy[1] = 300; xy[2] = 10; xy[3] = 10; xy[4] = 401; xy[5] = 301;
  CHECK_STATUS(pindrop_map_hit_test_many(map, xy, 3, out), PINDROP_OK);
  CHECK(out[0] == 3 && out[1] == PINDROP_NO_ID && out[2] == 3);

  /* nearby: nearest first, ties by lower id; capacity 0 or NULL buffers still count. */
  n = pindrop_map_nearby(map, -118.3, 34.05, 20, out, dist, 4);
  CHECK(n == 3);
  CHECK(out[0] == 1 && out[1] == 3 && out[2] == 2);
  CHECK(dist[0] == 0 && dist[1] == 0 && dist[2] > 10 && dist[2] < 20);
  CHECK(pindrop_map_nearby(map, -118.3, 34.05, 20, NULL, NULL, 0) == 3);
  CHECK(pindrop_map_nearby(map, -118.3, 34.05, 20, NULL, dist, 1) == 3);
  out[1] = 77;
  CHECK(pindrop_map_nearby(map, -118.3, 34.05, 20, out, NULL, 1) == 3);
  CHECK(out[0] == 1 && out[1] == 77);
  CHECK(pindrop_map_nearby(map, -179.9999, -17, 30, out, dist, 4) == 1 && out[0] == 5);

  /* The frame: the pins in view (4 is 930 points east, 5 and 100 far away), at rest, by screen y
     then id; capacity 0 only counts. */
  n = pindrop_map_frame(map, 0, NULL, 0);
  CHECK(n == 3);
  CHECK(pindrop_map_frame(map, 1, views, 8) == 3);
  CHECK(views[0].id == 2 && views[1].id == 1 && views[2].id == 3);
  for (i = 0; i < 3; i++) CHECK(views[i].lift == 0 && views[i].flags == 0);
  CHECK(fabs(views[1].x - 400) < 1e-9 && views[1].anchor_x == views[1].x && views[1].anchor_y == views[1].y);
  views[2].id = 0;
  CHECK(pindrop_map_frame(map, 2, views, 2) == 3);
  CHECK(views[2].id == 0);

  /* Bad input: the documented status, a message, nothing changed. */
  EXPECT_FAIL(map, pindrop_map_add(map, 6, nan, 0), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add(map, 6, 0, inf), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add(map, 6, 180.5, 0), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add(map, 6, 0, -90.5), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add(map, PINDROP_NO_ID, 0, 0), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add(map, 2, 0, 0), PINDROP_ERR_DUPLICATE_ID);
  bad_ids[0] = 6; bad_ids[1] = 7; bad_ids[2] = 6;
  bad_ll[0] = 1; bad_ll[1] = 1; bad_ll[2] = 2; bad_ll[3] = 2; bad_ll[4] = 3; bad_ll[5] = 3;
  EXPECT_FAIL(map, pindrop_map_add_many(map, bad_ids, bad_ll, 3), PINDROP_ERR_DUPLICATE_ID);
  bad_ids[2] = 4;
  EXPECT_FAIL(map, pindrop_map_add_many(map, bad_ids, bad_ll, 3), PINDROP_ERR_DUPLICATE_ID);
  bad_ids[2] = 8; bad_ll[5] = nan;
  EXPECT_FAIL(map, pindrop_map_add_many(map, bad_ids, bad_ll, 3), PINDROP_ERR_INVALID_ARGUMENT);
  bad_ll[5] = 3;
  EXPECT_FAIL(map, pindrop_map_add_many(map, NULL, bad_ll, 3), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_add_many(map, bad_ids, NULL, 3), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_remove(map, 6), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_remove(map, PINDROP_NO_ID), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_set_position(map, 6, 0, 0), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_set_position(map, 1, -inf, 0), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_position(map, 1, 0, 91), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_position(map, 6, &lon, &lat), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_position(map, 1, NULL, &lat), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_position(map, 1, &lon, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_display_position(map, 6, &lon, &lat), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_display_position(map, 1, NULL, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_draggable(map, 6, 1), PINDROP_ERR_NOT_FOUND);
  EXPECT_FAIL(map, pindrop_map_hit_test(map, nan, 0, &hit), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_hit_test(map, 400, 300, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  out[0] = out[1] = out[2] = 99;
  xy[3] = inf;
  EXPECT_FAIL(map, pindrop_map_hit_test_many(map, xy, 3, out), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(out[0] == 99 && out[1] == 99 && out[2] == 99);
  EXPECT_FAIL(map, pindrop_map_hit_test_many(map, NULL, 3, out), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_hit_test_many(map, xy, 3, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_hit_test_many(map, NULL, 0, NULL), PINDROP_OK);
  EXPECT_FAIL(map, pindrop_map_to_screen(map, nan, 0, &x, &y), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_to_screen(map, 0, 0, NULL, &y), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_to_lonlat(map, inf, 0, &lon, &lat), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_to_lonlat(map, 0, 0, &lon, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  EXPECT_FAIL(map, pindrop_map_set_camera(map, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  {
    pindrop_camera bad = cam;
    bad.zoom = 31;
    EXPECT_FAIL(map, pindrop_map_set_camera(map, &bad), PINDROP_ERR_INVALID_ARGUMENT);
    bad = cam; bad.center_lat = 86;
    EXPECT_FAIL(map, pindrop_map_set_camera(map, &bad), PINDROP_ERR_INVALID_ARGUMENT);
    bad = cam; bad.width = 0;
    EXPECT_FAIL(map, pindrop_map_set_camera(map, &bad), PINDROP_ERR_INVALID_ARGUMENT);
    bad = cam; bad.bearing_deg = nan;
    EXPECT_FAIL(map, pindrop_map_set_camera(map, &bad), PINDROP_ERR_INVALID_ARGUMENT);
    /* The camera did not change: the centre is still in the middle. */
    CHECK_STATUS(pindrop_map_to_screen(map, -118.3, 34.05, &x, &y), PINDROP_OK);
    CHECK(fabs(x - 400) < 1e-9 && fabs(y - 300) < 1e-9);
  }
  CHECK(pindrop_map_nearby(map, nan, 0, 10, out, dist, 4) == 0);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  CHECK(pindrop_map_nearby(map, 0, 0, -1, out, dist, 4) == 0);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  CHECK(pindrop_map_nearby(map, 0, 0, 1, out, dist, 4) == 1); /* a success clears the message */
  CHECK(strcmp(pindrop_map_last_error(map), "") == 0);
  /* Time never goes backwards: the frame at an earlier time fails and does not move the clock. */
  CHECK(pindrop_map_frame(map, 1.5, views, 8) == 0);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  CHECK(pindrop_map_frame(map, nan, views, 8) == 0);
  CHECK(pindrop_map_frame(map, 2, views, 8) == 3);
  CHECK(pindrop_map_frame(map, 5, NULL, 3) == 0);
  CHECK(strlen(pindrop_map_last_error(map)) > 0);
  CHECK(pindrop_map_frame(map, 5, views, 8) == 3);

  /* Removal and reuse of the id. */
  CHECK_STATUS(pindrop_map_remove(map, 3), PINDROP_OK);
  CHECK_STATUS(pindrop_map_hit_test(map, 400, 300, &hit), PINDROP_OK);
  CHECK(hit == 1);
  CHECK_STATUS(pindrop_map_add(map, 3, -118.31, 34.06), PINDROP_OK);
  CHECK(pindrop_map_nearby(map, -118.31, 34.06, 0, out, dist, 4) == 2 && out[0] == 3 && out[1] == 4);
  CHECK_STATUS(pindrop_map_set_position(map, 3, -118.3, 34.05), PINDROP_OK);
  CHECK_STATUS(pindrop_map_hit_test(map, 400, 300, &hit), PINDROP_OK);
  CHECK(hit == 3);
  CHECK_STATUS(pindrop_map_set_draggable(map, 3, 0), PINDROP_OK);
  CHECK(pindrop_map_count(map) == 6);
  pindrop_map_destroy(map);
}

int main(void) {
  test_versions_and_statuses();
  test_options();
  test_null_map();
  test_host_projection();
  test_pins_queries_and_bad_input();
  if (failures) {
    fprintf(stderr, "test_core: %d failures\n", failures);
    return 1;
  }
  printf("test_core: all checks passed\n");
  return 0;
}
