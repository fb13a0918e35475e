/* trees_table.c — the trees CSV read by column names (trees_table.h). */
#define _POSIX_C_SOURCE 200809L
#include "trees_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const TREES_LON_NAMES[] = {"lon", "lng", "long", "longitude", "x", NULL};
static const char *const TREES_LAT_NAMES[] = {"lat", "latitude", "y", NULL};
static const char *const TREES_ID_NAMES[] = {"id", "fid", "objectid", "oid", "tree_id", "treeid", "idx", "index", NULL};
static const char *const TREES_LABEL_NAMES[] = {"species", "botanical_name", "botanical", "botanical_", "botname",
                                               "common_name", "name", NULL};
static const char *const TREES_PLACE_NAMES[] = {"city", "town", "district", "neighbourhood", "neighborhood", NULL};

/* Splits s (changed in place) at sep into at most max fields, honouring "quoted" fields with ""
   for a quote inside. Returns how many fields the line has (may exceed max). */
static size_t trees_split(char *s, char sep, char **out, size_t max) {
  size_t n = 0;
  for (;;) {
    char *start = s, *w = s, end;
    if (*s == '"') {
      s++;
      while (*s) {
        if (*s == '"') {
          if (s[1] == '"') { *w++ = '"'; s += 2; continue; }
          s++;
          break;
        }
        *w++ = *s++;
      }
    }
    while (*s && *s != sep) *w++ = *s++;
    end = *s;
    *w = '\0';
    if (n < max) out[n] = start;
    n++;
    if (end != sep) return n;
    s++;
  }
}

static int trees_find_column(char **names, size_t n, const char *const *wanted) {
  size_t i, w;
  for (w = 0; wanted[w]; w++)
    for (i = 0; i < n; i++)
      if (!g_ascii_strcasecmp(names[i], wanted[w])) return (int)i;
  return -1;
}

static gboolean trees_number(const char *s, double *out) {
  char *end;
  while (*s == ' ') s++;
  if (!*s) return FALSE;
  *out = g_ascii_strtod(s, &end); /* never the locale's decimal comma */
  while (*end == ' ') end++;
  return end != s && *end == '\0' && isfinite(*out);
}

static gboolean trees_integer(const char *s, gint64 *out) {
  char *end;
  while (*s == ' ') s++;
  if (!*s) return FALSE;
  *out = g_ascii_strtoll(s, &end, 10);
  while (*end == ' ') end++;
  return end != s && *end == '\0' && *out != G_MININT64 && *out != G_MAXINT64;
}

/* One kind of row that could not be read: how many, the first one's line and text. */
typedef struct {
  const char *why;
  size_t count, first_line;
  char first_text[48];
} TreesSkip;

static void trees_skip(TreesSkip *k, size_t line, const char *text) {
  if (k->count++ == 0) {
    k->first_line = line;
    g_strlcpy(k->first_text, text, sizeof k->first_text);
  }
}

typedef struct {
  gint64 id;
  size_t row;
} TreesIdRow;

static int trees_cmp_id(const void *a, const void *b) {
  const TreesIdRow *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->row < y->row ? -1 : x->row > y->row);
}

void trees_free(Trees *t) {
  g_free(t->ids);
  g_free(t->lonlat);
  g_free(t->label);
  g_free(t->by_id);
  g_free(t->columns);
  if (t->strings) g_string_chunk_free(t->strings);
  if (t->notes) g_string_free(t->notes, TRUE);
  memset(t, 0, sizeof *t);
}

/* Reads path into *t (trees_free it). Never fails silently: t->failed with t->notes saying why
   when nothing could be read, t->notes listing what was skipped otherwise. */
void trees_read(const char *path, Trees *t) {
  FILE *f = fopen(path, "r");
  char *line = NULL, *header, **names = NULL, **fields = NULL, sep = ',', *id_name = NULL;
  size_t cap = 0, n_names, line_no = 1, rows_cap = 0, *id_lines = NULL, i;
  ssize_t len;
  int lon_col, lat_col, id_col, label_col;
  gboolean ids_usable = TRUE;
  char id_trouble[160] = "";
  TreesSkip skips[4] = {{"with too few fields", 0, 0, ""}, {"whose longitude is not a number", 0, 0, ""},
                        {"whose latitude is not a number", 0, 0, ""},
                        {"with a coordinate off the map (longitude within ±180°, latitude within ±85.05°)", 0, 0, ""}};

  memset(t, 0, sizeof *t);
  t->notes = g_string_new(NULL);
  t->strings = g_string_chunk_new(4096);
  if (!f) {
    g_string_append_printf(t->notes, "cannot open it: %s.\n", g_strerror(errno));
    t->failed = TRUE;
    return;
  }
  len = getline(&line, &cap, f);
  if (len <= 0) {
    g_string_append(t->notes, "it is empty: a CSV file with a header line (lon,lat,...) was expected.\n");
    t->failed = TRUE;
    goto done;
  }
  header = line;
  if ((unsigned char)header[0] == 0xEF && (unsigned char)header[1] == 0xBB && (unsigned char)header[2] == 0xBF)
    header += 3; /* a UTF-8 byte order mark */
  g_strchomp(header);
  {
    /* the separator: the one of , ; tab the header uses most */
    size_t commas = 0, semis = 0, tabs = 0;
    const char *p;
    for (p = header; *p; p++) commas += *p == ',', semis += *p == ';', tabs += *p == '\t';
    if (semis > commas && semis >= tabs) sep = ';';
    else if (tabs > commas && tabs > semis) sep = '\t';
  }
  {
    char *copy = g_strdup(header);
    names = g_new0(char *, strlen(header) + 1); /* at most one field per character, and one */
    n_names = trees_split(copy, sep, names, strlen(header) + 1);
    for (i = 0; i < n_names; i++) names[i] = g_string_chunk_insert(t->strings, g_strstrip(names[i]));
    g_free(copy);
  }
  lon_col = trees_find_column(names, n_names, TREES_LON_NAMES);
  lat_col = trees_find_column(names, n_names, TREES_LAT_NAMES);
  if (lon_col < 0 || lat_col < 0) {
    g_string_append_printf(t->notes, "no %s column in its header \"%s\" (looked for %s).\n",
                           lon_col < 0 && lat_col < 0 ? "longitude or latitude" : lon_col < 0 ? "longitude" : "latitude",
                           header, lon_col < 0 ? "lon, lng, long, longitude, x" : "lat, latitude, y");
    t->failed = TRUE;
    goto done;
  }
  id_col = trees_find_column(names, n_names, TREES_ID_NAMES);
  for (i = 0; id_col < 0 && i < n_names; i++) {
    size_t l = strlen(names[i]);
    if ((int)i != lon_col && (int)i != lat_col && l >= 2 && !g_ascii_strcasecmp(names[i] + l - 2, "id")) id_col = (int)i;
  }
  if (id_col >= 0) id_name = names[id_col];
  label_col = trees_find_column(names, n_names, TREES_LABEL_NAMES);
  if (label_col < 0) {
    label_col = trees_find_column(names, n_names, TREES_PLACE_NAMES);
    t->label_is_place = label_col >= 0;
  }
  fields = g_new0(char *, n_names);

  while ((len = getline(&line, &cap, f)) > 0) {
    double lon, lat;
    size_t nf;
    int need = MAX(lon_col, lat_col);
    char text[48];
    line_no++;
    g_strchomp(line);
    if (!line[0]) continue; /* a blank line, e.g. at the end */
    g_strlcpy(text, line, sizeof text);
    nf = trees_split(line, sep, fields, n_names);
    if (id_col > need) need = id_col;
    if (nf <= (size_t)need) { trees_skip(&skips[0], line_no, text); continue; }
    if (!trees_number(fields[lon_col], &lon)) { trees_skip(&skips[1], line_no, text); continue; }
    if (!trees_number(fields[lat_col], &lat)) { trees_skip(&skips[2], line_no, text); continue; }
    if (fabs(lon) > 180 || fabs(lat) > 85.0511287798) { trees_skip(&skips[3], line_no, text); continue; }
    if (t->n == rows_cap) {
      rows_cap = rows_cap ? 2 * rows_cap : 4096;
      t->ids = g_renew(pindrop_id, t->ids, rows_cap);
      t->lonlat = g_renew(double, t->lonlat, 2 * rows_cap);
      id_lines = g_renew(size_t, id_lines, rows_cap);
      if (label_col >= 0) t->label = g_renew(const char *, t->label, rows_cap);
    }
    if (id_col >= 0 && ids_usable) {
      gint64 id;
      if (trees_integer(fields[id_col], &id)) t->ids[t->n] = id;
      else {
        ids_usable = FALSE;
        g_snprintf(id_trouble, sizeof id_trouble, "its %s column is not a whole number on line %zu (\"%.20s\")",
                   id_name, line_no, fields[id_col]);
      }
    }
    id_lines[t->n] = line_no;
    t->lonlat[2 * t->n] = lon;
    t->lonlat[2 * t->n + 1] = lat;
    if (label_col >= 0)
      t->label[t->n] = (nf > (size_t)label_col && fields[label_col][0])
                           ? g_string_chunk_insert_const(t->strings, g_strstrip(fields[label_col])) : NULL;
    t->n++;
  }

  /* Ids: the id column when its values are whole numbers that never repeat, else the line number. */
  if (id_col >= 0 && ids_usable && t->n > 1) {
    gboolean ascending = TRUE;
    for (i = 1; i < t->n && ascending; i++) ascending = t->ids[i] > t->ids[i - 1];
    if (!ascending) {
      TreesIdRow *sorted = g_new(TreesIdRow, t->n);
      for (i = 0; i < t->n; i++) sorted[i].id = t->ids[i], sorted[i].row = i;
      qsort(sorted, t->n, sizeof *sorted, trees_cmp_id);
      for (i = 1; i < t->n && ids_usable; i++)
        if (sorted[i].id == sorted[i - 1].id) {
          ids_usable = FALSE;
          g_snprintf(id_trouble, sizeof id_trouble, "its %s column repeats (%" G_GINT64_FORMAT " on lines %zu and %zu)",
                     id_name, sorted[i].id, id_lines[sorted[i - 1].row], id_lines[sorted[i].row]);
        }
      if (ids_usable) {
        t->by_id = g_new(size_t, t->n);
        for (i = 0; i < t->n; i++) t->by_id[i] = sorted[i].row;
      }
      g_free(sorted);
    }
  }
  if (id_col < 0 || !ids_usable)
    for (i = 0; i < t->n; i++) t->ids[i] = (pindrop_id)id_lines[i];
  if (id_col >= 0 && !ids_usable)
    g_string_append_printf(t->notes, "%s: the trees are numbered by their line in the file instead.\n", id_trouble);
  for (i = 0; i < G_N_ELEMENTS(skips); i++)
    if (skips[i].count)
      g_string_append_printf(t->notes, "%zu row%s %s skipped (the first: line %zu, \"%s\").\n", skips[i].count,
                             skips[i].count == 1 ? "" : "s", skips[i].why, skips[i].first_line, skips[i].first_text);
  if (t->n == 0 && !t->failed) {
    g_string_append(t->notes, "no row could be read.\n");
    t->failed = TRUE;
  }
  t->columns = g_strdup_printf("lon: %s, lat: %s, id: %s%s%s", names[lon_col], names[lat_col],
                               id_col >= 0 && ids_usable ? id_name : "the line number",
                               label_col >= 0 ? ", label: " : "", label_col >= 0 ? names[label_col] : "");
done:
  g_free(names);
  g_free(fields);
  g_free(id_lines);
  free(line);
  fclose(f);
}

/* The row of id, or (size_t)-1. */
size_t trees_row_of(const Trees *t, pindrop_id id) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2, row = t->by_id ? t->by_id[mid] : mid;
    if (t->ids[row] < id) lo = mid + 1;
    else hi = mid;
  }
  if (lo < t->n) {
    size_t row = t->by_id ? t->by_id[lo] : lo;
    if (t->ids[row] == id) return row;
  }
  return (size_t)-1;
}
