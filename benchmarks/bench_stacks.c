/* The cost of drawing with spread_on_tap (behaviour 22) on the 916k LA County trees: one
   pindrop_map_frame plus one pindrop_map_frame_clusters of a 1200 x 800 view at zooms 12 to 18,
   around Lawndale's 305-tree stack and the county's densest 0.01-degree cell (-118.07, 33.90), with spread_on_tap off and on, with
   clustering off and on (cluster_radius 60), warmed (the index built, the buffers grown).

   cc -O2 -Iinclude benchmarks/bench_stacks.c -o .build/bench_stacks -L.build/release -lpindrop \
      -Wl,-rpath,$PWD/.build/release -lm && .build/bench_stacks ../shared/data/la_trees.csv
   (or the data folder, as benchmarks/run.py passes it) */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

#include <stdint.h>
#include <time.h>

#include "la_trees.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

enum { CAP = 1 << 20 };
static pindrop_pin_view views[CAP];
static pindrop_cluster_view items[CAP];

int main(int argc, char **argv) {
  char folder_csv[4096];
  const char *path = argc > 1 ? argv[1] : "../shared/data/la_trees.csv";
  if (argc > 1 && (strlen(path) < 4 || strcmp(path + strlen(path) - 4, ".csv") != 0)) {
    snprintf(folder_csv, sizeof folder_csv, "%s/la_trees.csv", path);
    path = folder_csv;
  }
  double *lonlat = NULL;
  size_t n = load_trees(path, &lonlat), i;
  pindrop_id *ids = malloc(n * sizeof *ids);
  static const struct { const char *name; double lon, lat; } places[] = {
    {"Lawndale 305", -118.34600679066747, 33.88355188855412}, {"densest", -118.0700, 33.9000}};
  int on, clustered, p, z;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i + 1;
  printf("%zu trees; each row: the mean of 20 warmed frame + frame_clusters, ms (pins, items of which stacks)\n", n);
  for (clustered = 0; clustered < 2; clustered++) {
    for (on = 0; on < 2; on++) {
      pindrop_options o;
      pindrop_map *m = NULL;
      double t0, t = 0;
      pindrop_options_init(&o, sizeof o);
      o.spread_on_tap = (uint32_t)on;
      if (clustered) o.cluster_radius = 60;
      if (pindrop_map_create(&o, &m) != PINDROP_OK) return 1;
      t0 = now_ms();
      if (pindrop_map_add_many(m, ids, lonlat, n) != PINDROP_OK) return 1;
      printf("\nclustering %s, spread_on_tap %d (add_many %.0f ms)\n", clustered ? "on (radius 60)" : "off", on, now_ms() - t0);
      for (p = 0; p < 2; p++) {
        for (z = 12; z <= 18; z++) {
          pindrop_camera cam;
          size_t pins = 0, total = 0, stacks = 0, k;
          double first, mean;
          cam.center_lon = places[p].lon; cam.center_lat = places[p].lat; cam.zoom = z; cam.bearing_deg = 0;
          cam.width = 1200; cam.height = 800;
          pindrop_map_set_camera(m, &cam);
          t0 = now_ms();
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
          first = now_ms() - t0;
          for (k = 0; k < 200; k++) (void)pindrop_map_frame(m, t, views, CAP);  /* the index catches up */
          t0 = now_ms();
          for (k = 0; k < 20; k++) {
            pins = pindrop_map_frame(m, t, views, CAP);
            total = pindrop_map_frame_clusters(m, t, items, CAP);
          }
          mean = (now_ms() - t0) / 20;
          for (k = 0; k < total && k < CAP; k++) stacks += (items[k].flags & PINDROP_CLUSTER_STACK) != 0;
          printf("  %-13s z%-2d %8.2f ms  (first %7.1f ms)  %7zu pins  %6zu items  %6zu stacks\n",
                 places[p].name, z, mean, first, pins, total, stacks);
        }
      }
      pindrop_map_destroy(m);
    }
  }
  free(ids);
  free(lonlat);
  return 0;
}
