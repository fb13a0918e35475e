/* The accepted ranges through the C ABI (docs/robustness.md, "Accepted ranges"), the bounded event
   queue (PINDROP_EVENT_QUEUE_LIMIT) and pins beyond ±85.0511°.
   - Values no real host can mean are refused with PINDROP_ERR_INVALID_ARGUMENT, a message naming
     the argument, and nothing changes: nudge(1e300, 1e300) once moved the selected pin to
     (-100, -90), a bearing of 1e300 was accepted, a time of 1e300 made every later time
     "backwards".
   - 2,000,000 drag moves without a poll once queued 1,999,995 events (108 MB): the queue now holds
     at most the limit plus the events a host must see, and every DROPPED and MOVED arrives.
   - A pin at latitude 89.9 is kept as given and drawn, hit and clustered on the world's edge. */
#include <pindrop.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* The resident set of the process in kB (Linux), 0 when unknown. */
static long rss_kb(void) {
  char line[256];
  long kb = 0;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

/* Everything a refused call must leave alone. */
typedef struct { double lon, lat, x, y; pindrop_id selected; size_t count; } state;

static state snapshot(pindrop_map *m) {
  state s;
  memset(&s, 0, sizeof s);
  pindrop_map_position(m, 1, &s.lon, &s.lat);
  pindrop_map_to_screen(m, -118.25, 34.05, &s.x, &s.y);  /* the view */
  pindrop_map_selected(m, &s.selected);
  s.count = pindrop_map_count(m);
  return s;
}

static int same(state a, state b) {
  return memcmp(&a.lon, &b.lon, sizeof a.lon) == 0 && memcmp(&a.lat, &b.lat, sizeof a.lat) == 0 && a.x == b.x &&
         a.y == b.y && a.selected == b.selected && a.count == b.count;
}

/* The call's status is INVALID_ARGUMENT, its message contains `word`, no event was queued and the
   map is as it was. */
#define REFUSED(m, call, word) do { \
    state before_ = snapshot(m); \
    pindrop_event e_; \
    CHECK((call) == PINDROP_ERR_INVALID_ARGUMENT); \
    CHECK(strstr(pindrop_map_last_error(m), (word)) != NULL); \
    CHECK(strstr(pindrop_last_error(), (word)) != NULL); \
    CHECK(same(before_, snapshot(m))); \
    CHECK(pindrop_map_poll_event(m, &e_) == 0); \
  } while (0)

static void drain(pindrop_map *m) {
  pindrop_event e;
  while (pindrop_map_poll_event(m, &e) == 1) {}
}

static void ranges(void) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_camera cam = {-118.25, 34.05, 17, 0, 800, 600};
  pindrop_camera bad;
  double t = 0, lon, lat, x, y;
  size_t i;
  static const double huge[] = {1e300, -1e300, 1.7976931348623157e308, 1e7 + 1, -2e7};

  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  /* A time before 0 is refused even as the first time. */
  REFUSED(m, pindrop_map_tick(m, -1), "[0, 1e13]");
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, -118.25, 34.05) == PINDROP_OK);
  CHECK(pindrop_map_select(m, 1) == PINDROP_OK);
  drain(m);

  /* Nudges: more than 1e7 points, or not finite. */
  for (i = 0; i < sizeof huge / sizeof huge[0]; i++) {
    REFUSED(m, pindrop_map_nudge(m, huge[i], 0, 10), "nudge");
    REFUSED(m, pindrop_map_nudge(m, 0, huge[i], 10), "1e7");
  }
  REFUSED(m, pindrop_map_nudge(m, 1e300, 1e300, 10), "1e+300");
  REFUSED(m, pindrop_map_nudge(m, NAN, 0, 10), "not finite");
  CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon == -118.25 && lat == 34.05);
  /* A whole screen is a nudge. */
  CHECK(pindrop_map_nudge(m, 800, 0, 10) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon > -118.25);
  CHECK(pindrop_map_set_position(m, 1, -118.25, 34.05) == PINDROP_OK);
  drain(m);

  /* Bearings beyond ±1e6°. */
  for (i = 0; i < 3; i++) {
    bad = cam;
    bad.bearing_deg = i == 0 ? 1e300 : i == 1 ? -1e6 - 1 : INFINITY;
    REFUSED(m, pindrop_map_set_camera(m, &bad), "bearing_deg");
  }
  bad = cam;
  bad.bearing_deg = 1e6;
  CHECK(pindrop_map_set_camera(m, &bad) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);

  /* Touches beyond the viewport grown by 1e7 points. */
  REFUSED(m, pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, 1e300, 300, 20), "touch position");
  REFUSED(m, pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, 400, 600 + 1e7 + 1, 20), "1e7");
  CHECK(pindrop_map_to_screen(m, -118.25, 34.05, &x, &y) == PINDROP_OK);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, 20) == 1);
  REFUSED(m, pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, -1e7 - 1, y, 30), "touch position");
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_CANCEL, NAN, NAN, 30) >= 0);
  drain(m);

  /* Times outside [0, 1e13] ms. */
  REFUSED(m, pindrop_map_tick(m, 1e300), "time");
  REFUSED(m, pindrop_map_tick(m, 1e13 + 1e6), "[0, 1e13]");
  REFUSED(m, pindrop_map_nudge(m, 1, 0, 1e300), "time");
  REFUSED(m, pindrop_map_commit(m, -5), "time");
  CHECK(pindrop_map_frame(m, 1e300, NULL, 0) == 0);
  CHECK(strstr(pindrop_map_last_error(m), "time") != NULL);
  t = 1.7e12;  /* Unix time in milliseconds */
  CHECK(pindrop_map_tick(m, t) == PINDROP_OK);
  CHECK(pindrop_map_tick(m, 1e13) == PINDROP_OK);
  pindrop_map_destroy(m);
}

/* 2,000,000 drag moves without a poll, in four drags: the queue stays within the limit (plus the
   few events each drop adds), the process does not grow with the moves, and every DROPPED and
   MOVED arrives in order, each on the last DRAGGED before it. */
static void queue(void) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_camera cam = {-118.25, 34.05, 18, 0, 1200, 800};
  pindrop_event e;
  double t = 0, x, y, last_lon = 0, last_lat = 0, from_lon = -118.25, from_lat = 34.05;
  long before, after;
  int round, i, have = 0, drops = 0, moves = 0;
  size_t n = 0;

  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.lift_height = 0;
  o.autopan_margin = 0;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, -118.25, 34.05) == PINDROP_OK);
  before = rss_kb();
  for (round = 0; round < 4; round++) {
    {
      double lon, lat;
      CHECK(pindrop_map_display_position(m, 1, &lon, &lat) == PINDROP_OK);
      CHECK(pindrop_map_to_screen(m, lon, lat, &x, &y) == PINDROP_OK);
    }
    CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, t) == 1);
    for (i = 0; i < 500000; i++) {
      t += 0.001;
      CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 400 + (double)(i % 400), 300 + round, t) == 1);
    }
    t += 1;
    CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, 617, 300 + round, t) == 1);
    t += 1000;
    CHECK(pindrop_map_tick(m, t) == PINDROP_OK);
  }
  after = rss_kb();
  while (pindrop_map_poll_event(m, &e) == 1) {
    n++;
    if (e.type == PINDROP_EVENT_DRAGGED) { last_lon = e.lon; last_lat = e.lat; have = 1; }
    if (e.type == PINDROP_EVENT_DROPPED) { CHECK(have && e.lon == last_lon && e.lat == last_lat); drops++; }
    if (e.type == PINDROP_EVENT_MOVED) {
      CHECK(e.cause == PINDROP_CAUSE_DRAG && e.lon == last_lon && e.lat == last_lat);
      CHECK(e.from_lon == from_lon && e.from_lat == from_lat);
      from_lon = e.lon; from_lat = e.lat;
      moves++;
    }
  }
  CHECK(drops == 4 && moves == 4);
  CHECK(n <= PINDROP_EVENT_QUEUE_LIMIT + 6 * 4);
  printf("  2,000,000 drag moves without a poll: %zu events queued (limit %d), RSS %ld kB -> %ld kB\n", n,
         PINDROP_EVENT_QUEUE_LIMIT, before, after);
  /* Before the bound: 1,999,995 events, about 108 MB. */
  CHECK(before == 0 || after - before < 8 * 1024);
  pindrop_map_destroy(m);
}

/* A pin at 89.9° is kept as given and drawn, hit and clustered on the world's north edge. */
static void beyond(void) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_camera cam = {10, 80, 3, 0, 800, 600};
  pindrop_pin_view views[8];
  pindrop_cluster_view clusters[4];
  double lon, lat, ex, ey, x, y;
  pindrop_id hit = 0;
  size_t n, i;
  int drawn = 0;

  pindrop_options_init(&o, sizeof o);
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, 10, 89.9) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon == 10 && lat == 89.9);
  CHECK(pindrop_map_to_screen(m, 10, 85.0511287798066, &ex, &ey) == PINDROP_OK);
  CHECK(pindrop_map_to_screen(m, 10, 89.9, &x, &y) == PINDROP_OK);
  CHECK(fabs(x - ex) < 1e-6 && fabs(y - ey) < 1e-6);
  n = pindrop_map_frame(m, 0, views, 8);
  for (i = 0; i < n && i < 8; i++)
    if (views[i].id == 1) { drawn = 1; CHECK(fabs(views[i].x - ex) < 1e-6 && fabs(views[i].y - ey) < 1e-6); }
  CHECK(drawn);
  CHECK(pindrop_map_hit_test(m, ex, ey + 2, &hit) == PINDROP_OK && hit == 1);
  CHECK(pindrop_map_to_screen(m, 10, 90, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT);  /* the pole: no point */
  pindrop_map_destroy(m);

  o.cluster_radius = 40;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 1, 10, 89.9) == PINDROP_OK);
  CHECK(pindrop_map_add(m, 2, 10, 86) == PINDROP_OK);
  n = pindrop_map_frame_clusters(m, 0, clusters, 4);
  CHECK(n == 1);
  if (n == 1) {
    CHECK(clusters[0].count == 2 && (clusters[0].flags & PINDROP_CLUSTER_ONE_SPOT));
    CHECK(fabs(clusters[0].x - ex) < 1e-6 && fabs(clusters[0].y - ey) < 1e-6);
  }
  pindrop_map_destroy(m);
}

int main(void) {
  ranges();
  queue();
  beyond();
  if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
  printf("ranges: ok\n");
  return 0;
}
