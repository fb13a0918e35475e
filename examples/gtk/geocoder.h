/*
 * geocoder.h — a local reverse geocoder for the app, over tree inventories in GeoJSON whose
 * features carry address attributes (the Los Angeles County inventories: Artesia's ADDRESS and
 * STREET, Lawndale's PROP_ADR and PROP_STREE, ...). The answer for a point is the address of the
 * nearest tree that has one, within GEOCODER_REACH_M; farther than that, there is none.
 *
 * Every point with an address is kept (a few thousand for the county's inventories), and a query
 * is a scan over them in a grid of cells about 1 km wide: the cells within reach of the point are
 * visited, nearest first is not needed (a few dozen points each).
 */
#ifndef PINDROP_GTK_GEOCODER_H
#define PINDROP_GTK_GEOCODER_H

#include <glib.h>

#define GEOCODER_REACH_M 150.0
#define GEOCODER_CELL_DEG 0.01 /* ~1.1 km of latitude, ~0.9 km of longitude in Los Angeles */

typedef struct {
  double lon, lat;
  const char *text;
} GeoAddress;

typedef struct {
  GArray *points;       /* GeoAddress, sorted by cell */
  GHashTable *cells;    /* cell key -> first index + 1 in points (GUINT_TO_POINTER) */
  GStringChunk *strings;
  size_t files;
} Geocoder;

void geocoder_init(Geocoder *g);
void geocoder_free(Geocoder *g);
/* Adds the addressed points of one GeoJSON FeatureCollection. Returns how many, or -1 with *error
   set (g_error_free it). */
long geocoder_add_file(Geocoder *g, const char *path, GError **error);
/* Sorts the points by cell and indexes the cells: call after the last geocoder_add_file. */
void geocoder_index(Geocoder *g);
/* The answer to a reverse-geocode request at (lon, lat), to g_free: the nearest address ("12148
   180th St, Artesia"), "near ..." with the distance beyond 30 m, or the coordinate and "no address
   on file within 150 m". */
char *geocoder_answer(const Geocoder *g, double lon, double lat);

#endif
