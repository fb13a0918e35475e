/* What the app says to a keyboard or screen-reader user: announcements on the status line (and
   through gtk_accessible_announce on GTK 4.14+), and clusters and moves in words. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Says what happened to assistive technology: GTK 4.14's gtk_accessible_announce where the GTK
   has it; always the status line, a label with the accessible role "status" (a live region:
   screen readers read its changes without moving the focus). Printed for the tests. */
void announce(App *app, const char *text) {
  printf("ANNOUNCE %s\n", text);
  fflush(stdout);
  if (app->status) gtk_label_set_text(GTK_LABEL(app->status), text);
#if GTK_CHECK_VERSION(4, 14, 0)
  if (app->window) gtk_accessible_announce(GTK_ACCESSIBLE(app->window), text, GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
#endif
}

/* "north-east" for a bearing in degrees clockwise from north. */
static const char *compass(double bearing) {
  static const char *names[] = {"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"};
  return names[(int)floor(fmod(bearing + 22.5 + 360, 360) / 45) % 8];
}

/* "moved 12 m north-east" from (lon0, lat0) to (lon1, lat1), by pindrop's sphere. */
static char *moved_text(const char *verb, double lon0, double lat0, double lon1, double lat1) {
  double m = 0, bearing = 0;
  if (pindrop_distance(lon0, lat0, lon1, lat1, &m, &bearing) != PINDROP_OK) return g_strdup(verb);
  if (m < 0.5) return g_strdup_printf("%s less than a metre", verb);
  return g_strdup_printf("%s %.0f m %s", verb, m, compass(bearing));
}

/* A collapsed stack's categories from its members: how many kinds, the most common (ties: the
   lower code) and its count. */
static size_t stack_categories(App *app, uint64_t key, guint32 *out_category, guint32 *out_count) {
  size_t n = pindrop_map_cluster_members(app->pd, key, NULL, 0), i, kinds = 0;
  pindrop_id *ids = g_new(pindrop_id, n + 1);
  GHashTable *counts = g_hash_table_new(g_direct_hash, g_direct_equal);
  GHashTableIter it;
  gpointer k, v;
  n = pindrop_map_cluster_members(app->pd, key, ids, n);
  for (i = 0; i < n; i++) {
    size_t row = trees_row_of(&app->trees, ids[i]);
    guint32 c = row == (size_t)-1 ? (guint32)(app->category_names->len - 1) : app->categories[row];
    g_hash_table_insert(counts, GUINT_TO_POINTER(c + 1),
                        GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(counts, GUINT_TO_POINTER(c + 1))) + 1));
  }
  *out_count = 0;
  g_hash_table_iter_init(&it, counts);
  while (g_hash_table_iter_next(&it, &k, &v)) {
    guint32 c = GPOINTER_TO_UINT(k) - 1, m = GPOINTER_TO_UINT(v);
    kinds++;
    if (m > *out_count || (m == *out_count && c < *out_category)) *out_category = c, *out_count = m;
  }
  g_hash_table_destroy(counts);
  g_free(ids);
  return kinds;
}

/* A cluster (or collapsed stack) in words: "1,112 trees · 45 species · mostly Platanus racemosa
   (20 %)"; *out_dominant gets its most common category (PINDROP_CATEGORY_MIXED when unknown). */
char *cluster_text(App *app, uint64_t key, uint32_t count, uint32_t flags, guint32 *out_dominant) {
  guint32 category = PINDROP_CATEGORY_MIXED, members = 0;
  size_t kinds = pindrop_map_cluster_categories(app->pd, key, &category, &members, 1);
  char *n = thousands(count), *text;
  if (kinds == 0 && app->categories && (flags & PINDROP_CLUSTER_STACK))
    kinds = stack_categories(app, key, &category, &members); /* pindrop summarises clusters, not stacks */
  const char *what = (flags & PINDROP_CLUSTER_STACK) ? "stack of " : "";
  const char *spot = (flags & (PINDROP_CLUSTER_STACK | PINDROP_CLUSTER_ONE_SPOT)) ? " on one spot" : "";
  if (out_dominant) *out_dominant = kinds ? category : PINDROP_CATEGORY_MIXED;
  if (!app->category_names || kinds == 0 || category >= app->category_names->len)
    text = g_strdup_printf("%s%s trees%s", what, n, spot);
  else if (kinds == 1)
    text = g_strdup_printf("%s%s trees%s · all %s", what, n, spot, (char *)g_ptr_array_index(app->category_names, category));
  else
    text = g_strdup_printf("%s%s trees%s · %zu %s · mostly %s (%.0f %%)", what, n, spot, kinds, app->category_noun,
                           (char *)g_ptr_array_index(app->category_names, category), 100.0 * members / count);
  g_free(n);
  return text;
}

/* What the keyboard user hears about an event (a keyboard drag, undo, stacks). */
void announce_event(App *app, const pindrop_event *e) {
  char *text = NULL;
  switch (e->type) {
  case PINDROP_EVENT_LIFTED:
    if (!app->key_dragging) return;
    app->lift_lon = e->lon, app->lift_lat = e->lat;
    text = g_strdup_printf("Tree %lld lifted", (long long)e->id);
    break;
  case PINDROP_EVENT_DRAGGED:
    if (!app->key_dragging) return;
    text = moved_text("moved", app->lift_lon, app->lift_lat, e->lon, e->lat);
    break;
  case PINDROP_EVENT_DROPPED:
    if (!app->key_dragging) return;
    app->key_dragging = FALSE;
    text = g_strdup("dropped");
    break;
  case PINDROP_EVENT_DRAG_CANCELLED:
    app->key_dragging = FALSE;
    text = g_strdup("back where it was");
    break;
  case PINDROP_EVENT_MOVED:
    if (e->cause == PINDROP_CAUSE_UNDO) text = g_strdup("back where it was");
    else if (e->cause == PINDROP_CAUSE_REDO) text = moved_text("moved again", e->from_lon, e->from_lat, e->lon, e->lat);
    else if (e->cause == PINDROP_CAUSE_NUDGE) text = moved_text("moved", e->from_lon, e->from_lat, e->lon, e->lat);
    else return;
    break;
  case PINDROP_EVENT_STACK_OPENED:
  case PINDROP_EVENT_STACK_CLOSED: {
    pindrop_id none;
    size_t n = pindrop_map_cluster_members(app->pd, e->request, &none, 0);
    char *count = thousands(n);
    text = e->type == PINDROP_EVENT_STACK_OPENED ? g_strdup_printf("stack of %s trees opened", count)
                                                 : g_strdup("stack closed");
    g_free(count);
    break;
  }
  default:
    return;
  }
  announce(app, text);
  g_free(text);
}

/* "916,114" */
char *thousands(size_t n) {
  char digits[32], out[48];
  size_t len, i, o = 0;
  snprintf(digits, sizeof digits, "%zu", n);
  len = strlen(digits);
  for (i = 0; i < len; i++) {
    if (i && (len - i) % 3 == 0) out[o++] = ',';
    out[o++] = digits[i];
  }
  out[o] = '\0';
  return g_strdup(out);
}
