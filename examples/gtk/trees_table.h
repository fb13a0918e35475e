/*
 * trees_table.h — reads a tree inventory from a CSV file for the app, by the names in its
 * header rather than by position: the longitude and latitude columns in either order (lon, lng,
 * long, longitude or x; lat, latitude or y), an id column if there is one (id, fid, objectid, oid,
 * tree_id, idx, index, or any name ending in "id"), else the line number, and a label column for
 * the callout's title (species, botanical_name, botname, common_name, name; else a city column).
 * Separators: comma, semicolon or tab (the one the header uses), fields may be "quoted".
 *
 * What could not be read is said, never skipped silently: a missing column, rows whose fields do
 * not parse (how many, for what reason, the first line of each kind with its text), ids that are
 * not whole numbers or repeat (the trees are then numbered by their line in the file).
 */
#ifndef PINDROP_GTK_TREES_TABLE_H
#define PINDROP_GTK_TREES_TABLE_H

#include <glib.h>
#include <pindrop.h>

typedef struct {
  size_t n;
  pindrop_id *ids;      /* n ids */
  double *lonlat;       /* 2n: lon, lat */
  const char **label;   /* n labels (NULL for an empty field), or NULL without a label column */
  gboolean label_is_place; /* the label is a city ("Tree 12, lawndale"), not a species */
  GStringChunk *strings;
  size_t *by_id;        /* the rows in id order (binary search), NULL when ids ascend already */
  char *columns;        /* which columns were used, for the status line */
  GString *notes;       /* what could not be read, one sentence a line; empty when all was read */
  gboolean failed;      /* nothing could be read (no file, no coordinate columns) */
} Trees;

/* Reads path into *t (trees_free it). Never fails silently: t->failed with t->notes saying why
   when nothing could be read, t->notes listing what was skipped otherwise. */
void trees_read(const char *path, Trees *t);
void trees_free(Trees *t);

/* The row of id, or (size_t)-1. */
size_t trees_row_of(const Trees *t, pindrop_id id);

#endif
