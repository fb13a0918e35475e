/* What the benchmarks share: reading the LA street-tree inventory. Included by bench_*.c. */
#ifndef PINDROP_BENCH_TREES_H
#define PINDROP_BENCH_TREES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads city,idx,lat,lon rows into interleaved lon,lat pairs; returns the number of rows. */
static size_t load_trees(const char *path, double **out_lonlat) {
  FILE *f = fopen(path, "r");
  size_t cap = 1 << 20, n = 0;
  double *ll;
  char line[512];
  if (!f) { perror(path); exit(2); }
  ll = (double *)malloc(2 * cap * sizeof *ll);
  if (!ll || !fgets(line, sizeof line, f)) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  while (fgets(line, sizeof line, f)) {
    char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *end;
    double lat, lon;
    if (!c2) continue;
    lat = strtod(c2 + 1, &end);
    if (*end != ',') continue;
    lon = strtod(end + 1, NULL);
    if (n == cap) {
      cap *= 2;
      ll = (double *)realloc(ll, 2 * cap * sizeof *ll);
      if (!ll) { fprintf(stderr, "out of memory\n"); exit(2); }
    }
    ll[2 * n] = lon; ll[2 * n + 1] = lat; n++;
  }
  fclose(f);
  *out_lonlat = ll;
  return n;
}

#endif
