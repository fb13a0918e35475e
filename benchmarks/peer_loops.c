/* Loops that bench_peers.py runs inside its own process (built as a shared library next to the
   benchmark), so that pindrop's per-call figures are what a C host pays, measured in the same
   process and run as the peers'. Times are CPU time of the calling thread. */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static double thread_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The least time two clock reads apart take: subtracted from each timed call. */
static double clock_cost_s(void) {
  double c = 1e18;
  int i;
  for (i = 0; i < 1000; i++) {
    double a = thread_s(), b = thread_s();
    if (b - a < c) c = b - a;
  }
  return c;
}

/* n nearby queries at lonlat[2i], lonlat[2i+1] within radius_m; returns the seconds taken and
   stores the pins found in total (up to `cap` per query written to the buffers). */
double pl_nearby(pindrop_map *map, const double *lonlat, size_t n, double radius_m, pindrop_id *ids, double *dist,
                 size_t cap, size_t *found) {
  size_t i, total = 0;
  double t0 = thread_s();
  for (i = 0; i < n; i++) total += pindrop_map_nearby(map, lonlat[2 * i], lonlat[2 * i + 1], radius_m, ids, dist, cap);
  *found = total;
  return thread_s() - t0;
}

/* set_position(ids[i], lonlat[2i], lonlat[2i+1]) for i < n, each call timed on its own:
   ns[i] is the CPU time of call i, less the cost of reading the clock (`clock_ns`). Returns the
   number of failed calls. */
size_t pl_moves(pindrop_map *map, const pindrop_id *ids, const double *lonlat, size_t n, double *ns, double *clock_ns) {
  size_t i, failed = 0;
  double c = clock_cost_s();
  *clock_ns = c * 1e9;
  for (i = 0; i < n; i++) {
    double t0 = thread_s();
    failed += pindrop_map_set_position(map, ids[i], lonlat[2 * i], lonlat[2 * i + 1]) != PINDROP_OK;
    ns[i] = (thread_s() - t0) * 1e9 - *clock_ns;
  }
  return failed;
}

/* hit_test_many for each camera's taps, each call timed on its own (frame first, untimed, as
   a host draws before the user taps): ns[c] is camera c's time. With `views` NULL no frame is
   drawn (a host that draws its pins itself): the spatial index answers. */
int pl_hits(pindrop_map *map, const pindrop_camera *cams, size_t ncam, const double *xy, size_t per, pindrop_id *out,
            double *ns, pindrop_pin_view *views, size_t cap) {
  size_t c;
  for (c = 0; c < ncam; c++) {
    double t0;
    if (pindrop_map_set_camera(map, &cams[c]) != PINDROP_OK) return -1;
    if (views) (void)pindrop_map_frame(map, 0, views, cap);
    t0 = thread_s();
    if (pindrop_map_hit_test_many(map, &xy[2 * c * per], per, &out[c * per]) != PINDROP_OK) return -1;
    ns[c] = (thread_s() - t0) * 1e9;
  }
  return 0;
}

/* Calls until the index has built every leaf's tree (the trees are built a slice per call):
   `calls` tiny queries at the pins' own positions. Returns the seconds taken. */
double pl_warm(pindrop_map *map, const double *lonlat, size_t n, size_t calls) {
  size_t i;
  double t0 = thread_s();
  for (i = 0; i < calls; i++) (void)pindrop_map_nearby(map, lonlat[2 * (i % n)], lonlat[2 * (i % n) + 1], 0.0, NULL, NULL, 0);
  return thread_s() - t0;
}

/* The cluster part of a move, as a host pays it: for i < n, set_position(ids[i], lonlat[2i],
   lonlat[2i+1]) then frame_clusters at time t (which brings the cluster levels up to date), each
   call timed on its own less the cost of reading the clock: set_ns[i] and upd_ns[i]. Before the
   moves, `n` frame_clusters with nothing moved give the baseline a frame costs anyway
   (*base_ns, the mean). Returns the number of failed set_position calls. */
size_t pl_cluster_moves(pindrop_map *map, const pindrop_id *ids, const double *lonlat, size_t n, double t,
                        pindrop_cluster_view *clusters, size_t cap, double *set_ns, double *upd_ns, double *base_ns) {
  size_t i, failed = 0;
  double c = clock_cost_s(), t0;
  (void)pindrop_map_frame_clusters(map, t, clusters, cap);
  t0 = thread_s();
  for (i = 0; i < n; i++) (void)pindrop_map_frame_clusters(map, t, clusters, cap);
  *base_ns = (thread_s() - t0) * 1e9 / (double)(n ? n : 1);
  for (i = 0; i < n; i++) {
    double a = thread_s(), b, d;
    failed += pindrop_map_set_position(map, ids[i], lonlat[2 * i], lonlat[2 * i + 1]) != PINDROP_OK;
    b = thread_s();
    (void)pindrop_map_frame_clusters(map, t, clusters, cap);
    d = thread_s();
    set_ns[i] = (b - a) * 1e9 - c * 1e9;
    upd_ns[i] = (d - b) * 1e9 - c * 1e9;
  }
  return failed;
}

/* n cluster summaries (keys[i % nkeys]): the mean CPU time of one call in ns, less the clock's
   cost spread over the calls. Returns -1 if a call failed. */
double pl_summaries(pindrop_map *map, const uint64_t *keys, size_t nkeys, size_t n) {
  size_t i;
  double t0;
  pindrop_cluster_summary s;
  if (!nkeys) return -1;
  t0 = thread_s();
  for (i = 0; i < n; i++)
    if (pindrop_map_cluster_summary(map, keys[i % nkeys], &s) != PINDROP_OK) return -1;
  return (thread_s() - t0) * 1e9 / (double)(n ? n : 1);
}

/* n calls of cluster_categories for one key into buffers of `cap`: the mean CPU time of one
   call in ns; *total is the number of categories. */
double pl_categories(pindrop_map *map, uint64_t key, size_t n, uint32_t *cats, uint32_t *counts, size_t cap,
                     size_t *total) {
  size_t i, t = 0;
  double t0 = thread_s();
  for (i = 0; i < n; i++) t = pindrop_map_cluster_categories(map, key, cats, counts, cap);
  *total = t;
  return (thread_s() - t0) * 1e9 / (double)(n ? n : 1);
}
