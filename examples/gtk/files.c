/* What the app reads and writes: the trees file (trees_table.h) and its categories, the address
   inventories (geocoder.h), and --save's file of moved trees. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_id(const void *a, const void *b) {
  pindrop_id x = *(const pindrop_id *)a, y = *(const pindrop_id *)b;
  return x < y ? -1 : x > y;
}

void save_move(App *app, pindrop_id id, double lon, double lat) {
  GString *out;
  GHashTableIter it;
  gpointer k, v;
  pindrop_id *ids;
  size_t n = 0, i;
  GError *error = NULL;
  double *ll;
  if (!app->save_path) return;
  ll = g_new(double, 2);
  ll[0] = lon, ll[1] = lat;
  k = g_new(pindrop_id, 1);
  *(pindrop_id *)k = id;
  g_hash_table_replace(app->saved, k, ll);
  ids = g_new(pindrop_id, g_hash_table_size(app->saved));
  g_hash_table_iter_init(&it, app->saved);
  while (g_hash_table_iter_next(&it, &k, &v)) ids[n++] = *(pindrop_id *)k;
  qsort(ids, n, sizeof *ids, cmp_id);
  out = g_string_new("id,lon,lat\n");
  for (i = 0; i < n; i++) {
    const double *p = g_hash_table_lookup(app->saved, &ids[i]);
    g_string_append_printf(out, "%lld,%.17g,%.17g\n", (long long)ids[i], p[0], p[1]);
  }
  if (!g_file_set_contents(app->save_path, out->str, (gssize)out->len, &error)) {
    fprintf(stderr, "%s: the move of tree %lld was not saved: %s\n", app->save_path, (long long)id, error->message);
    g_error_free(error);
  } else {
    printf("SAVED %s %zu\n", app->save_path, n);
  }
  g_string_free(out, TRUE);
  g_free(ids);
}

/* The label column's values as pindrop's categories: codes by how many trees have them (0 the
   most, ties by name), so that the palette's colours go to the commonest. */
typedef struct {
  const char *name;
  size_t count;
} CategoryCount;

static int cmp_category(const void *a, const void *b) {
  const CategoryCount *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return strcmp(x->name, y->name);
}

static void set_categories(App *app) {
  GHashTable *counts = g_hash_table_new(g_direct_hash, g_direct_equal); /* interned name -> count */
  GHashTable *codes = g_hash_table_new(g_direct_hash, g_direct_equal);
  GHashTableIter it;
  gpointer k, v;
  CategoryCount *sorted;
  size_t i, n = 0;
  int status;
  for (i = 0; i < app->trees.n; i++)
    if (app->trees.label[i])
      g_hash_table_insert(counts, (gpointer)app->trees.label[i],
                          GSIZE_TO_POINTER(GPOINTER_TO_SIZE(g_hash_table_lookup(counts, app->trees.label[i])) + 1));
  sorted = g_new(CategoryCount, g_hash_table_size(counts) + 1);
  g_hash_table_iter_init(&it, counts);
  while (g_hash_table_iter_next(&it, &k, &v)) sorted[n].name = k, sorted[n].count = GPOINTER_TO_SIZE(v), n++;
  qsort(sorted, n, sizeof *sorted, cmp_category);
  app->category_names = g_ptr_array_new();
  for (i = 0; i < n; i++) {
    g_ptr_array_add(app->category_names, (gpointer)sorted[i].name);
    g_hash_table_insert(codes, (gpointer)sorted[i].name, GSIZE_TO_POINTER(i + 1));
  }
  /* trees without a label: one more category, "unknown" */
  g_ptr_array_add(app->category_names, "unknown");
  app->categories = g_new(guint32, app->trees.n);
  for (i = 0; i < app->trees.n; i++)
    app->categories[i] = app->trees.label[i] ? (guint32)GPOINTER_TO_SIZE(g_hash_table_lookup(codes, app->trees.label[i])) - 1
                                             : (guint32)n;
  app->category_noun = app->trees.label_is_place ? "cities" : "species";
  status = pindrop_map_set_attributes(app->pd, app->trees.ids, NULL, app->categories, app->trees.n);
  report(app, "pindrop_map_set_attributes", status);
  printf("CATEGORIES %zu %s\n", n, app->category_noun);
  g_free(sorted);
  g_hash_table_destroy(counts);
  g_hash_table_destroy(codes);
}

/* Reads the trees (trees_table.h) and adds them with one batch call; says what could not be read
   on stderr and in the status line. */
void load_trees(App *app) {
  char *base = g_path_get_basename(app->csv), **notes;
  int status = PINDROP_OK;
  size_t i;
  trees_read(app->csv, &app->trees);
  if (!app->trees.failed) {
    status = pindrop_map_add_many(app->pd, app->trees.ids, app->trees.lonlat, app->trees.n);
    if (status != PINDROP_OK) {
      g_string_append_printf(app->trees.notes, "pindrop refused the trees: %s.\n", pindrop_map_last_error(app->pd));
      app->trees.failed = TRUE;
    }
  }
  if (!app->trees.failed && app->trees.label) set_categories(app);
  notes = g_strsplit(app->trees.notes->str[0] ? app->trees.notes->str : "\n", "\n", -1); /* notes[0]: the first */
  for (i = 0; notes[i]; i++)
    if (notes[i][0]) fprintf(stderr, "%s: %s\n", app->csv, notes[i]);
  if (app->trees.failed) {
    printf("LOADED 0 %s\n", app->csv);
    app->load_summary = g_strdup_printf("Nothing loaded from %s: %s", base, notes[0]);
  } else {
    printf("LOADED %zu %s (%s)\n", app->trees.n, app->csv, app->trees.columns);
    char *count = thousands(app->trees.n);
    app->load_summary = g_strdup_printf("%s trees from %s%s%s", count, base, notes[0][0] ? " · " : "",
                                        notes[0][0] ? notes[0] : "");
    g_free(count);
  }
  fflush(stdout);
  g_strfreev(notes);
  g_free(base);
}

/* Reads every --addresses path (a GeoJSON file, or a folder of *.geojson) into the geocoder. */
void load_addresses(App *app, GPtrArray *paths) {
  guint i;
  geocoder_init(&app->geocoder);
  for (i = 0; i < paths->len; i++) {
    const char *path = g_ptr_array_index(paths, i);
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    guint j;
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
      GDir *dir = g_dir_open(path, 0, NULL);
      const char *name;
      while (dir && (name = g_dir_read_name(dir)))
        if (g_str_has_suffix(name, ".geojson") || g_str_has_suffix(name, ".json"))
          g_ptr_array_add(files, g_build_filename(path, name, NULL));
      if (dir) g_dir_close(dir);
      if (!files->len) fprintf(stderr, "%s: no *.geojson file in this folder: no addresses from it\n", path);
    } else {
      g_ptr_array_add(files, g_strdup(path));
    }
    for (j = 0; j < files->len; j++) {
      GError *error = NULL;
      long n = geocoder_add_file(&app->geocoder, g_ptr_array_index(files, j), &error);
      if (n < 0) {
        fprintf(stderr, "%s: no addresses read: %s\n", (char *)g_ptr_array_index(files, j), error->message);
        g_error_free(error);
      } else {
        printf("ADDRESSES %ld %s\n", n, (char *)g_ptr_array_index(files, j));
      }
    }
    g_ptr_array_free(files, TRUE);
  }
  geocoder_index(&app->geocoder);
}
