/* Benchmark of the foundation on the 916k Los Angeles County street trees: bulk load and index
   build, hit tests (batch and single, from C), nearby queries, and resident memory per pin.
   Usage: bench_core DATA_DIR (the folder holding la_trees.csv). */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

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

/* Resident set size in bytes, from /proc/self/status (VmRSS). */
static long rss_bytes(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmRSS:", 6) == 0) { kb = strtol(line + 6, NULL, 10); break; }
  }
  fclose(f);
  return kb * 1024;
}

/* A small deterministic generator (xorshift64*), so every run measures the same queries. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(void) {
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

/* Reads city,idx,lat,lon rows into interleaved lon,lat pairs; returns the number of rows. */
static size_t load_trees(const char *path, double **out_lonlat) {
  FILE *f = fopen(path, "r");
  size_t cap = 1 << 20, n = 0;
  double *ll;
  char line[512];
  if (!f) { perror(path); exit(2); }
  ll = malloc(2 * cap * sizeof *ll);
  if (!ll || !fgets(line, sizeof line, f)) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  while (fgets(line, sizeof line, f)) {
    char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *end;
    double lat, lon;
    if (!c2) continue;
    lat = strtod(c2 + 1, &end);
    if (*end != ',') continue;
    lon = strtod(end + 1, NULL);
    if (n == cap) {
      cap *= 2;
      ll = realloc(ll, 2 * cap * sizeof *ll);
      if (!ll) { fprintf(stderr, "out of memory\n"); exit(2); }
    }
    ll[2 * n] = lon; ll[2 * n + 1] = lat; n++;
  }
  fclose(f);
  *out_lonlat = ll;
  return n;
}

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

int main(int argc, char **argv) {
  char path[4096];
  double *lonlat, *xy, *dist, t0, t1, build_s, many_ns, single_ns, nearby_ns;
  pindrop_id *ids, *out, *near_ids, hit;
  size_t n, i, q, hits = 0, found = 0;
  long rss0, rss1;
  pindrop_map *map;
  pindrop_options opt;
  pindrop_camera cam;
  const size_t nq = 200000, nsingle = 200000, nnear = 50000;

  if (argc < 2) { fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]); return 2; }
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &lonlat);
  ids = malloc(n * sizeof *ids);
  xy = malloc(2 * nq * sizeof *xy);
  out = malloc(nq * sizeof *out);
  near_ids = malloc(4096 * sizeof *near_ids);
  dist = malloc(4096 * sizeof *dist);
  if (!ids || !xy || !out || !near_ids || !dist) return 2;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;

  /* Touch the input once so that the RSS difference below is the map's own memory. */
  rss0 = rss_bytes();
  CHECK(pindrop_options_init(&opt, sizeof opt));
  opt.spread_mode = PINDROP_SPREAD_OFF; /* measure the index, not the layout of stacked trees */
  t0 = now_s();
  CHECK(pindrop_map_create(&opt, &map));
  CHECK(pindrop_map_add_many(map, ids, lonlat, n));
  /* The first query builds the GEOS tree: part of the cost of being ready. */
  (void)pindrop_map_nearby(map, lonlat[0], lonlat[1], 1.0, NULL, NULL, 0);
  t1 = now_s();
  build_s = t1 - t0;
  rss1 = rss_bytes();

  cam.center_lon = -118.30; cam.center_lat = 34.05; cam.zoom = 17; cam.bearing_deg = 0;
  cam.width = 1024; cam.height = 768;
  CHECK(pindrop_map_set_camera(map, &cam));

  /* Query points: near random trees (most hit), anywhere on the screen plane. */
  for (q = 0; q < nq; q++) {
    size_t k = (size_t)(uniform() * (double)n);
    double x, y;
    CHECK(pindrop_map_to_screen(map, lonlat[2 * k], lonlat[2 * k + 1], &x, &y));
    xy[2 * q] = x + (uniform() - 0.5) * 60;
    xy[2 * q + 1] = y + (uniform() - 0.5) * 60;
  }

  t0 = now_s();
  CHECK(pindrop_map_hit_test_many(map, xy, nq, out));
  t1 = now_s();
  many_ns = (t1 - t0) * 1e9 / (double)nq;
  for (q = 0; q < nq; q++) hits += out[q] != PINDROP_NO_ID;

  t0 = now_s();
  for (q = 0; q < nsingle; q++) {
    size_t k = q % nq;
    found += pindrop_map_hit_test(map, xy[2 * k], xy[2 * k + 1], &hit) == PINDROP_OK;
  }
  t1 = now_s();
  single_ns = (t1 - t0) * 1e9 / (double)nsingle;

  {
    size_t total = 0;
    t0 = now_s();
    for (q = 0; q < nnear; q++) {
      size_t k = (size_t)(uniform() * (double)n);
      total += pindrop_map_nearby(map, lonlat[2 * k], lonlat[2 * k + 1], 50.0, near_ids, dist, 4096);
    }
    t1 = now_s();
    nearby_ns = (t1 - t0) * 1e9 / (double)nnear;
    printf("pins: %zu (hit_test_many hits %zu of %zu; nearby 50 m finds %.1f pins on average)\n",
           n, hits, nq, (double)total / (double)nnear);
  }

  printf("add_many + index build: %.3f s (target <= 0.5 s)\n", build_s);
  printf("hit_test_many: %.0f ns per query (target <= 1000 ns)\n", many_ns);
  printf("hit_test from C: %.0f ns per call (target <= 2000 ns)\n", single_ns);
  printf("nearby (50 m): %.0f ns per query\n", nearby_ns);
  printf("resident memory: %.1f bytes per pin (target <= 160 bytes)\n", (double)(rss1 - rss0) / (double)n);
  (void)found;

  pindrop_map_destroy(map);
  free(lonlat); free(ids); free(xy); free(out); free(near_ids); free(dist);
  return 0;
}
