/* The cluster loop counted with callgrind (docs/clusters.md): the 916k LA street trees with a
   value and a category (the tree's city) on every pin, radius 60, max zoom 17; then `moves`
   random moves of up to 30 m, each followed by frame_clusters with the view at zoom 16. Only the
   moves are counted (callgrind's instrumentation is switched on around them), so

     valgrind --tool=callgrind --instr-atstart=no [--cache-sim=yes] .build/bench/cluster_loop DATA 3000

   gives the instructions (and cache misses) of `moves` moves with their updates; without valgrind
   it prints the loop's CPU time per move. Built against an older header (no
   pindrop_map_set_attributes) it runs without attributes, for a before/after comparison. */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>
#include <valgrind/callgrind.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double thread_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 12;
static uint64_t next(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return rng_state >> 11;
}

int main(int argc, char **argv) {
  char path[4096], line[512], city[64] = "";
  FILE *f;
  size_t cap = 1 << 20, n = 0, i, moves = argc > 2 ? (size_t)atol(argv[2]) : 3000;
  double *ll = malloc(2 * cap * sizeof *ll);
  uint32_t *cat = malloc(cap * sizeof *cat), ncity = 0;
  pindrop_id *ids = malloc(cap * sizeof *ids);
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.17, 33.80, 16, 0, 1200, 800};
  static pindrop_cluster_view views[20000];
  double t0;
  if (argc < 2 || !ll || !cat || !ids) { fprintf(stderr, "usage: cluster_loop DATA_DIR [moves]\n"); return 2; }
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  f = fopen(path, "r");
  if (!f || !fgets(line, sizeof line, f)) { perror(path); return 2; }
  while (fgets(line, sizeof line, f)) {
    char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *end;
    double lat, lon;
    if (!c2) continue;
    lat = strtod(c2 + 1, &end);
    if (*end != ',') continue;
    lon = strtod(end + 1, NULL);
    if (n == cap) {
      cap *= 2;
      ll = realloc(ll, 2 * cap * sizeof *ll); cat = realloc(cat, cap * sizeof *cat); ids = realloc(ids, cap * sizeof *ids);
      if (!ll || !cat || !ids) return 2;
    }
    /* The file is grouped by city: a new name is the next category. */
    if ((size_t)(c1 - line) >= sizeof city || strncmp(city, line, (size_t)(c1 - line)) != 0 || city[c1 - line] != '\0') {
      size_t k = (size_t)(c1 - line) < sizeof city - 1 ? (size_t)(c1 - line) : sizeof city - 1;
      memcpy(city, line, k); city[k] = '\0'; ncity++;
    }
    ll[2 * n] = lon; ll[2 * n + 1] = lat; ids[n] = (pindrop_id)n; cat[n] = ncity; n++;
  }
  fclose(f);
  pindrop_options_init(&o, sizeof o);
  o.cluster_radius = 60;
  /* "build" as a third argument counts the load instead: add_many, the attributes and the first
     frame_clusters, which builds the levels. */
  if (argc > 3 && strcmp(argv[3], "build") == 0) { CALLGRIND_START_INSTRUMENTATION; }
  if (pindrop_map_create(&o, &map) != PINDROP_OK || pindrop_map_add_many(map, ids, ll, n) != PINDROP_OK) return 1;
#ifdef PINDROP_CATEGORY_MIXED
  {
    double *values = malloc(n * sizeof *values);
    for (i = 0; i < n; i++) values[i] = 5 + (double)(next() % 7600) / 100;  /* a trunk diameter, cm */
    if (pindrop_map_set_attributes(map, ids, values, cat, n) != PINDROP_OK) return 1;
    free(values);
  }
#endif
  pindrop_map_set_camera(map, &cam);
  (void)pindrop_map_frame_clusters(map, 0, views, 20000);
  if (argc > 3 && strcmp(argv[3], "build") == 0) { CALLGRIND_STOP_INSTRUMENTATION; moves = 0; }
  t0 = thread_s();
  CALLGRIND_START_INSTRUMENTATION;
  for (i = 0; i < moves; i++) {
    size_t k = (size_t)(next() % n);
    double dx = ((double)(next() % 6001) - 3000) / 100 / 111000, dy = ((double)(next() % 6001) - 3000) / 100 / 111000;
    if (pindrop_map_set_position(map, ids[k], ll[2 * k] + dx, ll[2 * k + 1] + dy) != PINDROP_OK) return 1;
    (void)pindrop_map_frame_clusters(map, 0, views, 20000);
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  printf("%zu trees, %u cities; %zu moves with frame_clusters: %.2f us a move (CPU time)\n", n, ncity, moves,
         (thread_s() - t0) * 1e6 / (double)(moves ? moves : 1));
  pindrop_map_destroy(map);
  return 0;
}
