/* pindrop_map_nudge through the C ABI (docs/editing.md, "Nudges"): arrow keys move the selected pin by screen
   points, a key series is one undo step, and the refusals (nothing selected, a finger on the pin,
   bad numbers) change nothing. */
#include <pindrop.h>

#include <math.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static int drain_moved(pindrop_map *map, int *cause) {
  pindrop_event e;
  int moved = 0;
  while (pindrop_map_poll_event(map, &e) == 1)
    if (e.type == PINDROP_EVENT_MOVED) { moved++; *cause = e.cause; }
  return moved;
}

int main(void) {
  pindrop_options o;
  pindrop_map *map = NULL;
  pindrop_camera cam = {-118.3535474, 33.8870931, 19, 0, 390, 844};
  double x0, y0, x, y, lon, lat;
  int cause = -1, k;

  pindrop_options_init(&o, sizeof o);
  o.lift_delay_ms = 0;
  o.lift_height = 0;
  CHECK(pindrop_map_create(&o, &map) == PINDROP_OK);
  CHECK(pindrop_map_set_camera(map, &cam) == PINDROP_OK);
  CHECK(pindrop_map_add(map, 7, -118.3535474, 33.8870931) == PINDROP_OK);
  CHECK(pindrop_map_to_screen(map, -118.3535474, 33.8870931, &x0, &y0) == PINDROP_OK);

  /* Nothing selected: STATE, with a message. */
  CHECK(pindrop_map_nudge(map, 1, 0, 10) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_last_error(map)[0] != '\0');
  CHECK(pindrop_map_select(map, 7) == PINDROP_OK);

  /* → → → then Shift+↑, 100 ms apart: MOVED with cause NUDGE each time, 3 right and 10 up. */
  for (k = 0; k < 3; k++) CHECK(pindrop_map_nudge(map, 1, 0, 100 + 100 * k) == PINDROP_OK);
  CHECK(pindrop_map_nudge(map, 0, -10, 400) == PINDROP_OK);
  CHECK(drain_moved(map, &cause) == 4 && cause == PINDROP_CAUSE_NUDGE);
  CHECK(pindrop_map_position(map, 7, &lon, &lat) == PINDROP_OK);
  CHECK(pindrop_map_to_screen(map, lon, lat, &x, &y) == PINDROP_OK);
  CHECK(fabs(x - x0 - 3) < 1e-6 && fabs(y - y0 + 10) < 1e-6);

  /* One undo takes the series back; there is no second step. */
  CHECK(pindrop_map_undo(map, 500) == PINDROP_OK);
  CHECK(pindrop_map_position(map, 7, &lon, &lat) == PINDROP_OK);
  CHECK(lon == -118.3535474 && lat == 33.8870931);
  CHECK(pindrop_map_undo(map, 501) == PINDROP_ERR_STATE);
  CHECK(drain_moved(map, &cause) == 1 && cause == PINDROP_CAUSE_UNDO);

  /* A finger on the pin holds it: STATE. Bad numbers: INVALID_ARGUMENT. Nothing moves. */
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, x0, y0, 600) >= 0);
  CHECK(pindrop_map_nudge(map, 1, 0, 610) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, x0, y0, 620) >= 0);
  CHECK(pindrop_map_nudge(map, NAN, 0, 630) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_nudge(map, 0, INFINITY, 640) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_nudge(map, 1, 0, 5) == PINDROP_ERR_INVALID_ARGUMENT);   /* time went back */
  CHECK(pindrop_map_nudge(NULL, 1, 0, 700) == PINDROP_ERR_INVALID_ARGUMENT);
  cause = -1;
  CHECK(drain_moved(map, &cause) == 0);
  CHECK(pindrop_map_position(map, 7, &lon, &lat) == PINDROP_OK);
  CHECK(lon == -118.3535474 && lat == 33.8870931);

  pindrop_map_destroy(map);
  if (failures) { fprintf(stderr, "test_nudge: %d failures\n", failures); return 1; }
  printf("test_nudge: ok\n");
  return 0;
}
