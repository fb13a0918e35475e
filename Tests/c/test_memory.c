/* The bytes a map holds per pin on the 916k LA street trees (docs/spatial-index.md, "Bytes per pin"),
   by malloc's own count (mallinfo2: bytes handed out and not had back), default options
   (spreading on, clustering off), every leaf's GEOS tree built:
   - once loaded: at most 105 (the leaf trees' node vectors kept their doubling room before:
     112.5);
   - after a frame of every tree, then a normal view (zoom 16, about 9,400 trees) and a tap: at
     most 110 (issue 23, "scratch that gives memory back").
   Skipped (with a message) when ../shared/data/la_trees.csv is not there, and under
   AddressSanitizer (make test-sanitize), whose allocator malloc's counts do not see. */
#include <pindrop.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#include "../../benchmarks/la_trees.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, pindrop_status_string(s_)); exit(1); } } while (0)

static long held_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return (long)(mi.uordblks + mi.hblkhd);
}

int main(void) {
  double *lonlat = NULL, loaded, after_view;
  const char *path = "../shared/data/la_trees.csv";
  FILE *probe = fopen(path, "r");
  size_t n = probe ? (fclose(probe), load_trees(path, &lonlat)) : 0, i;
  pindrop_id *ids, hit;
  pindrop_options opt;
  pindrop_map *map;
  pindrop_camera cam = {-118.2, 34.0, 8, 0, 1200, 800};
  long h0;
  int failed = 0;
#ifdef UNDER_ASAN
  printf("test_memory: skipped under AddressSanitizer (its allocator is not malloc's)\n");
  free(lonlat);
  return 0;
#endif
  if (n == 0) {
    printf("test_memory: skipped (no ../shared/data/la_trees.csv)\n");
    return 0;
  }
  ids = (pindrop_id *)malloc(n * sizeof *ids);
  if (!ids) return 1;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  CHECK(pindrop_options_init(&opt, sizeof opt));
  {
    /* The library's one-time allocations (runtime metadata, GEOS's context) are not the map's. */
    pindrop_map *warm;
    CHECK(pindrop_map_create(&opt, &warm));
    CHECK(pindrop_map_add_many(warm, ids, lonlat, 20000));
    for (i = 0; i < 20000; i++) (void)pindrop_map_nearby(warm, lonlat[2 * i], lonlat[2 * i + 1], 0.0, NULL, NULL, 0);
    pindrop_map_destroy(warm);
  }
  h0 = held_bytes();
  CHECK(pindrop_map_create(&opt, &map));
  CHECK(pindrop_map_add_many(map, ids, lonlat, n));
  /* The index builds a slice of its trees per query: enough queries for all of them. */
  for (i = 0; i < 60000; i++) (void)pindrop_map_nearby(map, lonlat[2 * (i % n)], lonlat[2 * (i % n) + 1], 0.0, NULL, NULL, 0);
  loaded = (double)(held_bytes() - h0) / (double)n;

  CHECK(pindrop_map_set_camera(map, &cam));
  if (pindrop_map_frame(map, 0, NULL, 0) < n / 2) { fprintf(stderr, "the county frame drew too few pins\n"); failed = 1; }
  (void)pindrop_map_hit_test(map, 600, 400, &hit);
  cam.center_lon = -118.081; cam.center_lat = 33.893; cam.zoom = 16;
  CHECK(pindrop_map_set_camera(map, &cam));
  if (pindrop_map_frame(map, 16, NULL, 0) < 1000) { fprintf(stderr, "the Long Beach view drew too few pins\n"); failed = 1; }
  (void)pindrop_map_hit_test(map, 600, 400, &hit);
  after_view = (double)(held_bytes() - h0) / (double)n;

  printf("test_memory: %zu trees, %.1f bytes per pin held once loaded, %.1f after a frame of all and a normal view\n",
         n, loaded, after_view);
  if (loaded > 105.0) { fprintf(stderr, "loaded map: %.1f bytes per pin held (at most 105)\n", loaded); failed = 1; }
  if (after_view > 110.0) { fprintf(stderr, "after a normal view: %.1f bytes per pin held (at most 110)\n", after_view); failed = 1; }
  pindrop_map_destroy(map);
  free(ids);
  free(lonlat);
  return failed;
}
