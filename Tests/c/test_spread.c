/* pindrop_spread through the C ABI: a stack drawn on its ring, all-or-nothing on bad input, out
   aliasing the input, n = 0, NULL pointers. And a map drawing the same ring. */
#include <pindrop.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* Great-circle distance on the 6378137 m sphere from unit vectors (atan2 of |a×b| and a·b),
   written independently of the library's haversine. */
static double metres(double lon1, double lat1, double lon2, double lat2) {
  const double r = 6378137.0, d = 3.14159265358979323846 / 180.0;
  double a[3], b[3], c[3];
  a[0] = cos(lat1 * d) * cos(lon1 * d); a[1] = cos(lat1 * d) * sin(lon1 * d); a[2] = sin(lat1 * d);
  b[0] = cos(lat2 * d) * cos(lon2 * d); b[1] = cos(lat2 * d) * sin(lon2 * d); b[2] = sin(lat2 * d);
  c[0] = a[1] * b[2] - a[2] * b[1]; c[1] = a[2] * b[0] - a[0] * b[2]; c[2] = a[0] * b[1] - a[1] * b[0];
  return r * atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

int main(void) {
  const double lon = -118.07692900109724, lat = 33.87283999908298;
  double in[2 * 6], out[2 * 6], alias[2 * 6], untouched[4];
  size_t i;
  for (i = 0; i < 5; i++) { in[2 * i] = lon; in[2 * i + 1] = lat; }
  in[10] = -118.1; in[11] = 33.9;

  CHECK(pindrop_spread(in, 6, 0.0, out) == PINDROP_OK);
  for (i = 0; i < 5; i++) {
    double d = metres(lon, lat, out[2 * i], out[2 * i + 1]);
    CHECK(fabs(d - 7.5) < 1e-6); /* 3n/2 m for n = 5 */
  }
  CHECK(out[1] > lat && fabs(out[0] - lon) < 1e-12); /* the first pin is due north */
  CHECK(out[10] == -118.1 && out[11] == 33.9);        /* a lone point stays exactly put */

  memcpy(alias, in, sizeof in);
  CHECK(pindrop_spread(alias, 6, 0.0, alias) == PINDROP_OK);
  CHECK(memcmp(alias, out, sizeof out) == 0);

  /* Bad input writes nothing. */
  for (i = 0; i < 4; i++) untouched[i] = 7.0;
  {
    double bad[4] = {0, 0, 181, 0};
    CHECK(pindrop_spread(bad, 2, 0.0, untouched) == PINDROP_ERR_INVALID_ARGUMENT);
    bad[2] = NAN;
    CHECK(pindrop_spread(bad, 2, 0.0, untouched) == PINDROP_ERR_INVALID_ARGUMENT);
    bad[2] = 0;
    CHECK(pindrop_spread(bad, 2, -1.0, untouched) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_spread(bad, 2, NAN, untouched) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_spread(NULL, 2, 0.0, untouched) == PINDROP_ERR_INVALID_ARGUMENT);
    CHECK(pindrop_spread(bad, 2, 0.0, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  }
  for (i = 0; i < 4; i++) CHECK(untouched[i] == 7.0);
  CHECK(pindrop_spread(NULL, 0, 0.0, NULL) == PINDROP_OK);

  /* A map draws the same ring, and its true coordinates do not move. */
  {
    pindrop_map *m = NULL;
    pindrop_id ids[6] = {0, 1, 2, 3, 4, 5};
    double x, y;
    CHECK(pindrop_map_create(NULL, &m) == PINDROP_OK);
    CHECK(pindrop_map_add_many(m, ids, in, 6) == PINDROP_OK);
    for (i = 0; i < 6; i++) {
      CHECK(pindrop_map_display_position(m, ids[i], &x, &y) == PINDROP_OK);
      CHECK(x == out[2 * i] && y == out[2 * i + 1]);
      CHECK(pindrop_map_position(m, ids[i], &x, &y) == PINDROP_OK);
      CHECK(x == in[2 * i] && y == in[2 * i + 1]);
    }
    /* Moving pin 2 away leaves a ring of 4 (radius 6 m). */
    CHECK(pindrop_map_set_position(m, 2, -118.08, 33.88) == PINDROP_OK);
    for (i = 0; i < 5; i++) {
      if (i == 2) continue;
      CHECK(pindrop_map_display_position(m, ids[i], &x, &y) == PINDROP_OK);
      CHECK(fabs(metres(lon, lat, x, y) - 6.0) < 1e-6);
    }
    pindrop_map_destroy(m);
  }
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures != 0;
}
