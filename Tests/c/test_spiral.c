/* pindrop_spread_spiral through the C ABI: a stack laid out in screen points at a zoom (checked
   with Web Mercator written here), the same points at zooms 15..22, all-or-nothing on bad input,
   out aliasing the input, n = 0 and NULL pointers. */
#include <pindrop.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static const double PI = 3.14159265358979323846;

/* Web Mercator world points at a zoom, from the textbook formula y = ln(tan(π/4 + φ/2)). */
static void world(double lon, double lat, double zoom, double *x, double *y) {
  double size = 256.0 * pow(2.0, zoom);
  *x = (lon + 180.0) / 360.0 * size;
  *y = (0.5 - log(tan(PI / 4 + lat * PI / 360.0)) / (2 * PI)) * size;
}

int main(void) {
  const double lon = -118.34600679066747, lat = 33.88355188855412; /* Lawndale's big stack */
  enum { N = 12 };
  double in[2 * N], out[2 * N], copy[2 * N];
  double first[2 * N];
  int z;
  size_t i;
  for (i = 0; i < N; i++) { in[2 * i] = lon; in[2 * i + 1] = lat; }

  /* 12 pins, spacing 25 (s = 1): the spiral. Pin 11 is innermost: A = 28/11 + 0.0005·12,
     L = 11 + 10π/A, at bearing A clockwise from north. */
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 18.0, out) == PINDROP_OK);
  {
    double cx, cy, px, py, a = 28.0 / 11.0 + 0.0005 * N, l = 11.0 + 10.0 * PI / a;
    world(lon, lat, 18.0, &cx, &cy);
    world(out[2 * (N - 1)], out[2 * (N - 1) + 1], 18.0, &px, &py);
    CHECK(fabs(px - cx - l * sin(a)) < 1e-6);
    CHECK(fabs(py - cy + l * cos(a)) < 1e-6);
  }
  /* The same offsets in points at every zoom 15..22. */
  for (z = 15; z <= 22; z++) {
    double cx, cy;
    CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, (double)z, out) == PINDROP_OK);
    world(lon, lat, z, &cx, &cy);
    for (i = 0; i < N; i++) {
      double px, py;
      world(out[2 * i], out[2 * i + 1], z, &px, &py);
      if (z == 15) { first[2 * i] = px - cx; first[2 * i + 1] = py - cy; }
      CHECK(fabs(px - cx - first[2 * i]) < 1e-6 && fabs(py - cy - first[2 * i + 1]) < 1e-6);
    }
  }

  /* out may alias in. */
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 18.0, out) == PINDROP_OK);
  memcpy(copy, in, sizeof in);
  CHECK(pindrop_spread_spiral(copy, N, 0.0, 25.0, 18.0, copy) == PINDROP_OK);
  CHECK(memcmp(copy, out, sizeof out) == 0);

  /* Bad input writes nothing. */
  memcpy(copy, in, sizeof in);
  memcpy(first, in, sizeof in);
  CHECK(pindrop_spread_spiral(in, N, 0.0, 0.0, 18.0, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 30.5, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, NAN, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(in, N, -1.0, 25.0, 18.0, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  in[5] = 91.0;
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 18.0, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  in[5] = lat;
  in[20] = in[22] = 3.0; in[21] = in[23] = 89.5;   /* a stack of two beyond Web Mercator */
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 18.0, copy) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(copy, first, sizeof copy) == 0);
  in[22] = 4.0;                                     /* ...but one pin alone there is fine */
  CHECK(pindrop_spread_spiral(in, N, 0.0, 25.0, 18.0, copy) == PINDROP_OK);
  CHECK(copy[20] == 3.0 && copy[21] == 89.5 && copy[22] == 4.0 && copy[23] == 89.5);

  /* n = 0 with NULL pointers is OK; NULL with n > 0 is not; parameters are checked even at n = 0. */
  CHECK(pindrop_spread_spiral(NULL, 0, 0.0, 25.0, 18.0, NULL) == PINDROP_OK);
  CHECK(pindrop_spread_spiral(NULL, 0, 0.0, -25.0, 18.0, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(NULL, 3, 0.0, 25.0, 18.0, out) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(in, 3, 0.0, 25.0, 18.0, NULL) == PINDROP_ERR_INVALID_ARGUMENT);
  CHECK(pindrop_spread_spiral(in, (size_t)1 << 63, 0.0, 25.0, 18.0, out) == PINDROP_ERR_INVALID_ARGUMENT);

  if (failures) { fprintf(stderr, "test_spiral: %d failures\n", failures); return 1; }
  printf("test_spiral: ok\n");
  return 0;
}
