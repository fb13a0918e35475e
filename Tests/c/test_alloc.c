/* Allocation counts on the hot paths, counted by wrapping the C allocator of the whole process
   (the library, the Swift runtime and GEOS all allocate through it): once warmed up, a frame of
   an unchanged view and each drag MOVE (with polling its event) allocate nothing, and so do focus
   steps, the frames that flag the focused pin, and each nudge of a keyboard drag. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pindrop.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static unsigned long allocations = 0;

#if defined(__GLIBC__) && !defined(__cplusplus)
#define COUNTING 1
/* glibc's own entry points, which the wrappers below call. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
void *malloc(size_t n) { allocations++; return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { allocations++; return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { allocations++; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
int posix_memalign(void **out, size_t align, size_t n) {
  allocations++;
  *out = __libc_memalign(align, n);
  return *out ? 0 : 12;
}
void *aligned_alloc(size_t align, size_t n) { allocations++; return __libc_memalign(align, n); }
void *memalign(size_t align, size_t n) { allocations++; return __libc_memalign(align, n); }
#else
#define COUNTING 0
#endif

static int drain(pindrop_map *m) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(m, &e)) n++;
  return n;
}

int main(void) {
  enum { N = 20000, CAP = 1 << 15 };
  static pindrop_id ids[N];
  static double lonlat[2 * N];
  static pindrop_pin_view views[CAP];
  pindrop_map *m = NULL;
  pindrop_camera cam;
  unsigned long before;
  double x, y, t = 0;
  size_t i, shown;
  uint64_t r = 0x9E3779B97F4A7C15ull;

  /* 20,000 pins over 2 km, one in five on the coordinate of the one before (spread rings). */
  for (i = 0; i < N; i++) {
    ids[i] = (pindrop_id)(i + 1);
    if (i > 0 && i % 5 == 0) { lonlat[2 * i] = lonlat[2 * i - 2]; lonlat[2 * i + 1] = lonlat[2 * i - 1]; continue; }
    r ^= r >> 12; r ^= r << 25; r ^= r >> 27;
    lonlat[2 * i] = -118.26 + 0.02 * (double)((r * 2685821657736338717ull) >> 40) / 16777216.0;
    r ^= r >> 12; r ^= r << 25; r ^= r >> 27;
    lonlat[2 * i + 1] = 34.04 + 0.02 * (double)((r * 2685821657736338717ull) >> 40) / 16777216.0;
  }
  before = allocations;
  CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
  if (!m) return 1;
  CHECK(!COUNTING || allocations > before);  /* the counting sees the library's allocations */
  CHECK(pindrop_map_add_many(m, ids, lonlat, N) == PINDROP_OK);
  cam.center_lon = -118.25; cam.center_lat = 34.05; cam.zoom = 17; cam.bearing_deg = 0;
  cam.width = 1200; cam.height = 800;
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);

  /* Warm up: the index builds its trees a slice per frame; buffers grow to their size. */
  for (i = 0; i < 400; i++) (void)pindrop_map_frame(m, t, views, CAP);
  shown = pindrop_map_frame(m, t, views, CAP);
  CHECK(shown > 100 && shown < CAP);

  before = allocations;
  for (i = 0; i < 10; i++) (void)pindrop_map_frame(m, t, views, CAP);
  CHECK(allocations == before);
  if (allocations != before) fprintf(stderr, "10 frames made %lu allocations\n", allocations - before);

  /* A drag: hold on the pin nearest the centre, lift, move; then the moves are counted. */
  x = views[shown / 2].x; y = views[shown / 2].y;
  t = 1000;
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, t) == 1);
  CHECK(pindrop_map_tick(m, t + 300) == PINDROP_OK);
  for (i = 1; i <= 50; i++) {
    (void)pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + (double)i, y + 0.5 * (double)i, t + 300 + (double)i);
    (void)drain(m);
  }
  before = allocations;
  for (i = 51; i <= 250; i++) {
    CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + (double)i, y + 0.5 * (double)i, t + 300 + (double)i) == 1);
    CHECK(drain(m) == 1);  /* one DRAGGED event */
  }
  CHECK(allocations == before);
  if (allocations != before) fprintf(stderr, "200 drag moves made %lu allocations\n", allocations - before);
  CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, x + 250, y + 125, t + 600) == 1);
  (void)drain(m);

  /* A keyboard drag (behaviour 20): the focus moved to a pin, which is selected and lifted by key;
     each nudge is then a drag move (one DRAGGED) and, once warmed, allocates nothing; nor do
     focus steps and the frames that flag the focused pin. */
  {
    pindrop_focus f;
    t += 1000;
    CHECK(pindrop_map_frame(m, t, views, CAP) > 100);
    for (i = 0; i < 10; i++) CHECK(pindrop_map_focus_step(m, 1, &f) == PINDROP_OK && f.kind == 1);
    for (i = 0; i < 10; i++) (void)pindrop_map_frame(m, t, views, CAP);
    before = allocations;
    for (i = 0; i < 100; i++) CHECK(pindrop_map_focus_step(m, (i % 3) ? 1 : -1, &f) == PINDROP_OK);
    for (i = 0; i < 10; i++) (void)pindrop_map_frame(m, t, views, CAP);
    CHECK(allocations == before);
    if (allocations != before) fprintf(stderr, "100 focus steps and 10 frames made %lu allocations\n", allocations - before);

    CHECK(pindrop_map_select(m, f.id) == PINDROP_OK);
    CHECK(pindrop_map_key_lift(m, t + 10) == PINDROP_OK);
    for (i = 1; i <= 50; i++) {
      CHECK(pindrop_map_nudge(m, (i % 2) ? 1 : -1, 0, t + 10 + (double)i) == PINDROP_OK);
      (void)drain(m);
    }
    before = allocations;
    for (i = 51; i <= 250; i++) {
      CHECK(pindrop_map_nudge(m, (i % 2) ? 1 : -1, (i % 4) ? 0 : 10, t + 10 + (double)i) == PINDROP_OK);
      CHECK(drain(m) == 1);  /* one DRAGGED event */
    }
    CHECK(allocations == before);
    if (allocations != before) fprintf(stderr, "200 keyboard nudges made %lu allocations\n", allocations - before);
    CHECK(pindrop_map_key_drop(m, t + 300) == PINDROP_OK);
    (void)drain(m);
  }

  pindrop_map_destroy(m);

  /* Stacks that open on demand (0.3): with spread_on_tap, a warmed frame and frame_clusters, with
     clustering off (zoom 17) and on (zoom 16, radius 4: clusters and single pins), allocate
     nothing, and neither does either with a stack open. */
  {
    static pindrop_cluster_view items[CAP];
    pindrop_options o;
    size_t stacks = 0, k;
    int clustered;
    for (clustered = 0; clustered < 2; clustered++) {
      CHECK(pindrop_options_init(&o, sizeof o) == PINDROP_OK);
      o.spread_on_tap = 1;
      if (clustered) o.cluster_radius = 4;
      m = NULL;
      CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
      if (!m) return 1;
      CHECK(pindrop_map_add_many(m, ids, lonlat, N) == PINDROP_OK);
      cam.zoom = clustered ? 16 : 17;
      CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
      t = 0;
      for (i = 0; i < 400; i++) {
        shown = pindrop_map_frame(m, t, views, CAP);
        stacks = pindrop_map_frame_clusters(m, t, items, CAP);
      }
      CHECK(stacks > 10 && stacks < CAP && shown > 100 && shown < CAP);
      for (k = 0; k < stacks && !(items[k].flags & PINDROP_CLUSTER_STACK); k++) {}
      CHECK(clustered || k < stacks);
      before = allocations;
      for (i = 0; i < 10; i++) {
        (void)pindrop_map_frame(m, t, views, CAP);
        (void)pindrop_map_frame_clusters(m, t, items, CAP);
      }
      CHECK(allocations == before);
      if (allocations != before) fprintf(stderr, "spread_on_tap (clustered %d): 10 frames made %lu allocations\n", clustered, allocations - before);
      if (k < stacks) {
        CHECK(pindrop_map_open_stack(m, items[k].key, t) == PINDROP_OK);
        (void)drain(m);
        for (i = 0; i < 20; i++) { (void)pindrop_map_frame(m, t, views, CAP); (void)pindrop_map_frame_clusters(m, t, items, CAP); }
        before = allocations;
        for (i = 0; i < 10; i++) {
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
        }
        CHECK(allocations == before);
        if (allocations != before) fprintf(stderr, "spread_on_tap, a stack open: 10 frames made %lu allocations\n", allocations - before);
      }
      pindrop_map_destroy(m);
    }
  }
  if (!COUNTING) printf("allocation counts: skipped (not glibc)\n");
  if (failures) { fprintf(stderr, "%d allocation checks failed\n", failures); return 1; }
  printf("allocation tests passed\n");
  return 0;
}
