/* Clusters through the C ABI: an old-size options struct leaves clustering off, a clustered view
   draws its clusters instead of their pins, members and expansion zoom by key, a tap on a cluster,
   and bad input (NULL buffers, impossible capacities, unknown keys, a NULL map). */
#include <pindrop.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)
#define CHECK_STATUS(call, want) do { pindrop_status got_ = (call); if (got_ != (want)) { \
  fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call, \
          pindrop_status_string(got_), pindrop_status_string(want)); failures++; } } while (0)

/* Two trees 2 m apart in Lawndale and one 3 km away, seen at zoom 12. */
static void add_trees(pindrop_map *map) {
  static const pindrop_id ids[3] = {11, 12, 13};
  static const double lonlat[6] = {-118.3535, 33.8871, -118.35348, 33.88711, -118.3200, 33.8871};
  pindrop_camera cam = {-118.3535, 33.8871, 12, 0, 1200, 800};
  CHECK_STATUS(pindrop_map_add_many(map, ids, lonlat, 3), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
}

static void test_old_options_leave_clustering_off(void) {
  /* A caller compiled against 0.1: its struct ends before cluster_radius. What follows it in memory
     is not the library's to read (here: bytes that would be a huge radius). */
  unsigned char mem[sizeof(pindrop_options)];
  pindrop_options *o = (pindrop_options *)(void *)mem;
  uint32_t old_size = (uint32_t)offsetof(pindrop_options, cluster_radius);
  pindrop_map *map = NULL;
  pindrop_pin_view views[8];
  memset(mem, 0x7f, sizeof mem);
  CHECK_STATUS(pindrop_options_init(o, old_size), PINDROP_OK);
  CHECK_STATUS(pindrop_map_create(o, &map), PINDROP_OK);
  add_trees(map);
  CHECK(pindrop_map_frame(map, 0, views, 8) == 3);
  CHECK(pindrop_map_frame_clusters(map, 0, NULL, 0) == 0);
  CHECK(strcmp(pindrop_map_last_error(map), "") == 0);
  pindrop_map_destroy(map);
}

static void test_a_clustered_view(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_pin_view views[8];
  pindrop_cluster_view c[4];
  pindrop_id members[4] = {0, 0, 0, 0};
  pindrop_event e;
  double zoom = -1;
  int tapped = 0;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  CHECK(o.cluster_radius == 0 && o.cluster_max_zoom == 17);
  o.cluster_radius = 60;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  add_trees(map);
  CHECK(pindrop_map_frame(map, 0, views, 8) == 1 && views[0].id == 13);
  CHECK(pindrop_map_frame_clusters(map, 0, c, 4) == 1);
  CHECK(c[0].count == 2 && c[0].flags == 0);
  CHECK(c[0].x > 599 && c[0].x < 601 && c[0].y > 399 && c[0].y < 401);
  CHECK(pindrop_map_cluster_members(map, c[0].key, members, 1) == 2);   /* 2 exist, 1 written */
  CHECK((members[0] == 11 || members[0] == 12) && members[1] == 0);
  CHECK(pindrop_map_cluster_members(map, c[0].key, members, 4) == 2);
  CHECK(members[0] + members[1] == 23);
  CHECK_STATUS(pindrop_map_cluster_expansion_zoom(map, c[0].key, &zoom), PINDROP_OK);
  CHECK(zoom > 12 && zoom <= 17);
  /* A tap on it. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, c[0].x, c[0].y, 10) == 1);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, c[0].x, c[0].y, 60) == 1);
  while (pindrop_map_poll_event(map, &e)) {
    if (e.type == PINDROP_EVENT_CLUSTER_TAPPED && e.request == c[0].key && e.id == PINDROP_NO_ID &&
        e.lon == c[0].lon && e.lat == c[0].lat) tapped++;
  }
  CHECK(tapped == 1);
  /* Bad input: a clear status or 0 with a message, nothing written. */
  CHECK(pindrop_map_cluster_members(map, c[0].key ^ 0x5555, members, 4) == 0);
  CHECK(strstr(pindrop_map_last_error(map), "no cluster") != NULL);
  CHECK_STATUS(pindrop_map_cluster_expansion_zoom(map, 0, &zoom), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_cluster_expansion_zoom(map, c[0].key, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_frame_clusters(map, 100, NULL, 4) == 0);
  CHECK(strcmp(pindrop_map_last_error(map), "") != 0);
  CHECK(pindrop_map_frame_clusters(map, 100, c, SIZE_MAX) == 0);
  CHECK(pindrop_map_cluster_members(map, c[0].key, members, SIZE_MAX) == 0);
  CHECK(pindrop_map_frame_clusters(map, 5, c, 4) == 0);   /* time went backwards */
  CHECK(pindrop_map_frame_clusters(map, 100, c, 4) == 1);
  CHECK(strcmp(pindrop_map_last_error(map), "") == 0);
  /* At the max zoom: nothing clustered. */
  {
    pindrop_camera cam = {-118.3535, 33.8871, 17, 0, 1200, 800};
    CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
    CHECK(pindrop_map_frame_clusters(map, 100, c, 4) == 0);
    CHECK(pindrop_map_frame(map, 100, views, 8) == 2);
  }
  pindrop_map_destroy(map);
  CHECK(pindrop_map_frame_clusters(NULL, 0, c, 4) == 0);
  CHECK(pindrop_map_cluster_members(NULL, 1, members, 4) == 0);
  CHECK_STATUS(pindrop_map_cluster_expansion_zoom(NULL, 1, &zoom), PINDROP_ERR_INVALID_ARGUMENT);
}

int main(void) {
  test_old_options_leave_clustering_off();
  test_a_clustered_view();
  if (failures) {
    fprintf(stderr, "test_clusters: %d failures\n", failures);
    return 1;
  }
  printf("test_clusters: all checks passed\n");
  return 0;
}
