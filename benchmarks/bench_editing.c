/* Allowed-area cost against a city-sized boundary: a ring of 10,000 vertices.
 *
 * The area test and the snap run inside pindrop_map_place, so they are measured by difference:
 * place + cancel_edit of a pin on a map with the area, minus the same on a map without it, for
 * the same points (inside the area for the prepared test, outside it for the snap). The four runs
 * are interleaved in small batches and each figure is the best batch, so that other work on the
 * machine (it shows up as slow batches) does not leak into the differences.
 * Usage: bench_editing [data folder] (the folder is not needed). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pindrop.h"

#define VERTICES 10000
#define N 2500       /* points per batch */
#define PI 3.14159265358979323846
#define ROUNDS 40    /* batches per configuration, interleaved */
#define CENTER_LON (-118.35)
#define CENTER_LAT 33.90
#define RADIUS_DEG 0.03

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double ring_radius(double t) { return RADIUS_DEG * (1 + 0.2 * sin(7 * t) + 0.05 * sin(53 * t)); }

static char *ring_wkt(void) {
  size_t cap = (size_t)VERTICES * 48 + 64, len = 0;
  char *s = malloc(cap);
  double k = cos(CENTER_LAT * PI / 180);
  len += (size_t)snprintf(s + len, cap - len, "POLYGON((");
  for (int i = 0; i <= VERTICES; i++) {
    double t = 2 * PI * (double)(i % VERTICES) / VERTICES;
    double r = ring_radius(t);
    len += (size_t)snprintf(s + len, cap - len, "%s%.10f %.10f", i ? ", " : "", CENTER_LON + r * cos(t) / k,
                            CENTER_LAT + r * sin(t));
  }
  snprintf(s + len, cap - len, "))");
  return s;
}

static void check(pindrop_status s, pindrop_map *m, const char *what) {
  if (s != PINDROP_OK) {
    fprintf(stderr, "%s failed: %s: %s\n", what, pindrop_status_string(s), m ? pindrop_map_last_error(m) : "");
    exit(1);
  }
}

static pindrop_map *make_map(int policy, const char *area) {
  pindrop_options o;
  pindrop_options_init(&o, sizeof o);
  o.outside_policy = policy;
  pindrop_map *m = NULL;
  check(pindrop_map_create(&o, &m), NULL, "create");
  if (area) check(pindrop_map_set_allowed_area(m, area), m, "set_allowed_area");
  return m;
}

/* Seconds for N place + cancel_edit at the given points (interleaved lon, lat). */
static double run(pindrop_map *m, const double *pts, double *clock_ms) {
  pindrop_event e;
  double t0 = now_s();
  for (int i = 0; i < N; i++) {
    *clock_ms += 1;
    check(pindrop_map_place(m, 1, pts[2 * i], pts[2 * i + 1], *clock_ms), m, "place");
    check(pindrop_map_cancel_edit(m, *clock_ms), m, "cancel_edit");
    while (pindrop_map_poll_event(m, &e)) {}
  }
  return now_s() - t0;
}

int main(void) {
  char *wkt = ring_wkt();
  double k = cos(CENTER_LAT * PI / 180);
  double *inside = malloc(sizeof(double) * 2 * N), *outside = malloc(sizeof(double) * 2 * N);
  srand(12345);
  for (int i = 0; i < N; i++) {
    double t = 2 * PI * rand() / (double)RAND_MAX;
    double a = ring_radius(t) * 0.95 * rand() / (double)RAND_MAX;           /* inside the ring */
    double b = ring_radius(t) * (1.02 + 0.5 * rand() / (double)RAND_MAX);   /* just outside, up to 1.5 km */
    inside[2 * i] = CENTER_LON + a * cos(t) / k;  inside[2 * i + 1] = CENTER_LAT + a * sin(t);
    outside[2 * i] = CENTER_LON + b * cos(t) / k; outside[2 * i + 1] = CENTER_LAT + b * sin(t);
  }

  double t0 = now_s();
  pindrop_map *probe = make_map(PINDROP_OUTSIDE_REVERT, wkt);
  double parse = now_s() - t0;
  pindrop_map_destroy(probe);

  pindrop_map *plain = make_map(PINDROP_OUTSIDE_REVERT, NULL);
  pindrop_map *area = make_map(PINDROP_OUTSIDE_REVERT, wkt);
  pindrop_map *snap = make_map(PINDROP_OUTSIDE_SNAP, wkt);
  double c_plain = 0, c_area = 0, c_snap = 0;
  double best_plain = INFINITY, best_area = INFINITY, best_snap = INFINITY, best_plain_out = INFINITY;
  for (int r = 0; r < ROUNDS; r++) {
    double a = run(plain, inside, &c_plain), b = run(area, inside, &c_area);
    double c = run(snap, outside, &c_snap), d = run(plain, outside, &c_plain);
    if (a < best_plain) best_plain = a;
    if (b < best_area) best_area = b;
    if (c < best_snap) best_snap = c;
    if (d < best_plain_out) best_plain_out = d;
  }
  printf("area_read_validate_prepare_10k_vertices: %.2f ms\n", parse * 1e3);
  printf("place_cancel_without_area: %.3f us per place + cancel_edit, the baseline\n", best_plain / N * 1e6);
  printf("area_point_test_10k_vertices: %.3f us per prepared test (target <= 2 us)\n",
         (best_area - best_plain) / N * 1e6);
  printf("area_snap_10k_vertices: %.3f us per snap to the nearest point inside, drops up to 1.5 km out\n",
         (best_snap - best_plain_out) / N * 1e6);

  pindrop_map_destroy(plain);
  pindrop_map_destroy(area);
  pindrop_map_destroy(snap);
  free(wkt); free(inside); free(outside);
  return 0;
}
