/* The frame and the frameless hit test counted with callgrind or perf: the 916k LA street trees
   with the default options, every leaf's tree built; then either `count` frames of the densest
   1200x800 window of Long Beach at zoom 16 (bench_gesture's frame), or `count` hit tests with no
   frame drawn, on cameras at zoom 19 (1024x768) centred on random trees, half next to a tree and
   half anywhere (bench_peers' taps). Only the loop is counted (callgrind's instrumentation is
   switched on around it), so

     valgrind --tool=callgrind --instr-atstart=no .build/bench/frame_loop DATA frame 300
     valgrind --tool=callgrind --instr-atstart=no .build/bench/frame_loop DATA hit 100000

   gives the instructions of the loop; without valgrind it prints its CPU time per call. */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>
#include <valgrind/callgrind.h>

#include "la_trees.h"

#include <math.h>
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
static double uniform(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

int main(int argc, char **argv) {
  char path[4096];
  double *ll, t0, t = 0;
  size_t n, i, count;
  pindrop_id *ids;
  pindrop_options o;
  pindrop_map *map = NULL;
  int frames;
  if (argc < 3 || (strcmp(argv[2], "frame") != 0 && strcmp(argv[2], "hit") != 0)) {
    fprintf(stderr, "usage: frame_loop DATA_DIR frame|hit [count]\n");
    return 2;
  }
  frames = strcmp(argv[2], "frame") == 0;
  count = argc > 3 ? (size_t)atol(argv[3]) : (frames ? 300 : 100000);
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &ll);
  ids = malloc(n * sizeof *ids);
  if (!ids) return 2;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;
  CHECK(pindrop_options_init(&o, sizeof o));
  CHECK(pindrop_map_create(&o, &map));
  CHECK(pindrop_map_add_many(map, ids, ll, n));
  for (i = 0; i < 60000; i++) (void)pindrop_map_nearby(map, ll[2 * (i % n)], ll[2 * (i % n) + 1], 0.0, NULL, NULL, 0);

  if (frames) {
    /* bench_gesture's window: the densest 1200x800 cell of Long Beach at zoom 16. */
    pindrop_camera cam = {-118.17, 33.80, 16, 0, 1200, 800};
    const double world = 256.0 * 65536.0, dlon = 1200.0 / world * 360.0;
    const double dlat = dlon * 800.0 / 1200.0 * cos(33.8 * 3.14159265358979323846 / 180.0);
    enum { G = 40 };
    static int grid[G][G];
    static pindrop_pin_view views[1 << 16];
    int best = -1, gx, gy;
    size_t drawn = 0;
    for (i = 0; i < n; i++) {
      gx = (int)((ll[2 * i] + 118.3) / dlon); gy = (int)((ll[2 * i + 1] - 33.7) / dlat);
      if (ll[2 * i] > -118.25 && ll[2 * i] < -118.0 && ll[2 * i + 1] > 33.7 && ll[2 * i + 1] < 33.9 &&
          gx >= 0 && gx < G && gy >= 0 && gy < G) grid[gx][gy]++;
    }
    for (gx = 0; gx < G; gx++)
      for (gy = 0; gy < G; gy++)
        if (grid[gx][gy] > best) {
          best = grid[gx][gy];
          cam.center_lon = -118.3 + (gx + 0.5) * dlon; cam.center_lat = 33.7 + (gy + 0.5) * dlat;
        }
    CHECK(pindrop_map_set_camera(map, &cam));
    for (i = 0; i < 20; i++) drawn = pindrop_map_frame(map, t += 16, views, 1 << 16);
    CALLGRIND_START_INSTRUMENTATION;
    t0 = thread_s();
    for (i = 0; i < count; i++) (void)pindrop_map_frame(map, t += 16, views, 1 << 16);
    t0 = thread_s() - t0;
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("frame, %zu pins drawn: %.3f ms per frame\n", drawn, t0 / (double)count * 1e3);
  } else {
    enum { NCAM = 1000 };
    size_t per = count / NCAM ? count / NCAM : 1, c, q, hits = 0;
    double *xy = malloc(2 * per * NCAM * sizeof *xy), spent = 0;
    pindrop_id *out = malloc(per * NCAM * sizeof *out);
    pindrop_camera *cams = malloc(NCAM * sizeof *cams);
    if (!xy || !out || !cams) return 2;
    for (c = 0; c < NCAM; c++) {
      size_t k = (size_t)(uniform() * (double)n);
      pindrop_camera cam = {ll[2 * k], ll[2 * k + 1], 19, 0, 1024, 768};
      cams[c] = cam;
      CHECK(pindrop_map_set_camera(map, &cam));
      for (q = 0; q < per; q++) {
        double *p = &xy[2 * (c * per + q)];
        if (q % 2 == 0) {
          size_t j = (k + (size_t)(uniform() * 200)) % n;
          double x, y;
          if (pindrop_map_to_screen(map, ll[2 * j], ll[2 * j + 1], &x, &y) != PINDROP_OK) x = y = 0;
          if (x < 0 || x > 1024 || y < 0 || y > 768) { x = 512; y = 384; }
          p[0] = x + (uniform() - 0.5) * 60; p[1] = y + (uniform() - 0.5) * 60;
        } else {
          p[0] = uniform() * 1024; p[1] = uniform() * 768;
        }
      }
    }
    CALLGRIND_START_INSTRUMENTATION;
    for (c = 0; c < NCAM; c++) {
      CHECK(pindrop_map_set_camera(map, &cams[c]));
      t0 = thread_s();
      CHECK(pindrop_map_hit_test_many(map, &xy[2 * c * per], per, &out[c * per]));
      spent += thread_s() - t0;
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    for (q = 0; q < per * NCAM; q++) hits += out[q] != PINDROP_NO_ID;
    printf("hit test with no frame, %zu taps, %zu hits: %.0f ns per tap\n", per * NCAM, hits, spent / (double)(per * NCAM) * 1e9);
  }
  pindrop_map_destroy(map);
  free(ll); free(ids);
  return 0;
}
