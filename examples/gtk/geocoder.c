/* geocoder.c — the local reverse geocoder (geocoder.h). */
#define _POSIX_C_SOURCE 200809L
#include "geocoder.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static gint64 geocoder_cell(double lon, double lat) {
  gint64 cx = (gint64)floor((lon + 180) / GEOCODER_CELL_DEG), cy = (gint64)floor((lat + 90) / GEOCODER_CELL_DEG);
  return cx * 100000 + cy;
}

static int geocoder_cmp_cell(const void *a, const void *b) {
  const GeoAddress *x = a, *y = b;
  gint64 cx = geocoder_cell(x->lon, x->lat), cy = geocoder_cell(y->lon, y->lat);
  return cx < cy ? -1 : cx > cy;
}

/* "180TH ST" -> "180th St", "HORST AV" -> "Horst Av": each word's first letter upper case unless
   the word starts with a digit. */
static void geocoder_title_case(char *s) {
  gboolean word_start = TRUE, digits = FALSE;
  for (; *s; s++) {
    if (*s == ' ' || *s == '-' || *s == '/') { word_start = TRUE; continue; }
    if (word_start) digits = g_ascii_isdigit(*s);
    *s = (word_start && !digits) ? g_ascii_toupper(*s) : g_ascii_tolower(*s);
    word_start = FALSE;
  }
}

/* A property's value as text: NULL for null, missing, empty, 0 or an object/array. */
static char *geocoder_value(JsonObject *props, const char *const *names) {
  size_t i;
  for (i = 0; names[i]; i++) {
    JsonNode *v = json_object_get_member(props, names[i]);
    GType type;
    if (!v || !JSON_NODE_HOLDS_VALUE(v)) continue;
    type = json_node_get_value_type(v);
    if (type == G_TYPE_STRING) {
      const char *s = json_node_get_string(v);
      if (s && *s && strcmp(s, "0") != 0) return g_strstrip(g_strdup(s));
    } else if (type == G_TYPE_INT64) {
      gint64 n = json_node_get_int(v);
      if (n > 0) return g_strdup_printf("%" G_GINT64_FORMAT, n);
    } else if (type == G_TYPE_DOUBLE) {
      double d = json_node_get_double(v);
      if (d > 0 && d == floor(d) && d < 1e9) return g_strdup_printf("%.0f", d);
    }
  }
  return NULL;
}

/* "west-hollywood.geojson" -> "West Hollywood" */
static char *geocoder_place_from_file(const char *path) {
  char *base = g_path_get_basename(path), *dot = strrchr(base, '.'), *p;
  if (dot) *dot = '\0';
  for (p = base; *p; p++)
    if (*p == '-' || *p == '_') *p = ' ';
  for (p = base; *p; p++) *p = g_ascii_tolower(*p);
  geocoder_title_case(base);
  return base;
}

void geocoder_init(Geocoder *g) {
  memset(g, 0, sizeof *g);
  g->points = g_array_new(FALSE, FALSE, sizeof(GeoAddress));
  g->strings = g_string_chunk_new(1 << 16);
  g->cells = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
}

void geocoder_free(Geocoder *g) {
  if (g->points) g_array_free(g->points, TRUE);
  if (g->strings) g_string_chunk_free(g->strings);
  if (g->cells) g_hash_table_destroy(g->cells);
  memset(g, 0, sizeof *g);
}

/* Adds the addressed points of one GeoJSON FeatureCollection. Returns how many, or -1 with *error
   set (g_error_free it). */
long geocoder_add_file(Geocoder *g, const char *path, GError **error) {
  static const char *const numbers[] = {"ADDRESS", "PROP_ADR", "ONADDRESS", "HOUSE_NUMBER", "HOUSENUMBER",
                                        "ADDR_NUM", "address_number", "housenumber", NULL};
  static const char *const streets[] = {"STREET", "PROP_STREE", "ONSTREET", "STREET_NAME", "STREETNAME", "street",
                                        NULL};
  static const char *const cities[] = {"CITY", "city", NULL};
  JsonParser *parser = json_parser_new();
  JsonNode *root;
  JsonArray *features;
  char *place_from_file = geocoder_place_from_file(path);
  long added = 0;
  guint i;
  if (!json_parser_load_from_mapped_file(parser, path, error)) {
    g_object_unref(parser);
    g_free(place_from_file);
    return -1;
  }
  root = json_parser_get_root(parser);
  if (!root || !JSON_NODE_HOLDS_OBJECT(root) || !json_object_has_member(json_node_get_object(root), "features") ||
      !JSON_NODE_HOLDS_ARRAY(json_object_get_member(json_node_get_object(root), "features"))) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s is not a GeoJSON FeatureCollection", path);
    g_object_unref(parser);
    g_free(place_from_file);
    return -1;
  }
  features = json_object_get_array_member(json_node_get_object(root), "features");
  for (i = 0; i < json_array_get_length(features); i++) {
    JsonNode *fn = json_array_get_element(features, i), *gn, *pn, *cn;
    JsonObject *feature, *geometry, *props;
    JsonArray *coords;
    char *number, *street, *city, *text;
    GeoAddress a;
    if (!JSON_NODE_HOLDS_OBJECT(fn)) continue;
    feature = json_node_get_object(fn);
    gn = json_object_get_member(feature, "geometry");
    pn = json_object_get_member(feature, "properties");
    if (!gn || !pn || !JSON_NODE_HOLDS_OBJECT(gn) || !JSON_NODE_HOLDS_OBJECT(pn)) continue;
    geometry = json_node_get_object(gn);
    props = json_node_get_object(pn);
    if (g_strcmp0(json_object_get_string_member_with_default(geometry, "type", ""), "Point") != 0) continue;
    cn = json_object_get_member(geometry, "coordinates");
    if (!cn || !JSON_NODE_HOLDS_ARRAY(cn)) continue;
    coords = json_node_get_array(cn);
    if (json_array_get_length(coords) < 2) continue;
    a.lon = json_array_get_double_element(coords, 0);
    a.lat = json_array_get_double_element(coords, 1);
    if (!isfinite(a.lon) || !isfinite(a.lat) || fabs(a.lon) > 180 || fabs(a.lat) > 90) continue;
    number = geocoder_value(props, numbers);
    street = geocoder_value(props, streets);
    if (!number && !street) continue;
    city = geocoder_value(props, cities);
    if (street) geocoder_title_case(street);
    text = street ? g_strdup_printf("%s%s%s, %s", number ? number : "", number ? " " : "", street,
                                    city ? city : place_from_file)
                  : g_strdup_printf("No. %s (street not recorded), %s", number, city ? city : place_from_file);
    a.text = g_string_chunk_insert_const(g->strings, text);
    g_array_append_val(g->points, a);
    added++;
    g_free(number);
    g_free(street);
    g_free(city);
    g_free(text);
  }
  g_object_unref(parser);
  g_free(place_from_file);
  g->files++;
  return added;
}

/* Sorts the points by cell and indexes the cells: call after the last geocoder_add_file. */
void geocoder_index(Geocoder *g) {
  guint i;
  g_array_sort(g->points, geocoder_cmp_cell);
  g_hash_table_remove_all(g->cells);
  for (i = 0; i < g->points->len; i++) {
    const GeoAddress *a = &g_array_index(g->points, GeoAddress, i);
    gint64 key = geocoder_cell(a->lon, a->lat);
    if (!g_hash_table_contains(g->cells, &key)) {
      gint64 *k = g_new(gint64, 1);
      *k = key;
      g_hash_table_insert(g->cells, k, GUINT_TO_POINTER(i + 1));
    }
  }
}

/* Metres between two points (haversine, sphere of radius 6378137 m). */
static double geocoder_distance_m(double lon1, double lat1, double lon2, double lat2) {
  double p1 = lat1 * G_PI / 180, p2 = lat2 * G_PI / 180, dp = p2 - p1, dl = (lon2 - lon1) * G_PI / 180;
  double h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2);
  return 2 * 6378137.0 * asin(fmin(1, sqrt(h)));
}

/* The nearest addressed point within GEOCODER_REACH_M of (lon, lat), or NULL; *out_m its distance. */
static const GeoAddress *geocoder_nearest(const Geocoder *g, double lon, double lat, double *out_m) {
  const GeoAddress *best = NULL;
  double best_m = GEOCODER_REACH_M;
  int dx, dy;
  if (!g->points || g->points->len == 0) return NULL;
  for (dx = -1; dx <= 1; dx++)
    for (dy = -1; dy <= 1; dy++) {
      gint64 key = geocoder_cell(lon + dx * GEOCODER_CELL_DEG, lat + dy * GEOCODER_CELL_DEG);
      guint i = GPOINTER_TO_UINT(g_hash_table_lookup(g->cells, &key));
      if (!i) continue;
      for (i = i - 1; i < g->points->len; i++) {
        const GeoAddress *a = &g_array_index(g->points, GeoAddress, i);
        double m;
        if (geocoder_cell(a->lon, a->lat) != key) break;
        m = geocoder_distance_m(lon, lat, a->lon, a->lat);
        if (m <= best_m) best_m = m, best = a;
      }
    }
  if (best && out_m) *out_m = best_m;
  return best;
}

/* The answer to a reverse-geocode request at (lon, lat), to g_free: the nearest address ("12148
   180th St, Artesia"), "near ..." with the distance beyond 30 m, or the coordinate and "no address
   on file within 150 m". */
char *geocoder_answer(const Geocoder *g, double lon, double lat) {
  double m = 0;
  const GeoAddress *a = geocoder_nearest(g, lon, lat, &m);
  if (!a) return g_strdup_printf("%.5f, %.5f · no address on file within %.0f m", lat, lon, GEOCODER_REACH_M);
  if (m > 30) return g_strdup_printf("near %s (%.0f m)", a->text, m);
  return g_strdup(a->text);
}
