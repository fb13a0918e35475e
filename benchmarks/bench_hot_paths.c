/* The core's hot paths on the 916k Los Angeles County street trees, each timed and counted:
 *  - add_many, per pin (default options: spreading on);
 *  - a hit test from C after a frame (pindrop_map_hit_test), per call;
 *  - a frame of the densest 1200x800 window of Long Beach at zoom 16, every tree built;
 *  - frame_clusters of the same window with clustering on (radius 60);
 *  - set_position + cluster update: a random move of up to 30 m and the frame_clusters after it,
 *    less the frame_clusters with nothing moved;
 *  - a drag move: one pindrop_map_touch MOVE while a pin is dragged, with its DRAGGED polled;
 *  - a group drag move: the same with 1,000 selected trees moving with the grabbed one (behaviour
 *    23), and natively the frame that draws them and the drop of all 1,000 as one user move;
 *  - spread: a pin moved onto the largest stack (305 trees) and off it again, per move.
 *
 * Natively it prints each figure as `name: value unit (target ...)`, the best of three runs in CPU
 * time. Under callgrind with the instrumentation off at the start,
 *
 *     valgrind --tool=callgrind --instr-atstart=no .build/bench/bench_hot_paths DATA_DIR
 *
 * only each figure's loop is instrumented (and nothing around it: setup, data, checks), and each
 * loop's counts are dumped as a part of their own, named `hot:KEY:OPS`, so that a part's
 * instructions divided by OPS is the figure's count per operation. benchmarks/instructions.py runs
 * it so and reads the parts. Every input is fixed (the data, the cameras, a seeded generator),
 * so the counts are the same from run to run.
 *
 * Usage: bench_hot_paths DATA_DIR (the folder holding la_trees.csv). */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>
#include <valgrind/callgrind.h>

#include "la_trees.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 12;
static double uniform(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

/* Under valgrind each loop runs once with fewer operations (the count per operation does not need
   more); natively three times, keeping the fastest. */
static int counting;
static size_t reps(void) { return counting ? 1 : 3; }
static size_t ops(size_t native, size_t counted) { return counting ? counted : native; }

/* Around a measured loop: the instrumentation on, then off and the part dumped under its name. */
static void count_begin(void) { CALLGRIND_START_INSTRUMENTATION; }
static void count_end(const char *key, size_t n) {
  char name[128];
  CALLGRIND_STOP_INSTRUMENTATION;
  snprintf(name, sizeof name, "hot:%s:%zu", key, n);
  CALLGRIND_DUMP_STATS_AT(name);
}

static void report(const char *name, double value, const char *unit, const char *target) {
  if (counting) return;
  if (target) printf("%s: %.3f %s (target %s)\n", name, value, unit, target);
  else printf("%s: %.3f %s\n", name, value, unit);
  fflush(stdout);
}

static size_t drain(pindrop_map *m) {
  pindrop_event e;
  size_t n = 0;
  while (pindrop_map_poll_event(m, &e)) n++;
  return n;
}

/* bench_gesture's window: the centre of the densest 1200x800-point cell of Long Beach at zoom 16. */
static pindrop_camera dense_window(const double *ll, size_t n) {
  pindrop_camera cam = {-118.17, 33.80, 16, 0, 1200, 800};
  const double world = 256.0 * 65536.0, dlon = 1200.0 / world * 360.0;
  const double dlat = dlon * 800.0 / 1200.0 * cos(33.8 * 3.14159265358979323846 / 180.0);
  enum { G = 40 };
  static int grid[G][G];
  int best = -1, gx, gy;
  size_t i;
  for (i = 0; i < n; i++) {
    gx = (int)((ll[2 * i] + 118.3) / dlon); gy = (int)((ll[2 * i + 1] - 33.7) / dlat);
    if (ll[2 * i] > -118.25 && ll[2 * i] < -118.0 && ll[2 * i + 1] > 33.7 && ll[2 * i + 1] < 33.9 &&
        gx >= 0 && gx < G && gy >= 0 && gy < G) grid[gx][gy]++;
  }
  for (gx = 0; gx < G; gx++)
    for (gy = 0; gy < G; gy++)
      if (grid[gx][gy] > best) {
        best = grid[gx][gy];
        cam.center_lon = -118.3 + (gx + 0.5) * dlon; cam.center_lat = 33.7 + (gy + 0.5) * dlat;
      }
  return cam;
}

static const double *sort_ll;
static int by_coordinate(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  if (sort_ll[2 * i] != sort_ll[2 * j]) return sort_ll[2 * i] < sort_ll[2 * j] ? -1 : 1;
  if (sort_ll[2 * i + 1] != sort_ll[2 * j + 1]) return sort_ll[2 * i + 1] < sort_ll[2 * j + 1] ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Lowest row of the largest stack (most rows at one exact coordinate), as bench_spread finds it. */
static size_t largest_stack(const double *ll, size_t n) {
  size_t *order = malloc(n * sizeof *order), best = 0, best_n = 0, i, j;
  if (!order) exit(2);
  for (i = 0; i < n; i++) order[i] = i;
  sort_ll = ll;
  qsort(order, n, sizeof *order, by_coordinate);
  for (i = 0; i < n; i = j) {
    size_t a = order[i];
    for (j = i + 1; j < n && ll[2 * order[j]] == ll[2 * a] && ll[2 * order[j] + 1] == ll[2 * a + 1]; j++) {}
    if (j - i > best_n) { best_n = j - i; best = a; }
  }
  free(order);
  return best;
}

/* add_many of every tree into a new map with these options, per pin; the last map is kept. */
static pindrop_map *add_many(const pindrop_options *o, const pindrop_id *ids, const double *ll, size_t n, int measured) {
  pindrop_map *m = NULL;
  double best = 1e18;
  size_t r;
  for (r = 0; r < (measured ? reps() : 1); r++) {
    double t0;
    if (m) pindrop_map_destroy(m);
    CHECK(pindrop_map_create(o, &m));
    if (measured) count_begin();
    t0 = cpu_s();
    CHECK(pindrop_map_add_many(m, ids, ll, n));
    t0 = cpu_s() - t0;
    if (measured) count_end("add_many", n);
    if (t0 < best) best = t0;
  }
  if (measured) report("add_many, default options, per pin", best * 1e9 / (double)n, "ns", NULL);
  /* Every leaf's tree built, as after the first seconds of use. */
  for (r = 0; r < 60000; r++) (void)pindrop_map_nearby(m, ll[2 * (r % n)], ll[2 * (r % n) + 1], 0.0, NULL, NULL, 0);
  return m;
}

static void frame(pindrop_map *m, const pindrop_camera *cam, double *t) {
  static pindrop_pin_view views[1 << 16];
  size_t i, r, count = ops(300, 30);
  double best = 1e18, t0;
  CHECK(pindrop_map_set_camera(m, cam));
  for (i = 0; i < 20; i++) (void)pindrop_map_frame(m, *t += 16, views, 1 << 16);
  for (r = 0; r < reps(); r++) {
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < count; i++) (void)pindrop_map_frame(m, *t += 16, views, 1 << 16);
    t0 = cpu_s() - t0;
    count_end("frame", count);
    if (t0 < best) best = t0;
  }
  report("frame of Long Beach at zoom 16, 1200x800, every tree built", best * 1e3 / (double)count, "ms", "<= 0.45 ms");
}

/* Taps after a frame: cameras at zoom 17 (1024x768) centred on random trees, half the taps within
   30 points of a drawn pin, half anywhere (bench_core's taps); the frame before each camera's taps
   is not measured. */
static void hit_test(pindrop_map *m, const double *ll, size_t n, double *t) {
  enum { NCAM = 50, VIEWCAP = 1 << 16 };
  static pindrop_pin_view views[VIEWCAP];
  static pindrop_camera cams[NCAM];
  size_t per = ops(2000, 200), c, q, r;
  double *xy = malloc(2 * NCAM * per * sizeof *xy), best = 1e18;
  pindrop_id hit;
  if (!xy) exit(2);
  for (c = 0; c < NCAM; c++) {
    size_t k = (size_t)(uniform() * (double)n), shown;
    pindrop_camera cam = {ll[2 * k], ll[2 * k + 1], 17, 0, 1024, 768};
    cams[c] = cam;
    CHECK(pindrop_map_set_camera(m, &cam));
    shown = pindrop_map_frame(m, *t += 16, views, VIEWCAP);
    if (shown > VIEWCAP) shown = VIEWCAP;
    for (q = 0; q < per; q++) {
      double *p = &xy[2 * (c * per + q)];
      if (q % 2 == 0 && shown > 0) {
        const pindrop_pin_view *v = &views[(size_t)(uniform() * (double)shown)];
        p[0] = v->x + (uniform() - 0.5) * 60; p[1] = v->y + (uniform() - 0.5) * 60;
      } else {
        p[0] = uniform() * 1024; p[1] = uniform() * 768;
      }
    }
  }
  for (r = 0; r < reps(); r++) {
    double spent = 0, t0;
    for (c = 0; c < NCAM; c++) {
      CHECK(pindrop_map_set_camera(m, &cams[c]));
      (void)pindrop_map_frame(m, *t += 16, views, VIEWCAP);
      count_begin();
      t0 = cpu_s();
      for (q = 0; q < per; q++) (void)pindrop_map_hit_test(m, xy[2 * (c * per + q)], xy[2 * (c * per + q) + 1], &hit);
      spent += cpu_s() - t0;
      CALLGRIND_STOP_INSTRUMENTATION;
    }
    /* The taps' parts add up until this dump. */
    count_end("hit_test", NCAM * per);
    if (spent < best) best = spent;
  }
  report("hit_test from C, after a frame", best * 1e9 / (double)(NCAM * per), "ns", "<= 2000 ns");
  free(xy);
}

/* bench_spread's move: a lone pin (row 17) dropped onto the largest stack and taken off again;
   the ring of the stack re-forms each time. Per move. */
static void spread(pindrop_map *m, const double *ll, size_t n) {
  size_t stack = largest_stack(ll, n), lone = 17, count = ops(2000, 100), i, r;
  double best = 1e18, t0;
  for (r = 0; r < reps(); r++) {
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < count; i++) {
      CHECK(pindrop_map_set_position(m, (pindrop_id)lone, ll[2 * stack], ll[2 * stack + 1]));
      CHECK(pindrop_map_set_position(m, (pindrop_id)lone, ll[2 * lone], ll[2 * lone + 1]));
    }
    t0 = cpu_s() - t0;
    count_end("spread", 2 * count);
    if (t0 < best) best = t0;
  }
  report("spread, re-form after moving a pin onto / off the largest stack", best * 1e6 / (double)(2 * count), "us",
         "<= 50 us");
}

/* bench_gesture's drag: a tree under the centre of the Long Beach window at zoom 18 pressed,
   lifted, then dragged round a circle, each move's events polled. */
static void drag(pindrop_map *m, const pindrop_camera *window, double *t) {
  pindrop_camera cam = *window;
  pindrop_options o;
  pindrop_id grabbed;
  double x0, y0, lon, lat, best = 1e18, t0;
  size_t i, r, count = ops(200000, 5000), k = 0;
  CHECK(pindrop_options_init(&o, sizeof o));
  cam.zoom = 18;
  CHECK(pindrop_map_set_camera(m, &cam));
  if (pindrop_map_hit_test(m, 600, 400, &grabbed) != PINDROP_OK) {
    pindrop_pin_view v;
    if (pindrop_map_frame(m, *t, &v, 1) == 0) { fprintf(stderr, "no tree in view\n"); exit(1); }
    grabbed = v.id;
  }
  CHECK(pindrop_map_display_position(m, grabbed, &lon, &lat));
  CHECK(pindrop_map_to_screen(m, lon, lat, &x0, &y0));
  *t += 1000;
  if (pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x0, y0, *t) != 1) { fprintf(stderr, "the press missed\n"); exit(1); }
  *t += o.lift_delay_ms;
  CHECK(pindrop_map_tick(m, *t));
  *t += o.lift_duration_ms;
  (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x0 + 20, y0, *t);
  (void)drain(m);
  for (i = 0; i < 1000; i++, k++) { /* the event queue reaches its working size */
    *t += 0.01;
    (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 600 + 200 * cos((double)k * 1e-3), 400 + 200 * sin((double)k * 1e-3), *t);
    (void)drain(m);
  }
  for (r = 0; r < reps(); r++) {
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < count; i++, k++) {
      *t += 0.01;
      if (pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 600 + 200 * cos((double)k * 1e-3),
                            400 + 200 * sin((double)k * 1e-3), *t) != 1) {
        fprintf(stderr, "move %zu was not pindrop's\n", i);
        exit(1);
      }
      (void)drain(m);
    }
    t0 = cpu_s() - t0;
    count_end("drag_move", count);
    if (t0 < best) best = t0;
  }
  report("touch move while dragging, with its DRAGGED polled", best * 1e6 / (double)count, "us", "<= 2 us");
  *t += 1;
  (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, 600, 400, *t);
  (void)drain(m);
}

/* A group drag (behaviour 23): the tree under the centre of the Long Beach window at zoom 18 and
   the 999 trees nearest it selected, the tree pressed, lifted and dragged round a circle as in
   `drag`, each move's events polled: a move costs what the grabbed pin's costs (the others are
   drawn from their offsets when a frame asks). Natively also the frame of the window while the
   group is dragged, less one with nothing held, and the drop of the 1,000 (MOVED, callouts,
   geocode requests, one undo step). */
static void group_drag(pindrop_map *m, const pindrop_camera *window, double *t) {
  enum { GROUP = 1000, CAP = 20000 };
  static pindrop_pin_view views[CAP];
  static pindrop_id near[GROUP];
  static double dist[GROUP];
  pindrop_camera cam = *window;
  pindrop_options o;
  pindrop_id grabbed, got[GROUP];
  double x0, y0, lon, lat, best = 1e18, best_frame = 1e18, best_still = 1e18, t0, drop;
  size_t i, r, n, count = ops(200000, 5000), frames = ops(200, 20), k = 0, moved = 0;
  pindrop_event e;
  CHECK(pindrop_options_init(&o, sizeof o));
  cam.zoom = 18;
  CHECK(pindrop_map_set_camera(m, &cam));
  if (pindrop_map_hit_test(m, 600, 400, &grabbed) != PINDROP_OK) {
    if (pindrop_map_frame(m, *t, views, 1) == 0) { fprintf(stderr, "no tree in view\n"); exit(1); }
    grabbed = views[0].id;
  }
  CHECK(pindrop_map_position(m, grabbed, &lon, &lat));
  n = pindrop_map_nearby(m, lon, lat, 2000, near, dist, GROUP);
  if (n < GROUP) { fprintf(stderr, "fewer than %d trees within 2 km\n", GROUP); exit(1); }
  CHECK(pindrop_map_select_many(m, near, GROUP, PINDROP_SELECT_SET));
  if (pindrop_map_selection(m, got, GROUP) != GROUP) { fprintf(stderr, "the selection is not %d trees\n", GROUP); exit(1); }
  (void)drain(m);
  for (r = 0; r < reps() && !counting; r++) { /* a frame with the selection still, for the difference */
    t0 = cpu_s();
    for (i = 0; i < frames; i++) (void)pindrop_map_frame(m, *t += 0.01, views, CAP);
    t0 = cpu_s() - t0;
    if (t0 < best_still) best_still = t0;
  }
  CHECK(pindrop_map_display_position(m, grabbed, &lon, &lat));
  CHECK(pindrop_map_to_screen(m, lon, lat, &x0, &y0));
  *t += 1000;
  if (pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x0, y0, *t) != 1) { fprintf(stderr, "the press missed\n"); exit(1); }
  *t += o.lift_delay_ms;
  CHECK(pindrop_map_tick(m, *t));
  *t += o.lift_duration_ms;
  (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x0 + 20, y0, *t);
  (void)drain(m);
  for (i = 0; i < 1000; i++, k++) {
    *t += 0.01;
    (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 600 + 200 * cos((double)k * 1e-3), 400 + 200 * sin((double)k * 1e-3), *t);
    (void)drain(m);
  }
  for (r = 0; r < reps(); r++) {
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < count; i++, k++) {
      *t += 0.01;
      if (pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 600 + 200 * cos((double)k * 1e-3),
                            400 + 200 * sin((double)k * 1e-3), *t) != 1) {
        fprintf(stderr, "move %zu was not pindrop's\n", i);
        exit(1);
      }
      (void)drain(m);
    }
    t0 = cpu_s() - t0;
    count_end("group_drag_move", count);
    if (t0 < best) best = t0;
  }
  report("touch move while dragging 1,000 selected trees, with its DRAGGED polled", best * 1e6 / (double)count, "us",
         "<= 1000 us");
  for (r = 0; r < reps() && !counting; r++) {
    t0 = cpu_s();
    for (i = 0; i < frames; i++, k++) {
      *t += 0.01;
      (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 600 + 200 * cos((double)k * 1e-3), 400 + 200 * sin((double)k * 1e-3), *t);
      (void)pindrop_map_frame(m, *t, views, CAP);
    }
    t0 = cpu_s() - t0;
    if (t0 < best_frame) best_frame = t0;
  }
  (void)drain(m);
  report("a frame while dragging 1,000 selected trees, less a frame with them still",
         (best_frame - best_still) * 1e6 / (double)frames, "us", "<= 1000 us");
  *t += 1;
  t0 = cpu_s();
  (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, 600, 400, *t);
  drop = cpu_s() - t0;
  while (pindrop_map_poll_event(m, &e)) if (e.type == PINDROP_EVENT_MOVED) moved++;
  if (moved != GROUP) { fprintf(stderr, "the drop moved %zu trees, not %d\n", moved, GROUP); exit(1); }
  report("the drop of 1,000 selected trees (MOVED, callouts, geocode requests, one undo step)", drop * 1e3, "ms", NULL);
  CHECK(pindrop_map_undo(m, *t += 1));
  (void)drain(m);
  CHECK(pindrop_map_select_many(m, NULL, 0, PINDROP_SELECT_SET));
  (void)drain(m);
}

/* Clustering on (radius 60): frame_clusters of the Long Beach window with nothing moved, then
   random moves of up to 30 m each followed by frame_clusters (cluster_loop's moves). */
static void clusters(const pindrop_id *ids, const double *ll, size_t n, const pindrop_camera *window, double *t) {
  enum { CAP = 20000 };
  static pindrop_cluster_view views[CAP];
  pindrop_options o;
  pindrop_map *m;
  size_t i, r, count = ops(300, 30), moves = ops(3000, 300);
  double best = 1e18, best_moves = 1e18, t0, *to;
  size_t *who;
  CHECK(pindrop_options_init(&o, sizeof o));
  o.cluster_radius = 60;
  m = add_many(&o, ids, ll, n, 0);
  CHECK(pindrop_map_set_camera(m, window));
  for (i = 0; i < 20; i++) (void)pindrop_map_frame_clusters(m, *t += 16, views, CAP);
  for (r = 0; r < reps(); r++) {
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < count; i++) (void)pindrop_map_frame_clusters(m, *t += 16, views, CAP);
    t0 = cpu_s() - t0;
    count_end("frame_clusters", count);
    if (t0 < best) best = t0;
  }
  report("frame_clusters of Long Beach at zoom 16, 1200x800, radius 60", best * 1e3 / (double)count, "ms", NULL);

  who = malloc(moves * sizeof *who);
  to = malloc(2 * moves * sizeof *to);
  if (!who || !to) exit(2);
  for (r = 0; r < reps(); r++) {
    for (i = 0; i < moves; i++) {
      who[i] = (size_t)(uniform() * (double)n);
      to[2 * i] = ll[2 * who[i]] + (uniform() - 0.5) * 60 / 111000;
      to[2 * i + 1] = ll[2 * who[i] + 1] + (uniform() - 0.5) * 60 / 111000;
    }
    count_begin();
    t0 = cpu_s();
    for (i = 0; i < moves; i++) {
      CHECK(pindrop_map_set_position(m, ids[who[i]], to[2 * i], to[2 * i + 1]));
      (void)pindrop_map_frame_clusters(m, *t += 16, views, CAP);
    }
    t0 = cpu_s() - t0;
    count_end("move_frame_clusters", moves);
    if (t0 < best_moves) best_moves = t0;
  }
  /* frame_clusters with nothing moved is what a frame costs anyway: the update is the rest. */
  report("set_position + cluster update at zoom 16", (best_moves / (double)moves - best / (double)count) * 1e6, "us",
         "<= 10 us");
  free(who); free(to);
  pindrop_map_destroy(m);
}

int main(int argc, char **argv) {
  char path[4096];
  double *ll, t = 0;
  size_t n, i;
  pindrop_id *ids;
  pindrop_options o;
  pindrop_map *m;
  pindrop_camera window;
  if (argc < 2) { fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]); return 2; }
  counting = RUNNING_ON_VALGRIND != 0;
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &ll);
  ids = malloc(n * sizeof *ids);
  if (!ids) return 2;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  window = dense_window(ll, n);

  CHECK(pindrop_options_init(&o, sizeof o));
  m = add_many(&o, ids, ll, n, 1);
  frame(m, &window, &t);
  hit_test(m, ll, n, &t);
  spread(m, ll, n);
  drag(m, &window, &t);
  group_drag(m, &window, &t);
  pindrop_map_destroy(m);
  clusters(ids, ll, n, &window, &t);
  free(ll); free(ids);
  return 0;
}
