/* Allocation counts on the hot paths, counted by wrapping the C allocator of the whole process
   (the library, the Swift runtime and GEOS all allocate through it): once warmed up, a frame of
   an unchanged view and each drag MOVE (with polling its event) allocate nothing, and so do focus
   steps, the frames that flag the focused pin, and each nudge of a keyboard drag. The same hot
   calls are counted again with clustering (cluster_radius 60) and ring, then spiral, spreading
   on, in a clustered view (zoom 16) and an unclustered one (zoom 17): a warmed frame,
   frame_clusters, hit tests (with and without a frame drawn first), drag MOVEs with their
   event, set_position, nudges of a selected pin with their events, focus steps, and opening and
   closing a stack. docs/architecture.md ("Allocation counts") lists each count. */
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

/* Counts the allocations of `calls` repetitions of a statement (after `warm` untimed ones) and
   checks they made none. */
#define NO_ALLOCATIONS(what, warm, calls, ...) do { \
    int rep_; unsigned long b_; \
    for (rep_ = 0; rep_ < (warm); rep_++) { __VA_ARGS__; } \
    b_ = allocations; \
    for (rep_ = 0; rep_ < (calls); rep_++) { __VA_ARGS__; } \
    CHECK(allocations == b_); \
    if (allocations != b_) fprintf(stderr, "%s: %d calls made %lu allocations\n", (what), (int)(calls), allocations - b_); \
  } while (0)

/* Clustering (cluster_radius 60) with ring or spiral spreading: every hot call of
   docs/architecture.md's table, in a clustered view (zoom 16) and an unclustered one (zoom 17).
   With `on_tap`, stacks open on demand (spread_on_tap) and opening and closing one is counted. */
static void clustered_and_spread(const pindrop_id *ids, const double *lonlat, size_t n, int32_t mode, int on_tap) {
  enum { CAP = 1 << 15 };
  static pindrop_pin_view views[CAP];
  static pindrop_cluster_view items[CAP];
  static double probe[2 * 64];
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_camera cam;
  pindrop_focus f;
  pindrop_id hit, moved;
  double t = 0, lon0, lat0, x, y;
  size_t shown = 0, clusters = 0, i, k;
  int zoom, moves, dragged;
  char what[96];

  CHECK(pindrop_options_init(&o, sizeof o) == PINDROP_OK);
  o.cluster_radius = 60;
  o.spread_mode = mode;
  o.spread_on_tap = (uint32_t)on_tap;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);
  if (!m) return;
  CHECK(pindrop_map_add_many(m, ids, lonlat, n) == PINDROP_OK);
  cam.center_lon = -118.25; cam.center_lat = 34.05; cam.bearing_deg = 0;
  cam.width = 1200; cam.height = 800;
  for (zoom = 16; zoom <= 17; zoom++) {
    snprintf(what, sizeof what, "mode %d%s, zoom %d", (int)mode, on_tap ? " (spread_on_tap)" : "", zoom);
    cam.zoom = zoom;
    CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
    /* Hit tests with no frame drawn since the camera moved (a host that draws its pins itself). */
    for (i = 0; i < 64; i++) { probe[2 * i] = 20.0 + 18.0 * (double)i; probe[2 * i + 1] = 40.0 + 11.0 * (double)i; }
    if (zoom == 16) {
      char w[128];
      snprintf(w, sizeof w, "%s: hit tests before a frame", what);
      NO_ALLOCATIONS(w, 1000, 64, (void)pindrop_map_hit_test(m, probe[2 * rep_], probe[2 * rep_ + 1], &hit));
    } else {
      /* Unclustered and no frame drawn: the GEOS index is asked, which builds a query geometry
         for the box (GEOSCoordSeq_copyFromBuffer and GEOSGeom_createLineString: 4 allocations
         per query; docs/architecture.md, "Allocation counts"). */
      unsigned long b;
      for (i = 0; i < 1000; i++) (void)pindrop_map_hit_test(m, probe[2 * (i % 64)], probe[2 * (i % 64) + 1], &hit);
      b = allocations;
      for (i = 0; i < 64; i++) (void)pindrop_map_hit_test(m, probe[2 * i], probe[2 * i + 1], &hit);
      CHECK(allocations - b <= 4 * 64);
      if (allocations - b > 4 * 64) fprintf(stderr, "%s: 64 hit tests before a frame made %lu allocations\n", what, allocations - b);
    }
    /* Warm up: the index builds its trees a slice per frame; buffers grow to their size. */
    for (i = 0; i < 400; i++) {
      shown = pindrop_map_frame(m, t, views, CAP);
      clusters = pindrop_map_frame_clusters(m, t, items, CAP);
    }
    CHECK(shown < CAP && clusters < CAP);
    CHECK(zoom == 17 || clusters > 10);          /* zoom 16 is clustered */
    CHECK(zoom == 16 || on_tap || shown > 100);  /* zoom 17 is not: its pins, spread */
    {
      char w[128];
      snprintf(w, sizeof w, "%s: frames", what);
      NO_ALLOCATIONS(w, 0, 10, (void)pindrop_map_frame(m, t, views, CAP));
      snprintf(w, sizeof w, "%s: frame_clusters", what);
      NO_ALLOCATIONS(w, 0, 10, (void)pindrop_map_frame_clusters(m, t, items, CAP));
      /* Hit tests on drawn pins, on clusters and off both, after a frame. */
      for (i = 0; i < 64; i++) {
        if (i % 2 == 0 && shown > 0) { k = (i * 7919) % shown; probe[2 * i] = views[k].x; probe[2 * i + 1] = views[k].y; }
        else if (i % 4 == 1 && clusters > 0) { k = (i * 7919) % clusters; probe[2 * i] = items[k].x + 3; probe[2 * i + 1] = items[k].y; }
      }
      snprintf(w, sizeof w, "%s: hit tests after a frame", what);
      NO_ALLOCATIONS(w, 64, 64, (void)pindrop_map_hit_test(m, probe[2 * rep_], probe[2 * rep_ + 1], &hit));
    }
    if (shown == 0) continue;

    /* set_position (the host's move) of a drawn pin, back and forth: the index, the spreading
       and the cluster levels follow it. The second place is the coordinate of another pin, so
       the pin joins that pin's group and leaves it again. */
    moved = views[shown / 3].id;
    CHECK(pindrop_map_position(m, moved, &lon0, &lat0) == PINDROP_OK);
    {
      char w[128];
      double lon1 = lonlat[0], lat1 = lonlat[1];
      snprintf(w, sizeof w, "%s: set_position", what);
      /* A host tracking a moving pin: a few moves, then a frame (the cluster room keeps the
         moves until a query applies them, in a buffer it keeps). */
      if (zoom == 16) {
        NO_ALLOCATIONS(w, 20, 20, {
          for (i = 0; i < 5; i++) CHECK(pindrop_map_set_position(m, moved, (i % 2) ? lon1 : lon0, (i % 2) ? lat1 : lat0) == PINDROP_OK);
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
        });
      } else {
        /* Unclustered (zoom 17 = cluster_max_zoom): no query applies the cluster room's pending
           changes, so their list grows by doubling until its rebuild threshold (then it is
           dropped for a rebuild): amortised, a few allocations over many moves. The spreading
           room looks for a pin at the new coordinate in the GEOS index when the store says one
           may stand there; a query box missing the index's cache of query geometries costs 4
           allocations. At most 4 per call, then. */
        unsigned long b = allocations;
        for (k = 0; k < 40; k++) {
          for (i = 0; i < 5; i++) CHECK(pindrop_map_set_position(m, moved, (i % 2) ? lon1 : lon0, (i % 2) ? lat1 : lat0) == PINDROP_OK);
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
        }
        CHECK(allocations - b <= 4 * 200);
        if (allocations - b > 4 * 200) fprintf(stderr, "%s: 200 calls made %lu allocations\n", w, allocations - b);
      }
      CHECK(pindrop_map_set_position(m, moved, lon0, lat0) == PINDROP_OK);
      for (i = 0; i < 20; i++) { (void)pindrop_map_frame(m, t, views, CAP); (void)pindrop_map_frame_clusters(m, t, items, CAP); }
    }

    /* A drag of a drawn pin: hold, lift, move; each MOVE and its one DRAGGED event. */
    shown = pindrop_map_frame(m, t, views, CAP);
    for (k = shown / 2; k < shown && !(views[k].x > 100 && views[k].x < 1000 && views[k].y > 100 && views[k].y < 600); k++) {}
    if (k < shown) {
      char w[128];
      x = views[k].x; y = views[k].y;
      t += 1000;
      CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, t) == 1);
      CHECK(pindrop_map_tick(m, t + 300) == PINDROP_OK);
      (void)drain(m);
      snprintf(w, sizeof w, "%s: drag moves", what);
      t += 300;
      moves = 0; dragged = 0;
      NO_ALLOCATIONS(w, 50, 200, {
        t += 1; moves++;
        dragged += pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + 0.2 * (double)moves, y + 0.1 * (double)moves, t) == 1 && drain(m) == 1;
      });
      /* Each MOVE is owned by the drag; past drag_threshold (the warm-up's first 23 moves of
         0.22 points each are within it), each has one DRAGGED event: the 200 counted ones too. */
      CHECK(dragged >= 200);
      if (dragged < 200) fprintf(stderr, "%s: %d of %d moves dragged\n", what, dragged, moves);
      CHECK(pindrop_map_touch(m, 0, PINDROP_TOUCH_CANCEL, 0, 0, t + 1) == 1);
      (void)drain(m);
      t += 1000;
    }

    /* Nudges of the selected pin (user moves: MOVED, the callout, a geocode request, nearby
       warnings, the undo history), and the frames after them. */
    {
      char w[128];
      CHECK(pindrop_map_select(m, moved) == PINDROP_OK);
      (void)drain(m);
      unsigned long b;
      /* A key held down: one series, one undo step. The nudge itself allocates nothing (its
         subtitle is written over the previous one); where the pin store says another pin may
         stand at the new coordinate, the spreading room asks the GEOS index, whose query
         geometry costs 4 allocations (docs/architecture.md, "Allocation counts"). The store's
         counts send a few nudges of 100 there (2 to 5 here): 50 allocations allow 12, and one
         allocation per nudge (the subtitle text, as before it was written in place) fails. */
      for (i = 0; i < 100; i++) {
        CHECK(pindrop_map_nudge(m, (i % 2) ? 1 : -1, (i % 4) ? 0 : 1, t) == PINDROP_OK);
        t += 100;
        (void)drain(m);
      }
      b = allocations;
      for (i = 0; i < 100; i++) {
        CHECK(pindrop_map_nudge(m, (i % 2) ? 1 : -1, (i % 4) ? 0 : 1, t) == PINDROP_OK);
        t += 100;
        (void)drain(m);
      }
      CHECK(allocations - b <= 50);
      snprintf(w, sizeof w, "%s: nudges", what);
      if (allocations - b > 50) fprintf(stderr, "%s: 100 calls made %lu allocations\n", w, allocations - b);
      for (i = 0; i < 20; i++) { (void)pindrop_map_frame(m, t, views, CAP); (void)pindrop_map_frame_clusters(m, t, items, CAP); }
      snprintf(w, sizeof w, "%s: frames with a pin selected", what);
      NO_ALLOCATIONS(w, 0, 10, { (void)pindrop_map_frame(m, t, views, CAP); (void)pindrop_map_frame_clusters(m, t, items, CAP); });
      CHECK(pindrop_map_select(m, PINDROP_NO_ID) == PINDROP_OK);
      (void)drain(m);
    }

    /* Focus steps over what the frame drew (pins and clusters), and the frames that flag it. */
    {
      char w[128];
      for (i = 0; i < 20; i++) { (void)pindrop_map_frame(m, t, views, CAP); (void)pindrop_map_frame_clusters(m, t, items, CAP); }
      for (i = 0; i < 10; i++) CHECK(pindrop_map_focus_step(m, 1, &f) == PINDROP_OK);
      snprintf(w, sizeof w, "%s: focus steps and frames", what);
      NO_ALLOCATIONS(w, 20, 20, {
        CHECK(pindrop_map_focus_step(m, (rep_ % 3) ? 1 : -1, &f) == PINDROP_OK);
        (void)pindrop_map_frame(m, t, views, CAP);
        (void)pindrop_map_frame_clusters(m, t, items, CAP);
      });
    }

    /* Opening and closing a stack (spread_on_tap), with the frames drawn after each. */
    if (on_tap) {
      char w[128];
      clusters = pindrop_map_frame_clusters(m, t, items, CAP);
      for (k = 0; k < clusters && !(items[k].flags & PINDROP_CLUSTER_STACK); k++) {}
      CHECK(zoom == 16 || k < clusters);
      if (k < clusters) {
        uint64_t key = items[k].key;
        snprintf(w, sizeof w, "%s: stack open and close", what);
        NO_ALLOCATIONS(w, 20, 20, {
          CHECK(pindrop_map_open_stack(m, key, t) == PINDROP_OK);
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
          CHECK(pindrop_map_close_stack(m, t) == PINDROP_OK);
          (void)pindrop_map_frame(m, t, views, CAP);
          (void)pindrop_map_frame_clusters(m, t, items, CAP);
          CHECK(drain(m) == 2);  /* STACK_OPENED, STACK_CLOSED */
        });
      }
    }
  }
  pindrop_map_destroy(m);
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
  clustered_and_spread(ids, lonlat, N, PINDROP_SPREAD_RING, 0);
  clustered_and_spread(ids, lonlat, N, PINDROP_SPREAD_SPIRAL, 0);
  clustered_and_spread(ids, lonlat, N, PINDROP_SPREAD_RING, 1);
  clustered_and_spread(ids, lonlat, N, PINDROP_SPREAD_SPIRAL, 1);
  if (!COUNTING) printf("allocation counts: skipped (not glibc)\n");
  if (failures) { fprintf(stderr, "%d allocation checks failed\n", failures); return 1; }
  printf("allocation tests passed\n");
  return 0;
}
