/*
 * trees_csv.h — reads a tree inventory for the C examples (replay.c, ../gtk/pindrop_gtk.c): a
 * header line, then rows "id,lon,lat[,anything else]". Rows that do not parse are skipped.
 */
#ifndef PINDROP_EXAMPLES_TREES_CSV_H
#define PINDROP_EXAMPLES_TREES_CSV_H

#include <pindrop.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads `path` into *out_ids and *out_lonlat (lon, lat interleaved), both malloc'ed for the caller
   to free, and their count into *out_n. Returns 0, or -1 (with a message on stderr, nothing to
   free) when the file cannot be read or memory runs out. */
static int read_trees_csv(const char *path, pindrop_id **out_ids, double **out_lonlat, size_t *out_n) {
  FILE *f = fopen(path, "r");
  char line[1024];
  size_t n = 0, cap = 0;
  pindrop_id *ids = NULL;
  double *lonlat = NULL;
  if (!f) {
    perror(path);
    return -1;
  }
  if (!fgets(line, sizeof line, f)) line[0] = '\0'; /* the header */
  while (fgets(line, sizeof line, f)) {
    char *end;
    long long id = strtoll(line, &end, 10);
    double lon, lat;
    if (end == line || *end != ',') continue;
    lon = strtod(end + 1, &end);
    if (*end != ',') continue;
    lat = strtod(end + 1, &end);
    if (n == cap) {
      size_t grown = cap ? 2 * cap : 1024;
      pindrop_id *i2 = (pindrop_id *)realloc(ids, grown * sizeof *ids);
      double *l2 = i2 ? (double *)realloc(lonlat, 2 * grown * sizeof *lonlat) : NULL;
      if (i2) ids = i2;
      if (!l2) {
        fprintf(stderr, "%s: out of memory after %zu rows\n", path, n);
        free(ids);
        free(lonlat);
        fclose(f);
        return -1;
      }
      lonlat = l2;
      cap = grown;
    }
    ids[n] = (pindrop_id)id;
    lonlat[2 * n] = lon;
    lonlat[2 * n + 1] = lat;
    n++;
  }
  fclose(f);
  *out_ids = ids;
  *out_lonlat = lonlat;
  *out_n = n;
  return 0;
}

#endif
