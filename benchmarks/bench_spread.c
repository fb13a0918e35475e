/* Benchmark of spreading inside a map of the 916k Los Angeles County street trees: building the
   groups on a bulk load, and re-forming them after moving one pin (a lone pin, a pin joining and
   leaving the 305-tree stack, a pin leaving a ring of two), at tolerance 0 and 2 m.
   Usage: bench_spread DATA_DIR (the folder holding la_trees.csv). */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>
#include "la_trees.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


static void check(pindrop_status s, const char *what) {
  if (s != PINDROP_OK) { fprintf(stderr, "%s failed: %s\n", what, pindrop_status_string(s)); exit(1); }
}

static const double *sort_ll;
static int by_coordinate(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  if (sort_ll[2 * i] != sort_ll[2 * j]) return sort_ll[2 * i] < sort_ll[2 * j] ? -1 : 1;
  if (sort_ll[2 * i + 1] != sort_ll[2 * j + 1]) return sort_ll[2 * i + 1] < sort_ll[2 * j + 1] ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Lowest row index of the largest stack (most rows at one exact coordinate), and its size. */
static size_t largest_stack(const double *ll, size_t n, size_t *size) {
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
  *size = best_n;
  return best;
}

/* A pin in a stack of exactly two consecutive rows. */
static size_t a_pair(const double *ll, size_t n) {
  size_t i;
  for (i = 1; i + 1 < n; i++) {
    int same_prev = ll[2 * i] == ll[2 * i - 2] && ll[2 * i + 1] == ll[2 * i - 1];
    int same_next = ll[2 * i] == ll[2 * i + 2] && ll[2 * i + 1] == ll[2 * i + 3];
    int prev2 = i >= 2 && ll[2 * i - 2] == ll[2 * i - 4] && ll[2 * i - 1] == ll[2 * i - 3];
    if (same_prev && !same_next && !prev2) return i;
  }
  return 0;
}

/* Mean microseconds per pindrop_map_set_position, alternating between two coordinates. */
static double time_moves(pindrop_map *m, pindrop_id id, double lon0, double lat0, double lon1, double lat1, int reps) {
  double t0 = now_s();
  int k;
  for (k = 0; k < reps; k++) {
    check(pindrop_map_set_position(m, id, lon1, lat1), "set_position");
    check(pindrop_map_set_position(m, id, lon0, lat0), "set_position");
  }
  return (now_s() - t0) / (2.0 * reps) * 1e6;
}

static void run(const double *ll, size_t n, double tolerance) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_id *ids = malloc(n * sizeof *ids);
  size_t i, stack_n, stack = largest_stack(ll, n, &stack_n), pair = a_pair(ll, n), lone = 17;
  double t0, us, frame_lon, frame_lat, x, y;
  pindrop_id hit;
  if (!ids) exit(2);
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  check(pindrop_options_init(&o, sizeof o), "options_init");
  o.spread_tolerance_m = tolerance;
  check(pindrop_map_create(&o, &m), "map_create");
  t0 = now_s();
  check(pindrop_map_add_many(m, ids, ll, n), "add_many");
  printf("spread map: add_many + grouping of %zu pins at tolerance %g m: %.2f s\n", n, tolerance, now_s() - t0);

  /* Settle the index: the first hit test builds the trees. */
  check(pindrop_map_display_position(m, (pindrop_id)stack, &frame_lon, &frame_lat), "display_position");
  pindrop_camera cam = {frame_lon, frame_lat, 19, 0, 400, 300};
  check(pindrop_map_set_camera(m, &cam), "set_camera");
  check(pindrop_map_to_screen(m, frame_lon, frame_lat, &x, &y), "to_screen");
  check(pindrop_map_hit_test(m, x, y, &hit), "hit_test");
  if (hit != (pindrop_id)stack) { fprintf(stderr, "hit %lld, expected %zu\n", (long long)hit, stack); exit(1); }

  /* A lone pin moved 50 m and back: leaves its group of one, starts another. */
  us = time_moves(m, (pindrop_id)lone, ll[2 * lone], ll[2 * lone + 1], ll[2 * lone] + 5e-4, ll[2 * lone + 1], 20000);
  printf("spread map: re-form after moving a lone pin (916k map, tol %g m): %.2f us (target <= 50 us)\n", tolerance, us);
  /* A lone pin dropped onto the largest stack and taken off again: the ring of n re-forms each time. */
  us = time_moves(m, (pindrop_id)lone, ll[2 * lone], ll[2 * lone + 1], ll[2 * stack], ll[2 * stack + 1], 2000);
  printf("spread map: re-form after moving a pin onto / off the %zu-pin stack (tol %g m): %.2f us (target <= 50 us)\n",
         stack_n, tolerance, us);
  /* The same, then reading every drawn position of the ring (what the next frame pays: the ring's
     positions are computed when first asked for after a re-form). */
  {
    pindrop_id *ring = malloc(n * sizeof *ring);
    size_t r = 0, k;
    int rep;
    double lon, lat;
    if (!ring) exit(2);
    for (i = 0; i < n; i++)
      if (ll[2 * i] == ll[2 * stack] && ll[2 * i + 1] == ll[2 * stack + 1]) ring[r++] = (pindrop_id)i;
    ring[r++] = (pindrop_id)lone;
    t0 = now_s();
    for (rep = 0; rep < 1000; rep++) {
      check(pindrop_map_set_position(m, (pindrop_id)lone, ll[2 * stack], ll[2 * stack + 1]), "set_position");
      for (k = 0; k < r; k++) check(pindrop_map_display_position(m, ring[k], &lon, &lat), "display_position");
      check(pindrop_map_set_position(m, (pindrop_id)lone, ll[2 * lone], ll[2 * lone + 1]), "set_position");
      for (k = 0; k + 1 < r; k++) check(pindrop_map_display_position(m, ring[k], &lon, &lat), "display_position");
    }
    printf("spread map: same, plus reading all %zu drawn positions of the ring after each move (tol %g m): %.2f us\n",
           r - 1, tolerance, (now_s() - t0) / 2000.0 * 1e6);
    free(ring);
  }
  /* A pin of a stack of two moved away and back: its partner is left alone, then joined again. */
  if (pair) {
    us = time_moves(m, (pindrop_id)pair, ll[2 * pair], ll[2 * pair + 1], ll[2 * pair] + 5e-4, ll[2 * pair + 1], 20000);
    printf("spread map: re-form after moving a pin out of / into a ring of 2 (tol %g m): %.2f us (target <= 50 us)\n",
           tolerance, us);
  }
  /* The hit test still finds the stack's pins where they are drawn. */
  check(pindrop_map_hit_test(m, x, y, &hit), "hit_test");
  if (hit != (pindrop_id)stack) { fprintf(stderr, "after moves: hit %lld, expected %zu\n", (long long)hit, stack); exit(1); }
  pindrop_map_destroy(m);
  free(ids);
}

/* The same bulk load with spreading off: what grouping adds to add_many. */
static void baseline(const double *ll, size_t n) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_id *ids = malloc(n * sizeof *ids);
  double t0, lon, lat;
  size_t i;
  if (!ids) exit(2);
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  check(pindrop_options_init(&o, sizeof o), "options_init");
  o.spread_mode = PINDROP_SPREAD_OFF;
  check(pindrop_map_create(&o, &m), "map_create");
  t0 = now_s();
  check(pindrop_map_add_many(m, ids, ll, n), "add_many");
  printf("spread map: add_many of %zu pins with spreading off (baseline): %.2f s\n", n, now_s() - t0);
  check(pindrop_map_display_position(m, 0, &lon, &lat), "display_position");
  pindrop_map_destroy(m);
  free(ids);
}

int main(int argc, char **argv) {
  char path[4096];
  double *ll;
  size_t n;
  if (argc < 2) { fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]); return 2; }
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &ll);
  baseline(ll, n);
  run(ll, n, 0.0);
  run(ll, n, 2.0);
  free(ll);
  return 0;
}
