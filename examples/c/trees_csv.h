/*
 * trees_csv.h — reads a tree inventory for the C examples (replay.c): a header line that starts
 * "id,lon,lat", then rows "id,lon,lat[,anything else]". A file with other columns is refused with
 * its header in the message; rows that do not parse are counted and reported, never dropped
 * silently. (The GTK app reads columns by name: ../gtk/trees_table.h.)
 */
#ifndef PINDROP_EXAMPLES_TREES_CSV_H
#define PINDROP_EXAMPLES_TREES_CSV_H

#include <pindrop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether c ends a CSV field: a comma, the line's end or the text's. */
static int trees_csv_field_ends(char c) { return c == ',' || c == '\n' || c == '\r' || c == '\0'; }

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
  size_t skipped = 0, first_skipped = 0, line_no = 1;
  if (!fgets(line, sizeof line, f) || strncmp(line, "id,lon,lat", 10) != 0 || !trees_csv_field_ends(line[10])) {
    line[strcspn(line, "\r\n")] = '\0';
    fprintf(stderr, "%s: the header must start \"id,lon,lat\", not \"%s\"\n", path, line);
    fclose(f);
    return -1;
  }
  while (fgets(line, sizeof line, f)) {
    char *end;
    long long id;
    double lon, lat;
    line_no++;
    id = strtoll(line, &end, 10);
    if (end == line || *end != ',') goto skip;
    lon = strtod(end + 1, &end);
    if (*end != ',') goto skip;
    lat = strtod(end + 1, &end);
    if (!trees_csv_field_ends(*end)) goto skip;
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
    continue;
  skip:
    if (!skipped++) first_skipped = line_no;
  }
  fclose(f);
  if (skipped)
    fprintf(stderr, "%s: %zu rows are not \"id,lon,lat,...\" and were left out (the first on line %zu)\n", path,
            skipped, first_skipped);
  *out_ids = ids;
  *out_lonlat = lonlat;
  *out_n = n;
  return 0;
}

#endif
