/* The native side of bench_web.py: the same operations, in the same order and with the same
   inputs as bench.js runs through pindrop.wasm, as loops in C (built as a shared library and
   called once per operation through ctypes, so that Python's per-call cost is not pindrop's).
   Times are wall-clock seconds (CLOCK_MONOTONIC), as performance.now() is in the browser. */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

#include <stddef.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double nl_add_many(pindrop_map *map, const pindrop_id *ids, const double *lonlat, size_t n, int *status) {
  double t0 = now_s();
  *status = pindrop_map_add_many(map, ids, lonlat, n);
  return now_s() - t0;
}

/* For each camera one untimed call, then `reps` timed calls of frame (clusters = 0) or
   frame_clusters (clusters = 1). Returns the mean seconds per timed call. */
double nl_frames(pindrop_map *map, const pindrop_camera *cams, size_t ncam, size_t reps, int clusters,
                 pindrop_pin_view *pins, pindrop_cluster_view *views, size_t cap, double *t) {
  double total = 0;
  size_t c, r;
  for (c = 0; c < ncam; c++) {
    double t0;
    if (pindrop_map_set_camera(map, &cams[c]) != PINDROP_OK) return -1;
    if (clusters) (void)pindrop_map_frame_clusters(map, *t, views, cap); else (void)pindrop_map_frame(map, *t, pins, cap);
    t0 = now_s();
    for (r = 0; r < reps; r++) {
      *t += 0.001;
      if (clusters) (void)pindrop_map_frame_clusters(map, *t, views, cap); else (void)pindrop_map_frame(map, *t, pins, cap);
    }
    total += now_s() - t0;
  }
  return total / (double)(ncam * reps);
}

/* The first frame_clusters of a map after its pins were added (it builds every cluster level):
   seconds. */
double nl_first_clusters(pindrop_map *map, const pindrop_camera *cam, pindrop_cluster_view *views, size_t cap,
                         double t) {
  double t0;
  if (pindrop_map_set_camera(map, cam) != PINDROP_OK) return -1;
  t0 = now_s();
  (void)pindrop_map_frame_clusters(map, t, views, cap);
  return now_s() - t0;
}

/* Each camera: frame (untimed), then `per` single hit tests. Mean seconds per hit test; *found
   counts the hits. */
double nl_hits(pindrop_map *map, const pindrop_camera *cams, size_t ncam, const double *xy, size_t per,
               pindrop_pin_view *pins, size_t cap, double t, size_t *found) {
  double total = 0;
  size_t c, i;
  *found = 0;
  for (c = 0; c < ncam; c++) {
    double t0;
    if (pindrop_map_set_camera(map, &cams[c]) != PINDROP_OK) return -1;
    (void)pindrop_map_frame(map, t, pins, cap);
    t0 = now_s();
    for (i = 0; i < per; i++) {
      pindrop_id id;
      *found += pindrop_map_hit_test(map, xy[2 * (c * per + i)], xy[2 * (c * per + i) + 1], &id) == PINDROP_OK;
    }
    total += now_s() - t0;
  }
  return total / (double)(ncam * per);
}

/* set_position then frame_clusters, per move. Mean seconds per move. */
double nl_moves(pindrop_map *map, const pindrop_camera *cam, const pindrop_id *ids, const double *lonlat, size_t n,
                pindrop_cluster_view *views, size_t cap, double *t, size_t *failed) {
  size_t i;
  double t0;
  *failed = 0;
  if (pindrop_map_set_camera(map, cam) != PINDROP_OK) return -1;
  (void)pindrop_map_frame_clusters(map, *t, views, cap);
  t0 = now_s();
  for (i = 0; i < n; i++) {
    *failed += pindrop_map_set_position(map, ids[i], lonlat[2 * i], lonlat[2 * i + 1]) != PINDROP_OK;
    *t += 0.001;
    (void)pindrop_map_frame_clusters(map, *t, views, cap);
  }
  return (now_s() - t0) / (double)(n ? n : 1);
}

/* A mouse drag: down at (x0, y0), a move past the threshold, then n timed MOVEs along path (each
   followed by draining the events, as a host does), then up. Mean seconds per MOVE; *owned is
   what the down returned. */
double nl_drag(pindrop_map *map, const pindrop_camera *cam, double x0, double y0, const double *path, size_t n,
               pindrop_pin_view *pins, size_t cap, double *t, int *owned) {
  pindrop_event e;
  size_t i;
  double t0, dt;
  if (pindrop_map_set_camera(map, cam) != PINDROP_OK) return -1;
  *t += 1000; /* the last drag's drop animation and double-tap window are over */
  (void)pindrop_map_tick(map, *t);
  while (pindrop_map_poll_event(map, &e)) {}
  (void)pindrop_map_frame(map, *t, pins, cap);
  *owned = pindrop_map_touch(map, 1, PINDROP_TOUCH_DOWN, x0, y0, *t);
  *t += 1;
  (void)pindrop_map_touch(map, 1, PINDROP_TOUCH_MOVE, x0 + 10, y0, *t);
  while (pindrop_map_poll_event(map, &e)) {}
  t0 = now_s();
  for (i = 0; i < n; i++) {
    *t += 1;
    (void)pindrop_map_touch(map, 1, PINDROP_TOUCH_MOVE, path[2 * i], path[2 * i + 1], *t);
    while (pindrop_map_poll_event(map, &e)) {}
  }
  dt = (now_s() - t0) / (double)(n ? n : 1);
  *t += 1;
  (void)pindrop_map_touch(map, 1, PINDROP_TOUCH_UP, path[2 * n - 2], path[2 * n - 1], *t);
  while (pindrop_map_poll_event(map, &e)) {}
  return dt;
}
