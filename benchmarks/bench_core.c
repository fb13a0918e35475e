/* Benchmark of the foundation on the 916k Los Angeles County street trees: bulk load and index
   build, hit tests (batch and single, from C), nearby queries, and resident memory per pin.
   Usage: bench_core DATA_DIR [memory] (the folder holding la_trees.csv; with `memory`, only the
   memory a map keeps after its frames). */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

#include "la_trees.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Times are the process's CPU time (user + system): the library is single-threaded, so on an idle
   machine this equals wall time, and on a shared one it does not count time spent waiting for a core. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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

/* The bytes malloc has handed out and not had back (its arenas' bytes in use plus its mmapped
   blocks): what the process holds, whether or not the pages were touched, and not counting
   memory freed but kept by malloc. The Swift runtime, the library and GEOS all allocate through
   malloc. */
static long held_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return (long)(mi.uordblks + mi.hblkhd);
}

/* Resident set size once malloc has given back the free pages it can (malloc_trim). */
static long trimmed_rss_bytes(void) {
  (void)malloc_trim(0);
  return rss_bytes();
}

/* A small deterministic generator (xorshift64*), so every run measures the same queries. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(void) {
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}


#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

/* Screen points a user would tap: for each of `ncam` cameras (zoom 17, 1024x768) centred on random
   trees, `per` points, half next to the pins in view (within 30 points), half anywhere on screen.
   Fills xy (2 * ncam * per values) and the cameras. */
static void viewport_queries(pindrop_map *map, const double *lonlat, size_t n, size_t ncam, size_t per,
                             pindrop_camera *cams, double *xy, pindrop_pin_view *views, size_t cap) {
  size_t c, q;
  for (c = 0; c < ncam; c++) {
    size_t k = (size_t)(uniform() * (double)n), shown;
    pindrop_camera *cam = &cams[c];
    cam->center_lon = lonlat[2 * k]; cam->center_lat = lonlat[2 * k + 1];
    cam->zoom = 17; cam->bearing_deg = 0; cam->width = 1024; cam->height = 768;
    CHECK(pindrop_map_set_camera(map, cam));
    shown = pindrop_map_frame(map, 0, views, cap);
    if (shown > cap) shown = cap;
    for (q = 0; q < per; q++) {
      double *p = &xy[2 * (c * per + q)];
      if (q % 2 == 0 && shown > 0) {
        const pindrop_pin_view *v = &views[(size_t)(uniform() * (double)shown)];
        p[0] = v->x + (uniform() - 0.5) * 60; p[1] = v->y + (uniform() - 0.5) * 60;
      } else {
        p[0] = uniform() * 1024; p[1] = uniform() * 768;
      }
    }
  }
}

/* hit_test_many per camera; returns ns per query and counts the hits. With `views`, a frame is
   drawn first (untimed, as a host draws before the user taps): the taps are then answered from
   the frame's grid; without, by the spatial index. */
static double time_many(pindrop_map *map, const pindrop_camera *cams, size_t ncam, size_t per,
                        const double *xy, pindrop_id *out, size_t *hits, pindrop_pin_view *views, size_t cap) {
  size_t c, q;
  double t = 0, t0;
  *hits = 0;
  for (c = 0; c < ncam; c++) {
    CHECK(pindrop_map_set_camera(map, &cams[c]));
    if (views) (void)pindrop_map_frame(map, 0, views, cap);
    t0 = now_s();
    CHECK(pindrop_map_hit_test_many(map, &xy[2 * c * per], per, &out[c * per]));
    t += now_s() - t0;
  }
  for (q = 0; q < ncam * per; q++) *hits += out[q] != PINDROP_NO_ID;
  return t * 1e9 / (double)(ncam * per);
}

/* hit_test, one call per point, per camera; returns ns per call. */
static double time_single(pindrop_map *map, const pindrop_camera *cams, size_t ncam, size_t per, const double *xy,
                          pindrop_pin_view *views, size_t cap) {
  size_t c, q;
  double t = 0, t0;
  pindrop_id hit;
  for (c = 0; c < ncam; c++) {
    CHECK(pindrop_map_set_camera(map, &cams[c]));
    (void)pindrop_map_frame(map, 0, views, cap);
    t0 = now_s();
    for (q = 0; q < per; q++) (void)pindrop_map_hit_test(map, xy[2 * (c * per + q)], xy[2 * (c * per + q) + 1], &hit);
    t += now_s() - t0;
  }
  return t * 1e9 / (double)(ncam * per);
}

/* Creates a map with these options and bulk-loads the trees three times, keeping the best time of
   add_many and of the first query (which builds the GEOS tree: part of the cost of being ready),
   and the RSS the first map added. The last map is left in *out. */
static void load(const pindrop_options *opt, const pindrop_id *ids, const double *lonlat, size_t n,
                 double *add_s, double *build_s, long *rss, pindrop_map **out) {
  pindrop_map *map = NULL;
  size_t rep;
  long rss0 = 0;
  *add_s = *build_s = 1e9;
  for (rep = 0; rep < 3; rep++) {
    double a, b, t0, t1;
    if (map) pindrop_map_destroy(map);
    if (rep == 0) rss0 = rss_bytes();
    t0 = now_s();
    CHECK(pindrop_map_create(opt, &map));
    CHECK(pindrop_map_add_many(map, ids, lonlat, n));
    t1 = now_s();
    a = t1 - t0;
    (void)pindrop_map_nearby(map, lonlat[0], lonlat[1], 1.0, NULL, NULL, 0);
    b = now_s() - t1;
    if (rep == 0 || rep == 2) {
      /* The index builds its GEOS trees a slice per query: enough queries for all of them, so
         that the memory is that of the complete index and the queries below run on it. */
      size_t q;
      for (q = 0; q < 60000; q++)
        (void)pindrop_map_nearby(map, lonlat[2 * (q % n)], lonlat[2 * (q % n) + 1], 0.0, NULL, NULL, 0);
      if (rep == 0) *rss = rss_bytes() - rss0;
    }
    if (a + b < *add_s + *build_s) { *add_s = a; *build_s = b; }
  }
  *out = map;
}

/* `load` in a child process, so that its memory is measured from the same start as the parent's
   and given back in full when it exits. */
static void load_in_child(const pindrop_options *opt, const pindrop_id *ids, const double *lonlat, size_t n,
                          double *add_s, double *build_s, long *rss) {
  int fd[2], status = 0;
  pid_t pid;
  double r[3];
  if (pipe(fd) != 0) { perror("pipe"); exit(2); }
  fflush(stdout);
  pid = fork();
  if (pid < 0) { perror("fork"); exit(2); }
  if (pid == 0) {
    pindrop_map *map;
    long m;
    close(fd[0]);
    load(opt, ids, lonlat, n, &r[0], &r[1], &m, &map);
    r[2] = (double)m;
    pindrop_map_destroy(map);
    _exit(write(fd[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
  }
  close(fd[1]);
  if (read(fd[0], r, sizeof r) != (ssize_t)sizeof r || waitpid(pid, &status, 0) != pid || status != 0) {
    fprintf(stderr, "the load in a child process failed\n");
    exit(1);
  }
  close(fd[0]);
  *add_s = r[0]; *build_s = r[1]; *rss = (long)r[2];
}

/* The memory a map keeps after its frames (issue 23: scratch that gives memory back), in child
   processes so that each starts from the same heap. Default options (spreading on, clustering
   off), every leaf's tree built; then
   - "big frame, then a normal view": one frame of every tree (1200x800 at zoom 8 over the
     county), then a 1200x800 view at zoom 16 in Long Beach drawn with a tap on it;
   - "browsing at zoom 15": 200 views of 1200x800 at zoom 15 centred on random trees, each drawn
     with a tap on it.
   held[] gets malloc's bytes in use (`held_bytes`) and rss[] the resident set after malloc_trim,
   each less the child's start: [0] loaded, [1] after the frame of every tree, [2] after the normal
   view that follows it, [3] after browsing at zoom 15 (a map of its own). */
static void frame_memory(const pindrop_id *ids, const double *lonlat, size_t n, long held[4], long rss[4],
                         size_t *big_drawn) {
  int run;
  for (run = 0; run < 2; run++) {
    int fd[2], status = 0;
    pid_t pid;
    long r[5];
    if (pipe(fd) != 0) { perror("pipe"); exit(2); }
    fflush(stdout);
    pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) {
      pindrop_map *map;
      pindrop_options opt;
      pindrop_camera cam = {-118.2, 34.0, 8, 0, 1200, 800};
      pindrop_id hit;
      long h0, s0;
      size_t q;
      close(fd[0]);
      h0 = held_bytes(); s0 = trimmed_rss_bytes();
      CHECK(pindrop_options_init(&opt, sizeof opt));
      CHECK(pindrop_map_create(&opt, &map));
      CHECK(pindrop_map_add_many(map, ids, lonlat, n));
      for (q = 0; q < 60000; q++)
        (void)pindrop_map_nearby(map, lonlat[2 * (q % n)], lonlat[2 * (q % n) + 1], 0.0, NULL, NULL, 0);
      r[0] = held_bytes() - h0; r[1] = trimmed_rss_bytes() - s0;
      if (run == 0) {
        CHECK(pindrop_map_set_camera(map, &cam));
        r[4] = (long)pindrop_map_frame(map, 0, NULL, 0);
        (void)pindrop_map_hit_test(map, 600, 400, &hit);
        r[2] = held_bytes() - h0; r[3] = trimmed_rss_bytes() - s0;
        cam.center_lon = -118.081; cam.center_lat = 33.893; cam.zoom = 16;
        CHECK(pindrop_map_set_camera(map, &cam));
        (void)pindrop_map_frame(map, 16, NULL, 0);
        (void)pindrop_map_hit_test(map, 600, 400, &hit);
      } else {
        for (q = 0; q < 200; q++) {
          size_t k = (size_t)(uniform() * (double)n);
          cam.center_lon = lonlat[2 * k]; cam.center_lat = lonlat[2 * k + 1]; cam.zoom = 15;
          CHECK(pindrop_map_set_camera(map, &cam));
          (void)pindrop_map_frame(map, (double)q * 16, NULL, 0);
          (void)pindrop_map_hit_test(map, 600, 400, &hit);
        }
        r[2] = r[3] = r[4] = 0;
      }
      /* The last figures of the run: after the normal view, or after browsing. */
      {
        long a = held_bytes() - h0, b = trimmed_rss_bytes() - s0;
        long out[7] = {r[0], r[1], r[2], r[3], a, b, r[4]};
        pindrop_map_destroy(map);
        _exit(write(fd[1], out, sizeof out) == (ssize_t)sizeof out ? 0 : 1);
      }
    }
    close(fd[1]);
    {
      long out[7];
      if (read(fd[0], out, sizeof out) != (ssize_t)sizeof out || waitpid(pid, &status, 0) != pid || status != 0) {
        fprintf(stderr, "the frame memory run in a child process failed\n");
        exit(1);
      }
      close(fd[0]);
      if (run == 0) {
        held[0] = out[0]; rss[0] = out[1]; held[1] = out[2]; rss[1] = out[3]; held[2] = out[4]; rss[2] = out[5];
        *big_drawn = (size_t)out[6];
      } else {
        held[3] = out[4]; rss[3] = out[5];
      }
    }
  }
}

int main(int argc, char **argv) {
  enum { NCAM = 100, PER = 2000, NQ = NCAM * PER, NRANDOM = 100000, NNEAR = 50000, NMOVES = 10000, VIEWCAP = 1 << 16 };
  char path[4096];
  double *lonlat, *xy, *xy_random, *dist, t0, add_s, build_s, many_ns, single_ns, random_ns, nearby_ns, move_ns;
  double after_ns, add_default_s, build_default_s, index_ns;
  pindrop_id *ids, *out, *near_ids;
  pindrop_pin_view *views;
  pindrop_camera *cams;
  size_t n, i, q, rep, hits = 0, hits_after = 0, hits_random = 0, total_near = 0;
  long rss1, rss_default, held[4] = {0, 0, 0, 0}, held_rss[4] = {0, 0, 0, 0};
  size_t big_drawn = 0;
  pindrop_map *map;
  pindrop_options opt;

  if (argc < 2) { fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]); return 2; }
  snprintf(path, sizeof path, "%s/la_trees.csv", argv[1]);
  n = load_trees(path, &lonlat);
  ids = malloc(n * sizeof *ids);
  xy = malloc(2 * NQ * sizeof *xy);
  xy_random = malloc(2 * NRANDOM * sizeof *xy_random);
  out = malloc(NQ * sizeof *out);
  near_ids = malloc(4096 * sizeof *near_ids);
  dist = malloc(4096 * sizeof *dist);
  views = malloc(VIEWCAP * sizeof *views);
  cams = malloc(NCAM * sizeof *cams);
  if (!ids || !xy || !xy_random || !out || !near_ids || !dist || !views || !cams) return 2;
  for (i = 0; i < n; i++) ids[i] = (pindrop_id)i;

  /* Each timing is the best of three runs (the machine may be shared). The map's memory is what
     RSS gains over the first build (the inputs are already resident). The load is timed twice:
     with the default options (spreading on, rings at tolerance 0: what a host gets) and with
     spreading off (the pins and the index alone). The queries below run on the second map. */
  CHECK(pindrop_options_init(&opt, sizeof opt));
  {
    /* Run the library's code once on a small map, so that the memory measured below is the
       map's data and not the code pages the first calls bring in. */
    pindrop_map *warm;
    CHECK(pindrop_map_create(&opt, &warm));
    CHECK(pindrop_map_add_many(warm, ids, lonlat, 20000));
    for (q = 0; q < 20000; q++) (void)pindrop_map_nearby(warm, lonlat[2 * q], lonlat[2 * q + 1], 0.0, NULL, NULL, 0);
    pindrop_map_destroy(warm);
  }
  frame_memory(ids, lonlat, n, held, held_rss, &big_drawn);
  if (argc > 2 && strcmp(argv[2], "memory") == 0) {
    /* `bench_core DATA memory`: the memory after frames alone. */
    printf("map memory after load: %.1f B/pin held, %.1f resident; after a frame of every tree (%zu drawn): %.1f held, "
           "%.1f resident; then a normal view: %.1f held, %.1f resident; after browsing at zoom 15: %.1f held, %.1f resident\n",
           (double)held[0] / (double)n, (double)held_rss[0] / (double)n, big_drawn, (double)held[1] / (double)n,
           (double)held_rss[1] / (double)n, (double)held[2] / (double)n, (double)held_rss[2] / (double)n,
           (double)held[3] / (double)n, (double)held_rss[3] / (double)n);
    return 0;
  }
  load_in_child(&opt, ids, lonlat, n, &add_default_s, &build_default_s, &rss_default);
  opt.spread_mode = PINDROP_SPREAD_OFF; /* measure the index, not the layout of stacked trees */
  load(&opt, ids, lonlat, n, &add_s, &build_s, &rss1, &map);

  /* Taps on the screen, over 100 views of the county. */
  viewport_queries(map, lonlat, n, NCAM, PER, cams, xy, views, VIEWCAP);
  many_ns = single_ns = index_ns = 1e18;
  for (rep = 0; rep < 3; rep++) {
    double m = time_many(map, cams, NCAM, PER, xy, out, &hits, views, VIEWCAP), s1 = time_single(map, cams, NCAM, PER, xy, views, VIEWCAP);
    double i1 = time_many(map, cams, NCAM, PER, xy, out, &hits, NULL, 0);
    if (m < many_ns) many_ns = m;
    if (s1 < single_ns) single_ns = s1;
    if (i1 < index_ns) index_ns = i1;
  }

  /* Points anywhere in the county, one camera: every query is a cold cache miss. */
  CHECK(pindrop_map_set_camera(map, &cams[0]));
  for (q = 0; q < NRANDOM; q++) {
    size_t k = (size_t)(uniform() * (double)n);
    double x, y;
    CHECK(pindrop_map_to_screen(map, lonlat[2 * k], lonlat[2 * k + 1], &x, &y));
    xy_random[2 * q] = x + (uniform() - 0.5) * 60;
    xy_random[2 * q + 1] = y + (uniform() - 0.5) * 60;
  }
  t0 = now_s();
  CHECK(pindrop_map_hit_test_many(map, xy_random, NRANDOM, out));
  random_ns = (now_s() - t0) * 1e9 / NRANDOM;
  for (q = 0; q < NRANDOM; q++) hits_random += out[q] != PINDROP_NO_ID;

  t0 = now_s();
  for (q = 0; q < NNEAR; q++) {
    size_t k = (size_t)(uniform() * (double)n);
    total_near += pindrop_map_nearby(map, lonlat[2 * k], lonlat[2 * k + 1], 50.0, near_ids, dist, 4096);
  }
  nearby_ns = (now_s() - t0) * 1e9 / NNEAR;

  /* The host moves 10,000 trees by a few metres (after the tree was built), then taps again. */
  t0 = now_s();
  for (q = 0; q < NMOVES; q++) {
    size_t k = (size_t)(uniform() * (double)n);
    CHECK(pindrop_map_set_position(map, (pindrop_id)k, lonlat[2 * k] + (uniform() - 0.5) * 1e-4,
                                   lonlat[2 * k + 1] + (uniform() - 0.5) * 1e-4));
  }
  move_ns = (now_s() - t0) * 1e9 / NMOVES;
  after_ns = 1e18;
  for (rep = 0; rep < 3; rep++) {
    double m = time_many(map, cams, NCAM, PER, xy, out, &hits_after, views, VIEWCAP);
    if (m < after_ns) after_ns = m;
  }

  printf("pins: %zu; taps: %d views x %d points, %zu hits; county-wide points: %zu hits of %d; "
         "nearby 50 m finds %.1f pins on average\n", n, NCAM, PER, hits, hits_random, NRANDOM,
         (double)total_near / NNEAR);
  printf("add_many, default options (spreading on): %.3f s\n", add_default_s);
  printf("first query (GEOS tree build), default options: %.3f s\n", build_default_s);
  printf("add_many + index build, default options (spreading on): %.3f s (target <= 0.5 s)\n",
         add_default_s + build_default_s);
  printf("add_many, spreading off: %.3f s\n", add_s);
  printf("first query (GEOS tree build), spreading off: %.3f s\n", build_s);
  printf("add_many + index build, spreading off: %.3f s (target <= 0.5 s)\n", add_s + build_s);
  printf("hit_test_many after a frame (from the frame's grid): %.0f ns per query (target <= 1000 ns)\n", many_ns);
  printf("hit_test from C, after a frame: %.0f ns per call (target <= 2000 ns)\n", single_ns);
  printf("hit_test_many without a frame (from the spatial index): %.0f ns per query\n", index_ns);
  printf("hit_test_many, points anywhere in the county: %.0f ns per query\n", random_ns);
  printf("nearby (50 m): %.0f ns per query\n", nearby_ns);
  printf("set_position after the build: %.0f ns per move\n", move_ns);
  printf("hit_test_many after 10000 moves, after a frame: %.0f ns per query\n", after_ns);
  printf("resident memory, default options, every tree built: %.1f bytes per pin (target <= 110 bytes)\n", (double)rss_default / (double)n);
  printf("resident memory, spreading off, every tree built: %.1f bytes per pin (target <= 110 bytes)\n", (double)rss1 / (double)n);

  printf("map memory after load, default options, every tree built: %.1f bytes per pin held by malloc, "
         "%.1f resident after malloc_trim\n", (double)held[0] / (double)n, (double)held_rss[0] / (double)n);
  printf("map memory after one frame of every tree (%zu drawn), then a tap: %.1f bytes per pin held by malloc, "
         "%.1f resident after malloc_trim\n", big_drawn, (double)held[1] / (double)n, (double)held_rss[1] / (double)n);
  printf("map memory after a frame of every tree, then a normal view (zoom 16) and a tap, resident after malloc_trim: "
         "%.1f bytes per pin\n", (double)held_rss[2] / (double)n);
  printf("map memory after a frame of every tree, then a normal view (zoom 16) and a tap: %.1f bytes per pin "
         "held by malloc (target <= 110 bytes)\n", (double)held[2] / (double)n);
  printf("map memory after browsing 200 views at zoom 15, resident after malloc_trim: %.1f bytes per pin\n",
         (double)held_rss[3] / (double)n);
  printf("map memory after browsing 200 views at zoom 15: %.1f bytes per pin held by malloc (target <= 110 bytes)\n",
         (double)held[3] / (double)n);

  pindrop_map_destroy(map);
  free(lonlat); free(ids); free(xy); free(xy_random); free(out); free(near_ids); free(dist); free(views); free(cams);
  return 0;
}
