/* Loops that bench_peers.py runs inside its own process (built as a shared library next to the
   benchmark), so that pindrop's per-call figures are what a C host pays, measured in the same
   process and run as the peers'. Times are CPU time of the calling thread. */
#define _POSIX_C_SOURCE 200809L
#include <geos_c.h>
#include <pindrop.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Where the chains below leave their results, so that they are not optimised away. */
static volatile uint64_t sink;

/* A chain of `steps` dependent multiply-adds in registers (no memory): ns a step. What the
   processor itself gives the thread at that moment. */
static double alu_chain_ns(size_t steps) {
  uint64_t x = 1;
  size_t i;
  double t0 = thread_s();
  for (i = 0; i < steps; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = x;
  return (thread_s() - t0) * 1e9 / (double)(steps ? steps : 1);
}

/* A random cycle through 16M indices (64 MB, Sattolo's shuffle), made on the first call and kept:
   following it is a chain of dependent loads, each from anywhere in 64 MB. */
static uint32_t *chase_cycle(void) {
  static uint32_t *next;
  const size_t n = (size_t)1 << 24;
  size_t i;
  uint64_t s = 88172645463325252ULL;
  if (next) return next;
  next = malloc(n * sizeof *next);
  if (!next) return NULL;
  for (i = 0; i < n; i++) next[i] = (uint32_t)i;
  for (i = n - 1; i > 0; i--) {  /* one cycle through every index */
    size_t j;
    uint32_t tmp;
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    j = (size_t)(s % i);
    tmp = next[i]; next[i] = next[j]; next[j] = tmp;
  }
  return next;
}

/* A chase of `steps` dependent loads along `chase_cycle`: ns a load (-1 without memory for the
   cycle). What a trip to memory costs the thread at that moment. */
static double chase_ns(size_t steps) {
  static uint32_t at;
  const uint32_t *next = chase_cycle();
  size_t i;
  double t0;
  if (!next) return -1;
  t0 = thread_s();
  for (i = 0; i < steps; i++) at = next[at];
  sink = at;
  return (thread_s() - t0) * 1e9 / (double)(steps ? steps : 1);
}

/* The cluster part of a move, as a host pays it: for i < n, set_position(ids[i], lonlat[2i],
   lonlat[2i+1]) then frame_clusters at time t (which brings the cluster levels up to date), each
   call timed on its own less the cost of reading the clock: set_ns[i] and upd_ns[i]. Each move
   is preceded by a frame_clusters with nothing moved since the last one, timed into
   before_ns[i]: the frame's own cost beside each move, to subtract from upd_ns[i] (a machine
   slower or faster during some moves then shows on both sides of the subtraction). Before the
   moves, `n` frame_clusters in a row give the same baseline the way earlier rounds took it
   (*base_ns, the mean). After every `block` moves, alu_ns[k] is what a chain of multiply-adds
   took (`alu_chain_ns`) and load_ns[k] what a load from memory took (`chase_ns`), so that the
   blocks' times can be read against the machine's speed at that moment. Returns the number of
   failed set_position calls. */
size_t pl_cluster_moves(pindrop_map *map, const pindrop_id *ids, const double *lonlat, size_t n, double t,
                        pindrop_cluster_view *clusters, size_t cap, double *set_ns, double *upd_ns, double *base_ns,
                        double *before_ns, size_t block, double *alu_ns, double *load_ns) {
  size_t i, failed = 0;
  double c = clock_cost_s(), t0;
  (void)pindrop_map_frame_clusters(map, t, clusters, cap);
  t0 = thread_s();
  for (i = 0; i < n; i++) (void)pindrop_map_frame_clusters(map, t, clusters, cap);
  *base_ns = (thread_s() - t0) * 1e9 / (double)(n ? n : 1);
  for (i = 0; i < n; i++) {
    double a = thread_s(), b, d;
    (void)pindrop_map_frame_clusters(map, t, clusters, cap);
    before_ns[i] = (thread_s() - a) * 1e9 - c * 1e9;
    a = thread_s();
    failed += pindrop_map_set_position(map, ids[i], lonlat[2 * i], lonlat[2 * i + 1]) != PINDROP_OK;
    b = thread_s();
    (void)pindrop_map_frame_clusters(map, t, clusters, cap);
    d = thread_s();
    set_ns[i] = (b - a) * 1e9 - c * 1e9;
    upd_ns[i] = (d - b) * 1e9 - c * 1e9;
    if (block && alu_ns && load_ns && (i + 1) % block == 0) {
      alu_ns[i / block] = alu_chain_ns((size_t)1 << 18);
      load_ns[i / block] = chase_ns((size_t)1 << 14);
    }
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

/* GEOS's own STRtree called from C, without pindrop: what an answer through GEOS costs at least
   (the native library's index is made of these trees). One tree of the n points xy[2i], xy[2i+1]
   (node capacity 10, GEOS's usual), built before the clock starts; then, per tap (tx, ty), one
   GEOSSTRtree_query_r with a rectangle of half-side r made before the clock starts too (the query
   geometry pindrop has to make per call is left out: the floor), keeping the point nearest the tap
   within r (ties to the lower index). The taps are answered `reps` times; returns the best
   pass's ns per tap; out[i] is the nearest point's index or -1. */
struct geos_nearest { const double *xy; double x, y, r2, best_d2; int64_t best; };

static void geos_nearest_cb(void *item, void *userdata) {
  struct geos_nearest *q = userdata;
  int64_t i = (int64_t)(uintptr_t)item - 1;
  double dx = q->xy[2 * i] - q->x, dy = q->xy[2 * i + 1] - q->y, d2 = dx * dx + dy * dy;
  if (d2 <= q->r2 && (d2 < q->best_d2 || (d2 == q->best_d2 && i < q->best))) { q->best_d2 = d2; q->best = i; }
}

double pl_geos_hits(const double *xy, size_t n, const double *taps, size_t ntaps, double r, int64_t *out, int reps) {
  GEOSContextHandle_t ctx = GEOS_init_r();
  GEOSSTRtree *tree = GEOSSTRtree_create_r(ctx, 10);
  GEOSGeometry **points = malloc(n * sizeof *points), **rects = malloc(ntaps * sizeof *rects);
  struct geos_nearest q = {xy, 0, 0, r * r, 0, -1};
  double t0, spent = -1, pass;
  size_t i;
  int k;
  if (!ctx || !tree || !points || !rects) goto done;
  for (i = 0; i < n; i++) {
    points[i] = GEOSGeom_createPointFromXY_r(ctx, xy[2 * i], xy[2 * i + 1]);
    GEOSSTRtree_insert_r(ctx, tree, points[i], (void *)(uintptr_t)(i + 1));
  }
  for (i = 0; i < ntaps; i++)
    rects[i] = GEOSGeom_createRectangle_r(ctx, taps[2 * i] - r, taps[2 * i + 1] - r, taps[2 * i] + r, taps[2 * i + 1] + r);
  GEOSSTRtree_query_r(ctx, tree, rects[0], geos_nearest_cb, &q);  /* builds the tree */
  for (k = 0; k < reps; k++) {
    t0 = thread_s();
    for (i = 0; i < ntaps; i++) {
      q.x = taps[2 * i]; q.y = taps[2 * i + 1]; q.best_d2 = q.r2 + 1; q.best = -1;
      GEOSSTRtree_query_r(ctx, tree, rects[i], geos_nearest_cb, &q);
      out[i] = q.best;
    }
    pass = (thread_s() - t0) * 1e9 / (double)ntaps;
    if (spent < 0 || pass < spent) spent = pass;
  }
  for (i = 0; i < ntaps; i++) GEOSGeom_destroy_r(ctx, rects[i]);
  GEOSSTRtree_destroy_r(ctx, tree);
  for (i = 0; i < n; i++) GEOSGeom_destroy_r(ctx, points[i]);
done:
  free(points); free(rects);
  if (ctx) GEOS_finish_r(ctx);
  return spent;
}

/* The machine itself, measured in the same process as a benchmark's figures (no pindrop call): the
   latency of a load from memory (a chase through one random cycle over 64 MB, far beyond any
   cache, one dependent load a step) and the time of a dependent integer multiply-add (in
   registers, no memory). A run whose figures are slower than the last run's and whose memory
   latency rose as much was slowed by the machine (other tenants sharing its memory), not by the
   code. Returns 0, or -1 without memory. */
int pl_probe(double *load_ns, double *alu_ns) {
  const size_t steps = (size_t)1 << 22;
  if (chase_ns(steps / 4) < 0) return -1;  /* makes the cycle, and warms the page tables of the walk */
  *load_ns = chase_ns(steps);
  *alu_ns = alu_chain_ns(steps * 16);
  return 0;
}
