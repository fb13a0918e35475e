/* Editing through the C ABI: a placement with its callout and geocode request, a stale answer,
 * a snapped placement, undo / redo, bad area text, and callout buffers. Returns non-zero on failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pindrop.h"

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* Drains the events into out (up to cap); returns how many there were. */
static int drain(pindrop_map *m, pindrop_event *out, int cap) {
  pindrop_event e;
  int n = 0;
  while (pindrop_map_poll_event(m, &e)) {
    if (n < cap) out[n] = e;
    n++;
  }
  return n;
}

int main(void) {
  pindrop_options o;
  pindrop_map *m = NULL;
  pindrop_event ev[16];
  char buf[64];
  size_t len = 0;
  double lon = 0, lat = 0;
  int n;
  uint64_t request;

  CHECK(pindrop_options_init(&o, (uint32_t)sizeof o) == PINDROP_OK);
  o.outside_policy = PINDROP_OUTSIDE_SNAP;
  o.min_spacing_m = 3;
  CHECK(pindrop_map_create(&o, &m) == PINDROP_OK);

  /* Place a tree: its subtitle is the coordinate and a geocode request goes out. */
  CHECK(pindrop_map_place(m, 1, -118.35, 33.9, 100) == PINDROP_OK);
  n = drain(m, ev, 16);
  CHECK(n == 2);
  CHECK(ev[0].type == PINDROP_EVENT_CALLOUT_CHANGED && ev[0].id == 1);
  CHECK(ev[1].type == PINDROP_EVENT_GEOCODE_REQUEST && ev[1].lon == -118.35 && ev[1].lat == 33.9);
  request = ev[1].request;
  CHECK(pindrop_map_callout(m, 1, PINDROP_SUBTITLE, buf, sizeof buf, &len) == PINDROP_OK);
  CHECK(strcmp(buf, "33.90000, -118.35000") == 0 && len == strlen("33.90000, -118.35000"));

  /* The host moves it before the geocoder answers: the answer is stale and not shown. */
  CHECK(pindrop_map_set_position(m, 1, -118.351, 33.9) == PINDROP_OK);
  CHECK(pindrop_map_answer_geocode(m, request, "Old address") == PINDROP_STALE);
  CHECK(pindrop_map_callout(m, 1, PINDROP_SUBTITLE, buf, sizeof buf, &len) == PINDROP_OK);
  CHECK(strcmp(buf, "33.90000, -118.35000") == 0);
  CHECK(pindrop_map_answer_geocode(m, request + 1000, "x") == PINDROP_ERR_NOT_FOUND);

  /* Commit: MOVED with cause PLACE from where it was placed to where it is; the placement is
     one step of history: undo puts it back where it was placed, redo where it was committed. */
  CHECK(pindrop_map_commit(m, 200) == PINDROP_OK);
  n = drain(m, ev, 16);
  CHECK(n == 1 && ev[0].type == PINDROP_EVENT_MOVED && ev[0].cause == PINDROP_CAUSE_PLACE);
  CHECK(ev[0].from_lon == -118.35 && ev[0].lon == -118.351);
  CHECK(pindrop_map_commit(m, 200) == PINDROP_ERR_STATE);
  CHECK(pindrop_map_undo(m, 210) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon == -118.35 && lat == 33.9);
  n = drain(m, ev, 16);
  CHECK(n == 3 && ev[0].type == PINDROP_EVENT_MOVED && ev[0].cause == PINDROP_CAUSE_UNDO);
  CHECK(ev[1].type == PINDROP_EVENT_CALLOUT_CHANGED && ev[2].type == PINDROP_EVENT_GEOCODE_REQUEST);
  CHECK(pindrop_map_undo(m, 220) == PINDROP_ERR_STATE);
  CHECK(strstr(pindrop_map_last_error(m), "nothing to undo") != NULL);
  CHECK(pindrop_map_redo(m, 230) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 1, &lon, &lat) == PINDROP_OK && lon == -118.351 && lat == 33.9);
  n = drain(m, ev, 16);
  CHECK(n == 3 && ev[0].type == PINDROP_EVENT_MOVED && ev[0].cause == PINDROP_CAUSE_REDO);
  CHECK(pindrop_map_redo(m, 240) == PINDROP_ERR_STATE);

  /* A square area; a placement outside snaps onto the east edge; next to tree 1 it warns. */
  CHECK(pindrop_map_set_allowed_area(m, "POLYGON((-118.36 33.89, -118.351 33.89, -118.351 33.91, "
                                        "-118.36 33.91, -118.36 33.89))") == PINDROP_OK);
  CHECK(pindrop_map_place(m, 2, -118.34, 33.90001, 300) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 2, &lon, &lat) == PINDROP_OK);
  CHECK(lon == -118.351 && fabs(lat - 33.90001) < 1e-12);
  n = drain(m, ev, 16);
  CHECK(n == 3 && ev[2].type == PINDROP_EVENT_NEARBY && ev[2].id == 2 && ev[2].other == 1);
  CHECK(fabs(ev[2].distance_m - 6378137.0 * 0.00001 * 3.14159265358979323846 / 180) < 1e-6);
  CHECK(pindrop_map_cancel_edit(m, 400) == PINDROP_OK);
  CHECK(pindrop_map_count(m) == 1);

  /* Bad area text: PARSE, with a message, and the square stays. */
  CHECK(pindrop_map_set_allowed_area(m, "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))") == PINDROP_ERR_PARSE);
  CHECK(strstr(pindrop_map_last_error(m), "Self-intersection") != NULL);
  CHECK(pindrop_map_set_allowed_area(m, "{\"type\": \"Polygon\"") == PINDROP_ERR_PARSE);
  CHECK(pindrop_map_place(m, 3, 0, 0, 500) == PINDROP_OK);
  CHECK(pindrop_map_position(m, 3, &lon, &lat) == PINDROP_OK);
  CHECK(lon >= -118.36 && lon <= -118.351 && lat >= 33.89 && lat <= 33.91);
  CHECK(pindrop_map_set_allowed_area(m, NULL) == PINDROP_OK);
  CHECK(pindrop_map_commit(m, 500) == PINDROP_OK);

  /* Titles: UTF-8 in, truncated on a character boundary, full length out. */
  CHECK(pindrop_map_set_title(m, 1, "\xe9\x8a\x80\xe6\x9d\x8f Ginkgo") == PINDROP_OK); /* 銀杏 Ginkgo */
  CHECK(pindrop_map_callout(m, 1, PINDROP_TITLE, buf, 5, &len) == PINDROP_OK);
  CHECK(len == 13 && strcmp(buf, "\xe9\x8a\x80") == 0);
  CHECK(pindrop_map_callout(m, 1, PINDROP_TITLE, NULL, 0, &len) == PINDROP_OK && len == 13);
  CHECK(pindrop_map_set_title(m, 1, "\xff") == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_callout(m, 1, 2, buf, sizeof buf, &len) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_callout(m, 99, PINDROP_TITLE, buf, sizeof buf, &len) == PINDROP_ERR_NOT_FOUND);

  /* NULL maps and pointers. */
  CHECK(pindrop_map_undo(NULL, 0) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_selected(m, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_map_answer_geocode(m, request, NULL) == PINDROP_ERR_INVALID_ARGUMENT);

  pindrop_map_destroy(m);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
