/* libFuzzer target over the whole C contract (include/pindrop.h).
 *
 * The input bytes are decoded into options and a sequence of calls on one map: pins added,
 * moved and removed one by one and in batches, cameras at any zoom and bearing, host projections
 * that fail or return NaN / infinities, touches and ticks with arbitrary pointers, phases and
 * times, editing, selection, callouts with arbitrary bytes, allowed areas from arbitrary text,
 * undo / redo, spreading, frames and queries with small and absurd capacities; and maps made
 * anew with the 0.2 option fields (cluster radius and zoom, spiral spreading) at any value, and
 * their clusters (frame_clusters, members, expansion zoom); and the 0.3 keyboard calls (focus steps
 * of any step, the focus, key lift and key drop at any time, nudges while the keyboard holds a pin);
 * and (0.3) maps with spread_on_tap whose collapsed stacks are opened by key, closed, and asked
 * about with any key; and (0.3) maps with cluster_min_points and cluster_by_category at any value,
 * pins' values and categories, and what clusters hold (summaries, categories, member pages).
 *
 * After every call the harness checks invariants against a small model it keeps itself:
 *  - the status is one of the enum (touch: 0, 1 or one of them);
 *  - a failed call changes nothing: same count, same true positions, and both last-error
 *    messages say something;
 *  - true positions change only as the host asked (add, set_position) or as MOVED events say
 *    (from = the model's position before, to = after); the count is the model's;
 *  - a drop commits exactly the last DRAGGED coordinate of that pin (MOVED cause DRAG, or cause
 *    KEYBOARD for a keyboard drag);
 *  - while the keyboard holds a pin, touches and a second key lift are refused; a focus names
 *    nothing, a pin on the map or a cluster, and a step other than +1 or -1 is refused;
 *  - frames: points finite and inside the viewport grown by hit_radius, ids known and distinct;
 *  - queries: screen points, display positions and nearby distances finite, ids known.
 * A violated invariant aborts (a finding). Build: `make fuzz-build`; run: `make fuzz`.
 */
#include <pindrop.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- input ---------------------------------------------------------------------------------- */

typedef struct { const uint8_t *p; size_t n; } input;

static uint8_t u8(input *in) {
  if (in->n == 0) return 0;
  in->n--;
  return *in->p++;
}
static uint32_t u32(input *in) { uint32_t v = u8(in); v |= (uint32_t)u8(in) << 8; v |= (uint32_t)u8(in) << 16; return v | (uint32_t)u8(in) << 24; }
static uint64_t u64(input *in) { uint64_t lo = u32(in); return lo | (uint64_t)u32(in) << 32; }

static double raw_double(input *in) {
  uint64_t bits = u64(in);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 90.0, -90.0, 180.0, -180.0, 85.0511287798066,
                                 -85.0511287798066, 89.9999999, 1e-300, 1e300, INFINITY, -INFINITY, NAN,
                                 DBL_MAX, -DBL_MAX, DBL_MIN, 30.0, 24.0, 1e9, -1e9, 256.0, 4e-9,
                                 /* the edges of the accepted ranges (docs/robustness.md, "Accepted ranges") */
                                 1e7, 1e7 + 1, -1e7 - 1, 1e6, -1e6, 1e6 + 1, 1e13, 1e13 + 1, -1e-300,
                                 4.9406564584124654e-324, -4.9406564584124654e-324, 2.2250738585072009e-308,
                                 9007199254740992.0, 9007199254740994.0, 9007199254740991.0, -1e300};
#define NSPECIAL (sizeof special / sizeof special[0])

/* A NaN with a payload (quiet or signalling, either sign): the library must treat every NaN alike. */
static double nan_with_payload(input *in) {
  uint64_t bits = 0x7ff0000000000000ull | (u64(in) & 0x800fffffffffffffull);
  double d;
  if ((bits & 0x000fffffffffffffull) == 0) bits |= 1;  /* not infinity */
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* Any double, leaning towards values that break arithmetic. Raw doubles are 8 input bytes,
   little-endian, so that the entries of Tests/fuzz/doubles.dict (make fuzz's -dict) reach them. */
static double any_double(input *in) {
  uint8_t k = u8(in);
  if (k < 8) return nan_with_payload(in);
  if (k < 96) return special[k % NSPECIAL];
  if (k < 160) return raw_double(in);
  return (double)(int8_t)u8(in) * 0.37;
}

/* Pins live near a base point, often on the same spot, so that stacks, hits and drags happen. */
static const double base_lon = -118.2437, base_lat = 34.0522;
static void any_lonlat(input *in, double *lon, double *lat) {
  uint8_t k = u8(in);
  if (k < 200) {
    *lon = base_lon + (double)(k % 16) * 1e-5 * (double)(u8(in) % 4);
    *lat = base_lat + (double)(k / 16) * 1e-5 * (double)(u8(in) % 4);
  } else if (k < 230) {
    *lon = any_double(in); *lat = any_double(in);
  } else {
    *lon = special[u8(in) % 9]; *lat = special[u8(in) % 9];
  }
}

/* Screen points: mostly inside the viewport, sometimes anything. */
static double view_w = 256, view_h = 256;
static double any_x(input *in) { uint8_t k = u8(in); return k < 220 ? view_w * k / 219.0 : any_double(in); }
static double any_y(input *in) { uint8_t k = u8(in); return k < 220 ? view_h * k / 219.0 : any_double(in); }

static double clock_ms = 0;
static double any_time(input *in) {
  uint8_t k = u8(in);
  if (k < 200) clock_ms += (double)k * 5.0;        /* forward */
  else if (k < 240) clock_ms += (double)u8(in) * 40.0;
  else if (k < 250) return clock_ms - 1.0;         /* backwards: must fail */
  else return any_double(in);
  return clock_ms;
}

static size_t any_capacity(input *in) {
  static const size_t absurd[] = {(size_t)1 << 63, SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 16 + 1, SIZE_MAX / 48 + 1,
                                  ((size_t)1 << 63) + 7};
  uint8_t k = u8(in);
  if (k < 240) return k % 20;
  return absurd[k % (sizeof absurd / sizeof absurd[0])];
}

static pindrop_id any_id(input *in) {
  uint8_t k = u8(in);
  if (k < 250) return (pindrop_id)(k % 24);
  if (k == 250) return PINDROP_NO_ID;
  if (k == 251) return INT64_MAX;
  return (pindrop_id)u64(in);
}

/* ---- the model ------------------------------------------------------------------------------ */

#define MAXPINS 64
typedef struct { pindrop_id id; double lon, lat; } model_pin;
static model_pin model[MAXPINS];
static size_t model_n;
static pindrop_id placing = PINDROP_NO_ID;
static uint64_t requests[8];
static size_t nrequests;
static double hit_radius = 22;
/* The last DRAGGED event: a MOVED with cause DRAG must land exactly there. */
static pindrop_id dragged_id = PINDROP_NO_ID;
static double dragged_lon, dragged_lat;
/* A key lift succeeded and no DROPPED or DRAG_CANCELLED has ended it yet (0.3). */
static int key_holding;
/* The key of the open stack as STACK_OPENED said (0: none); STACK_CLOSED must name it. */
static uint64_t open_key;

static void finding(const char *what, long detail) {
  fprintf(stderr, "FINDING: %s (%ld)\n", what, detail);
  abort();
}
#define INVARIANT(cond, detail) do { if (!(cond)) finding(#cond, (long)(detail)); } while (0)

static model_pin *find(pindrop_id id) {
  size_t i;
  for (i = 0; i < model_n; i++) if (model[i].id == id) return &model[i];
  return NULL;
}
static void model_remove(pindrop_id id) {
  model_pin *p = find(id);
  if (p) *p = model[--model_n];
}

static int known_status(int s) { return s == PINDROP_OK || s == PINDROP_STALE || (s <= -1 && s >= -7); }

/* Positions as the map reports them equal the model, bit for bit; the count too. */
static void check_positions(pindrop_map *m, int line) {
  size_t i;
  INVARIANT(pindrop_map_count(m) == model_n, line);
  for (i = 0; i < model_n; i++) {
    double lon, lat;
    INVARIANT(pindrop_map_position(m, model[i].id, &lon, &lat) == PINDROP_OK, line);
    INVARIANT(memcmp(&lon, &model[i].lon, sizeof lon) == 0 && memcmp(&lat, &model[i].lat, sizeof lat) == 0, line);
  }
}

/* Drains the events: MOVED moves the model; requests are kept for geocode answers. */
static void drain(pindrop_map *m) {
  pindrop_event e;
  int guard = 0;
  while (pindrop_map_poll_event(m, &e) == 1) {
    INVARIANT(++guard < 100000, guard);
    INVARIANT(e.type >= PINDROP_EVENT_SELECTED && e.type <= PINDROP_EVENT_STACK_CLOSED, e.type);
    if (e.type == PINDROP_EVENT_STACK_OPENED || e.type == PINDROP_EVENT_STACK_CLOSED) {
      INVARIANT(e.id == PINDROP_NO_ID && e.request >> 59 == 31 && fabs(e.lon) <= 180 && fabs(e.lat) <= 90, e.type);
      if (e.type == PINDROP_EVENT_STACK_OPENED) { INVARIANT(open_key == 0, e.type); open_key = e.request; }
      else { INVARIANT(open_key == e.request, e.type); open_key = 0; }
    }
    if (e.type == PINDROP_EVENT_GEOCODE_REQUEST) requests[nrequests++ % 8] = e.request;
    if (e.type == PINDROP_EVENT_LIFTED) dragged_id = PINDROP_NO_ID;
    if (e.type == PINDROP_EVENT_DRAGGED) {
      INVARIANT(isfinite(e.lon) && isfinite(e.lat) && fabs(e.lon) <= 180 && fabs(e.lat) <= 90, e.id);
      dragged_id = e.id; dragged_lon = e.lon; dragged_lat = e.lat;
    }
    if (e.type == PINDROP_EVENT_DROPPED || e.type == PINDROP_EVENT_DRAG_CANCELLED) key_holding = 0;
    if (e.type == PINDROP_EVENT_MOVED && (e.cause == PINDROP_CAUSE_DRAG || e.cause == PINDROP_CAUSE_KEYBOARD)) {
      INVARIANT(dragged_id == e.id && e.lon == dragged_lon && e.lat == dragged_lat, e.id);
    }
    if (e.type == PINDROP_EVENT_MOVED) {
      model_pin *p = find(e.id);
      INVARIANT(p != NULL, e.id);
      INVARIANT(isfinite(e.lon) && isfinite(e.lat) && fabs(e.lon) <= 180 && fabs(e.lat) <= 90, e.id);
      if (e.cause != PINDROP_CAUSE_PLACE) {
        INVARIANT(e.from_lon == p->lon && e.from_lat == p->lat, e.cause);
        p->lon = e.lon; p->lat = e.lat;
      } else {
        INVARIANT(e.lon == p->lon && e.lat == p->lat, e.cause);
      }
    }
  }
}

/* After a call: a known status; on failure, nothing changed and there is a message. */
static void after(pindrop_map *m, int status, int line) {
  INVARIANT(known_status(status), line);
  if (status < 0) {
    INVARIANT(pindrop_map_last_error(m)[0] != '\0', line);
    INVARIANT(pindrop_last_error()[0] != '\0', line);
  }
  drain(m);
  check_positions(m, line);
}

/* ---- host projections ------------------------------------------------------------------------ */

/* An equirectangular host view whose callbacks fail or return NaN / infinities in some regions. */
static int proj_mode;
static double proj_scale = 1e5;
static int project(void *user, double lon, double lat, double *x, double *y) {
  (void)user;
  if (proj_mode == 1 && lon > base_lon + 2e-5) return 1;
  if (proj_mode == 2 && lat > base_lat + 2e-5) { *x = NAN; *y = 0; return 0; }
  if (proj_mode == 3 && lon < base_lon) { *x = INFINITY; *y = -INFINITY; return 0; }
  if (proj_mode == 4) return -1;
  *x = view_w / 2 + (lon - base_lon) * proj_scale;
  *y = view_h / 2 - (lat - base_lat) * proj_scale;
  return 0;
}
static int unproject(void *user, double x, double y, double *lon, double *lat) {
  (void)user;
  if (proj_mode == 5 && x > view_w / 2) return 7;
  if (proj_mode == 6) { *lon = NAN; *lat = NAN; return 0; }
  if (proj_mode == 4 && y > view_h / 2) return 1;
  *lon = base_lon + (x - view_w / 2) / proj_scale;
  *lat = base_lat - (y - view_h / 2) / proj_scale;
  return 0;
}

/* ---- allowed areas --------------------------------------------------------------------------- */

static const char *areas[] = {
  "POLYGON((-118.2438 34.0521, -118.2436 34.0521, -118.2436 34.0523, -118.2438 34.0523, -118.2438 34.0521))",
  "POLYGON((-118.2438 34.0521, -118.2436 34.0523, -118.2436 34.0521, -118.2438 34.0523, -118.2438 34.0521))",
  "{\"type\":\"Polygon\",\"coordinates\":[[[-118.2438,34.0521],[-118.2430,34.0521],[-118.2430,34.0530],[-118.2438,34.0521]]]}",
  "MULTIPOLYGON(((-118.2438 34.0521, -118.2437 34.0521, -118.2437 34.0522, -118.2438 34.0521)),((0 0, 1 0, 1 1, 0 0)))",
  "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[-119,33],[-117,33],[-117,35],[-119,33]]]}}]}",
  "POLYGON EMPTY", "POINT(1 2)", "POLYGON((0 0, 1 0, 1 1, 0 0)", "{\"type\":\"Polygon\"}", "",
  "POLYGON((-180 -90, 180 -90, 180 90, -180 90, -180 -90))",
  "POLYGON((0 0, 1e308 0, 1e308 1e308, 0 0))",
};

/* ---- the calls ------------------------------------------------------------------------------- */

/* A capacity is refused exactly when no buffer of such items could exist (the header's rule for buffers and counts); a
   larger one that could is fine here because the arrays hold every pin the model allows. */
static int refused(size_t cap, size_t item) { return cap > (size_t)INT64_MAX / item; }

static void frame_check(pindrop_map *m, input *in) {
  pindrop_pin_view views[MAXPINS];
  size_t cap = any_capacity(in), total, i, j;
  total = pindrop_map_frame(m, any_time(in), cap ? views : NULL, cap);
  if (refused(cap, sizeof views[0])) { INVARIANT(total == 0 && pindrop_last_error()[0] != '\0', total); drain(m); return; }
  INVARIANT(total <= model_n, total);
  for (i = 0; i < total && i < cap; i++) {
    const pindrop_pin_view *v = &views[i];
    INVARIANT(isfinite(v->x) && isfinite(v->y) && isfinite(v->anchor_x) && isfinite(v->anchor_y) && isfinite(v->lift), v->id);
    INVARIANT(v->x >= -hit_radius && v->x <= view_w + hit_radius && v->y >= -hit_radius && v->y <= view_h + hit_radius, v->id);
    INVARIANT(find(v->id) != NULL, v->id);
    for (j = 0; j < i; j++) INVARIANT(views[j].id != v->id, v->id);
  }
  drain(m);
  check_positions(m, __LINE__);
}

static void nearby_check(pindrop_map *m, input *in) {
  pindrop_id ids[MAXPINS];
  double dist[MAXPINS], lon, lat, r = any_double(in);
  size_t cap = any_capacity(in), total, i;
  any_lonlat(in, &lon, &lat);
  total = pindrop_map_nearby(m, lon, lat, r, ids, dist, cap);
  if (refused(cap, sizeof dist[0])) { INVARIANT(total == 0 && pindrop_last_error()[0] != '\0', total); return; }
  INVARIANT(total <= model_n, total);
  for (i = 0; i < total && i < cap; i++) {
    INVARIANT(find(ids[i]) != NULL && isfinite(dist[i]) && dist[i] >= 0 && dist[i] <= r, ids[i]);
    if (i > 0) INVARIANT(dist[i] >= dist[i - 1], i);
  }
}

static double cluster_radius = 0;

/* Clusters (0.2): frame and frame_clusters at one time are disjoint; each cluster has >= 2 known,
   distinct members, exactly its count, a finite point near the viewport and an expansion zoom in
   [0, 30]; unknown keys and absurd capacities get 0 / NOT_FOUND with a message. */
static void clusters_check(pindrop_map *m, input *in) {
  pindrop_cluster_view views[MAXPINS];
  pindrop_pin_view pins[MAXPINS];
  pindrop_id members[MAXPINS];
  size_t cap = any_capacity(in), total, npins, i, j, k, sum = 0;
  double t = any_time(in), zoom;
  npins = pindrop_map_frame(m, t, pins, MAXPINS);
  total = pindrop_map_frame_clusters(m, t, cap ? views : NULL, cap);
  if (refused(cap, sizeof views[0])) { INVARIANT(total == 0 && pindrop_last_error()[0] != '\0', total); drain(m); return; }
  INVARIANT(total <= model_n / 2, total);
  for (i = 0; i < total && i < cap; i++) {
    const pindrop_cluster_view *v = &views[i];
    size_t n;
    INVARIANT(v->count >= 2 && isfinite(v->x) && isfinite(v->y) && isfinite(v->lon) && isfinite(v->lat), v->count);
    INVARIANT(fabs(v->lon) <= 180 && fabs(v->lat) <= 90, 0);
    if (v->flags == PINDROP_CLUSTER_STACK) { /* a collapsed stack: within hit_radius of the viewport */
      INVARIANT(v->key >> 59 == 31 && v->x >= -hit_radius - 1e-6 && v->x <= view_w + hit_radius + 1e-6, 0);
    } else {
      INVARIANT((v->flags & ~(uint32_t)PINDROP_CLUSTER_ONE_SPOT) == 0 && v->key >> 63 == 0, v->flags);
      INVARIANT(v->x >= -cluster_radius - 1e-6 && v->x <= view_w + cluster_radius + 1e-6, 0);
    }
    sum += v->count;
    n = pindrop_map_cluster_members(m, v->key, members, MAXPINS);
    INVARIANT(n == v->count, n);
    for (j = 0; j < n && j < MAXPINS; j++) {
      INVARIANT(find(members[j]) != NULL, members[j]);
      for (k = 0; k < j; k++) INVARIANT(members[k] != members[j], members[j]);
      for (k = 0; k < npins && k < MAXPINS; k++) INVARIANT(pins[k].id != members[j], members[j]);
    }
    INVARIANT(pindrop_map_cluster_expansion_zoom(m, v->key, &zoom) == PINDROP_OK && isfinite(zoom) && zoom >= 0 && zoom <= 30, 0);
  }
  INVARIANT(sum <= model_n, sum);
  {
    uint64_t key = u64(in);
    size_t n = pindrop_map_cluster_members(m, key, members, MAXPINS);
    int s = pindrop_map_cluster_expansion_zoom(m, key, &zoom);
    INVARIANT(known_status(s) && n <= model_n, n);
    if (n == 0) INVARIANT(s == PINDROP_ERR_NOT_FOUND && pindrop_map_last_error(m)[0] != '\0', s);
    INVARIANT(pindrop_map_cluster_expansion_zoom(m, key, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
  }
  drain(m);
  check_positions(m, __LINE__);
}

static void reset_model(void) {
  model_n = 0; placing = PINDROP_NO_ID; dragged_id = PINDROP_NO_ID; nrequests = 0; key_holding = 0;
  open_key = 0;
  view_w = 256; view_h = 256; proj_mode = 0;
}

/* What clusters hold (0.3, behaviour 19), and the 0.3 options. Sub-operation k: a new map with
   cluster_min_points and cluster_by_category at any value (create refuses m < 2 and a by_category
   other than 0/1, with a message); set_attributes with known, unknown and repeated ids, finite,
   NaN and infinite values and any category (an unknown id, an infinite value or
   PINDROP_CATEGORY_MIXED fail and change nothing); or every drawn cluster's summary, categories
   and member pages, which must agree with each other, the view and the members' positions. */
static pindrop_map *recreate_03(pindrop_map *old, input *in) {
  pindrop_options o;
  pindrop_map *m = NULL;
  uint8_t j = u8(in);
  int made;
  pindrop_map_destroy(old);
  reset_model();
  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.cluster_radius = (double)(u8(in) % 128);
  o.cluster_max_zoom = (double)(u8(in) % 31);
  o.cluster_min_points = (j & 1) ? u32(in) : 2 + (uint32_t)(u8(in) % 6);
  o.cluster_by_category = (j & 2) ? u32(in) : (uint32_t)((j >> 2) & 1);
  made = pindrop_map_create(&o, &m) == PINDROP_OK;
  if (!made) {
    INVARIANT(m == NULL && pindrop_last_error()[0] != '\0', 0);
    INVARIANT(o.cluster_min_points < 2 || o.cluster_by_category > 1, o.cluster_min_points);
    if (pindrop_map_create(NULL, &m) != PINDROP_OK) finding("default create failed", 0);
    hit_radius = 22; cluster_radius = 0;
  } else {
    INVARIANT(o.cluster_by_category <= 1, o.cluster_by_category);
    hit_radius = o.hit_radius; cluster_radius = o.cluster_radius;
  }
  return m;
}

static void summaries_check(pindrop_map **mp, input *in) {
  pindrop_map *m = *mp;
  uint8_t k = u8(in);
  if (k < 24) { *mp = recreate_03(m, in); return; }
  if (k < 128) {
    pindrop_id ids[20];
    double values[20];
    uint32_t cats[20];
    size_t n = u8(in) % 20, i, before = pindrop_map_count(m);
    int bad = 0, s;
    static const double vals[] = {0, 1, -2.5, 1e300, -1e-300, 31.75, NAN, INFINITY, -INFINITY};
    for (i = 0; i < n; i++) {
      uint8_t v = u8(in);
      ids[i] = any_id(in);
      values[i] = vals[v % 9];
      cats[i] = v < 250 ? (uint32_t)(u8(in) % 5) : (v == 250 ? PINDROP_CATEGORY_MIXED : u32(in));
      if (find(ids[i]) == NULL || (v % 9 >= 7 && !(k & 1)) || (cats[i] == PINDROP_CATEGORY_MIXED && !(k & 2))) bad = 1;
    }
    s = pindrop_map_set_attributes(m, n ? ids : NULL, (k & 1) ? NULL : values, (k & 2) ? NULL : cats, n);
    if (bad && n > 0) INVARIANT(s == PINDROP_ERR_NOT_FOUND || s == PINDROP_ERR_INVALID_ARGUMENT, s);
    else INVARIANT(s == PINDROP_OK, s);
    INVARIANT(pindrop_map_count(m) == before, s);
    after(m, s, __LINE__);
    return;
  }
  {
    pindrop_cluster_view views[MAXPINS];
    pindrop_id members[MAXPINS], page[MAXPINS];
    uint32_t cats[MAXPINS], counts[MAXPINS];
    double t = any_time(in);
    size_t total = pindrop_map_frame_clusters(m, t, views, MAXPINS), i, j;
    for (i = 0; i < total && i < MAXPINS; i++) {
      const pindrop_cluster_view *v = &views[i];
      pindrop_cluster_summary sum;
      size_t n, nc, off, got;
      uint32_t all = 0;
      INVARIANT(pindrop_map_cluster_summary(m, v->key, &sum) == PINDROP_OK, 0);
      INVARIANT(sum.count == v->count && sum.valued <= sum.count && (sum.flags & ~1u) == 0, sum.count);
      /* A cluster's view carries its summary's ONE_SPOT; a collapsed stack's view says STACK
         alone (its summary says whether its pins share one coordinate). */
      if (v->flags & PINDROP_CLUSTER_STACK) INVARIANT(v->flags == PINDROP_CLUSTER_STACK, v->flags);
      else INVARIANT(sum.flags == v->flags, sum.flags);
      if (sum.valued == 0) INVARIANT(isnan(sum.value_sum) && isnan(sum.value_min) && isnan(sum.value_max), 0);
      else INVARIANT(isfinite(sum.value_min) && isfinite(sum.value_max) && sum.value_min <= sum.value_max, 0);
      nc = pindrop_map_cluster_categories(m, v->key, cats, counts, MAXPINS);
      INVARIANT(nc >= 1 && nc <= sum.count, nc);
      for (j = 0; j < nc && j < MAXPINS; j++) {
        all += counts[j];
        INVARIANT(counts[j] > 0 && cats[j] != PINDROP_CATEGORY_MIXED, counts[j]);
        if (j > 0) INVARIANT(counts[j] < counts[j - 1] || (counts[j] == counts[j - 1] && cats[j] > cats[j - 1]), j);
      }
      INVARIANT(all == sum.count, all);
      INVARIANT((sum.category == PINDROP_CATEGORY_MIXED) == (nc > 1), nc);
      if (nc == 1) INVARIANT(cats[0] == sum.category, 0);
      n = pindrop_map_cluster_members(m, v->key, members, MAXPINS);
      INVARIANT(n == sum.count, n);
      for (j = 1; j < n && j < MAXPINS; j++) INVARIANT(members[j] > members[j - 1], j);
      if (sum.flags & PINDROP_CLUSTER_ONE_SPOT)
        for (j = 1; j < n && j < MAXPINS; j++) {
          double lon0, lat0, lon1, lat1;
          INVARIANT(pindrop_map_position(m, members[0], &lon0, &lat0) == PINDROP_OK, 0);
          INVARIANT(pindrop_map_position(m, members[j], &lon1, &lat1) == PINDROP_OK, 0);
          INVARIANT(lon0 == lon1 && (lat0 == lat1 || fabs(lat0) >= 85.0511), j);
        }
      {  /* a page from any offset: the members list's slice, nothing written past it */
        size_t cap = u8(in) % 5;
        off = u8(in) % (n + 2);
        for (j = 0; j < MAXPINS; j++) page[j] = PINDROP_NO_ID;
        got = pindrop_map_cluster_members_from(m, v->key, off, page, cap);
        INVARIANT(got == n, got);
        for (j = 0; j < cap; j++)
          INVARIANT(off + j < n && off + j < MAXPINS ? page[j] == members[off + j] : page[j] == PINDROP_NO_ID, j);
      }
    }
    {
      uint64_t key = u64(in);
      pindrop_cluster_summary sum;
      int s = pindrop_map_cluster_summary(m, key, &sum);
      size_t nc = pindrop_map_cluster_categories(m, key, cats, counts, any_capacity(in) % (MAXPINS + 1));
      INVARIANT(s == PINDROP_OK || s == PINDROP_ERR_NOT_FOUND, s);
      if (s != PINDROP_OK) INVARIANT(nc == 0 && pindrop_map_last_error(m)[0] != '\0', nc);
      INVARIANT(pindrop_map_cluster_summary(m, key, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
      INVARIANT(pindrop_map_cluster_members_from(m, key, 0, NULL, 3) == 0, 0);
    }
    drain(m);
    check_positions(m, __LINE__);
  }
}

/* A new map with the 0.2 option fields (clusters, spiral spreading) at any value: create refuses
   with a message or makes a map; the model starts again. */
static pindrop_map *recreate(pindrop_map *old, input *in) {
  pindrop_options o;
  pindrop_map *m = NULL;
  uint8_t j = u8(in);
  pindrop_map_destroy(old);
  reset_model();
  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  if (j & 1) o.cluster_radius = (j & 2) ? any_double(in) : (double)u8(in);
  if (j & 4) o.cluster_max_zoom = (j & 8) ? any_double(in) : (double)(u8(in) % 32);
  if (j & 16) o.spread_spacing = (j & 32) ? any_double(in) : (double)u8(in);
  if (j & 64) o.spread_mode = (j & 128) ? (int32_t)u32(in) : PINDROP_SPREAD_SPIRAL;
  if (pindrop_map_create(&o, &m) != PINDROP_OK) {
    INVARIANT(m == NULL && pindrop_last_error()[0] != '\0', 0);
    if (pindrop_map_create(NULL, &m) != PINDROP_OK) finding("default create failed", 0);
    hit_radius = 22; cluster_radius = 0;
  } else {
    hit_radius = o.hit_radius; cluster_radius = o.cluster_radius;
  }
  return m;
}

/* A focus names nothing, a pin on the map, or a cluster, at a finite point. */
static void focus_check(const pindrop_focus *f) {
  INVARIANT(f->kind >= 0 && f->kind <= 2 && f->reserved == 0, f->kind);
  if (f->kind == 0) INVARIANT(f->id == PINDROP_NO_ID && f->key == 0, 0);
  if (f->kind == 1) INVARIANT(find(f->id) != NULL && f->key == 0 && isfinite(f->x) && isfinite(f->y), f->id);
  if (f->kind == 2) INVARIANT(f->id == PINDROP_NO_ID && isfinite(f->x) && isfinite(f->y), 0);
}

/* The keyboard (0.3): focus steps (mostly +1 / -1, sometimes any number), key lift, key drop. */
static void keyboard(pindrop_map *m, input *in) {
  pindrop_focus f;
  uint8_t k = u8(in);
  int s;
  if (k < 96) {
    int32_t by = u8(in) < 224 ? ((k & 1) ? 1 : -1) : (int32_t)u32(in);
    s = pindrop_map_focus_step(m, by, &f);
    after(m, s, __LINE__);
    INVARIANT(s == ((by == 1 || by == -1) ? PINDROP_OK : PINDROP_ERR_INVALID_ARGUMENT), by);
    if (s == PINDROP_OK) focus_check(&f);
  } else if (k < 176) {
    int held = key_holding;
    s = pindrop_map_key_lift(m, any_time(in));
    if (held) INVARIANT(s == PINDROP_ERR_STATE || s == PINDROP_ERR_INVALID_ARGUMENT, s);
    if (s == PINDROP_OK) key_holding = 1;
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(key_holding, 0);  /* LIFTED, not ended in the same call */
  } else {
    int held = key_holding;
    s = pindrop_map_key_drop(m, any_time(in));
    if (!held) INVARIANT(s == PINDROP_ERR_STATE || s == PINDROP_ERR_INVALID_ARGUMENT, s);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(!key_holding, 0);  /* DROPPED */
  }
  INVARIANT(pindrop_map_focused(m, &f) == PINDROP_OK, 0);
  focus_check(&f);
  {
    size_t index = SIZE_MAX, total = SIZE_MAX;
    INVARIANT(pindrop_map_focus_rank(m, &index, &total) == PINDROP_OK && index <= total && total <= 2 * MAXPINS, total);
    if (f.kind == 0) INVARIANT(index == total, index);
  }
}

/* Stacks (0.3): a new map with spread_on_tap (any value: create refuses all but 0 and 1), or
   the collapsed stacks of frame_clusters opened by key (STACK_OPENED names it, and it is no longer
   collapsed), closed, and any key asked for (OK or NOT_FOUND with a message). */
static pindrop_map *stacks_step(pindrop_map *m, input *in) {
  pindrop_cluster_view views[MAXPINS];
  uint8_t k = u8(in);
  int s;
  double t = any_time(in);
  if (k < 40) {
    pindrop_options o;
    pindrop_map *fresh = NULL;
    pindrop_map_destroy(m);
    reset_model();
    pindrop_options_init(&o, sizeof o);
    o.lift_delay_ms = (k & 1) ? 0 : 250;
    o.spread_on_tap = (k & 2) ? u32(in) : 1;
    if (k & 4) o.spread_tolerance_m = (double)u8(in);
    if (k & 8) o.spread_mode = PINDROP_SPREAD_SPIRAL;
    if (k & 16) o.cluster_radius = (double)u8(in);
    if (k & 32) o.cluster_min_points = u32(in);
    if (pindrop_map_create(&o, &fresh) != PINDROP_OK) {
      INVARIANT(fresh == NULL && pindrop_last_error()[0] != '\0', 0);
      INVARIANT(o.spread_on_tap > 1 || o.cluster_min_points < 2, o.spread_on_tap);
      if (pindrop_map_create(NULL, &fresh) != PINDROP_OK) finding("default create failed", 0);
      hit_radius = 22; cluster_radius = 0;
    } else {
      hit_radius = o.hit_radius; cluster_radius = o.cluster_radius;
    }
    return fresh;
  }
  if (k < 120) {
    size_t n = pindrop_map_frame_clusters(m, t, views, MAXPINS), i, stacks = 0;
    drain(m);
    if (n == 0 && pindrop_map_last_error(m)[0] != '\0') return m;  /* a refused time */
    for (i = 0; i < n && i < MAXPINS; i++) {
      if (views[i].flags != PINDROP_CLUSTER_STACK) continue;
      if (stacks++ != (size_t)(k % 4)) continue;
      s = pindrop_map_open_stack(m, views[i].key, t);
      INVARIANT(s == PINDROP_OK, s);
      drain(m);
      INVARIANT(open_key == views[i].key, 0);
      {
        uint64_t key = views[i].key;
        size_t j, again = pindrop_map_frame_clusters(m, t, views, MAXPINS);
        for (j = 0; j < again && j < MAXPINS; j++) INVARIANT(views[j].key != key, j);  /* open: not collapsed */
      }
      break;
    }
    drain(m);
    check_positions(m, __LINE__);
    return m;
  }
  if (k < 160) {
    s = pindrop_map_close_stack(m, t);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(open_key == 0, 0);
    return m;
  }
  if (k < 200) {
    uint64_t key = u8(in) < 128 ? ((uint64_t)31 << 59) | (u64(in) >> 5) : u64(in);
    uint64_t before = open_key;
    s = pindrop_map_open_stack(m, key, t);
    INVARIANT(s == PINDROP_OK || s == PINDROP_ERR_NOT_FOUND || s == PINDROP_ERR_INVALID_ARGUMENT, s);
    after(m, s, __LINE__);
    if (s != PINDROP_OK) INVARIANT(open_key == before, s);
    return m;
  }
  s = pindrop_map_cancel_gesture(m, t);  /* Esc */
  after(m, s, __LINE__);
  return m;
}

static void step(pindrop_map **mp, input *in) {
  pindrop_map *m = *mp;
  uint8_t op = u8(in) % 34;
  int s = 0;
  double lon, lat, t;
  pindrop_id id;
  switch (op) {
  case 0: case 1: /* add */
    id = any_id(in); any_lonlat(in, &lon, &lat);
    s = pindrop_map_add(m, id, lon, lat);
    if (s == PINDROP_OK) {
      INVARIANT(model_n < MAXPINS && find(id) == NULL, id);
      model[model_n].id = id; model[model_n].lon = lon; model[model_n].lat = lat; model_n++;
    }
    after(m, s, __LINE__);
    break;
  case 2: { /* add_many, sometimes with duplicates, bad coordinates or absurd n */
    pindrop_id ids[16];
    double ll[32];
    size_t n = u8(in) % 17, i, cap;
    for (i = 0; i < n; i++) { ids[i] = (pindrop_id)(24 + (u8(in) % 40)); any_lonlat(in, &ll[2 * i], &ll[2 * i + 1]); }
    cap = u8(in) < 8 ? any_capacity(in) : n;
    if (cap > n && !refused(cap, 16)) cap = n;   /* never a count past the arrays that could be real */
    s = pindrop_map_add_many(m, ids, ll, cap);
    if (s == PINDROP_OK) {
      for (i = 0; i < cap; i++) {
        INVARIANT(model_n < MAXPINS && find(ids[i]) == NULL, ids[i]);
        model[model_n].id = ids[i]; model[model_n].lon = ll[2 * i]; model[model_n].lat = ll[2 * i + 1]; model_n++;
      }
    }
    after(m, s, __LINE__);
    break;
  }
  case 3: /* remove */
    id = any_id(in);
    s = pindrop_map_remove(m, id);
    if (s == PINDROP_OK) { INVARIANT(find(id) != NULL, id); model_remove(id); if (id == placing) placing = PINDROP_NO_ID; }
    after(m, s, __LINE__);
    break;
  case 4: /* set_position */
    id = any_id(in); any_lonlat(in, &lon, &lat);
    s = pindrop_map_set_position(m, id, lon, lat);
    if (s == PINDROP_OK) { model_pin *p = find(id); INVARIANT(p != NULL, id); p->lon = lon; p->lat = lat; }
    after(m, s, __LINE__);
    break;
  case 5: { /* camera */
    pindrop_camera c;
    uint8_t k = u8(in);
    c.center_lon = base_lon; c.center_lat = base_lat; c.zoom = 18; c.bearing_deg = 0; c.width = 390; c.height = 844;
    if (k & 1) any_lonlat(in, &c.center_lon, &c.center_lat);
    if (k & 2) c.zoom = (double)(u8(in) % 31) + (double)u8(in) / 256.0;
    if (k & 4) c.bearing_deg = any_double(in);
    if (k & 8) { c.width = any_double(in); c.height = any_double(in); }
    if (k & 16) c.zoom = any_double(in);
    s = pindrop_map_set_camera(m, &c);
    /* Accepted ranges: a bearing beyond ±1e6° or not finite is refused. */
    if (!(fabs(c.bearing_deg) <= 1e6)) INVARIANT(s == PINDROP_ERR_INVALID_ARGUMENT, s);
    if (s == PINDROP_OK) { view_w = c.width; view_h = c.height; }
    after(m, s, __LINE__);
    break;
  }
  case 6: { /* host projection */
    double w = u8(in) < 240 ? 390 : any_double(in), h = 844;
    proj_mode = u8(in) % 8;
    proj_scale = u8(in) < 200 ? 1e5 * (1 + u8(in)) : any_double(in);
    s = pindrop_map_set_projection(m, project, unproject, NULL, w, h);
    if (s == PINDROP_OK) { view_w = w; view_h = h; }
    after(m, s, __LINE__);
    break;
  }
  case 7: case 8: case 9: case 10: { /* touches */
    int32_t pointer = u8(in) < 240 ? (int32_t)(u8(in) % 3) : (int32_t)u32(in);
    uint8_t ph = u8(in);
    pindrop_touch_phase phase = (pindrop_touch_phase)(ph < 250 ? ph % 4 : ph);
    double x = any_x(in), y = any_y(in);
    t = any_time(in);
    s = pindrop_map_touch(m, pointer, phase, x, y, t);
    INVARIANT(s == 0 || s == 1 || s < 0, s);
    /* Accepted ranges: a touch beyond the viewport grown by 1e7 points, or at a time outside
       [0, 1e13] ms, is refused. */
    if (phase <= PINDROP_TOUCH_UP && !(x >= -1e7 && x <= view_w + 1e7 && y >= -1e7 && y <= view_h + 1e7))
      INVARIANT(s < 0, s);
    if (!(t >= 0 && t <= 1e13)) INVARIANT(s == PINDROP_ERR_INVALID_ARGUMENT, s);
    if (key_holding) INVARIANT(s == PINDROP_ERR_STATE || s == PINDROP_ERR_INVALID_ARGUMENT, s);
    after(m, s == 1 ? 0 : s, __LINE__);
    break;
  }
  case 11: /* tick */
    t = any_time(in);
    s = pindrop_map_tick(m, t);
    if (!(t >= 0 && t <= 1e13)) INVARIANT(s == PINDROP_ERR_INVALID_ARGUMENT, s);
    after(m, s, __LINE__);
    { double d = pindrop_map_next_deadline(m); INVARIANT(!isnan(d), 0); }
    break;
  case 12:
    s = pindrop_map_cancel_gesture(m, any_time(in));
    after(m, s, __LINE__);
    break;
  case 13: /* place */
    id = any_id(in); any_lonlat(in, &lon, &lat);
    s = pindrop_map_place(m, id, lon, lat, any_time(in));
    if (s == PINDROP_OK) {
      double plon, plat;
      INVARIANT(model_n < MAXPINS && find(id) == NULL, id);
      INVARIANT(pindrop_map_position(m, id, &plon, &plat) == PINDROP_OK, id);
      model[model_n].id = id; model[model_n].lon = plon; model[model_n].lat = plat; model_n++;
      placing = id;
    }
    after(m, s, __LINE__);
    break;
  case 14: /* edit */
    id = any_id(in);
    s = pindrop_map_edit(m, id, any_time(in));
    if (s == PINDROP_OK && id != placing) placing = PINDROP_NO_ID;
    after(m, s, __LINE__);
    break;
  case 15:
    s = pindrop_map_commit(m, any_time(in));
    if (s == PINDROP_OK) placing = PINDROP_NO_ID;
    after(m, s, __LINE__);
    break;
  case 16: /* cancel_edit: a placement is removed */
    s = pindrop_map_cancel_edit(m, any_time(in));
    if (s == PINDROP_OK && placing != PINDROP_NO_ID) {
      double plon, plat;
      if (pindrop_map_position(m, placing, &plon, &plat) == PINDROP_ERR_NOT_FOUND) model_remove(placing);
      placing = PINDROP_NO_ID;
    }
    after(m, s, __LINE__);
    break;
  case 17: {
    pindrop_id sel = 0;
    s = pindrop_map_select(m, any_id(in));
    after(m, s, __LINE__);
    INVARIANT(pindrop_map_selected(m, &sel) == PINDROP_OK && (sel == PINDROP_NO_ID || find(sel) != NULL), sel);
    break;
  }
  case 18: { /* title from arbitrary bytes */
    char text[64];
    size_t n = u8(in) % 63, i;
    for (i = 0; i < n; i++) text[i] = (char)u8(in);
    text[n] = 0;
    s = pindrop_map_set_title(m, any_id(in), u8(in) < 16 ? NULL : text);
    after(m, s, __LINE__);
    break;
  }
  case 19: { /* geocode answer, often to a real request */
    char text[32];
    size_t n = u8(in) % 31, i;
    uint64_t req = u8(in) < 200 && nrequests ? requests[u8(in) % (nrequests < 8 ? nrequests : 8)] : u64(in);
    for (i = 0; i < n; i++) text[i] = (char)u8(in);
    text[n] = 0;
    s = pindrop_map_answer_geocode(m, req, text);
    after(m, s, __LINE__);
    break;
  }
  case 20: { /* callout with small and absurd capacities */
    char buf[24];
    size_t cap = any_capacity(in), len = 12345;
    int which = (int)(u8(in) % 3);
    memset(buf, 'x', sizeof buf);
    if (cap > sizeof buf && !refused(cap, 1)) cap = sizeof buf; /* a host never lies about a real buffer */
    s = pindrop_map_callout(m, any_id(in), which, buf, cap, &len);
    after(m, s, __LINE__);
    if (refused(cap, 1)) INVARIANT(s == PINDROP_ERR_INVALID_ARGUMENT, s);
    if (s == PINDROP_OK && cap > 0) INVARIANT(strlen(buf) < cap && strlen(buf) <= len, len);
    break;
  }
  case 21: { /* allowed area: a template or arbitrary text */
    char text[96];
    uint8_t k = u8(in);
    if (k < 128) {
      s = pindrop_map_set_allowed_area(m, areas[k % (sizeof areas / sizeof areas[0])]);
    } else if (k < 140) {
      s = pindrop_map_set_allowed_area(m, NULL);
    } else {
      size_t n = u8(in) % 95, i;
      for (i = 0; i < n; i++) text[i] = (char)u8(in);
      text[n] = 0;
      s = pindrop_map_set_allowed_area(m, text);
    }
    after(m, s, __LINE__);
    break;
  }
  case 22: s = pindrop_map_undo(m, any_time(in)); after(m, s, __LINE__); break;
  case 23: s = pindrop_map_redo(m, any_time(in)); after(m, s, __LINE__); break;
  case 24: case 25: frame_check(m, in); break;
  case 26: nearby_check(m, in); break;
  case 27: { /* hit tests */
    pindrop_id hit = 0, many[8];
    double xy[16];
    size_t n = u8(in) % 9, i;
    s = pindrop_map_hit_test(m, any_x(in), any_y(in), &hit);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(find(hit) != NULL, hit);
    for (i = 0; i < n; i++) { xy[2 * i] = any_x(in); xy[2 * i + 1] = any_y(in); }
    if (u8(in) < 16) n = any_capacity(in) > 8 ? any_capacity(in) : n;
    if (n > 8 && !refused(n, 16)) n = 8;
    s = pindrop_map_hit_test_many(m, xy, n, many);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) for (i = 0; i < n; i++) INVARIANT(many[i] == PINDROP_NO_ID || find(many[i]) != NULL, many[i]);
    break;
  }
  case 28: { /* to_screen / to_lonlat: OK means finite */
    double x, y, lon2, lat2;
    any_lonlat(in, &lon, &lat);
    s = pindrop_map_to_screen(m, lon, lat, &x, &y);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(isfinite(x) && isfinite(y), 0);
    s = pindrop_map_to_lonlat(m, any_x(in), any_y(in), &lon2, &lat2);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(isfinite(lon2) && isfinite(lat2) && fabs(lon2) <= 180 && fabs(lat2) <= 90, 0);
    break;
  }
  case 29: { /* display positions are finite coordinates */
    id = any_id(in);
    s = pindrop_map_display_position(m, id, &lon, &lat);
    after(m, s, __LINE__);
    if (s == PINDROP_OK) INVARIANT(isfinite(lon) && isfinite(lat) && fabs(lon) <= 180 && fabs(lat) <= 90, id);
    break;
  }
  case 30:
    s = pindrop_map_set_draggable(m, any_id(in), (int)u8(in) - 1);
    after(m, s, __LINE__);
    break;
  case 31: { /* batch spreading of the model's pins, aliased or not */
    double ll[2 * MAXPINS + 2], out[2 * MAXPINS + 2];
    size_t i, n = model_n;
    double tol = u8(in) < 200 ? (double)u8(in) : any_double(in);
    for (i = 0; i < n; i++) { ll[2 * i] = model[i].lon; ll[2 * i + 1] = model[i].lat; }
    if (u8(in) < 8) { ll[2 * n] = any_double(in); ll[2 * n + 1] = any_double(in); n++; }
    if (u8(in) < 8) n = any_capacity(in) > 20 ? any_capacity(in) : n;
    if (n > MAXPINS + 1 && !refused(n, 16)) n = model_n;
    s = pindrop_spread(ll, n, tol, u8(in) < 128 ? ll : out);
    INVARIANT(known_status(s), s);
    if (s < 0) INVARIANT(pindrop_last_error()[0] != '\0', s);
    break;
  }
  case 32: { /* time that goes backwards, or NaN, fails and changes nothing */
    double now = clock_ms;
    s = pindrop_map_tick(m, now);  /* fails only when an absurd time already went by */
    after(m, s, __LINE__);
    if (s == PINDROP_OK) {
      s = pindrop_map_tick(m, now - 1 - (double)u8(in));
      INVARIANT(s == PINDROP_ERR_INVALID_ARGUMENT, s);
      after(m, s, __LINE__);
    }
    break;
  }
  default: { /* NULL map and NULL pointers; or a new map with the 0.2 options */
    double x;
    uint8_t which = u8(in);
    if (which < 64) { *mp = recreate(m, in); break; }
    if (which < 160) { clusters_check(m, in); break; }
    if (which < 184) { /* keyboard nudges of the selected pin, small or absurd */
      double dx = u8(in) < 200 ? (double)((int)u8(in) - 128) / 8.0 : any_double(in);
      double dy = u8(in) < 200 ? (double)((int)u8(in) - 128) / 8.0 : any_double(in);
      s = pindrop_map_nudge(m, dx, dy, any_time(in));
      /* Accepted ranges: a nudge of more than 1e7 points (or not finite) is refused. */
      if (!(fabs(dx) <= 1e7 && fabs(dy) <= 1e7)) INVARIANT(s < 0, s);
      after(m, s, __LINE__);
      break;
    }
    if (which >= 200 && which < 216) { *mp = stacks_step(m, in); break; }  /* 0.3: stacks */
    if (which < 200) { /* batch spiral of the model's pins at any zoom and spacing, aliased or not */
      double ll[2 * MAXPINS + 2], out[2 * MAXPINS + 2];
      size_t i, n = model_n;
      double tol = u8(in) < 200 ? (double)u8(in) : any_double(in);
      double spacing = u8(in) < 200 ? 1 + (double)u8(in) : any_double(in);
      double zoom = u8(in) < 200 ? (double)(u8(in) % 31) : any_double(in);
      for (i = 0; i < n; i++) { ll[2 * i] = model[i].lon; ll[2 * i + 1] = model[i].lat; }
      if (u8(in) < 8) n = any_capacity(in) > 20 ? any_capacity(in) : n;
      if (n > MAXPINS + 1 && !refused(n, 16)) n = model_n;
      double *dst = u8(in) < 128 ? ll : out;
      s = pindrop_spread_spiral(ll, n, tol, spacing, zoom, dst);
      INVARIANT(known_status(s), s);
      if (s < 0) INVARIANT(pindrop_last_error()[0] != '\0', s);
      if (s == PINDROP_OK) /* every pin gets a coordinate */
        for (i = 0; i < n; i++) INVARIANT(fabs(dst[2 * i]) <= 180 && fabs(dst[2 * i + 1]) <= 90, (int)i);
      break;
    }
    if (which >= 240) { summaries_check(mp, in); break; }  /* since 0.3 */
    if (which >= 216 && which < 232) { keyboard(m, in); break; }  /* since 0.3 */
    INVARIANT(pindrop_map_add(NULL, 1, 0, 0) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_frame(NULL, 0, NULL, 0) == 0, 0);
    INVARIANT(pindrop_map_to_screen(m, 0, 0, NULL, &x) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_position(m, any_id(in), NULL, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_focus_step(NULL, 1, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_focus_step(m, 1, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_focused(m, NULL) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_key_lift(NULL, 0) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    INVARIANT(pindrop_map_key_drop(NULL, 0) == PINDROP_ERR_INVALID_ARGUMENT, 0);
    after(m, PINDROP_OK, __LINE__);
    break;
  }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  pindrop_options o;
  pindrop_map *m = NULL;
  int steps = 0;
  uint8_t k;
  reset_model();
  clock_ms = 0; cluster_radius = 0;
  if (pindrop_options_init(&o, sizeof o) != PINDROP_OK) abort();
  k = u8(&in);
  if (k & 1) o.lift_delay_ms = 0;
  if (k & 2) o.spread_mode = PINDROP_SPREAD_OFF;
  if (k & 4) o.spread_tolerance_m = (double)u8(&in);
  if (k & 8) o.min_spacing_m = (double)u8(&in);
  if (k & 16) o.outside_policy = PINDROP_OUTSIDE_SNAP;
  if (k & 32) o.lift_height = 0;
  if (k & 64) o.hit_radius = 1 + (double)u8(&in);
  if (k & 128) { /* any option value at all: create must refuse or accept, never crash */
    double *fields = &o.hit_radius;
    fields[u8(&in) % 11] = any_double(&in);
  }
  if (pindrop_map_create(&o, &m) != PINDROP_OK) {
    if (m != NULL) finding("a failed create left a map", 0);
    if (pindrop_last_error()[0] == '\0') finding("a failed create left no message", 0);
    return 0;
  }
  hit_radius = o.hit_radius;
  while (in.n > 0 && steps++ < 400) step(&m, &in);
  pindrop_map_destroy(m);
  return 0;
}
