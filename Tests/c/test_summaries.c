/* What clusters hold, through the C ABI (behaviour 19): values and categories set in batches
   (all-or-nothing), a cluster's summary, its categories and its members by page, ONE_SPOT in the
   view and the summary, keys that go stale when their cluster's members change (and stay stale
   when the same members cluster again), the 0.3 options (defaults, old-size structs, bad values),
   clusters by category, and bad input. The expected figures are worked out by hand from the pins
   below, not read from the library. */
#include <pindrop.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
  fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)
#define CHECK_STATUS(call, want) do { pindrop_status got_ = (call); if (got_ != (want)) { \
  fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call, \
          pindrop_status_string(got_), pindrop_status_string(want)); failures++; } } while (0)

/* Five trees within 10 m of each other in Lawndale (ids 1..5; 4 and 5 on one spot) and one 3 km
   away (id 9), seen at zoom 12 with radius 60: one cluster of five, and 9 alone. */
static const pindrop_id ids[6] = {5, 3, 1, 4, 2, 9};
static const double lonlat[12] = {-118.35340, 33.88710, -118.35350, 33.88715, -118.35355, 33.88700,
                                  -118.35340, 33.88710, -118.35345, 33.88705, -118.32000, 33.88710};

static pindrop_map *make(uint32_t min_points, uint32_t by_category) {
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.3535, 33.8871, 12, 0, 1200, 800};
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  o.cluster_radius = 60;
  o.cluster_min_points = min_points;
  o.cluster_by_category = by_category;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  if (!map) return NULL;
  CHECK_STATUS(pindrop_map_add_many(map, ids, lonlat, 6), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
  return map;
}

/* The one cluster drawn (count n expected), or 0. */
static uint64_t only_cluster(pindrop_map *map, uint32_t n, uint32_t *flags) {
  pindrop_cluster_view c[4];
  size_t total = pindrop_map_frame_clusters(map, 0, c, 4);
  CHECK(total == 1);
  if (total != 1) return 0;
  CHECK(c[0].count == n);
  if (flags) *flags = c[0].flags;
  return c[0].key;
}

static void test_options(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  unsigned char mem[sizeof(pindrop_options)];
  pindrop_options *old = (pindrop_options *)(void *)mem;
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  CHECK(o.cluster_min_points == 2 && o.cluster_by_category == 0);
  /* A 0.2 caller's struct ends at spread_spacing: the 0.3 fields take their defaults, and the
     bytes after it are not read. */
  memset(mem, 0xff, sizeof mem);
  CHECK_STATUS(pindrop_options_init(old, (uint32_t)offsetof(pindrop_options, cluster_min_points)), PINDROP_OK);
  CHECK(old->cluster_min_points == 0xffffffffu);  /* not written */
  old->cluster_radius = 60;
  CHECK_STATUS(pindrop_map_create(old, &map), PINDROP_OK);
  pindrop_map_destroy(map);
  map = NULL;
  o.cluster_min_points = 1;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "cluster_min_points") != NULL);
  o.cluster_min_points = 2;
  o.cluster_by_category = 2;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(map == NULL && strstr(pindrop_last_error(), "cluster_by_category") != NULL);
}

static void test_summary_categories_and_pages(void) {
  pindrop_map *map = make(2, 0);
  pindrop_cluster_summary s;
  uint32_t cats[8], counts[8], flags = 99;
  pindrop_id page[8];
  uint64_t key;
  /* values: 1 -> 10, 2 -> NaN, 3 -> -2.5, 4 -> 40, 5 -> none set; categories 1:7 2:7 3:3 4:3 5:9 */
  static const pindrop_id set_ids[5] = {1, 2, 3, 4, 5};
  static const double values[5] = {10, NAN, -2.5, 40, NAN};
  static const uint32_t set_cats[5] = {7, 7, 3, 3, 9};
  if (!map) return;
  key = only_cluster(map, 5, &flags);
  CHECK(flags == 0);
  /* Before any attribute: no values, every pin in category 0. */
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_OK);
  CHECK(s.count == 5 && s.valued == 0 && s.category == 0 && s.flags == 0);
  CHECK(isnan(s.value_sum) && isnan(s.value_min) && isnan(s.value_max));

  CHECK_STATUS(pindrop_map_set_attributes(map, set_ids, values, set_cats, 5), PINDROP_OK);
  /* Values and categories leave the members as they are: the key stays valid. */
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_OK);
  CHECK(s.count == 5 && s.valued == 3 && s.category == PINDROP_CATEGORY_MIXED && s.flags == 0);
  CHECK(s.value_sum == 47.5 && s.value_min == -2.5 && s.value_max == 40);
  /* Categories: 3 and 7 twice (ties by lower category), 9 once. */
  CHECK(pindrop_map_cluster_categories(map, key, cats, counts, 8) == 3);
  CHECK(cats[0] == 3 && counts[0] == 2 && cats[1] == 7 && counts[1] == 2 && cats[2] == 9 && counts[2] == 1);
  cats[1] = 1234;
  CHECK(pindrop_map_cluster_categories(map, key, cats, counts, 1) == 3 && cats[1] == 1234);
  CHECK(pindrop_map_cluster_categories(map, key, NULL, NULL, 0) == 3);
  /* Members by page, in ascending id order whatever order they were added in. */
  CHECK(pindrop_map_cluster_members_from(map, key, 0, page, 8) == 5);
  CHECK(page[0] == 1 && page[1] == 2 && page[2] == 3 && page[3] == 4 && page[4] == 5);
  page[2] = -1;
  CHECK(pindrop_map_cluster_members_from(map, key, 3, page, 2) == 5 && page[0] == 4 && page[1] == 5 && page[2] == -1);
  page[0] = -1;
  CHECK(pindrop_map_cluster_members_from(map, key, 5, page, 8) == 5 && page[0] == -1);
  CHECK(pindrop_map_cluster_members_from(map, key, (size_t)1 << 40, page, 8) == 5 && page[0] == -1);
  CHECK(pindrop_map_cluster_members(map, key, page, 8) == 5 && page[0] == 1 && page[4] == 5);

  /* Categories only (values NULL): 5 -> 3 makes 3 the largest; then value 40 -> NaN drops the max. */
  {
    static const pindrop_id one[1] = {5};
    static const uint32_t three[1] = {3};
    static const pindrop_id four[1] = {4};
    static const double none[1] = {NAN};
    CHECK_STATUS(pindrop_map_set_attributes(map, one, NULL, three, 1), PINDROP_OK);
    CHECK(pindrop_map_cluster_categories(map, key, cats, counts, 8) == 2);
    CHECK(cats[0] == 3 && counts[0] == 3 && cats[1] == 7 && counts[1] == 2);
    CHECK_STATUS(pindrop_map_set_attributes(map, four, none, NULL, 1), PINDROP_OK);
    CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_OK);
    CHECK(s.valued == 2 && s.value_sum == 7.5 && s.value_min == -2.5 && s.value_max == 10);
  }
  pindrop_map_destroy(map);
}

static void test_all_or_nothing(void) {
  pindrop_map *map = make(2, 0);
  pindrop_cluster_summary s;
  uint64_t key;
  static const pindrop_id good_then_unknown[2] = {1, 77};
  static const pindrop_id two[2] = {1, 2};
  static const double finite_then_inf[2] = {5, INFINITY};
  static const double fine[2] = {5, 6};
  static const uint32_t mixed[2] = {1, PINDROP_CATEGORY_MIXED};
  if (!map) return;
  key = only_cluster(map, 5, NULL);
  CHECK_STATUS(pindrop_map_set_attributes(map, good_then_unknown, fine, NULL, 2), PINDROP_ERR_NOT_FOUND);
  CHECK(strstr(pindrop_map_last_error(map), "77") != NULL);
  CHECK_STATUS(pindrop_map_set_attributes(map, two, finite_then_inf, NULL, 2), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_attributes(map, two, fine, mixed, 2), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_attributes(map, NULL, fine, NULL, 2), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_attributes(map, two, fine, NULL, (size_t)-1), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_attributes(NULL, two, fine, NULL, 2), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_set_attributes(map, NULL, NULL, NULL, 0), PINDROP_OK);
  /* Nothing was set by the failed calls: the first pin of each did not take its value. */
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_OK);
  CHECK(s.valued == 0 && s.category == 0);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, NULL), PINDROP_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(pindrop_map_cluster_summary(NULL, key, &s), PINDROP_ERR_INVALID_ARGUMENT);
  {
    uint32_t c[2];
    CHECK(pindrop_map_cluster_categories(map, key, NULL, c, 2) == 0 && pindrop_map_last_error(map)[0] != '\0');
    CHECK(pindrop_map_cluster_categories(map, key, c, NULL, 2) == 0 && pindrop_map_last_error(map)[0] != '\0');
    CHECK(pindrop_map_cluster_categories(map, key, c, c, (size_t)-1) == 0);
    CHECK(pindrop_map_cluster_members_from(map, key, 0, NULL, 2) == 0);
    CHECK(pindrop_map_cluster_members_from(map, key, (size_t)-1, NULL, 0) == 0);
    CHECK(pindrop_map_cluster_members_from(NULL, key, 0, NULL, 0) == 0);
  }
  pindrop_map_destroy(map);
}

static void test_one_spot_and_stale_keys(void) {
  pindrop_map *map = make(2, 0);
  pindrop_cluster_summary s;
  pindrop_cluster_view c[4];
  uint32_t flags = 0, cats[2], counts[2];
  pindrop_id page[2];
  uint64_t key, key2, key3;
  if (!map) return;
  key = only_cluster(map, 5, &flags);
  /* A move that keeps the members keeps the key. */
  CHECK_STATUS(pindrop_map_set_position(map, 1, -118.35354, 33.88701), PINDROP_OK);
  CHECK(only_cluster(map, 5, NULL) == key);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_OK);
  /* 1, 2 and 3 go 3 km away, next to 9: 4 and 5 share one spot. */
  CHECK_STATUS(pindrop_map_set_position(map, 1, -118.32001, 33.88710), PINDROP_OK);
  CHECK(pindrop_map_frame_clusters(map, 0, c, 4) == 2);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key, &s), PINDROP_ERR_NOT_FOUND);
  CHECK(pindrop_map_cluster_categories(map, key, cats, counts, 2) == 0 && pindrop_map_last_error(map)[0] != '\0');
  CHECK(pindrop_map_cluster_members_from(map, key, 0, page, 2) == 0);
  CHECK(pindrop_map_cluster_members(map, key, page, 2) == 0);
  CHECK_STATUS(pindrop_map_set_position(map, 2, -118.32002, 33.88710), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_position(map, 3, -118.32003, 33.88710), PINDROP_OK);
  {
    size_t n = pindrop_map_frame_clusters(map, 0, c, 4), i;
    int seen_spot = 0;
    CHECK(n == 2);
    for (i = 0; i < n && i < 4; i++) {
      CHECK_STATUS(pindrop_map_cluster_summary(map, c[i].key, &s), PINDROP_OK);
      CHECK(s.flags == c[i].flags);
      if (c[i].count == 2) {
        seen_spot = 1;
        CHECK(c[i].flags == PINDROP_CLUSTER_ONE_SPOT && s.flags == PINDROP_CLUSTER_ONE_SPOT);
        key2 = c[i].key;
      } else {
        CHECK(c[i].count == 4 && c[i].flags == 0);
      }
    }
    CHECK(seen_spot);
  }
  /* 4 leaves the spot (the members stay: key valid, no longer ONE_SPOT), then comes back. */
  CHECK_STATUS(pindrop_map_set_position(map, 4, -118.35341, 33.88710), PINDROP_OK);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key2, &s), PINDROP_OK);
  CHECK(s.flags == 0 && s.count == 2);
  CHECK_STATUS(pindrop_map_set_position(map, 4, -118.35340, 33.88710), PINDROP_OK);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key2, &s), PINDROP_OK);
  CHECK(s.flags == PINDROP_CLUSTER_ONE_SPOT);
  /* 5 leaves and comes back: the same two members cluster again, under a new key. */
  CHECK_STATUS(pindrop_map_set_position(map, 5, -118.20000, 33.88710), PINDROP_OK);
  CHECK(pindrop_map_frame_clusters(map, 0, c, 4) == 1);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key2, &s), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_set_position(map, 5, -118.35340, 33.88710), PINDROP_OK);
  CHECK(pindrop_map_frame_clusters(map, 0, c, 4) == 2);
  key3 = c[0].count == 2 ? c[0].key : c[1].key;
  CHECK(key3 != key2);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key2, &s), PINDROP_ERR_NOT_FOUND);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key3, &s), PINDROP_OK);
  CHECK(s.count == 2 && s.flags == PINDROP_CLUSTER_ONE_SPOT);
  /* Removing a member also makes the key stale. */
  CHECK_STATUS(pindrop_map_remove(map, 4), PINDROP_OK);
  CHECK_STATUS(pindrop_map_cluster_summary(map, key3, &s), PINDROP_ERR_NOT_FOUND);
  pindrop_map_destroy(map);
}

static void test_by_category(void) {
  pindrop_map *map = make(2, 1);
  pindrop_cluster_view c[4];
  pindrop_cluster_summary s;
  size_t n, i;
  uint32_t total = 0;
  /* 1, 2, 3 in category 1; 4, 5 in category 2: two clusters where there was one. */
  static const pindrop_id set_ids[5] = {1, 2, 3, 4, 5};
  static const uint32_t set_cats[5] = {1, 1, 1, 2, 2};
  static const pindrop_id three[1] = {3};
  static const uint32_t two[1] = {2};
  if (!map) return;
  CHECK(only_cluster(map, 5, NULL) != 0);
  CHECK_STATUS(pindrop_map_set_attributes(map, set_ids, NULL, set_cats, 5), PINDROP_OK);
  n = pindrop_map_frame_clusters(map, 0, c, 4);
  CHECK(n == 2);
  for (i = 0; i < n && i < 4; i++) {
    CHECK_STATUS(pindrop_map_cluster_summary(map, c[i].key, &s), PINDROP_OK);
    CHECK(s.category == (c[i].count == 3 ? 1u : 2u) && s.count == c[i].count);
    total += c[i].count;
  }
  CHECK(total == 5);
  /* Pin 3 changes category: it joins 4 and 5. */
  CHECK_STATUS(pindrop_map_set_attributes(map, three, NULL, two, 1), PINDROP_OK);
  n = pindrop_map_frame_clusters(map, 0, c, 4);
  CHECK(n == 2);
  for (i = 0; i < n && i < 4; i++) {
    CHECK_STATUS(pindrop_map_cluster_summary(map, c[i].key, &s), PINDROP_OK);
    CHECK(s.category == (c[i].count == 3 ? 2u : 1u));
  }
  pindrop_map_destroy(map);
}

/* A bulk load (more pins than a local update takes: the first frame rebuilds the levels), with a
   value on every pin: the clusters of a view at zoom 14 hold every pin once, and their values add
   up to what was set. */
static void test_bulk_load(void) {
  enum { N = 6400 };
  static pindrop_id bulk_ids[N];
  static double ll[2 * N], values[N];
  static pindrop_cluster_view c[4096];
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.30, 33.90, 14, 0, 1200, 800};
  pindrop_pin_view *pins = NULL;
  size_t i, n, npins;
  double total = 0, want = 0;
  uint32_t count = 0;
  for (i = 0; i < N; i++) {
    bulk_ids[i] = (pindrop_id)(1000 + i);
    ll[2 * i] = -118.32 + 0.0005 * (double)(i % 80);
    ll[2 * i + 1] = 33.88 + 0.0005 * (double)(i / 80);
    values[i] = (double)(i % 7);
    want += values[i];
  }
  CHECK_STATUS(pindrop_options_init(&o, sizeof o), PINDROP_OK);
  o.cluster_radius = 60;
  CHECK_STATUS(pindrop_map_create(&o, &map), PINDROP_OK);
  if (!map) return;
  CHECK_STATUS(pindrop_map_add_many(map, bulk_ids, ll, N), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_attributes(map, bulk_ids, values, NULL, N), PINDROP_OK);
  CHECK_STATUS(pindrop_map_set_camera(map, &cam), PINDROP_OK);
  n = pindrop_map_frame_clusters(map, 0, c, 4096);
  CHECK(n > 10 && n < 4096);
  for (i = 0; i < n && i < 4096; i++) {
    pindrop_cluster_summary s;
    CHECK_STATUS(pindrop_map_cluster_summary(map, c[i].key, &s), PINDROP_OK);
    CHECK(s.count == c[i].count && s.valued == s.count);
    total += s.value_sum;
    count += s.count;
  }
  npins = pindrop_map_frame(map, 0, NULL, 0);
  pins = (pindrop_pin_view *)malloc(npins * sizeof *pins);
  if (pins) {
    npins = pindrop_map_frame(map, 0, pins, npins);
    for (i = 0; i < npins; i++) total += values[pins[i].id - 1000];
    count += (uint32_t)npins;
    free(pins);
  }
  CHECK(count == N);
  CHECK(total == want);
  pindrop_map_destroy(map);
}

int main(void) {
  test_bulk_load();
  test_options();
  test_summary_categories_and_pages();
  test_all_or_nothing();
  test_one_spot_and_stale_keys();
  test_by_category();
  if (failures) { fprintf(stderr, "%d check(s) failed\n", failures); return 1; }
  printf("test_summaries: all checks passed\n");
  return 0;
}
