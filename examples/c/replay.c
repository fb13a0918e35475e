/*
 * replay — loads trees from a CSV file into a pindrop map and replays a recorded touch script,
 * printing what pindrop makes of it: the host side of a map app, without the drawing.
 *
 *   cc replay.c $(pkg-config --cflags --libs pindrop) -o replay
 *   ./replay ../data/lawndale_trees.csv drag.touch
 *
 * The CSV has a header line and rows "id,lon,lat[,anything else]". The script has one command a
 * line ('#' starts a comment):
 *
 *   set NAME VALUE                 an option, before the camera line (lift_delay_ms, lift_height,
 *                                  drag_threshold, hit_radius, double_tap_ms, autopan_margin)
 *   camera LON LAT ZOOM W H        the Web Mercator camera; creates the map and loads the trees
 *   T_MS PHASE POINTER X Y         a touch: PHASE is down, move, up or cancel; X Y in points
 *   T_MS esc                       the Esc key: cancels the gesture in progress
 *
 * Like a real host, before each input at time T it runs the timers that are due (every
 * pindrop_map_next_deadline() <= T gets a pindrop_map_tick()), and after each call it drains the
 * events. At the end it lets pending timers run and prints where the moved trees now are.
 */
#include <math.h>
#include <pindrop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trees_csv.h"

#define MAX_MOVED 64

static const char *event_names[] = {"SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED",
                                    "DRAG_CANCELLED", "MOVED", "GEOCODE_REQUEST", "CALLOUT_CHANGED",
                                    "NEARBY", "AUTOPAN"};
static const char *cause_names[] = {"NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP"};

static pindrop_id moved[MAX_MOVED];
static size_t moved_count;

static int fail(const char *what, pindrop_map *map, int status) {
  fprintf(stderr, "replay: %s failed: %s: %s\n", what, pindrop_status_string((pindrop_status)status),
          map ? pindrop_map_last_error(map) : "");
  return 1;
}

static void remember_moved(pindrop_id id) {
  size_t i;
  for (i = 0; i < moved_count; i++)
    if (moved[i] == id) return;
  if (moved_count < MAX_MOVED) moved[moved_count++] = id;
}

/* Prints every pending event, one a line. Coordinates are printed with 17 significant digits so
   that a reader (or a test) can compare them bit for bit. */
static void drain(pindrop_map *map) {
  pindrop_event e;
  while (pindrop_map_poll_event(map, &e) == 1) {
    const char *name = (e.type >= 0 && e.type <= PINDROP_EVENT_AUTOPAN) ? event_names[e.type] : "?";
    printf("%9.1f ms  %-15s id=%lld", e.time_ms, name, (long long)e.id);
    switch (e.type) {
    case PINDROP_EVENT_DRAGGED:
    case PINDROP_EVENT_DRAG_CANCELLED:
    case PINDROP_EVENT_GEOCODE_REQUEST:
      printf("  lon=%.17g lat=%.17g", e.lon, e.lat);
      break;
    case PINDROP_EVENT_MOVED:
      printf("  lon=%.17g lat=%.17g  from_lon=%.17g from_lat=%.17g  cause=%s", e.lon, e.lat, e.from_lon,
             e.from_lat, (e.cause >= 0 && e.cause <= PINDROP_CAUSE_SNAP) ? cause_names[e.cause] : "?");
      remember_moved(e.id);
      break;
    case PINDROP_EVENT_NEARBY:
      printf("  other=%lld distance=%.2f m", (long long)e.other, e.distance_m);
      break;
    case PINDROP_EVENT_AUTOPAN:
      printf("  dx=%.2f dy=%.2f", e.dx, e.dy);
      break;
    default:
      break;
    }
    printf("\n");
  }
}

/* Ticks at every deadline up to and including time t, as a host's timer would. */
static int run_timers(pindrop_map *map, double t) {
  double due = pindrop_map_next_deadline(map);
  while (due <= t) {
    int status = pindrop_map_tick(map, due);
    double next;
    if (status != PINDROP_OK) return fail("pindrop_map_tick", map, status);
    drain(map);
    next = pindrop_map_next_deadline(map);
    if (!(next > due)) break; /* a deadline that does not move on would be due again */
    due = next;
  }
  return 0;
}

/* Reads the trees (trees_csv.h) and adds them all with one batch call. */
static int load_trees(pindrop_map *map, const char *path) {
  pindrop_id *ids;
  double *lonlat;
  size_t n;
  int status;
  if (read_trees_csv(path, &ids, &lonlat, &n) != 0) return 1;
  status = pindrop_map_add_many(map, ids, lonlat, n);
  free(ids);
  free(lonlat);
  if (status != PINDROP_OK) return fail("pindrop_map_add_many", map, status);
  printf("loaded %zu trees from %s\n", n, path);
  return 0;
}

static int set_option(pindrop_options *o, const char *name, double value) {
  if (!strcmp(name, "lift_delay_ms")) o->lift_delay_ms = value;
  else if (!strcmp(name, "lift_height")) o->lift_height = value;
  else if (!strcmp(name, "drag_threshold")) o->drag_threshold = value;
  else if (!strcmp(name, "hit_radius")) o->hit_radius = value;
  else if (!strcmp(name, "double_tap_ms")) o->double_tap_ms = value;
  else if (!strcmp(name, "autopan_margin")) o->autopan_margin = value;
  else return 0;
  return 1;
}

int main(int argc, char **argv) {
  pindrop_options options;
  pindrop_map *map = NULL;
  FILE *script;
  char line[512];
  double last_t = 0;
  int lineno = 0, status = 0;
  size_t i;

  if (argc != 3) {
    fprintf(stderr, "usage: %s TREES.csv SCRIPT.touch\n", argv[0]);
    return 2;
  }
  printf("pindrop %s\n", pindrop_version());
  pindrop_options_init(&options, sizeof options);
  script = fopen(argv[2], "r");
  if (!script) {
    perror(argv[2]);
    return 1;
  }
  while (status == 0 && fgets(line, sizeof line, script)) {
    char word[32], phase[32], name[64];
    double t, x, y, value;
    int pointer;
    pindrop_camera camera;
    lineno++;
    if (line[strspn(line, " \t\r\n")] == '\0' || line[strspn(line, " \t")] == '#') continue;
    if (sscanf(line, "set %63s %lf", name, &value) == 2) {
      if (map || !set_option(&options, name, value)) {
        fprintf(stderr, "%s:%d: unknown option, or set after camera: %s", argv[2], lineno, line);
        status = 1;
      }
    } else if (sscanf(line, "camera %lf %lf %lf %lf %lf", &camera.center_lon, &camera.center_lat,
                      &camera.zoom, &camera.width, &camera.height) == 5) {
      camera.bearing_deg = 0;
      if (!map) {
        int s = pindrop_map_create(&options, &map);
        if (s != PINDROP_OK) status = fail("pindrop_map_create", NULL, s);
        else status = load_trees(map, argv[1]);
      }
      if (status == 0) {
        int s = pindrop_map_set_camera(map, &camera);
        if (s != PINDROP_OK) status = fail("pindrop_map_set_camera", map, s);
      }
    } else if (sscanf(line, "%lf %31s", &t, word) == 2 && !strcmp(word, "esc")) {
      if (!map) break;
      if ((status = run_timers(map, t)) != 0) break;
      printf("%9.1f ms  > esc\n", t);
      status = pindrop_map_cancel_gesture(map, t);
      if (status != PINDROP_OK) status = fail("pindrop_map_cancel_gesture", map, status);
      drain(map);
      last_t = t;
    } else if (sscanf(line, "%lf %31s %d %lf %lf", &t, phase, &pointer, &x, &y) == 5) {
      pindrop_touch_phase p;
      int owned;
      if (!map) {
        fprintf(stderr, "%s:%d: a touch before the camera line\n", argv[2], lineno);
        status = 1;
        break;
      }
      if (!strcmp(phase, "down")) p = PINDROP_TOUCH_DOWN;
      else if (!strcmp(phase, "move")) p = PINDROP_TOUCH_MOVE;
      else if (!strcmp(phase, "up")) p = PINDROP_TOUCH_UP;
      else if (!strcmp(phase, "cancel")) p = PINDROP_TOUCH_CANCEL;
      else {
        fprintf(stderr, "%s:%d: unknown phase %s\n", argv[2], lineno, phase);
        status = 1;
        break;
      }
      if ((status = run_timers(map, t)) != 0) break;
      owned = pindrop_map_touch(map, pointer, p, x, y, t);
      if (owned < 0) {
        status = fail("pindrop_map_touch", map, owned);
        break;
      }
      printf("%9.1f ms  > %-6s pointer %d at (%.1f, %.1f): %s\n", t, phase, pointer, x, y,
             owned ? "pindrop's" : "the map's");
      drain(map);
      last_t = t;
    } else {
      fprintf(stderr, "%s:%d: cannot read: %s", argv[2], lineno, line);
      status = 1;
    }
  }
  fclose(script);
  if (status == 0 && map) {
    status = run_timers(map, last_t + 1000); /* let the double-tap window and animations end */
    for (i = 0; status == 0 && i < moved_count; i++) {
      double lon, lat;
      if (pindrop_map_position(map, moved[i], &lon, &lat) == PINDROP_OK)
        printf("tree %lld is now at lon=%.17g lat=%.17g\n", (long long)moved[i], lon, lat);
    }
  }
  pindrop_map_destroy(map);
  return status;
}
