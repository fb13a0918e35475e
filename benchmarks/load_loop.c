/* The load counted with callgrind: the 916k LA street trees read, then add_many and the first
   query (a nearby of 1 m at the first tree, which deals the pins out to the index's leaves) on a
   map with the default options. Only the load is counted (callgrind's instrumentation is switched
   on around it), so

     valgrind --tool=callgrind --instr-atstart=no .build/bench/load_loop DATA

   gives the load's instructions (divide by the pins for instructions per pin; bench_load.py does);
   without valgrind it prints its CPU time. It uses only calls of 0.2.0's header, so the same file
   counts an older build for comparison. */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>
#include <valgrind/callgrind.h>

#include "la_trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double thread_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

int main(int argc, char **argv) {
  char path[4096];
  double *ll, t0;
  size_t n, i;
  pindrop_id *ids;
  pindrop_options o;
  pindrop_map *map = NULL;
  if (argc < 2) { fprintf(stderr, "usage: load_loop DATA_DIR\n"); return 2; }
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &ll);
  ids = malloc(n * sizeof *ids);
  if (!ids) return 2;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  CHECK(pindrop_options_init(&o, sizeof o));
  CHECK(pindrop_map_create(&o, &map));
  CALLGRIND_START_INSTRUMENTATION;
  t0 = thread_s();
  CHECK(pindrop_map_add_many(map, ids, ll, n));
  (void)pindrop_map_nearby(map, ll[0], ll[1], 1.0, NULL, NULL, 0);
  t0 = thread_s() - t0;
  CALLGRIND_STOP_INSTRUMENTATION;
  printf("load of %zu pins (add_many + first query): %.3f s\n", n, t0);
  pindrop_map_destroy(map);
  free(ll); free(ids);
  return 0;
}
