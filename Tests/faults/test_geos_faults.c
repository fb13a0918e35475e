/* GEOS failing inside the library: the program defines the GEOS functions libpindrop.so calls
   (linked with -rdynamic, its definitions come first) and forwards to the real ones until told to
   fail, as GEOS does when it cannot allocate. Nothing may trap; a map that cannot get a GEOS
   context is a status with its message; an index whose trees cannot be built keeps every pin
   (queries answer exactly as with GEOS working) and recovers when GEOS does. */
#define _GNU_SOURCE
#include <pindrop.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* Which GEOS calls fail now. */
static int fail_init, fail_tree, fail_point, fail_seq;
/* Every other tree fails: a leaf held in two trees gets its first and not its second. */
static int fail_every_other_tree;
static unsigned tree_calls;

typedef void *(*init_fn)(void);
typedef void *(*tree_fn)(void *, size_t);
typedef void *(*point_fn)(void *, double, double);
typedef void *(*seq_fn)(void *, const double *, unsigned int, int, int);

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) { fprintf(stderr, "no %s\n", name); exit(2); }
  return f;
}

void *GEOS_init_r(void) {
  if (fail_init) return NULL;
  return ((init_fn)next("GEOS_init_r"))();
}
void *GEOSSTRtree_create_r(void *ctx, size_t capacity) {
  if (fail_tree) return NULL;
  if (fail_every_other_tree && (tree_calls++ & 1)) return NULL;
  return ((tree_fn)next("GEOSSTRtree_create_r"))(ctx, capacity);
}
void *GEOSGeom_createPointFromXY_r(void *ctx, double x, double y) {
  if (fail_point) return NULL;
  return ((point_fn)next("GEOSGeom_createPointFromXY_r"))(ctx, x, y);
}
void *GEOSCoordSeq_copyFromBuffer_r(void *ctx, const double *buf, unsigned int size, int hasZ, int hasM) {
  if (fail_seq) return NULL;
  return ((seq_fn)next("GEOSCoordSeq_copyFromBuffer_r"))(ctx, buf, size, hasZ, hasM);
}

enum { N = 6000 }; /* more than the index's tail holds: trees are built (or fail to be) */
static pindrop_id ids[N];
static double lonlat[2 * N];

/* The pins within radius_m of (lon, lat), counted by brute force over the true positions. */
static size_t brute_nearby(pindrop_map *m, double lon, double lat, double radius_m) {
  size_t i, n = 0;
  for (i = 0; i < N; i++) {
    double plon, plat, d;
    if (pindrop_map_position(m, ids[i], &plon, &plat) != PINDROP_OK) continue;
    {
      const double r = 6378137.0, k = 3.14159265358979323846 / 180.0;
      double s1 = sin((plat - lat) * k / 2), s2 = sin((plon - lon) * k / 2);
      d = 2 * r * asin(sqrt(s1 * s1 + cos(lat * k) * cos(plat * k) * s2 * s2));
    }
    if (d <= radius_m) n++;
  }
  return n;
}

/* A map whose index is exercised through every tier while some GEOS calls fail: every query
   answers what brute force says. */
static void drive(int *flag, const char *what) {
  pindrop_map *m = NULL;
  size_t i, k;
  pindrop_camera cam = {-118.25, 34.05, 12, 0, 800, 600};
  CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  *flag = 1;
  CHECK(pindrop_map_add_many(m, ids, lonlat, N / 2) == PINDROP_OK);
  for (i = N / 2; i < N; i++) CHECK(pindrop_map_add(m, ids[i], lonlat[2 * i], lonlat[2 * i + 1]) == PINDROP_OK);
  for (k = 0; k < 3; k++) {
    for (i = 0; i < N; i += 2) CHECK(pindrop_map_set_position(m, ids[i], lonlat[2 * i] + 0.001 * (double)k, lonlat[2 * i + 1]) == PINDROP_OK);
    CHECK(pindrop_map_nearby(m, -118.25, 34.05, 3000, NULL, NULL, 0) == brute_nearby(m, -118.25, 34.05, 3000));
    if (k == 1) *flag = 0; /* GEOS recovers half-way */
    CHECK(pindrop_map_nearby(m, -118.2, 34.1, 5000, NULL, NULL, 0) == brute_nearby(m, -118.2, 34.1, 5000));
    *flag = k == 0;
  }
  CHECK(pindrop_map_count(m) == N);
  CHECK(pindrop_map_frame(m, 0, NULL, 0) > 0);
  *flag = 0;
  if (failures) fprintf(stderr, "while %s failed\n", what);
  pindrop_map_destroy(m);
}

int main(void) {
  size_t i;
  srand(7);
  for (i = 0; i < N; i++) {
    ids[i] = (pindrop_id)i + 1;
    lonlat[2 * i] = -118.25 + ((double)rand() / RAND_MAX - 0.5) * 0.2;
    lonlat[2 * i + 1] = 34.05 + ((double)rand() / RAND_MAX - 0.5) * 0.2;
  }

  /* No GEOS context: no map, a status and a message. */
  {
    pindrop_map *m = (pindrop_map *)&failures;
    fail_init = 1;
    CHECK(pindrop_map_create(NULL, &m) == PINDROP_ERR_GEOS);
    CHECK(m == NULL);
    CHECK(strstr(pindrop_last_error(), "GEOS") != NULL);
    fail_init = 0;
  }

  drive(&fail_tree, "GEOSSTRtree_create_r");
  drive(&fail_every_other_tree, "every other GEOSSTRtree_create_r");
  drive(&fail_point, "GEOSGeom_createPointFromXY_r");
  drive(&fail_seq, "GEOSCoordSeq_copyFromBuffer_r");

  /* An allowed area GEOS cannot build a point for: a status, never a trap. */
  {
    pindrop_map *m = NULL;
    CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
    CHECK(pindrop_map_add(m, 1, 0.5, 0.5) == PINDROP_OK);
    CHECK(pindrop_map_set_allowed_area(m, "POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))") == PINDROP_OK);
    fail_point = 1; fail_tree = 1; fail_seq = 1;
    CHECK(pindrop_map_set_position(m, 1, 0.25, 0.25) == PINDROP_OK);
    CHECK(pindrop_map_set_allowed_area(m, "POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))") <= PINDROP_OK);
    fail_point = 0; fail_tree = 0; fail_seq = 0;
    CHECK(pindrop_map_nearby(m, 0.25, 0.25, 1, NULL, NULL, 0) == 1);
    pindrop_map_destroy(m);
  }

  if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
  printf("geos faults: ok\n");
  return 0;
}
