/* The event queue's bound, measured from outside as a host sees it (issue 34, "Memory that only
   grows"): 2,000,000 drag moves of one pin in four drags, with no poll_event until the end. The
   events queued (PINDROP_EVENT_QUEUE_LIMIT bounds them: a pin's DRAGGED replaces its latest one
   from the limit on; every DROPPED and MOVED is kept) and the growth of the resident set (VmRSS)
   over the moves. Before the bound: 2,000,024 events and 112 MB.

   Usage: bench_queue [DATA_DIR]   (no data needed) */
#include <pindrop.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do { pindrop_status s_ = (call); if (s_ != PINDROP_OK) { \
  fprintf(stderr, "%s failed: %s\n", #call, pindrop_status_string(s_)); exit(1); } } while (0)

/* The resident set of the process in kB (Linux), 0 when unknown. */
static long rss_kb(void) {
  char line[256];
  long kb = 0;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

int main(void) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_camera cam = {-118.25, 34.05, 18, 0, 1200, 800};
  pindrop_event e;
  double t = 0, x, y, lon, lat;
  long before, after;
  int round, i, drops = 0, moves = 0;
  size_t n = 0;

  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.lift_height = 0;
  o.autopan_margin = 0;
  CHECK(pindrop_map_create(&o, &m));
  CHECK(pindrop_map_set_camera(m, &cam));
  CHECK(pindrop_map_add(m, 1, -118.25, 34.05));
  before = rss_kb();
  for (round = 0; round < 4; round++) {
    CHECK(pindrop_map_display_position(m, 1, &lon, &lat));
    CHECK(pindrop_map_to_screen(m, lon, lat, &x, &y));
    if (pindrop_map_touch(m, 0, PINDROP_TOUCH_DOWN, x, y, t) != 1) { fprintf(stderr, "the press missed the pin\n"); return 1; }
    for (i = 0; i < 500000; i++) {
      t += 0.001;
      pindrop_map_touch(m, 0, PINDROP_TOUCH_MOVE, 400 + (double)(i % 400), 300 + round, t);
    }
    t += 1;
    pindrop_map_touch(m, 0, PINDROP_TOUCH_UP, 617, 300 + round, t);
    t += 1000;
    CHECK(pindrop_map_tick(m, t));
  }
  after = rss_kb();
  while (pindrop_map_poll_event(m, &e) == 1) {
    n++;
    if (e.type == PINDROP_EVENT_DROPPED) drops++;
    if (e.type == PINDROP_EVENT_MOVED) moves++;
  }
  pindrop_map_destroy(m);
  if (drops != 4 || moves != 4) { fprintf(stderr, "%d drops and %d moves arrived, not 4 and 4\n", drops, moves); return 1; }
  printf("event queue; 2000000 drag moves of one pin in 4 drags without a poll (limit %d; every DROPPED and MOVED kept)\n",
         PINDROP_EVENT_QUEUE_LIMIT);
  printf("events queued after 2000000 drag moves: %zu events (target <= %d)\n", n, PINDROP_EVENT_QUEUE_LIMIT + 24);
  printf("process growth over 2000000 drag moves: %.1f MB (target <= 8)\n", (double)(after - before) / 1024.0);
  return 0;
}
