/* The keys of pindrop_map_frame_clusters at every level: a cluster's key and a collapsed stack's key
   never look alike (a stack's has bit 63 set, a cluster's never), so each key reaches what it names
   at every zoom 0-16, with clustering and spread_on_tap on together. At zooms 15 and 16 a cluster's
   level once reached bit 63 and its key was taken for a stack's. */
#include <pindrop.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

int main(void) {
  /* Lawndale: a stack of three trees on one address, and a pair 2 m apart 200 m west (a cluster at
     every zoom below cluster_max_zoom, never a stack: they do not share a coordinate). */
  static const pindrop_id ids[5] = {1, 2, 3, 10, 11};
  const double lon = -118.3535, lat = 33.8871;
  const double lonlat[10] = {lon, lat, lon, lat, lon, lat, lon - 0.00216, lat, lon - 0.00214, lat};
  pindrop_options o;
  pindrop_map *map = NULL;
  int zoom;
  pindrop_options_init(&o, sizeof o);
  o.cluster_radius = 60;
  o.spread_on_tap = 1;
  if (pindrop_map_create(&o, &map) != PINDROP_OK) { fprintf(stderr, "create failed\n"); return 1; }
  CHECK(pindrop_map_add_many(map, ids, lonlat, 5) == PINDROP_OK);
  for (zoom = 0; zoom <= 16; zoom++) {
    pindrop_camera cam = {lon - 0.001, lat, (double)zoom + 0.5, 0, 1200, 800};
    pindrop_cluster_view views[8];
    size_t n, i, clusters = 0;
    CHECK(pindrop_map_set_camera(map, &cam) == PINDROP_OK);
    n = pindrop_map_frame_clusters(map, (double)zoom, views, 8);
    CHECK(n >= 1 && n <= 8);
    for (i = 0; i < n && i < 8; i++) {
      pindrop_cluster_summary s;
      pindrop_id members[8];
      size_t m = pindrop_map_cluster_members(map, views[i].key, members, 8);
      CHECK(m == views[i].count);
      if (views[i].flags & PINDROP_CLUSTER_STACK) {
        CHECK(views[i].key >> 63 == 1);
        CHECK(views[i].count == 3);
      } else {
        clusters++;
        CHECK(views[i].key >> 63 == 0);
        CHECK(pindrop_map_cluster_summary(map, views[i].key, &s) == PINDROP_OK);
        CHECK(s.count == views[i].count);
      }
    }
    CHECK(clusters >= 1);
  }
  pindrop_map_destroy(map);
  if (failures) { fprintf(stderr, "test_keys: %d failures\n", failures); return 1; }
  printf("test_keys: cluster and stack keys apart at zooms 0-16\n");
  return 0;
}
