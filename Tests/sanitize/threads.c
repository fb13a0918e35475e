/* Eight threads, each driving its own map at once: drags with explicit times, frames, hit tests,
   nearby queries, editing, undo and failing calls (whose messages are per thread). Run against a
   ThreadSanitizer build of the library (make test-sanitize): maps share no mutable state, so TSan
   must report nothing. Each thread also checks its own results, so the run fails if one map's
   work leaks into another's. */
#include <pindrop.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { THREADS = 8, ROUNDS = 400, PINS = 400 };

typedef struct { int index; int failures; } job;

/* `threads --shared` is the counter-example the header warns about: every thread drives ONE map.
   TSan reports the data race (and without TSan the map may be corrupted or the process crash). */
static pindrop_map *shared_map;

#define CHECK(j, cond) do { if (!(cond)) { fprintf(stderr, "thread %d: %s:%d: %s\n", (j)->index, __FILE__, __LINE__, #cond); (j)->failures++; } } while (0)

static void *drive(void *arg) {
  job *j = (job *)arg;
  pindrop_map *m = NULL;
  pindrop_options o;
  pindrop_camera cam;
  pindrop_id ids[PINS];
  double ll[2 * PINS], t = 0;
  pindrop_pin_view views[PINS];
  char message[64];
  int r, i;
  /* Each thread's pins lie in its own part of Los Angeles. */
  const double lon0 = -118.40 + 0.02 * j->index, lat0 = 34.00;
  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.lift_height = 0;
  if (shared_map) m = shared_map;
  else CHECK(j, pindrop_map_create(&o, &m) == PINDROP_OK);
  cam.center_lon = lon0; cam.center_lat = lat0; cam.zoom = 17; cam.bearing_deg = 15.0 * j->index;
  cam.width = 800; cam.height = 600;
  CHECK(j, pindrop_map_set_camera(m, &cam) == PINDROP_OK);
  for (i = 0; i < PINS; i++) {
    ids[i] = 1000 * j->index + i;
    ll[2 * i] = lon0 + 0.00002 * (i % 20) - 0.0002;
    ll[2 * i + 1] = lat0 + 0.00002 * (i / 20) - 0.0002;
  }
  CHECK(j, pindrop_map_add_many(m, ids, ll, PINS) == PINDROP_OK);
  for (r = 0; r < ROUNDS; r++) {
    pindrop_id hit = PINDROP_NO_ID;
    double x, y, lon, lat;
    pindrop_event e;
    size_t total = pindrop_map_frame(m, t, views, PINS);
    CHECK(j, total > 0 && total <= PINS);
    /* Drag the first pin of the frame by (30, 20) points; it must land where DRAGGED said. */
    if (total > 0) {
      pindrop_id id = views[0].id;
      double dlon = NAN, dlat = NAN;
      x = views[0].x; y = views[0].y;
      CHECK(j, pindrop_map_hit_test(m, x, y, &hit) == PINDROP_OK);
      CHECK(j, pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, t += 16) == 1);
      if (pindrop_map_hit_test(m, x, y, &hit) == PINDROP_OK) id = hit;
      CHECK(j, pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, x + 30, y + 20, t += 16) == 1);
      CHECK(j, pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, x + 30, y + 20, t += 16) >= 0);
      while (pindrop_map_poll_event(m, &e)) {
        if (e.type == PINDROP_EVENT_DRAGGED) { dlon = e.lon; dlat = e.lat; }
        if (e.type == PINDROP_EVENT_MOVED && e.cause == PINDROP_CAUSE_DRAG) {
          CHECK(j, e.lon == dlon && e.lat == dlat);
          CHECK(j, pindrop_map_position(m, e.id, &lon, &lat) == PINDROP_OK && lon == dlon && lat == dlat);
        }
      }
      (void)id;
    }
    CHECK(j, pindrop_map_nearby(m, lon0, lat0, 50, NULL, NULL, 0) > 0);
    if (r % 3 == 0) CHECK(j, pindrop_map_undo(m, t += 1) == PINDROP_OK);
    CHECK(j, pindrop_map_to_screen(m, lon0, lat0, &x, &y) == PINDROP_OK);
    /* A failure whose message names this thread's map only. */
    snprintf(message, sizeof message, "no pin with id %d", 999999 + j->index);
    CHECK(j, pindrop_map_remove(m, 999999 + j->index) == PINDROP_ERR_NOT_FOUND);
    CHECK(j, strcmp(pindrop_map_last_error(m), message) == 0);
    CHECK(j, strcmp(pindrop_last_error(), message) == 0);
    CHECK(j, pindrop_map_tick(m, t += 100) == PINDROP_OK);
    while (pindrop_map_poll_event(m, &e)) {}
  }
  if (shared_map) return NULL;
  CHECK(j, pindrop_map_count(m) == (size_t)PINS);
  pindrop_map_destroy(m);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t threads[THREADS];
  job jobs[THREADS];
  int i, failures = 0;
  if (argc > 1 && strcmp(argv[1], "--shared") == 0) {
    pindrop_options o;
    pindrop_options_init(&o, sizeof o);
    o.lift_delay_ms = 0;
    if (pindrop_map_create(&o, &shared_map) != PINDROP_OK) return 1;
  }
  for (i = 0; i < THREADS; i++) {
    jobs[i].index = i; jobs[i].failures = 0;
    if (pthread_create(&threads[i], NULL, drive, &jobs[i]) != 0) { fprintf(stderr, "pthread_create\n"); return 1; }
  }
  for (i = 0; i < THREADS; i++) { pthread_join(threads[i], NULL); failures += jobs[i].failures; }
  if (failures) { fprintf(stderr, "%d failures\n", failures); return 1; }
  printf("%d threads x %d rounds, each on its own map: ok\n", THREADS, ROUNDS);
  return 0;
}
