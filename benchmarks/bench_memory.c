/* What a map holds, measured from outside as a host sees it (the kernel's VmRSS and VmHWM in
   /proc/self/status), each figure in a child process of its own (issue 34, "Memory that only
   grows"):

   - per-map memory: 1,000 maps of one pin, each with a 1920x1080 camera, a frame drawn and a tap,
     the growth of the resident set (target <= 50 MB; Tests/c/test_map_memory.c checks it);
   - frame peak: the 916k LA street trees loaded (add_many + first query, default options), then
     frames over the county at zoom 15: 1200x800 tiles row by row, one frame of the whole county
     (every tree), the tiles again; the peak of the resident set while the frames are drawn
     (VmHWM, reset after the load through /proc/self/clear_refs) and the resident set after them,
     both less the process's before the map was made (the host's buffer for a frame of every pin
     included there), per pin of the map (target for the peak <= 150 B/pin). The load's own peak
     is printed beside them.

   Usage: bench_memory DATA_DIR [maps|frames]   (both without the second argument) */
#define _POSIX_C_SOURCE 200809L
#include <pindrop.h>

#include "la_trees.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

/* A field of /proc/self/status in kB ("VmRSS", "VmHWM"), or -1. */
static long status_kb(const char *field) {
  char line[256];
  size_t len = strlen(field);
  long kb = -1;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, len) == 0 && line[len] == ':') { kb = strtol(line + len + 1, NULL, 10); break; }
  fclose(f);
  return kb;
}

/* Makes VmHWM start again from the current VmRSS (Linux 4.0 and later); 0 when it did. */
static int reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  int ok;
  if (!f) return -1;
  ok = fputs("5", f) >= 0;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

static pindrop_map *one_pin_map(pindrop_id id, double lon, double lat) {
  pindrop_options opt;
  pindrop_map *map;
  pindrop_camera cam = {0, 0, 16, 0, 1920, 1080};
  pindrop_pin_view views[4];
  pindrop_id hit;
  CHECK(pindrop_options_init(&opt, sizeof opt));
  CHECK(pindrop_map_create(&opt, &map));
  CHECK(pindrop_map_add(map, id, lon, lat));
  cam.center_lon = lon; cam.center_lat = lat;
  CHECK(pindrop_map_set_camera(map, &cam));
  if (pindrop_map_frame(map, 0, views, 4) != 1) { fprintf(stderr, "a one-pin map drew no pin\n"); exit(1); }
  CHECK(pindrop_map_hit_test(map, views[0].x, views[0].y, &hit));
  return map;
}

static int per_map(void) {
  enum { MAPS = 1000 };
  static pindrop_map *maps[MAPS];
  long before;
  int i;
  pindrop_map_destroy(one_pin_map(1, -118.2, 34.0));
  before = status_kb("VmRSS");
  for (i = 0; i < MAPS; i++) maps[i] = one_pin_map(i + 1, -118.2 + 1e-4 * i, 34.0 + 1e-4 * i);
  printf("per-map memory, 1000 one-pin maps: %.1f MB (target <= 50)\n", (double)(status_kb("VmRSS") - before) / 1024.0);
  for (i = 0; i < MAPS; i++) pindrop_map_destroy(maps[i]);
  return 0;
}

/* Draws the frames of w x h tiles over the extent at zoom 15, row by row; returns the pins drawn. */
static size_t tour(pindrop_map *map, const double ext[4], double w, double h, double *t, pindrop_pin_view *views,
                   size_t cap, size_t *frames) {
  const double world = 256.0 * 32768.0, pi = 3.14159265358979323846;
  size_t drawn = 0;
  double x, y;
  for (y = ext[1] + h / 2; y < ext[3] + h / 2; y += h)
    for (x = ext[0] + w / 2; x < ext[2] + w / 2; x += w) {
      pindrop_camera cam = {0, 0, 15, 0, 0, 0};
      cam.center_lon = x / world * 360 - 180;
      cam.center_lat = atan(sinh((0.5 - y / world) * 2 * pi)) * 180 / pi;
      cam.width = w; cam.height = h;
      CHECK(pindrop_map_set_camera(map, &cam));
      drawn += pindrop_map_frame(map, *t += 16, views, cap);
      ++*frames;
    }
  return drawn;
}

static int frame_peak(const char *dir) {
  char path[4096];
  const double world = 256.0 * 32768.0, pi = 3.14159265358979323846;
  double *ll, ext[4] = {1e300, 1e300, -1e300, -1e300}, t = 0;
  size_t n, i, drawn, frames = 0, all;
  pindrop_id *ids;
  pindrop_options o;
  pindrop_map *map;
  pindrop_pin_view *views;
  long base, load_peak;
  snprintf(path, sizeof path, "%s/la_trees.csv", dir);
  n = load_trees(path, &ll);
  ids = malloc(n * sizeof *ids);
  /* The host's own buffer for a frame of every pin, touched before the base is read: the host's
     memory, not the map's. */
  views = malloc(n * sizeof *views);
  if (!ids || !views) return 2;
  memset(views, 0, n * sizeof *views);
  for (i = 0; i < n; i++) {
    /* The county's extent in world points at zoom 15 (Web Mercator). */
    double px = (ll[2 * i] + 180) / 360 * world;
    double py = (0.5 - atanh(sin(ll[2 * i + 1] * pi / 180)) / (2 * pi)) * world;
    ids[i] = (pindrop_id)i;
    if (px < ext[0]) ext[0] = px;
    if (py < ext[1]) ext[1] = py;
    if (px > ext[2]) ext[2] = px;
    if (py > ext[3]) ext[3] = py;
  }
  base = status_kb("VmRSS");
  if (reset_peak() != 0) { fprintf(stderr, "cannot reset VmHWM (/proc/self/clear_refs)\n"); return 2; }
  CHECK(pindrop_options_init(&o, sizeof o));
  CHECK(pindrop_map_create(&o, &map));
  CHECK(pindrop_map_add_many(map, ids, ll, n));
  (void)pindrop_map_nearby(map, ll[0], ll[1], 1.0, NULL, NULL, 0);
  load_peak = status_kb("VmHWM");
  printf("load (add_many + first query); peak %.0f B/pin, after %.0f B/pin\n",
         (double)(load_peak - base) * 1024.0 / (double)n, (double)(status_kb("VmRSS") - base) * 1024.0 / (double)n);
  if (reset_peak() != 0) return 2;
  /* The county in 1200 x 800 tiles, then in one frame of every tree, then in tiles again. */
  drawn = tour(map, ext, 1200, 800, &t, views, n, &frames);
  all = tour(map, ext, ext[2] - ext[0] + 2, ext[3] - ext[1] + 2, &t, views, n, &frames);
  drawn += all + tour(map, ext, 1200, 800, &t, views, n, &frames);
  printf("frames over the county at zoom 15; %zu frames (one of %zu pins), %zu pins drawn in all\n", frames, all, drawn);
  printf("frame peak: %.0f B/pin (target <= 150)\n", (double)(status_kb("VmHWM") - base) * 1024.0 / (double)n);
  printf("after the frames: %.0f B/pin\n", (double)(status_kb("VmRSS") - base) * 1024.0 / (double)n);
  pindrop_map_destroy(map);
  free(views); free(ids); free(ll);
  return 0;
}

/* Runs `what` in a child process (its own VmRSS and VmHWM); returns its exit status. */
static int in_child(int (*what)(const char *), const char *dir) {
  int status;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if (pid < 0) { perror("fork"); return 2; }
  if (pid == 0) { int rc = what(dir); fflush(stdout); _exit(rc); }
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return 2;
  return WEXITSTATUS(status);
}

static int per_map_child(const char *dir) { (void)dir; return per_map(); }

int main(int argc, char **argv) {
  int rc = 0;
  if (argc < 2) { fprintf(stderr, "usage: bench_memory DATA_DIR [maps|frames]\n"); return 2; }
  if (argc < 3 || strcmp(argv[2], "maps") == 0) rc |= in_child(per_map_child, argv[1]);
  if (argc < 3 || strcmp(argv[2], "frames") == 0) rc |= in_child(frame_peak, argv[1]);
  return rc;
}
