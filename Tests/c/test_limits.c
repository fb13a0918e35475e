/* Bad sizes and unplaceable coordinates through the C ABI: capacities and counts no buffer could
   hold (2^63 and above, or whose byte size overflows) get PINDROP_ERR_INVALID_ARGUMENT (or 0 with
   the last error set) and change nothing; a pole in Web Mercator is never returned OK with an
   infinite or NaN point; calls without a map explain themselves through pindrop_last_error. */
#include <pindrop.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* Too big for any buffer of 8- or 16-byte items (2^60 · 8 bytes is already past 2^63). */
static const size_t huge[] = {(size_t)1 << 63, ((size_t)1 << 63) + 1, SIZE_MAX, SIZE_MAX / 2 + 1,
                              (size_t)1 << 60, SIZE_MAX / 16 + 1};

static int finite2(double a, double b) { return isfinite(a) && isfinite(b); }

int main(void) {
  pindrop_map *m = NULL;
  pindrop_id ids[3] = {1, 2, 3};
  double lonlat[6] = {-118.25, 34.05, -118.25, 34.05, 10, 20};
  size_t i, k;
  CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
  CHECK(pindrop_map_add_many(m, ids, lonlat, 3) == PINDROP_OK);
  {
    pindrop_camera cam = {-118.25, 34.05, 16, 0, 800, 600};
    CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  }

  for (k = 0; k < sizeof huge / sizeof huge[0]; k++) {
    size_t n = huge[k];
    pindrop_pin_view views[4];
    pindrop_id out_ids[4];
    double dist[4], xy[4] = {400, 300, 0, 0}, spread_out[4] = {7, 7, 7, 7};
    pindrop_id more[2] = {10, 11};
    /* Capacities: 0 with the last error set, nothing written. */
    memset(views, 0xAB, sizeof views);
    CHECK(pindrop_map_frame(m, 0, views, n) == 0);
    CHECK(strstr(pindrop_map_last_error(m), "capacity") != NULL);
    CHECK(strstr(pindrop_last_error(), "capacity") != NULL);
    CHECK(((unsigned char *)views)[0] == 0xAB);
    CHECK(pindrop_map_nearby(m, -118.25, 34.05, 100, out_ids, dist, n) == 0);
    CHECK(strstr(pindrop_map_last_error(m), "capacity") != NULL);
    {
      pindrop_cluster_view clusters[2];
      CHECK(pindrop_map_frame_clusters(m, 0, clusters, n) == 0);
      CHECK(strstr(pindrop_map_last_error(m), "capacity") != NULL);
      CHECK(pindrop_map_cluster_members(m, 1, out_ids, n) == 0);
      CHECK(strstr(pindrop_map_last_error(m), "capacity") != NULL);
    }
    /* Counts: INVALID_ARGUMENT, nothing changed. */
    CHECK(pindrop_map_add_many(m, more, lonlat, n) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_map_count(m) == 3);
    CHECK(pindrop_map_hit_test_many(m, xy, n, out_ids) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_spread(lonlat, n, 0.0, spread_out) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "n =") != NULL);
    CHECK(spread_out[0] == 7);
  }
  /* The largest sane capacity still works and reports the total; one more pin view does not fit. */
  {
    pindrop_pin_view views[4];
    CHECK(pindrop_map_frame(m, 0, views, (size_t)INT64_MAX / sizeof(pindrop_pin_view) + 1) == 0);
    CHECK(pindrop_map_frame(m, 0, views, (size_t)INT64_MAX / sizeof(pindrop_pin_view)) == 2);
    CHECK(pindrop_map_frame(m, 0, views, 4) == 2); /* (10, 20) is off screen */
    CHECK(pindrop_map_frame(m, 0, NULL, 0) == 2);
  }

  /* Poles: the Web Mercator camera cannot place latitude ±90. */
  {
    double x = 1, y = 2;
    pindrop_camera cam = {0, 0, 0, 0, 800, 600};
    CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
    CHECK(pindrop_map_to_screen(m, 180, 90, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_map_last_error(m), "90") != NULL);
    CHECK(pindrop_map_to_screen(m, 0, -90, &x, &y) == PINDROP_ERR_INVALID_ARGUMENT);
    /* A finite screen point too far out for a longitude (found by the fuzzer): never OK with NaN. */
    {
      static const double far[] = {-1.7976931348623157e308, 1.7976931348623157e308, 1e300, -1e306};
      for (i = 0; i < 4; i++) {
        double lon = 0, lat = 0;
        pindrop_status s = pindrop_map_to_lonlat(m, far[i], 100, &lon, &lat);
        CHECK(s == PINDROP_ERR_INVALID_ARGUMENT || (s == PINDROP_OK && finite2(lon, lat)));
        s = pindrop_map_to_lonlat(m, 100, far[i], &lon, &lat);
        CHECK(s == PINDROP_ERR_INVALID_ARGUMENT || (s == PINDROP_OK && finite2(lon, lat)));
      }
    }
    /* Near the pole, deep zoom, turned: either a finite point or a failure, never NaN. */
    for (i = 0; i < 200; i++) {
      pindrop_camera c2 = {179.9, 85.05, 25 + (double)(i % 6), (double)(i * 37 % 360) + 0.5, 800, 600};
      double lat = 90 - (double)i * 1e-9;
      pindrop_status s;
      CHECK(pindrop_map_set_camera(m, &c2) == PINDROP_OK);
      s = pindrop_map_to_screen(m, 180, lat, &x, &y);
      CHECK(s == PINDROP_ERR_INVALID_ARGUMENT || (s == PINDROP_OK && finite2(x, y)));
    }
  }
  /* Pins at the poles are in no frame point and in no hit: every point a frame returns is finite. */
  {
    pindrop_id pole[4] = {20, 21, 22, 23};
    double at[8] = {0, 90, 0, 90, 45, -90, 0, 89.999999999};
    pindrop_pin_view views[16];
    size_t total;
    pindrop_camera cam = {0, 85, 3, 30, 800, 600};
    pindrop_id hit;
    CHECK(pindrop_map_add_many(m, pole, at, 4) == PINDROP_OK);
    CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
    total = pindrop_map_frame(m, 0, views, 16);
    for (i = 0; i < total && i < 16; i++) {
      CHECK(finite2(views[i].x, views[i].y));
      CHECK(finite2(views[i].anchor_x, views[i].anchor_y));
    }
    for (i = 0; i < 50; i++) {
      pindrop_status s = pindrop_map_hit_test(m, (double)(i * 16), 0, &hit);
      CHECK(s == PINDROP_OK || s == PINDROP_ERR_NOT_FOUND);
    }
  }
  pindrop_map_destroy(m);

  /* Calls without a map explain themselves on the calling thread. */
  {
    pindrop_options o;
    pindrop_map *bad = NULL;
    double in[4] = {0, 0, 200, 0}, out[4];
    CHECK(pindrop_options_init(&o, 2) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "struct_size") != NULL);
    CHECK(pindrop_options_init(NULL, sizeof o) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "NULL") != NULL);
    CHECK(pindrop_options_init(&o, sizeof o) == PINDROP_OK);
    o.hit_radius = -1;
    CHECK(pindrop_map_create(&o, &bad) == PINDROP_ERR_INVALID_ARGUMENT && bad == NULL);
    CHECK(strstr(pindrop_last_error(), "hit_radius") != NULL);
    CHECK(pindrop_map_create(NULL, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "out") != NULL);
    CHECK(pindrop_spread(in, 2, 0.0, out) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "200") != NULL);
    CHECK(pindrop_map_add(NULL, 1, 0, 0) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(strstr(pindrop_last_error(), "map is NULL") != NULL);
    CHECK(pindrop_spread(in, 2, 0.0, out) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_map_frame_clusters(NULL, 0, NULL, 0) == 0);
    CHECK(strstr(pindrop_last_error(), "map is NULL") != NULL);
    /* A successful call keeps the last failure's message (libgit2's git_error_last). */
    CHECK(pindrop_spread(in, 1, 0.0, out) == PINDROP_OK);
    CHECK(strstr(pindrop_last_error(), "map is NULL") != NULL);
  }

  if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
  printf("limits: ok\n");
  return 0;
}
