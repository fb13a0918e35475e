/* Large and hostile input through the C ABI: 10 million pins in one add_many (and the same batch
   refused all-or-nothing for one bad pin at its very end), a 50 MB WKT allowed area (valid, and
   garbage of the same size), invalid polygons GEOS rejects, every power-of-two capacity up to
   SIZE_MAX, host projections that fail or return NaN or infinities. Each gets a status with its
   message (also where there is no map), and the map stays usable. */
#include <pindrop.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static int has_message(const pindrop_map *m) { return pindrop_map_last_error(m)[0] != '\0'; }

/* Haversine on the 6378137 m sphere, for the brute-force count below. */
static double metres(double lon1, double lat1, double lon2, double lat2) {
  const double r = 6378137.0, k = 3.14159265358979323846 / 180.0;
  double s1 = sin((lat2 - lat1) * k / 2), s2 = sin((lon2 - lon1) * k / 2);
  return 2 * r * asin(sqrt(s1 * s1 + cos(lat1 * k) * cos(lat2 * k) * s2 * s2));
}

static void ten_million_pins(void) {
  const size_t n = 10000000;
  pindrop_id *ids = (pindrop_id *)malloc(n * sizeof *ids);
  double *ll = (double *)malloc(2 * n * sizeof *ll);
  pindrop_map *m = NULL;
  pindrop_options o;
  size_t i, brute = 0, found;
  const double qlon = -118.30, qlat = 34.00, radius = 250;
  CHECK(ids != NULL && ll != NULL);
  if (!ids || !ll) return;
  /* A 3162 x 3162 grid over about 0.6 x 0.6 degrees of Los Angeles, with a deterministic jitter. */
  for (i = 0; i < n; i++) {
    ids[i] = (pindrop_id)i + 1;
    ll[2 * i] = -118.6 + 0.6 * (double)(i % 3162) / 3162.0 + 1e-6 * (double)(i % 7);
    ll[2 * i + 1] = 33.7 + 0.6 * (double)(i / 3162) / 3163.0 + 1e-6 * (double)(i % 5);
  }
  for (i = 0; i < n; i++) if (metres(qlon, qlat, ll[2 * i], ll[2 * i + 1]) <= radius) brute++;
  CHECK(pindrop_options_init(&o, sizeof o) == PINDROP_OK);
  o.spread_mode = PINDROP_SPREAD_OFF; /* the bulk load a county inventory uses */
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  /* One bad pin at the very end refuses the whole batch. (A duplicate id at the end is refused
     too, after about 9 s of CPU for 10 million ids: docs/robustness.md; not repeated here.) */
  ll[2 * (n - 1)] = NAN;
  CHECK(pindrop_map_add_many(m, ids, ll, n) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(has_message(m) && pindrop_map_count(m) == 0);
  ll[2 * (n - 1)] = -118.0;
  CHECK(pindrop_map_add_many(m, ids, ll, n) == PINDROP_OK);
  CHECK(pindrop_map_count(m) == n);
  found = pindrop_map_nearby(m, qlon, qlat, radius, NULL, NULL, 0);
  CHECK(found == brute && brute > 0);
  /* Usable afterwards: move one, remove one, query again. */
  CHECK(pindrop_map_set_position(m, 5, qlon, qlat) == PINDROP_OK);
  CHECK(pindrop_map_remove(m, 6) == PINDROP_OK);
  CHECK(pindrop_map_count(m) == n - 1);
  CHECK(pindrop_map_nearby(m, qlon, qlat, radius, NULL, NULL, 0) ==
        brute + 1 - (metres(qlon, qlat, ll[2 * 5], ll[2 * 5 + 1]) <= radius) - (metres(qlon, qlat, ll[2 * 4], ll[2 * 4 + 1]) <= radius));
  pindrop_map_destroy(m);
  free(ids);
  free(ll);
}

/* A ring of k vertices around (lon, lat) as WKT, padded with spaces to at least min_bytes. */
static char *circle_wkt(size_t k, double lon, double lat, double r, size_t *len) {
  size_t cap = k * 48 + 64, at = 0, i;
  char *s = (char *)malloc(cap);
  if (!s) return NULL;
  at += (size_t)sprintf(s + at, "POLYGON((");
  for (i = 0; i <= k; i++) {
    double a = 2 * 3.14159265358979323846 * (double)(i % k) / (double)k;
    at += (size_t)sprintf(s + at, "%s%.12f %.12f", i ? ", " : "", lon + r * cos(a), lat + r * sin(a));
  }
  at += (size_t)sprintf(s + at, "))");
  *len = at;
  return s;
}

static void fifty_megabyte_areas(void) {
  pindrop_map *m = NULL;
  size_t len = 0, k = 1700000;
  char *wkt = circle_wkt(k, -118.25, 34.05, 0.01, &len);
  pindrop_camera cam = {-118.25, 34.05, 16, 0, 800, 600};
  double lon, lat;
  CHECK(wkt != NULL);
  if (!wkt) return;
  CHECK(len >= 50u * 1000 * 1000);
  CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, -118.25, 34.05) == PINDROP_OK);
  CHECK(pindrop_map_set_allowed_area(m, wkt) == PINDROP_OK);
  /* It works: a placement outside is refused (REVERT), one inside is taken. */
  CHECK(pindrop_map_place(m, 2, -118.20, 34.05, 0) == PINDROP_ERR_INVALID_ARGUMENT && has_message(m));
  CHECK(pindrop_map_place(m, 2, -118.251, 34.051, 0) == PINDROP_OK);
  CHECK(pindrop_map_commit(m, 1) == PINDROP_OK);
  /* The same 50 MB with its closing parentheses cut off: a parse error, the area unchanged. */
  wkt[len - 2] = ' ';
  wkt[len - 1] = ' ';
  CHECK(pindrop_map_set_allowed_area(m, wkt) == PINDROP_ERR_PARSE && has_message(m));
  CHECK(pindrop_map_place(m, 3, -118.20, 34.05, 2) == PINDROP_ERR_INVALID_ARGUMENT);
  /* 50 MB of digits. */
  memset(wkt, '7', len);
  memcpy(wkt, "POLYGON((", 9);
  CHECK(pindrop_map_set_allowed_area(m, wkt) == PINDROP_ERR_PARSE && has_message(m));
  memset(wkt, '{', len);
  CHECK(pindrop_map_set_allowed_area(m, wkt) == PINDROP_ERR_PARSE && has_message(m));
  free(wkt);
  /* Polygons GEOS finds invalid: a bow tie, a self-touching ring, a hole outside its shell. */
  {
    static const char *invalid[] = {
      "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))",
      "POLYGON((0 0, 2 0, 1 1, 2 2, 0 2, 1 1, 0 0))",
      "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5))",
      "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}",
      "POLYGON((0 0, 1e400 0, 1 1, 0 0))",
    };
    size_t i;
    for (i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
      pindrop_status s = pindrop_map_set_allowed_area(m, invalid[i]);
      CHECK(s == PINDROP_ERR_GEOS || s == PINDROP_ERR_PARSE || s == PINDROP_ERR_INVALID_ARGUMENT);
      CHECK(has_message(m));
    }
  }
  /* The map is still usable, with its 50 MB area still in force. */
  CHECK(pindrop_map_place(m, 3, -118.20, 34.05, 3) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_position(m, 2, &lon, &lat) == PINDROP_OK && lon == -118.251 && lat == 34.051);
  CHECK(pindrop_map_set_allowed_area(m, NULL) == PINDROP_OK);
  CHECK(pindrop_map_place(m, 3, -118.20, 34.05, 4) == PINDROP_OK);
  pindrop_map_destroy(m);
}

static void every_capacity(void) {
  pindrop_map *m = NULL;
  pindrop_camera cam = {-118.25, 34.05, 16, 0, 800, 600};
  pindrop_id ids[3] = {1, 2, 3}, out_ids[8];
  double ll[6] = {-118.25, 34.05, -118.25, 34.05, -118.2501, 34.0501}, dist[8];
  pindrop_pin_view views[8];
  char buf[64];
  int bit;
  CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add_many(m, ids, ll, 3) == PINDROP_OK);
  CHECK(pindrop_map_set_title(m, 1, "Quercus agrifolia") == PINDROP_OK);
  for (bit = -1; bit < 64; bit++) {
    /* 0, then 2^b and 2^b - 1 and SIZE_MAX >> (63 - b): every magnitude up to SIZE_MAX. */
    size_t caps[3], j;
    caps[0] = bit < 0 ? 0 : (size_t)1 << bit;
    caps[1] = bit < 0 ? 1 : caps[0] - 1 + caps[0];
    caps[2] = bit < 0 ? 2 : SIZE_MAX >> (63 - bit);
    for (j = 0; j < 3; j++) {
      size_t cap = caps[j], len = 0, total;
      int frame_ok = cap <= (size_t)INT64_MAX / sizeof(pindrop_pin_view);
      int nearby_ok = cap <= (size_t)INT64_MAX / sizeof(double);
      int callout_ok = cap <= (size_t)INT64_MAX;
      pindrop_status s;
      total = pindrop_map_frame(m, 0, cap ? views : NULL, cap);
      CHECK(frame_ok ? total == 3 : (total == 0 && strstr(pindrop_map_last_error(m), "capacity") != NULL));
      total = pindrop_map_nearby(m, -118.25, 34.05, 100, out_ids, dist, cap);
      CHECK(nearby_ok ? total == 3 : (total == 0 && strstr(pindrop_map_last_error(m), "capacity") != NULL));
      /* Capacities past the 64 bytes there are only claimed when the title fits anyway. */
      s = pindrop_map_callout(m, 1, PINDROP_TITLE, cap ? buf : NULL, cap, &len);
      CHECK(callout_ok ? (s == PINDROP_OK && len == 17) : (s == PINDROP_ERR_INVALID_ARGUMENT && has_message(m)));
      if (callout_ok && cap > 0) CHECK(strlen(buf) == (cap > 17 ? 17 : cap - 1));
      /* Counts that no buffer could hold. */
      if (!nearby_ok) {
        CHECK(pindrop_map_add_many(m, ids, ll, cap) == PINDROP_ERR_INVALID_ARGUMENT && has_message(m));
        CHECK(pindrop_map_hit_test_many(m, ll, cap, out_ids) == PINDROP_ERR_INVALID_ARGUMENT);
        CHECK(pindrop_spread(ll, cap, 0, ll) == PINDROP_ERR_INVALID_ARGUMENT && pindrop_last_error()[0] != '\0');
        CHECK(pindrop_map_count(m) == 3);
      }
    }
  }
  pindrop_map_destroy(m);
}

/* A host view whose callbacks fail, or return NaN or infinities, in chosen ways. */
static int mode;
static int project(void *user, double lon, double lat, double *x, double *y) {
  (void)user;
  if (mode == 1) return 1;
  if (mode == 2) { *x = NAN; *y = NAN; return 0; }
  if (mode == 3) { *x = INFINITY; *y = 0; return 0; }
  *x = 400 + (lon + 118.25) * 1e5;
  *y = 300 - (lat - 34.05) * 1e5;
  return 0;
}
static int unproject(void *user, double x, double y, double *lon, double *lat) {
  (void)user;
  if (mode == 1) return -1;
  if (mode == 2) { *lon = NAN; *lat = 0; return 0; }
  if (mode == 3) { *lon = -INFINITY; *lat = INFINITY; return 0; }
  *lon = -118.25 + (x - 400) / 1e5;
  *lat = 34.05 - (y - 300) / 1e5;
  return 0;
}

static void failing_projections(void) {
  pindrop_map *m = NULL;
  pindrop_options o;
  pindrop_id id;
  double x, y, lon, lat;
  int k;
  CHECK(pindrop_options_init(&o, sizeof o) == PINDROP_OK);
  o.lift_delay_ms = 0;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, -118.25, 34.05) == PINDROP_OK);
  CHECK(pindrop_map_set_projection(m, project, unproject, NULL, 800, 600) == PINDROP_OK);
  for (k = 1; k <= 3; k++) {
    double t = 1000.0 * k;
    pindrop_event e;
    int r;
    mode = 0;
    /* Grab the pin while the projection works, then let it fail mid-drag. */
    CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, 400, 300, t) == 1);
    mode = k;
    CHECK(pindrop_map_to_screen(m, -118.25, 34.05, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT && has_message(m));
    CHECK(pindrop_map_to_lonlat(m, 10, 10, &lon, &lat) == PINDROP_ERR_INVALID_ARGUMENT && has_message(m));
    CHECK(pindrop_map_frame(m, t, NULL, 0) == 0 && has_message(m));
    CHECK(pindrop_map_hit_test(m, 400, 300, &id) == PINDROP_ERR_NOT_FOUND);
    r = pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 460, 300, t + 10);
    CHECK(r == 0 || r == 1 || r == PINDROP_ERR_INVALID_ARGUMENT);
    r = pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, 460, 300, t + 20);
    CHECK(r == 0 || r == 1 || r == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_map_tick(m, t + 500) == PINDROP_OK);
    while (pindrop_map_poll_event(m, &e)) CHECK(isfinite(e.lon) && isfinite(e.lat));
    /* The pin never went anywhere the host could not see; the map works again with the view. */
    CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon == -118.25 && lat == 34.05);
    CHECK(pindrop_map_cancel_gesture(m, t + 600) == PINDROP_OK || has_message(m));
    mode = 0;
    CHECK(pindrop_map_frame(m, t + 700, NULL, 0) == 1);
    CHECK(pindrop_map_hit_test(m, 400, 300, &id) == PINDROP_OK && id == 1);
  }
  /* Back on the built-in camera, everything as before. */
  {
    pindrop_camera cam = {-118.25, 34.05, 18, 0, 800, 600};
    CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
    CHECK(pindrop_map_to_screen(m, -118.25, 34.05, &x, &y) == PINDROP_OK && fabs(x - 400) < 1e-9 && fabs(y - 300) < 1e-9);
  }
  pindrop_map_destroy(m);
}

int main(void) {
  every_capacity();
  failing_projections();
  fifty_megabyte_areas();
  ten_million_pins();
  if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
  printf("faults: ok\n");
  return 0;
}
