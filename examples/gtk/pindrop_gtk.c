/*
 * pindrop-gtk — a GTK 4 map app on libshumate (GNOME Maps' map widget) that hosts pindrop.
 *
 *   cc pindrop_gtk.c $(pkg-config --cflags --libs pindrop shumate-1.0 gtk4 json-glib-1.0) -lm -o pindrop-gtk
 *   ./pindrop-gtk --addresses data/lawndale.geojson ../data/lawndale_trees.csv
 *   ./pindrop-gtk --addresses ../../../shared/data/la_trees_geojson ../../../shared/data/la_trees.csv
 *
 * The host's share of the work, and nothing of pindrop's: Shumate owns the viewport (centre, zoom,
 * rotation) and the map widget; the app keeps pindrop's Web Mercator camera in step with it, feeds
 * the pointer from GTK's gesture controllers to pindrop as touches with the events' own times, runs
 * pindrop_map_tick from a timer at pindrop_map_next_deadline, pans the map itself when pindrop
 * leaves a gesture to the host, answers pindrop's reverse-geocode requests from a local geocoder
 * (geocoder.h), and draws what pindrop_map_frame and pindrop_map_frame_clusters say (trees, spread
 * legs, clusters, the selected tree's callout) on a Shumate layer with cairo and Pango. No tiles
 * are loaded (no network): the map is a plain background.
 *
 * Options:
 *   --center LON,LAT   map centre  --zoom Z   (default: the view that fits the trees, 1 % trimmed
 *                      from each side so that a stray point far away does not shrink it)
 *   --size WxH         the map's size in points (default: a 1024x720 window, resizable)
 *   --bearing DEG      (default 0)
 *   --touch            touch-screen profile (lift after 250 ms, pin 40 points above the finger);
 *                      the default is the mouse profile (lift_delay_ms = 0, lift_height = 0)
 *   --spread ring|spiral|off   how stacks are drawn: on a spiral in points (the default), on a
 *                      ring in metres, or not at all
 *   --spread-on-tap 0|1  1 (the default): a stack is one marker with its count until clicked open
 *   --save MOVES.csv   after every move, the trees users moved: id,lon,lat
 *   --cluster-radius R clusters of the pins drawn within R points of each other below zoom 17
 *                      (default 60; 0: none); a tap on a cluster zooms in to where it comes apart
 *   --addresses PATH   a GeoJSON inventory with address attributes, or a folder of them (*.geojson),
 *                      for the reverse geocoder; may be given more than once
 *   --check            compare Shumate's and pindrop's projections at several cameras and exit
 *
 * The trees file is a CSV whose columns are found by name (trees_table.h): lon/lat in either order,
 * an id column or the line number, a species (or city) column for the callout's title.
 *
 * Keys: Tab / Shift+Tab move pindrop's keyboard focus through what is drawn, Enter or Space acts
 * on it (a tree: select; a cluster: zoom in; a stack: open), Alt+Space lifts the focused tree,
 * arrows move the held or selected tree by a point (Shift: ten), Enter or Space drops it, Esc
 * cancels, Ctrl+Z / Ctrl+Shift+Z (or u / r) undo / redo; each is announced (the status line, an
 * accessible "status" label). e edits the selected tree (then a tap on the map moves it), Return
 * commits, + / - zoom, f prints the frame, m the clusters' members, Ctrl+Q quits, Ctrl+W closes.
 *
 * Every pindrop event is printed on stdout, one a line ("EVENT MOVED id=... lon=... lat=..."), with
 * coordinates to 17 significant digits, and after each zoom the time until it was painted
 * ("PAINTED ms=..."): examples/gtk/tests drive the app under Xvfb with real X events and read them.
 */
#define _POSIX_C_SOURCE 200809L
#include <gtk/gtk.h>
#include <math.h>
#include <pindrop.h>
#include <shumate/shumate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geocoder.h"
#include "trees_table.h"

/* Shumate 1.0's viewport zooms to 20 at most: the reference map source says the same, or the map's
   scroll handler warns on every wheel notch (a max-zoom-level of 22 is out of the property's range). */
#define MAX_ZOOM 20

typedef struct {
  GtkApplication *gtk_app;
  GtkWidget *window, *layer, *status;
  ShumateMap *map;
  ShumateViewport *viewport;
  ShumateRasterRenderer *source;
  GtkGesture *drag, *click;
  pindrop_map *pd;
  pindrop_options options;
  /* what the command line asked for */
  const char *csv;
  double center_lon, center_lat, zoom, bearing;
  gboolean center_given, zoom_given, check;
  int width, height;
  /* the data */
  Trees trees;
  Geocoder geocoder;
  char *load_summary;
  /* time: pindrop's clock is GLib's monotonic one in ms; input events bring their own times (the X
     server's, in ms), mapped onto it by the smallest offset seen (the least delayed event) */
  double last_ms, event_offset, event_ms;
  guint32 last_event_time;
  gboolean have_event_clock;
  guint tick_source, redraw_tick;
  gboolean animating, ready;
  /* the pointer gesture */
  double press_x, press_y, press_lat, press_lon;
  gboolean host_panning, pointer_cancelled;
  /* categories: the label column's values, coded by how many trees have them (0: the most) */
  guint32 *categories;
  GPtrArray *category_names;
  const char *category_noun; /* "species" or "cities" */
  /* the keyboard: pindrop's focus, a keyboard drag from where the pin was lifted */
  pindrop_focus focus;
  gboolean key_dragging;
  double lift_lon, lift_lat;
  /* --save: the trees users moved, id -> lon/lat, written after every move */
  const char *save_path;
  GHashTable *saved;
  /* the callout */
  pindrop_id selected;
  char *fallback_subtitle; /* the geocoder's answer for a selected tree pindrop has no subtitle for */
  /* what was drawn last */
  pindrop_pin_view *views;
  size_t views_cap, views_n;
  pindrop_cluster_view *clusters;
  size_t clusters_cap, clusters_n;
  /* timing of zoom steps: from the input that zoomed to the end of the next paint */
  gint64 zoom_started_us;
  double frame_ms, draw_ms;
} App;

static const char *event_names[] = {"SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED",
                                    "DRAG_CANCELLED", "MOVED", "GEOCODE_REQUEST", "CALLOUT_CHANGED",
                                    "NEARBY", "AUTOPAN", "CLUSTER_TAPPED", "STACK_OPENED", "STACK_CLOSED"};
static const char *cause_names[] = {"NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE", "KEYBOARD"};

/* ---- time and camera ---------------------------------------------------------------------------- */

static double clock_ms(void) { return (double)g_get_monotonic_time() / 1000.0; }

/* Now on pindrop's clock, never less than a time already given to the map (for timers and for
   calls that no input event caused). */
static double now_ms(App *app) {
  double t = clock_ms();
  if (t < app->last_ms) t = app->last_ms;
  app->last_ms = t;
  return t;
}

/* The time of the event the controller is handling, on pindrop's clock: when it happened, not when
   the app got round to it (under load the two differ, and hold and double-tap timing must not
   drift with the app's delays). The X server's 32-bit millisecond time is unwrapped and mapped
   onto the monotonic clock by the smallest offset seen so far. */
static double event_ms(App *app, GtkEventController *c) {
  guint32 t32 = gtk_event_controller_get_current_event_time(c);
  double mono = clock_ms(), t;
  if (t32 == GDK_CURRENT_TIME) return now_ms(app);
  if (!app->have_event_clock) {
    app->have_event_clock = TRUE;
    app->event_ms = t32;
    app->event_offset = mono - app->event_ms;
  } else {
    app->event_ms += (gint32)(t32 - app->last_event_time);
    if (mono - app->event_ms < app->event_offset) app->event_offset = mono - app->event_ms;
  }
  app->last_event_time = t32;
  t = app->event_ms + app->event_offset;
  if (t < app->last_ms) t = app->last_ms;
  app->last_ms = t;
  return t;
}

static void report(App *app, const char *what, int status) {
  if (status < 0)
    fprintf(stderr, "pindrop-gtk: %s: %s: %s\n", what, pindrop_status_string((pindrop_status)status),
            pindrop_map_last_error(app->pd));
}

/* pindrop's camera from Shumate's viewport: same centre and zoom (both 256-point tiles), bearing =
   -rotation (Shumate turns the map content clockwise by `rotation` radians; pindrop's bearing is the
   direction the top of the view faces, clockwise from north), the layer's size in points. */
static void sync_camera(App *app) {
  pindrop_camera cam;
  cam.center_lon = shumate_location_get_longitude(SHUMATE_LOCATION(app->viewport));
  cam.center_lat = shumate_location_get_latitude(SHUMATE_LOCATION(app->viewport));
  cam.zoom = shumate_viewport_get_zoom_level(app->viewport);
  cam.bearing_deg = -shumate_viewport_get_rotation(app->viewport) * 180.0 / G_PI;
  cam.width = gtk_widget_get_width(app->layer);
  cam.height = gtk_widget_get_height(app->layer);
  if (cam.width < 1 || cam.height < 1) return; /* not laid out yet */
  report(app, "pindrop_map_set_camera", pindrop_map_set_camera(app->pd, &cam));
}

/* Moves the viewport so that the map point at widget (from_x, from_y) comes to (to_x, to_y). */
static void pan_by(App *app, double from_x, double from_y, double to_x, double to_y) {
  double w = gtk_widget_get_width(app->layer), h = gtk_widget_get_height(app->layer), lat, lon;
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, w / 2 + from_x - to_x,
                                             h / 2 + from_y - to_y, &lat, &lon);
  shumate_location_set_location(SHUMATE_LOCATION(app->viewport), lat, lon);
  sync_camera(app);
}

/* ---- announcements ------------------------------------------------------------------------------ */

static char *thousands(size_t n);

/* Says what happened to assistive technology: GTK 4.14's gtk_accessible_announce where the GTK
   has it; always the status line, a label with the accessible role "status" (a live region:
   screen readers read its changes without moving the focus). Printed for the tests. */
static void announce(App *app, const char *text) {
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
static char *cluster_text(App *app, uint64_t key, uint32_t count, uint32_t flags, guint32 *out_dominant) {
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

/* ---- saving (--save): the moved trees, id,lon,lat --------------------------------------------- */

static int cmp_id(const void *a, const void *b) {
  pindrop_id x = *(const pindrop_id *)a, y = *(const pindrop_id *)b;
  return x < y ? -1 : x > y;
}

static void save_move(App *app, pindrop_id id, double lon, double lat) {
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

/* ---- callouts ----------------------------------------------------------------------------------- */

static char *callout_text(App *app, pindrop_id id, int which) {
  size_t len = 0;
  char *buf;
  if (pindrop_map_callout(app->pd, id, which, NULL, 0, &len) != PINDROP_OK) return g_strdup("");
  buf = g_malloc(len + 1);
  pindrop_map_callout(app->pd, id, which, buf, len + 1, &len);
  return buf;
}

/* The title of a tree: its species (or "Tree ID, city" when the file names places, not species). */
static void give_title(App *app, pindrop_id id) {
  size_t row = trees_row_of(&app->trees, id), len = 0;
  char *title;
  if (pindrop_map_callout(app->pd, id, PINDROP_TITLE, NULL, 0, &len) == PINDROP_OK && len > 0) return;
  if (row != (size_t)-1 && app->trees.label && app->trees.label[row] && !app->trees.label_is_place)
    title = g_strdup(app->trees.label[row]);
  else if (row != (size_t)-1 && app->trees.label && app->trees.label[row])
    title = g_strdup_printf("Tree %lld, %s", (long long)id, app->trees.label[row]);
  else
    title = g_strdup_printf("Tree %lld", (long long)id);
  report(app, "pindrop_map_set_title", pindrop_map_set_title(app->pd, id, title));
  g_free(title);
}

/* What the callout shows: pindrop's title and subtitle; before the first move pindrop has no
   subtitle, and the app shows the geocoder's answer for where the tree stands. */
static void print_callout(App *app) {
  char *title, *subtitle;
  if (app->selected == PINDROP_NO_ID) return;
  title = callout_text(app, app->selected, PINDROP_TITLE);
  subtitle = callout_text(app, app->selected, PINDROP_SUBTITLE);
  printf("CALLOUT id=%lld title=\"%s\" subtitle=\"%s\"\n", (long long)app->selected, title,
         subtitle[0] ? subtitle : (app->fallback_subtitle ? app->fallback_subtitle : ""));
  g_free(title);
  g_free(subtitle);
}

static void on_selected(App *app, pindrop_id id) {
  double lon, lat;
  app->selected = id;
  g_clear_pointer(&app->fallback_subtitle, g_free);
  give_title(app, id);
  if (pindrop_map_position(app->pd, id, &lon, &lat) == PINDROP_OK)
    app->fallback_subtitle = geocoder_answer(&app->geocoder, lon, lat);
  print_callout(app);
}

/* ---- events and timers -------------------------------------------------------------------------- */

static void schedule_tick(App *app);

/* What the keyboard user hears about an event (a keyboard drag, undo, stacks). */
static void announce_event(App *app, const pindrop_event *e) {
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

static void drain(App *app) {
  pindrop_event e;
  while (pindrop_map_poll_event(app->pd, &e) == 1) {
    const char *name = (e.type >= 0 && e.type <= PINDROP_EVENT_STACK_CLOSED) ? event_names[e.type] : "OTHER";
    printf("EVENT %s id=%lld t=%.1f", name, (long long)e.id, e.time_ms);
    switch (e.type) {
    case PINDROP_EVENT_MOVED:
      printf(" lon=%.17g lat=%.17g from_lon=%.17g from_lat=%.17g cause=%s", e.lon, e.lat, e.from_lon,
             e.from_lat, (e.cause >= 0 && e.cause <= PINDROP_CAUSE_KEYBOARD) ? cause_names[e.cause] : "OTHER");
      break;
    case PINDROP_EVENT_DRAGGED:
    case PINDROP_EVENT_DRAG_CANCELLED:
      printf(" lon=%.17g lat=%.17g", e.lon, e.lat);
      break;
    case PINDROP_EVENT_GEOCODE_REQUEST: {
      /* Answered at once from the local geocoder; an answer pindrop finds stale is not shown. */
      char *answer = geocoder_answer(&app->geocoder, e.lon, e.lat);
      int status = pindrop_map_answer_geocode(app->pd, e.request, answer);
      printf(" lon=%.17g lat=%.17g request=%llu answer=\"%s\" status=%s", e.lon, e.lat,
             (unsigned long long)e.request, answer, pindrop_status_string((pindrop_status)status));
      g_free(answer);
      break;
    }
    case PINDROP_EVENT_NEARBY:
      printf(" other=%lld distance_m=%.3f", (long long)e.other, e.distance_m);
      break;
    case PINDROP_EVENT_AUTOPAN:
      printf(" dx=%.3f dy=%.3f", e.dx, e.dy);
      /* The host moves its camera: the view centre by (dx, dy) points. */
      pan_by(app, e.dx, e.dy, 0, 0);
      break;
    case PINDROP_EVENT_CLUSTER_TAPPED: {
      /* The host zooms in to where the cluster comes apart, centred on it. */
      double zoom;
      printf(" key=%llu lon=%.17g lat=%.17g", (unsigned long long)e.request, e.lon, e.lat);
      if (pindrop_map_cluster_expansion_zoom(app->pd, e.request, &zoom) == PINDROP_OK) {
        shumate_viewport_set_zoom_level(app->viewport, zoom);
        shumate_location_set_location(SHUMATE_LOCATION(app->viewport), e.lat, e.lon);
        sync_camera(app);
        printf(" expansion_zoom=%.17g", zoom);
      }
      break;
    }
    default:
      break;
    }
    printf("\n");
    if (e.type == PINDROP_EVENT_MOVED) save_move(app, e.id, e.lon, e.lat);
    announce_event(app, &e);
    if (e.type == PINDROP_EVENT_SELECTED) on_selected(app, e.id);
    else if (e.type == PINDROP_EVENT_DESELECTED && e.id == app->selected) app->selected = PINDROP_NO_ID;
    else if (e.type == PINDROP_EVENT_CALLOUT_CHANGED && e.id == app->selected) print_callout(app);
  }
  fflush(stdout);
  gtk_widget_queue_draw(app->layer);
}

static gboolean on_tick_timer(gpointer data) {
  App *app = data;
  app->tick_source = 0;
  sync_camera(app);
  report(app, "pindrop_map_tick", pindrop_map_tick(app->pd, now_ms(app)));
  drain(app);
  schedule_tick(app);
  return G_SOURCE_REMOVE;
}

/* One timer, due at pindrop_map_next_deadline (none when it is INFINITY). */
static void schedule_tick(App *app) {
  double due = pindrop_map_next_deadline(app->pd), wait;
  if (app->tick_source) g_source_remove(app->tick_source);
  app->tick_source = 0;
  if (isinf(due)) return;
  wait = ceil(due - now_ms(app));
  app->tick_source = g_timeout_add(wait > 0 ? (guint)wait : 0, on_tick_timer, app);
}

/* ---- pointer: GtkGestureDrag (press, motion, release) and GtkGestureClick (double click) --------- */

static void announce(App *app, const char *text);

static void touch(App *app, pindrop_touch_phase phase, double x, double y, double t) {
  int owned;
  if (app->key_dragging) { /* the keyboard holds a tree: pindrop refuses touches until it lets go */
    if (phase == PINDROP_TOUCH_DOWN) announce(app, "a tree is held by the keyboard: Enter drops it, Esc puts it back");
    return;
  }
  sync_camera(app);
  owned = pindrop_map_touch(app->pd, 0, phase, x, y, t);
  report(app, "pindrop_map_touch", owned);
  /* A gesture pindrop leaves to the host pans the map once it moves past the drag threshold, as a
     pan recogniser does; the map point under the press then stays under the pointer. */
  if (owned == 0 && phase == PINDROP_TOUCH_MOVE && !app->host_panning &&
      hypot(x - app->press_x, y - app->press_y) > app->options.drag_threshold)
    app->host_panning = TRUE;
  if (owned != 0) app->host_panning = FALSE;
  if (app->host_panning && phase == PINDROP_TOUCH_MOVE) {
    double px, py;
    shumate_viewport_location_to_widget_coords(app->viewport, app->layer, app->press_lat, app->press_lon, &px, &py);
    pan_by(app, px, py, x, y);
  }
  drain(app);
  schedule_tick(app);
}

static void on_drag_begin(GtkGestureDrag *g, double x, double y, App *app) {
  /* The map takes no pointer gesture of its own: the app decides (pindrop, else pan). */
  gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_CLAIMED);
  app->press_x = x;
  app->press_y = y;
  app->host_panning = FALSE;
  app->pointer_cancelled = FALSE;
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, x, y, &app->press_lat, &app->press_lon);
  touch(app, PINDROP_TOUCH_DOWN, x, y, event_ms(app, GTK_EVENT_CONTROLLER(g)));
}

static void on_drag_update(GtkGestureDrag *g, double dx, double dy, App *app) {
  if (app->pointer_cancelled) return;
  touch(app, PINDROP_TOUCH_MOVE, app->press_x + dx, app->press_y + dy, event_ms(app, GTK_EVENT_CONTROLLER(g)));
}

static void on_drag_end(GtkGestureDrag *g, double dx, double dy, App *app) {
  if (!app->pointer_cancelled)
    touch(app, PINDROP_TOUCH_UP, app->press_x + dx, app->press_y + dy, event_ms(app, GTK_EVENT_CONTROLLER(g)));
  app->host_panning = FALSE;
}

static void on_drag_cancel(GtkGesture *g, GdkEventSequence *seq, App *app) {
  double x, y;
  (void)seq;
  if (app->pointer_cancelled) return;
  if (!gtk_gesture_get_point(g, NULL, &x, &y)) { x = app->press_x; y = app->press_y; }
  touch(app, PINDROP_TOUCH_CANCEL, x, y, event_ms(app, GTK_EVENT_CONTROLLER(g)));
  app->pointer_cancelled = TRUE;
  app->host_panning = FALSE;
}

/* A double click zooms in around the pointer (pindrop never moves anything on a double tap). */
static void on_click_pressed(GtkGestureClick *g, int n_press, double x, double y, App *app) {
  double lat, lon, px, py;
  (void)g;
  if (n_press != 2) return;
  app->zoom_started_us = g_get_monotonic_time();
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, x, y, &lat, &lon);
  shumate_viewport_set_zoom_level(app->viewport, shumate_viewport_get_zoom_level(app->viewport) + 1);
  shumate_viewport_location_to_widget_coords(app->viewport, app->layer, lat, lon, &px, &py);
  pan_by(app, px, py, x, y);
  printf("ZOOM %.17g\n", shumate_viewport_get_zoom_level(app->viewport));
  fflush(stdout);
}

/* ---- keys --------------------------------------------------------------------------------------- */

static void print_frame(App *app);
static void print_members(App *app);

static void zoom_by(App *app, double dz) {
  app->zoom_started_us = g_get_monotonic_time();
  shumate_viewport_set_zoom_level(app->viewport, shumate_viewport_get_zoom_level(app->viewport) + dz);
  sync_camera(app);
  printf("ZOOM %.17g\n", shumate_viewport_get_zoom_level(app->viewport));
  fflush(stdout);
  gtk_widget_queue_draw(app->layer);
}

/* Tab / Shift+Tab: pindrop's focus moves through what is drawn; the ring is drawn around it and
   what it is announced. */
static void focus_step(App *app, int step) {
  pindrop_focus f;
  char *text = NULL, *title;
  size_t i;
  if (pindrop_map_focus_step(app->pd, step, &f) != PINDROP_OK) return;
  app->focus = f;
  printf("FOCUS kind=%d id=%lld key=%llu x=%.17g y=%.17g\n", f.kind, (long long)f.id, (unsigned long long)f.key, f.x, f.y);
  if (f.kind == PINDROP_FOCUS_PIN) {
    give_title(app, f.id);
    title = callout_text(app, f.id, PINDROP_TITLE);
    text = g_strdup_printf("Tree %lld, %s", (long long)f.id, title);
    g_free(title);
  } else if (f.kind == PINDROP_FOCUS_CLUSTER) {
    for (i = 0; i < app->clusters_n; i++)
      if (app->clusters[i].key == f.key) {
        char *what = cluster_text(app, f.key, app->clusters[i].count, app->clusters[i].flags, NULL);
        text = g_strdup_printf("%s of %s", (app->clusters[i].flags & PINDROP_CLUSTER_STACK) ? "stack" : "cluster",
                               what + ((app->clusters[i].flags & PINDROP_CLUSTER_STACK) ? strlen("stack of ") : 0));
        g_free(what);
      }
  } else {
    text = g_strdup("nothing to focus in view");
  }
  {
    size_t index, total;
    if (text && f.kind != PINDROP_FOCUS_NONE && pindrop_map_focus_rank(app->pd, &index, &total) == PINDROP_OK &&
        index < total) {
      char *with_rank = g_strdup_printf("%s, %zu of %zu", text, index + 1, total); /* aria-posinset / setsize */
      g_free(text);
      text = with_rank;
    }
  }
  if (text) announce(app, text);
  g_free(text);
  gtk_widget_queue_draw(app->layer);
}

/* Whether key names a collapsed stack of the last frame (flags PINDROP_CLUSTER_STACK). */
static gboolean is_stack(App *app, uint64_t key) {
  size_t i;
  for (i = 0; i < app->clusters_n; i++)
    if (app->clusters[i].key == key) return (app->clusters[i].flags & PINDROP_CLUSTER_STACK) != 0;
  return FALSE;
}

/* Space or Enter on the focus, no drag under way: a pin is selected, a cluster zoomed into, a
   stack opened. */
static void activate_focus(App *app, double t) {
  pindrop_focus f = app->focus;
  double zoom;
  if (pindrop_map_focused(app->pd, &f) != PINDROP_OK) return;
  if (f.kind == PINDROP_FOCUS_PIN) {
    report(app, "pindrop_map_select", pindrop_map_select(app->pd, f.id));
  } else if (f.kind == PINDROP_FOCUS_CLUSTER && is_stack(app, f.key)) {
    report(app, "pindrop_map_open_stack", pindrop_map_open_stack(app->pd, f.key, t));
  } else if (f.kind == PINDROP_FOCUS_CLUSTER && pindrop_map_cluster_expansion_zoom(app->pd, f.key, &zoom) == PINDROP_OK) {
    size_t i;
    for (i = 0; i < app->clusters_n; i++)
      if (app->clusters[i].key == f.key) {
        shumate_viewport_set_zoom_level(app->viewport, zoom);
        shumate_location_set_location(SHUMATE_LOCATION(app->viewport), app->clusters[i].lat, app->clusters[i].lon);
        sync_camera(app);
        printf("ZOOM %.17g\n", shumate_viewport_get_zoom_level(app->viewport));
        break;
      }
  }
}

/* Alt+Space: the focused pin (selected first if it is not) is lifted by the keyboard. */
static void key_lift(App *app, double t) {
  pindrop_focus f;
  pindrop_id sel = PINDROP_NO_ID;
  int status;
  if (pindrop_map_focused(app->pd, &f) == PINDROP_OK && f.kind == PINDROP_FOCUS_PIN) {
    pindrop_map_selected(app->pd, &sel);
    if (sel != f.id) report(app, "pindrop_map_select", pindrop_map_select(app->pd, f.id));
    drain(app);
  }
  app->key_dragging = TRUE; /* before the LIFTED event is drained */
  status = pindrop_map_key_lift(app->pd, t);
  if (status != PINDROP_OK) {
    app->key_dragging = FALSE;
    sel = PINDROP_NO_ID;
    pindrop_map_selected(app->pd, &sel);
    announce(app, sel == PINDROP_NO_ID ? "select a tree first: Tab to it, then Alt+Space" : pindrop_map_last_error(app->pd));
  }
}

static gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, App *app) {
  pindrop_id sel = PINDROP_NO_ID;
  double t = event_ms(app, GTK_EVENT_CONTROLLER(c));
  (void)keycode;
  sync_camera(app);
  /* The keyboard path of a drag (docs/accessibility.md's key map) and undo. */
  if ((state & GDK_CONTROL_MASK) && (keyval == GDK_KEY_z || keyval == GDK_KEY_Z || keyval == GDK_KEY_y)) {
    gboolean redo = keyval == GDK_KEY_y || (state & GDK_SHIFT_MASK);
    int status = redo ? pindrop_map_redo(app->pd, t) : pindrop_map_undo(app->pd, t);
    if (status == PINDROP_ERR_STATE) announce(app, redo ? "nothing to redo" : "nothing to undo");
    else report(app, redo ? "pindrop_map_redo" : "pindrop_map_undo", status);
    drain(app);
    schedule_tick(app);
    return TRUE;
  }
  if ((state & GDK_ALT_MASK) && keyval == GDK_KEY_space) {
    key_lift(app, t);
    drain(app);
    schedule_tick(app);
    return TRUE;
  }
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) return FALSE; /* the application's shortcuts */
  switch (keyval) {
  case GDK_KEY_Tab:
  case GDK_KEY_ISO_Left_Tab:
    focus_step(app, (keyval == GDK_KEY_ISO_Left_Tab || (state & GDK_SHIFT_MASK)) ? -1 : 1);
    break;
  case GDK_KEY_space:
    if (app->key_dragging) report(app, "pindrop_map_key_drop", pindrop_map_key_drop(app->pd, t));
    else activate_focus(app, t);
    break;
  case GDK_KEY_Escape:
    /* pindrop's gesture and GTK's: the drag gesture forgets the pointer, so that moving on with the
       button still down neither drags nor pans. */
    if ((gtk_gesture_is_recognized(app->drag) || gtk_gesture_is_active(app->drag)) && !app->pointer_cancelled) {
      double x = app->press_x, y = app->press_y;
      gtk_gesture_get_point(app->drag, NULL, &x, &y);
      touch(app, PINDROP_TOUCH_CANCEL, x, y, t); /* pindrop lets go of the pointer (a held tree goes back) */
      app->pointer_cancelled = TRUE;
      app->host_panning = FALSE;
      gtk_event_controller_reset(GTK_EVENT_CONTROLLER(app->drag));
    } else {
      report(app, "pindrop_map_cancel_gesture", pindrop_map_cancel_gesture(app->pd, t));
    }
    break;
  case GDK_KEY_e:
    pindrop_map_selected(app->pd, &sel);
    if (sel != PINDROP_NO_ID) report(app, "pindrop_map_edit", pindrop_map_edit(app->pd, sel, t));
    printf("EDIT id=%lld\n", (long long)sel);
    break;
  case GDK_KEY_Return:
  case GDK_KEY_KP_Enter: {
    if (app->key_dragging) {
      report(app, "pindrop_map_key_drop", pindrop_map_key_drop(app->pd, t));
    } else if (pindrop_map_commit(app->pd, t) == PINDROP_OK) {
      printf("COMMIT\n");
    } else {
      activate_focus(app, t); /* nothing being edited: Enter acts on the focus */
    }
    break;
  }
  case GDK_KEY_u:
    if (pindrop_map_undo(app->pd, t) == PINDROP_ERR_STATE) announce(app, "nothing to undo");
    break;
  case GDK_KEY_r:
    if (pindrop_map_redo(app->pd, t) == PINDROP_ERR_STATE) announce(app, "nothing to redo");
    break;
  case GDK_KEY_m:
    print_members(app);
    break;
  case GDK_KEY_plus:
  case GDK_KEY_KP_Add:
  case GDK_KEY_equal:
    zoom_by(app, 1);
    break;
  case GDK_KEY_minus:
  case GDK_KEY_KP_Subtract:
    zoom_by(app, -1);
    break;
  case GDK_KEY_Left:
  case GDK_KEY_Right:
  case GDK_KEY_Up:
  case GDK_KEY_Down: {
    /* The keyboard alternative to a drag: the selected tree moves by a point, ten with Shift. */
    double step = (state & GDK_SHIFT_MASK) ? 10 : 1;
    double dx = keyval == GDK_KEY_Left ? -step : keyval == GDK_KEY_Right ? step : 0;
    double dy = keyval == GDK_KEY_Up ? -step : keyval == GDK_KEY_Down ? step : 0;
    int status = pindrop_map_nudge(app->pd, dx, dy, t);
    if (status == PINDROP_ERR_STATE) printf("NUDGE refused: %s\n", pindrop_map_last_error(app->pd));
    else report(app, "pindrop_map_nudge", status);
    break;
  }
  case GDK_KEY_f:
    print_frame(app);
    break;
  default:
    return FALSE;
  }
  drain(app);
  schedule_tick(app);
  return TRUE;
}

/* ---- drawing: a Shumate layer --------------------------------------------------------------------- */

#define PIN_TYPE_LAYER (pin_layer_get_type())
G_DECLARE_FINAL_TYPE(PinLayer, pin_layer, PIN, LAYER, ShumateLayer)
struct _PinLayer {
  ShumateLayer parent;
  App *app;
};
G_DEFINE_TYPE(PinLayer, pin_layer, SHUMATE_TYPE_LAYER)

/* Fetches pindrop's frame for time t (the pins in view, dragged pin last) into app->views, and
   its clusters (with cluster_radius > 0, below cluster_max_zoom) into app->clusters. */
static size_t fetch_frame(App *app, double t) {
  size_t total = pindrop_map_frame(app->pd, t, app->views, app->views_cap);
  if (total > app->views_cap) {
    app->views_cap = total + total / 2;
    app->views = g_renew(pindrop_pin_view, app->views, app->views_cap);
    total = pindrop_map_frame(app->pd, t, app->views, app->views_cap);
  }
  app->views_n = total < app->views_cap ? total : app->views_cap;
  total = pindrop_map_frame_clusters(app->pd, t, app->clusters, app->clusters_cap);
  if (total > app->clusters_cap) {
    app->clusters_cap = total + total / 2;
    app->clusters = g_renew(pindrop_cluster_view, app->clusters, app->clusters_cap);
    total = pindrop_map_frame_clusters(app->pd, t, app->clusters, app->clusters_cap);
  }
  app->clusters_n = total < app->clusters_cap ? total : app->clusters_cap;
  return app->views_n;
}

static gboolean redraw_while_animating(GtkWidget *w, GdkFrameClock *clock, gpointer data) {
  App *app = data;
  (void)clock;
  gtk_widget_queue_draw(w);
  if (!app->animating) {
    app->redraw_tick = 0;
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

/* Trees are drawn by stamping: each style's disc is drawn once with cairo into a small sprite, and
   each tree copies its style's sprite into the frame's image (a blend with the pixels below at the
   disc's antialiased rim). Measured on 125,000 trees in an 800x600 image: one cairo path per style
   filled and stroked once takes 16 s and 83 s (cairo's scan converter on one path of 125,000
   overlapping circles), an arc, fill and stroke per tree 0.34 s, stamping 0.04 s. */
enum { STYLE_TREE, STYLE_SELECTED, STYLE_EDITING, STYLE_INVALID, N_STYLES };
static const double style_rgb[N_STYLES][3] = {
    {0.13, 0.55, 0.13}, {0.95, 0.55, 0.05}, {0.1, 0.35, 0.9}, {0.85, 0.1, 0.1}};

typedef struct {
  int size, half, scale; /* device pixels: size x size, centred at (half, half) */
  guint32 *px;           /* premultiplied ARGB, cairo's CAIRO_FORMAT_ARGB32 */
} Sprite;

static Sprite sprites[N_STYLES];

/* The style's disc (radius 6 points, a 1-point dark rim) at the given device scale. */
static void make_sprites(int scale) {
  int s;
  for (s = 0; s < N_STYLES; s++) {
    Sprite *sp = &sprites[s];
    cairo_surface_t *surface;
    cairo_t *cr;
    int j;
    if (sp->px && sp->scale == scale) continue;
    g_free(sp->px);
    sp->scale = scale;
    sp->size = 16 * scale;
    sp->half = 8 * scale;
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sp->size, sp->size);
    cairo_surface_set_device_scale(surface, scale, scale);
    cr = cairo_create(surface);
    cairo_arc(cr, 8, 8, 6, 0, 2 * G_PI);
    cairo_set_source_rgb(cr, style_rgb[s][0], style_rgb[s][1], style_rgb[s][2]);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.05, 0.2, 0.05);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    sp->px = g_new(guint32, sp->size * sp->size);
    for (j = 0; j < sp->size; j++)
      memcpy(sp->px + j * sp->size, cairo_image_surface_get_data(surface) + j * cairo_image_surface_get_stride(surface),
             sp->size * sizeof(guint32));
    cairo_surface_destroy(surface);
  }
}

/* Copies sprite sp centred on device pixel (cx, cy) into the image (Porter-Duff over). */
static void stamp(guint32 *image, int stride_px, int width, int height, const Sprite *sp, int cx, int cy) {
  int x0 = cx - sp->half, y0 = cy - sp->half, i, j;
  int i0 = MAX(0, -x0), i1 = MIN(sp->size, width - x0), j0 = MAX(0, -y0), j1 = MIN(sp->size, height - y0);
  for (j = j0; j < j1; j++) {
    guint32 *d = image + (gsize)(y0 + j) * stride_px + x0;
    const guint32 *p = sp->px + j * sp->size;
    for (i = i0; i < i1; i++) {
      guint32 src = p[i], a = src >> 24, ia, dst, rb, ag;
      if (a == 0) continue;
      if (a == 255) { d[i] = src; continue; }
      ia = 255 - a;
      dst = d[i];
      rb = (dst & 0x00ff00ffu) * ia + 0x00800080u;
      rb = ((rb + ((rb >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
      ag = ((dst >> 8) & 0x00ff00ffu) * ia + 0x00800080u;
      ag = (ag + ((ag >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
      d[i] = src + rb + ag;
    }
  }
}

static int pin_style(const pindrop_pin_view *v) {
  if (v->flags & PINDROP_PIN_INVALID) return STYLE_INVALID;
  if (v->flags & PINDROP_PIN_EDITING) return STYLE_EDITING;
  if (v->flags & PINDROP_PIN_SELECTED) return STYLE_SELECTED;
  return STYLE_TREE;
}

/* A tree that is lifted (or bouncing) or dragged is drawn with cairo, on top, with its shadow. */
static gboolean pin_apart(const pindrop_pin_view *v) { return v->lift != 0 || (v->flags & PINDROP_PIN_DRAGGING); }

static void draw_trees(App *app, cairo_t *cr, cairo_surface_t *surface, int scale, size_t n) {
  guint32 *image;
  int stride_px, width, height, s;
  size_t i;
  make_sprites(scale);
  cairo_surface_flush(surface);
  image = (guint32 *)cairo_image_surface_get_data(surface);
  stride_px = cairo_image_surface_get_stride(surface) / 4;
  width = cairo_image_surface_get_width(surface);
  height = cairo_image_surface_get_height(surface);
  for (i = 0; i < n; i++) { /* in pindrop's drawing order: lower on screen on top */
    const pindrop_pin_view *v = &app->views[i];
    if (pin_apart(v)) continue;
    stamp(image, stride_px, width, height, &sprites[pin_style(v)], (int)lround(v->x * scale), (int)lround(v->y * scale));
  }
  cairo_surface_mark_dirty(surface);
  /* The lifted one(s): a shadow at the landing point, the tree risen above it. */
  cairo_set_line_width(cr, 1.0);
  for (i = 0; i < n; i++) {
    const pindrop_pin_view *v = &app->views[i];
    double rise = v->lift * 8.0, r = (v->flags & PINDROP_PIN_DRAGGING) ? 8.0 : 6.0;
    if (!pin_apart(v)) continue;
    if (v->lift > 0) {
      cairo_set_source_rgba(cr, 0, 0, 0, 0.25 * v->lift);
      cairo_arc(cr, v->x, v->y, 4.0, 0, 2 * G_PI);
      cairo_fill(cr);
    }
    s = pin_style(v);
    cairo_set_source_rgb(cr, style_rgb[s][0], style_rgb[s][1], style_rgb[s][2]);
    cairo_arc(cr, v->x, v->y - rise, r, 0, 2 * G_PI);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.05, 0.2, 0.05);
    cairo_stroke(cr);
  }
}

static double cluster_radius_points(uint32_t count) { return 10 + 3 * log10((double)count); }

/* Colours of the twelve most common categories (by how many trees have them), then one for the
   rest; clusters without categories keep the teal. */
static const double palette[13][3] = {
    {0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16}, {0.58, 0.40, 0.74},
    {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.10, 0.55, 0.45}, {0.74, 0.74, 0.13}, {0.09, 0.75, 0.81},
    {0.35, 0.20, 0.55}, {0.65, 0.45, 0.10}, {0.40, 0.45, 0.48}};

static void category_rgb(App *app, guint32 category, double rgb[3]) {
  int i = category < 12 ? (int)category : 12;
  if (!app->categories || category == PINDROP_CATEGORY_MIXED) {
    rgb[0] = 0.1, rgb[1] = 0.45, rgb[2] = 0.45;
    return;
  }
  memcpy(rgb, palette[i], sizeof palette[i]);
}

/* Clusters: a disc growing with the count in the colour of its most common category; a collapsed
   stack (spread_on_tap): a dark green disc over a second one, a stack of pins; then each count
   with Pango. */
static void draw_clusters(App *app, cairo_t *cr, PangoLayout *layout) {
  size_t i;
  for (i = 0; i < app->clusters_n; i++) {
    const pindrop_cluster_view *c = &app->clusters[i];
    double r = cluster_radius_points(c->count), rgb[3];
    guint32 dominant = PINDROP_CATEGORY_MIXED, members;
    if (c->flags & PINDROP_CLUSTER_STACK) {
      cairo_arc(cr, c->x + 3, c->y - 3, r - 2, 0, 2 * G_PI);
      cairo_set_source_rgb(cr, 0.55, 0.7, 0.5);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
      cairo_arc(cr, c->x, c->y, r - 2, 0, 2 * G_PI);
      cairo_set_source_rgb(cr, 0.08, 0.4, 0.12);
      cairo_fill_preserve(cr);
      cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_stroke(cr);
      continue;
    }
    if (app->categories && pindrop_map_cluster_categories(app->pd, c->key, &dominant, &members, 1) == 0)
      dominant = PINDROP_CATEGORY_MIXED;
    category_rgb(app, dominant, rgb);
    cairo_arc(cr, c->x, c->y, r, 0, 2 * G_PI);
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.9);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 1, 1, 1);
  for (i = 0; i < app->clusters_n; i++) {
    const pindrop_cluster_view *c = &app->clusters[i];
    char text[16];
    int w, h;
    snprintf(text, sizeof text, "%u", c->count);
    pango_layout_set_text(layout, text, -1);
    pango_layout_get_pixel_size(layout, &w, &h);
    cairo_move_to(cr, c->x - w / 2.0, c->y - h / 2.0);
    pango_cairo_show_layout(cr, layout);
  }
}

/* The keyboard focus: a blue ring (white-edged, to show on any colour) around the focused pin or
   cluster, where this frame draws it. */
static void draw_focus(App *app, cairo_t *cr) {
  double x = 0, y = 0, r = 0;
  size_t i;
  if (pindrop_map_focused(app->pd, &app->focus) != PINDROP_OK || app->focus.kind == PINDROP_FOCUS_NONE) return;
  if (app->focus.kind == PINDROP_FOCUS_PIN) {
    for (i = 0; i < app->views_n; i++)
      if (app->views[i].id == app->focus.id) x = app->views[i].x, y = app->views[i].y - app->views[i].lift * 8.0, r = 10;
  } else {
    for (i = 0; i < app->clusters_n; i++)
      if (app->clusters[i].key == app->focus.key)
        x = app->clusters[i].x, y = app->clusters[i].y, r = cluster_radius_points(app->clusters[i].count) + 4;
  }
  if (r == 0) return;
  cairo_new_path(cr);
  cairo_arc(cr, x, y, r, 0, 2 * G_PI);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, 5);
  cairo_stroke_preserve(cr);
  cairo_set_source_rgb(cr, 0.1, 0.45, 0.91);
  cairo_set_line_width(cr, 2.5);
  cairo_stroke(cr);
}

/* The selected tree's callout: a box above it with the title in bold and the subtitle. */
static void draw_callout(App *app, cairo_t *cr, PangoLayout *layout, double width) {
  const pindrop_pin_view *v = NULL;
  char *title, *subtitle, *markup;
  int w, h;
  double bx, by, bw, bh, tip_y;
  size_t i;
  if (app->selected == PINDROP_NO_ID) return;
  for (i = 0; i < app->views_n; i++)
    if (app->views[i].id == app->selected) v = &app->views[i];
  if (!v) return; /* out of view, or in a cluster */
  title = callout_text(app, app->selected, PINDROP_TITLE);
  subtitle = callout_text(app, app->selected, PINDROP_SUBTITLE);
  markup = g_markup_printf_escaped("<b>%s</b>\n<small>%s</small>", title,
                                   subtitle[0] ? subtitle : (app->fallback_subtitle ? app->fallback_subtitle : ""));
  pango_layout_set_markup(layout, markup, -1);
  pango_layout_get_pixel_size(layout, &w, &h);
  bw = w + 16;
  bh = h + 10;
  tip_y = v->y - v->lift * 8.0 - 9;
  bx = CLAMP(v->x - bw / 2, 4, MAX(4, width - bw - 4));
  by = tip_y - 8 - bh;
  cairo_new_path(cr);
  cairo_move_to(cr, bx + 4, by);
  cairo_arc(cr, bx + bw - 4, by + 4, 4, -G_PI / 2, 0);
  cairo_arc(cr, bx + bw - 4, by + bh - 4, 4, 0, G_PI / 2);
  cairo_line_to(cr, CLAMP(v->x + 7, bx + 8, bx + bw - 4), by + bh);
  cairo_line_to(cr, v->x, tip_y);
  cairo_line_to(cr, CLAMP(v->x - 7, bx + 4, bx + bw - 8), by + bh);
  cairo_arc(cr, bx + 4, by + bh - 4, 4, G_PI / 2, G_PI);
  cairo_arc(cr, bx + 4, by + 4, 4, G_PI, 3 * G_PI / 2);
  cairo_close_path(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.45);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_move_to(cr, bx + 8, by + 5);
  pango_cairo_show_layout(cr, layout);
  g_free(markup);
  g_free(title);
  g_free(subtitle);
}

/* The frame is drawn into one image of the layer's size in device pixels, handed to GTK as one
   texture: a single node for either renderer to draw (cairo's replays recorded drawing operations
   one by one, over X for the cairo renderer; GL uploads one texture). */
static void pin_layer_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
  App *app = PIN_LAYER(widget)->app;
  int w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget), scale = gtk_widget_get_scale_factor(widget);
  gint64 t0 = g_get_monotonic_time(), t1;
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *font;
  GdkTexture *texture;
  GBytes *bytes;
  size_t i, n;
  gboolean animating = FALSE;

  /* A plain background instead of tiles. */
  gtk_snapshot_append_color(snapshot, &(GdkRGBA){0.93f, 0.92f, 0.88f, 1.0f}, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
  if (!app->ready || w < 1 || h < 1) return; /* the first view is not chosen yet */

  sync_camera(app);
  n = fetch_frame(app, now_ms(app));
  t1 = g_get_monotonic_time();
  app->frame_ms = (t1 - t0) / 1000.0;

  surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w * scale, h * scale);
  cairo_surface_set_device_scale(surface, scale, scale);
  cr = cairo_create(surface);
  layout = pango_cairo_create_layout(cr);

  /* Spread legs: from the true spot (anchor) to where the tree is drawn, one path. */
  cairo_set_line_width(cr, 1.0);
  cairo_set_source_rgba(cr, 0.35, 0.35, 0.35, 0.8);
  for (i = 0; i < n; i++) {
    const pindrop_pin_view *v = &app->views[i];
    /* A lift, a drop or a glide (a cancel, a tap-to-move) still under way: draw the next frame too. */
    if (v->flags & PINDROP_PIN_ANIMATING) animating = TRUE;
    if (!(v->flags & PINDROP_PIN_SPREAD)) continue;
    cairo_move_to(cr, v->anchor_x, v->anchor_y);
    cairo_line_to(cr, v->x, v->y);
  }
  cairo_stroke(cr);

  draw_trees(app, cr, surface, scale, n);
  font = pango_font_description_from_string("Sans Bold 8");
  pango_layout_set_font_description(layout, font);
  draw_clusters(app, cr, layout);
  draw_focus(app, cr);
  pango_font_description_free(font);
  font = pango_font_description_from_string("Sans 9");
  pango_layout_set_font_description(layout, font);
  draw_callout(app, cr, layout, w);
  pango_font_description_free(font);
  g_object_unref(layout);
  cairo_destroy(cr);
  cairo_surface_flush(surface);

  /* CAIRO_FORMAT_ARGB32 is GDK_MEMORY_DEFAULT; the texture keeps the surface alive. */
  bytes = g_bytes_new_with_free_func(cairo_image_surface_get_data(surface),
                                     (gsize)cairo_image_surface_get_stride(surface) * h * scale,
                                     (GDestroyNotify)cairo_surface_destroy, surface);
  texture = gdk_memory_texture_new(w * scale, h * scale, GDK_MEMORY_DEFAULT, bytes,
                                   cairo_image_surface_get_stride(surface));
  gtk_snapshot_append_texture(snapshot, texture, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
  g_object_unref(texture);
  g_bytes_unref(bytes);
  app->draw_ms = (g_get_monotonic_time() - t1) / 1000.0;

  app->animating = animating;
  if (animating && !app->redraw_tick)
    app->redraw_tick = gtk_widget_add_tick_callback(widget, redraw_while_animating, app, NULL);
}

static void first_view(App *app);

static void pin_layer_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  App *app = PIN_LAYER(widget)->app;
  if (GTK_WIDGET_CLASS(pin_layer_parent_class)->size_allocate)
    GTK_WIDGET_CLASS(pin_layer_parent_class)->size_allocate(widget, width, height, baseline);
  if (!app->ready && width > 0 && height > 0) first_view(app);
}

static void pin_layer_class_init(PinLayerClass *klass) {
  GTK_WIDGET_CLASS(klass)->snapshot = pin_layer_snapshot;
  GTK_WIDGET_CLASS(klass)->size_allocate = pin_layer_size_allocate;
}

static void pin_layer_init(PinLayer *self) { (void)self; }

/* 'f': what is drawn, one tree a line (screen points). */
static void print_frame(App *app) {
  size_t i, n;
  sync_camera(app);
  n = fetch_frame(app, now_ms(app));
  printf("FRAME n=%zu clusters=%zu zoom=%.17g center_lon=%.17g center_lat=%.17g\n", n, app->clusters_n,
         shumate_viewport_get_zoom_level(app->viewport), shumate_location_get_longitude(SHUMATE_LOCATION(app->viewport)),
         shumate_location_get_latitude(SHUMATE_LOCATION(app->viewport)));
  for (i = 0; i < n; i++) {
    const pindrop_pin_view *v = &app->views[i];
    printf("PIN id=%lld x=%.17g y=%.17g anchor_x=%.17g anchor_y=%.17g flags=%u\n", (long long)v->id, v->x, v->y,
           v->anchor_x, v->anchor_y, v->flags);
  }
  for (i = 0; i < app->clusters_n; i++) {
    const pindrop_cluster_view *c = &app->clusters[i];
    guint32 dominant;
    char *text = cluster_text(app, c->key, c->count, c->flags, &dominant);
    printf("CLUSTER key=%llu x=%.17g y=%.17g lon=%.17g lat=%.17g count=%u flags=%u dominant=%d summary=\"%s\"\n",
           (unsigned long long)c->key, c->x, c->y, c->lon, c->lat, c->count, c->flags,
           dominant == PINDROP_CATEGORY_MIXED ? -1 : (int)dominant, text);
    g_free(text);
  }
  if (pindrop_map_focused(app->pd, &app->focus) == PINDROP_OK)
    printf("FOCUSED kind=%d id=%lld key=%llu x=%.17g y=%.17g\n", app->focus.kind, (long long)app->focus.id,
           (unsigned long long)app->focus.key, app->focus.x, app->focus.y);
  printf("END\n");
  fflush(stdout);
}

/* 'm': the members of each cluster in view, one cluster a line. */
static void print_members(App *app) {
  size_t i, j;
  for (i = 0; i < app->clusters_n; i++) {
    size_t n = pindrop_map_cluster_members(app->pd, app->clusters[i].key, NULL, 0);
    pindrop_id *ids = g_new(pindrop_id, n + 1);
    n = pindrop_map_cluster_members(app->pd, app->clusters[i].key, ids, n);
    printf("MEMBERS key=%llu ids=", (unsigned long long)app->clusters[i].key);
    for (j = 0; j < n; j++) printf("%s%lld", j ? "," : "", (long long)ids[j]);
    printf("\n");
    g_free(ids);
  }
  printf("END\n");
  fflush(stdout);
}

/* After each paint that follows a zoom: how long from the input to the painted frame, and the
   share of pindrop's frame calls and of the drawing in it. */
static void on_after_paint(GdkFrameClock *clock, App *app) {
  (void)clock;
  if (!app->zoom_started_us || !app->ready) return;
  printf("PAINTED ms=%.1f frame_ms=%.1f draw_ms=%.1f pins=%zu clusters=%zu zoom=%.17g\n",
         (g_get_monotonic_time() - app->zoom_started_us) / 1000.0, app->frame_ms, app->draw_ms, app->views_n,
         app->clusters_n, shumate_viewport_get_zoom_level(app->viewport));
  fflush(stdout);
  app->zoom_started_us = 0;
}

/* The tooltip over a cluster or stack: what it holds ("1,112 trees · 45 species · mostly ..."),
   also on the status line. */
static gboolean on_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard_mode, GtkTooltip *tooltip, App *app) {
  size_t i;
  (void)widget;
  if (keyboard_mode) {
    pindrop_focus f;
    if (pindrop_map_focused(app->pd, &f) != PINDROP_OK || f.kind != PINDROP_FOCUS_CLUSTER) return FALSE;
    x = (int)f.x, y = (int)f.y;
  }
  for (i = app->clusters_n; i-- > 0;) { /* the one drawn last is on top */
    const pindrop_cluster_view *c = &app->clusters[i];
    if (hypot(x - c->x, y - c->y) <= cluster_radius_points(c->count)) {
      char *text = cluster_text(app, c->key, c->count, c->flags, NULL);
      gtk_tooltip_set_text(tooltip, text);
      if (app->status) gtk_label_set_text(GTK_LABEL(app->status), text);
      printf("TOOLTIP key=%llu text=\"%s\"\n", (unsigned long long)c->key, text);
      fflush(stdout);
      g_free(text);
      return TRUE;
    }
  }
  return FALSE;
}

static void on_layer_realize(GtkWidget *layer, App *app) {
  g_signal_connect(gtk_widget_get_frame_clock(layer), "after-paint", G_CALLBACK(on_after_paint), app);
}

/* ---- set-up ------------------------------------------------------------------------------------- */

/* "916,114" */
static char *thousands(size_t n) {
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
static void load_trees(App *app) {
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
static void load_addresses(App *app, GPtrArray *paths) {
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

/* The first view: the command line's, else the trees' extent without the outer 1 % on each side
   (a stray tree at 0,0 must not shrink the county to a dot), zoomed to fill 90 % of the map. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double mercator_y(double lat) { return 0.5 - log(tan(G_PI / 4 + lat * G_PI / 360)) / (2 * G_PI); }

static void fit_trees(App *app, double width, double height, double *lon, double *lat, double *zoom) {
  size_t n = app->trees.n, i, lo, hi;
  double *xs, *ys, w, e, s, nn, x_span, y_span, zx, zy;
  if (n == 0) return;
  xs = g_new(double, n);
  ys = g_new(double, n);
  for (i = 0; i < n; i++) xs[i] = app->trees.lonlat[2 * i], ys[i] = app->trees.lonlat[2 * i + 1];
  qsort(xs, n, sizeof *xs, cmp_double);
  qsort(ys, n, sizeof *ys, cmp_double);
  lo = (size_t)floor(0.01 * (n - 1));
  hi = (size_t)ceil(0.99 * (n - 1));
  w = xs[lo], e = xs[hi], s = ys[lo], nn = ys[hi];
  g_free(xs);
  g_free(ys);
  x_span = (e - w) / 360.0;
  y_span = mercator_y(s) - mercator_y(nn);
  zx = x_span > 0 ? log2(0.9 * width / (256 * x_span)) : INFINITY;
  zy = y_span > 0 ? log2(0.9 * height / (256 * y_span)) : INFINITY;
  *zoom = CLAMP(fmin(zx, zy), 1, 17);
  *lon = (w + e) / 2;
  {
    double my = (mercator_y(s) + mercator_y(nn)) / 2;
    *lat = atan(sinh(G_PI * (1 - 2 * my))) * 180 / G_PI;
  }
}

static void check_projections(App *app);

/* The header bar's close button (a GtkButton with the style class "close"), or NULL. */
static GtkWidget *find_close_button(GtkWidget *w) {
  GtkWidget *child, *found;
  if (GTK_IS_BUTTON(w) && gtk_widget_has_css_class(w, "close")) return w;
  for (child = gtk_widget_get_first_child(w); child; child = gtk_widget_get_next_sibling(child))
    if ((found = find_close_button(child))) return found;
  return NULL;
}

static void first_view(App *app) {
  double w = gtk_widget_get_width(app->layer), h = gtk_widget_get_height(app->layer);
  double lon = app->center_lon, lat = app->center_lat, zoom = app->zoom, ox = 0, oy = 0, sx = 0, sy = 0;
  GtkNative *native = gtk_widget_get_native(app->layer);
  if (!app->center_given || !app->zoom_given) {
    double flon = 0, flat = 20, fzoom = 2; /* no trees: the world */
    fit_trees(app, w, h, &flon, &flat, &fzoom);
    if (!app->center_given) lon = flon, lat = flat;
    if (!app->zoom_given) zoom = fzoom;
  }
  shumate_viewport_set_zoom_level(app->viewport, zoom);
  shumate_location_set_location(SHUMATE_LOCATION(app->viewport), lat, lon);
  app->ready = TRUE;
  app->zoom_started_us = g_get_monotonic_time(); /* the first paint is timed too (PAINTED) */
  sync_camera(app);
  gtk_widget_queue_draw(app->layer);
  if (app->check) {
    check_projections(app);
    g_application_quit(G_APPLICATION(app->gtk_app));
    return;
  }
  /* Where the map is in the X window: for the tests, which press at screen points. */
  gtk_widget_translate_coordinates(app->layer, GTK_WIDGET(native), 0, 0, &ox, &oy);
  gtk_native_get_surface_transform(native, &sx, &sy);
  {
    GtkWidget *close = find_close_button(gtk_window_get_titlebar(GTK_WINDOW(app->window)));
    double cx = -1, cy = -1;
    if (close && gtk_widget_translate_coordinates(close, GTK_WIDGET(native), gtk_widget_get_width(close) / 2.0,
                                                  gtk_widget_get_height(close) / 2.0, &cx, &cy))
      cx += sx, cy += sy;
    printf("READY width=%d height=%d origin_x=%g origin_y=%g close_x=%g close_y=%g zoom=%.17g center_lon=%.17g "
           "center_lat=%.17g bearing=%.17g\n",
           gtk_widget_get_width(app->layer), gtk_widget_get_height(app->layer), ox + sx, oy + sy, cx, cy,
           shumate_viewport_get_zoom_level(app->viewport), shumate_location_get_longitude(SHUMATE_LOCATION(app->viewport)),
           shumate_location_get_latitude(SHUMATE_LOCATION(app->viewport)), app->bearing);
  }
  fflush(stdout);
}

/* --check: Shumate's location_to_widget_coords against pindrop_map_to_screen over a grid of probes,
   at several cameras. Prints the largest difference in points for each. */
static void check_projections(App *app) {
  static const double cams[][3] = {{18, 0, 0}, {3.7, 0, 0}, {12.25, 0.5, 0}, {20, -1.2, 0}, {16.5, 2.8, 0}};
  double lon0 = shumate_location_get_longitude(SHUMATE_LOCATION(app->viewport));
  double lat0 = shumate_location_get_latitude(SHUMATE_LOCATION(app->viewport));
  double w = gtk_widget_get_width(app->layer), h = gtk_widget_get_height(app->layer);
  size_t c;
  for (c = 0; c < G_N_ELEMENTS(cams); c++) {
    double worst = 0, worst_back = 0;
    int i, j;
    shumate_viewport_set_zoom_level(app->viewport, cams[c][0]);
    shumate_viewport_set_rotation(app->viewport, cams[c][1]);
    sync_camera(app);
    for (i = 0; i <= 8; i++)
      for (j = 0; j <= 8; j++) {
        double sx = w * i / 8.0, sy = h * j / 8.0, lat, lon, px, py, qx, qy, lon2, lat2;
        shumate_viewport_widget_coords_to_location(app->viewport, app->layer, sx, sy, &lat, &lon);
        if (pindrop_map_to_screen(app->pd, lon, lat, &px, &py) != PINDROP_OK) { worst = INFINITY; continue; }
        shumate_viewport_location_to_widget_coords(app->viewport, app->layer, lat, lon, &qx, &qy);
        worst = fmax(worst, fmax(fabs(px - qx), fabs(py - qy)));
        /* and back: pindrop's lon/lat of the screen point, placed by Shumate */
        if (pindrop_map_to_lonlat(app->pd, sx, sy, &lon2, &lat2) != PINDROP_OK) { worst_back = INFINITY; continue; }
        shumate_viewport_location_to_widget_coords(app->viewport, app->layer, lat2, lon2, &qx, &qy);
        worst_back = fmax(worst_back, fmax(fabs(sx - qx), fabs(sy - qy)));
      }
    printf("CHECK zoom=%g rotation=%g center=%.9f,%.9f size=%gx%g max_diff_points=%.3g back=%.3g\n",
           shumate_viewport_get_zoom_level(app->viewport), cams[c][1], lon0, lat0, w, h, worst, worst_back);
  }
  fflush(stdout);
}

static void on_viewport_changed(GObject *o, GParamSpec *p, App *app) {
  (void)o;
  if (app->ready && !strcmp(p->name, "zoom-level") && !app->zoom_started_us) app->zoom_started_us = g_get_monotonic_time();
  sync_camera(app);
  gtk_widget_queue_draw(app->layer);
}

static void on_quit(GSimpleAction *action, GVariant *parameter, gpointer data) {
  App *app = data;
  (void)action; (void)parameter;
  g_application_quit(G_APPLICATION(app->gtk_app));
}

static void on_activate(GtkApplication *gtk_app, App *app) {
  GtkWidget *box, *header;
  GtkEventController *keys;
  char *title;
  static const char *quit_accels[] = {"<Control>q", NULL}, *close_accels[] = {"<Control>w", NULL};
  GSimpleAction *quit = g_simple_action_new("quit", NULL);

  if (app->window) { /* a second activation: the window we have */
    gtk_window_present(GTK_WINDOW(app->window));
    return;
  }
  g_signal_connect(quit, "activate", G_CALLBACK(on_quit), app);
  g_action_map_add_action(G_ACTION_MAP(gtk_app), G_ACTION(quit));
  g_object_unref(quit);
  gtk_application_set_accels_for_action(gtk_app, "app.quit", quit_accels);
  gtk_application_set_accels_for_action(gtk_app, "window.close", close_accels);

  app->window = gtk_application_window_new(gtk_app);
  {
    char *base = g_path_get_basename(app->csv);
    title = g_strdup_printf("pindrop-gtk — %s", base);
    g_free(base);
  }
  gtk_window_set_title(GTK_WINDOW(app->window), title);
  header = gtk_header_bar_new();
  {
    /* the title ellipsizes rather than widen the window */
    GtkWidget *label = gtk_label_new(title);
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_START);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 40);
    gtk_widget_add_css_class(label, "title");
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(header), label);
  }
  gtk_window_set_titlebar(GTK_WINDOW(app->window), header);
  g_free(title);
  if (app->width > 0) gtk_window_set_resizable(GTK_WINDOW(app->window), FALSE);
  else gtk_window_set_default_size(GTK_WINDOW(app->window), 1024, 720);

  /* Shumate's map with a reference map source for the viewport's projection (256-point tiles,
     zoom 0..20) but no tile layer: nothing is downloaded. */
  app->map = shumate_map_new();
  app->viewport = shumate_map_get_viewport(app->map);
  app->source = shumate_raster_renderer_new_full_from_url("pindrop-plain", "Plain", "", "", 0, MAX_ZOOM, 256,
                                                          SHUMATE_MAP_PROJECTION_MERCATOR,
                                                          "file:///nonexistent/{z}/{x}/{y}.png");
  shumate_viewport_set_reference_map_source(app->viewport, SHUMATE_MAP_SOURCE(app->source));
  shumate_viewport_set_rotation(app->viewport, -app->bearing * G_PI / 180.0);
  app->layer = g_object_new(PIN_TYPE_LAYER, "viewport", app->viewport, NULL);
  PIN_LAYER(app->layer)->app = app;
  g_signal_connect(app->layer, "realize", G_CALLBACK(on_layer_realize), app);
  /* (on the map: Shumate's layers take no pointer targets of their own; both share one origin) */
  gtk_widget_set_has_tooltip(GTK_WIDGET(app->map), TRUE);
  g_signal_connect(app->map, "query-tooltip", G_CALLBACK(on_query_tooltip), app);
  shumate_map_add_layer(app->map, SHUMATE_LAYER(app->layer));
  gtk_widget_set_vexpand(GTK_WIDGET(app->map), TRUE);
  if (app->width > 0) gtk_widget_set_size_request(GTK_WIDGET(app->map), app->width, app->height);

  app->status = g_object_new(GTK_TYPE_LABEL, "label", app->load_summary, "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS, NULL);
  gtk_label_set_xalign(GTK_LABEL(app->status), 0);
  gtk_label_set_ellipsize(GTK_LABEL(app->status), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars(GTK_LABEL(app->status), 10); /* it ellipsizes rather than widen the window */
  gtk_widget_set_margin_start(app->status, 8);
  gtk_widget_set_margin_end(app->status, 8);
  gtk_widget_set_margin_top(app->status, 4);
  gtk_widget_set_margin_bottom(app->status, 4);
  gtk_widget_set_tooltip_text(app->status, app->trees.notes->str[0] ? app->trees.notes->str : NULL);

  box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), GTK_WIDGET(app->map));
  gtk_box_append(GTK_BOX(box), app->status);
  gtk_window_set_child(GTK_WINDOW(app->window), box);

  /* Input: the pointer through a drag gesture (and a click gesture for double clicks) on the map,
     in the capture phase so that the map's own pan gesture never sees it; keys on the window. */
  app->drag = gtk_gesture_drag_new();
  gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(app->drag), GTK_PHASE_CAPTURE);
  g_signal_connect(app->drag, "drag-begin", G_CALLBACK(on_drag_begin), app);
  g_signal_connect(app->drag, "drag-update", G_CALLBACK(on_drag_update), app);
  g_signal_connect(app->drag, "drag-end", G_CALLBACK(on_drag_end), app);
  g_signal_connect(app->drag, "cancel", G_CALLBACK(on_drag_cancel), app);
  gtk_widget_add_controller(GTK_WIDGET(app->map), GTK_EVENT_CONTROLLER(app->drag));
  app->click = gtk_gesture_click_new();
  gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(app->click), GTK_PHASE_CAPTURE);
  g_signal_connect(app->click, "pressed", G_CALLBACK(on_click_pressed), app);
  gtk_widget_add_controller(GTK_WIDGET(app->map), GTK_EVENT_CONTROLLER(app->click));
  gtk_gesture_group(app->drag, app->click);
  keys = gtk_event_controller_key_new();
  gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE); /* Tab is the map's, not focus navigation */
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), app);
  gtk_widget_add_controller(app->window, keys);

  g_signal_connect(app->viewport, "notify", G_CALLBACK(on_viewport_changed), app);
  gtk_window_present(GTK_WINDOW(app->window));
}

int main(int argc, char **argv) {
  static App app;
  const char *spread = "spiral";
  double cluster_radius = 60;
  int touch_profile = 0, spread_on_tap = 1, i, status;
  GPtrArray *addresses = g_ptr_array_new();

  app.selected = PINDROP_NO_ID;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--center") && i + 1 < argc &&
        sscanf(argv[i + 1], "%lf,%lf", &app.center_lon, &app.center_lat) == 2) i++, app.center_given = TRUE;
    else if (!strcmp(argv[i], "--zoom") && i + 1 < argc) app.zoom = atof(argv[++i]), app.zoom_given = TRUE;
    else if (!strcmp(argv[i], "--bearing") && i + 1 < argc) app.bearing = atof(argv[++i]);
    else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &app.width, &app.height) == 2) i++;
    else if (!strcmp(argv[i], "--spread") && i + 1 < argc) spread = argv[++i];
    else if (!strcmp(argv[i], "--cluster-radius") && i + 1 < argc) cluster_radius = atof(argv[++i]);
    else if (!strcmp(argv[i], "--addresses") && i + 1 < argc) g_ptr_array_add(addresses, argv[++i]);
    else if (!strcmp(argv[i], "--spread-on-tap") && i + 1 < argc) spread_on_tap = atoi(argv[++i]) != 0;
    else if (!strcmp(argv[i], "--save") && i + 1 < argc) app.save_path = argv[++i];
    else if (!strcmp(argv[i], "--touch")) touch_profile = 1;
    else if (!strcmp(argv[i], "--check")) app.check = TRUE;
    else if (argv[i][0] != '-' && !app.csv) app.csv = argv[i];
    else {
      fprintf(stderr, "usage: %s [--center LON,LAT] [--zoom Z] [--bearing DEG] [--size WxH] [--touch]\n"
                      "          [--spread ring|spiral|off] [--spread-on-tap 0|1] [--cluster-radius R]\n"
                      "          [--addresses GEOJSON|DIR]... [--save MOVES.csv] [--check]\n"
                      "          TREES.csv\n", argv[0]);
      return 2;
    }
  }
  if (!app.csv) {
    fprintf(stderr, "%s: no trees CSV given\n", argv[0]);
    return 2;
  }

  /* pindrop: the mouse profile unless --touch. */
  pindrop_options_init(&app.options, sizeof app.options);
  if (!touch_profile) {
    app.options.lift_delay_ms = 0;
    app.options.lift_height = 0;
  }
  app.options.cluster_radius = cluster_radius;
  app.options.spread_on_tap = (uint32_t)spread_on_tap;
  if (!strcmp(spread, "off")) app.options.spread_mode = PINDROP_SPREAD_OFF;
  else if (!strcmp(spread, "ring")) app.options.spread_mode = PINDROP_SPREAD_RING;
  else if (!strcmp(spread, "spiral")) app.options.spread_mode = PINDROP_SPREAD_SPIRAL;
  else {
    fprintf(stderr, "%s: --spread %s is not known to this build\n", argv[0], spread);
    return 2;
  }
  printf("PROFILE %s lift_delay_ms=%g lift_height=%g drag_threshold=%g double_tap_ms=%g cluster_radius=%g "
         "spread=%s spread_on_tap=%u\n",
         touch_profile ? "touch" : "mouse", app.options.lift_delay_ms, app.options.lift_height,
         app.options.drag_threshold, app.options.double_tap_ms, app.options.cluster_radius, spread,
         app.options.spread_on_tap);
  status = pindrop_map_create(&app.options, &app.pd);
  if (status != PINDROP_OK) {
    fprintf(stderr, "pindrop_map_create: %s\n", pindrop_status_string((pindrop_status)status));
    return 1;
  }
  app.saved = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  load_trees(&app);
  load_addresses(&app, addresses);
  g_ptr_array_free(addresses, TRUE);

  /* GApplication parses no options of ours: only the program name goes to it. */
  app.gtk_app = gtk_application_new("org.pindrop.GtkDemo", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app.gtk_app, "activate", G_CALLBACK(on_activate), &app);
  status = g_application_run(G_APPLICATION(app.gtk_app), 1, argv);

  if (app.tick_source) g_source_remove(app.tick_source);
  g_object_unref(app.gtk_app);
  if (app.source) g_object_unref(app.source);
  pindrop_map_destroy(app.pd);
  trees_free(&app.trees);
  geocoder_free(&app.geocoder);
  g_free(app.views);
  g_free(app.clusters);
  g_free(app.load_summary);
  g_free(app.fallback_subtitle);
  g_free(app.categories);
  if (app.category_names) g_ptr_array_free(app.category_names, TRUE);
  g_hash_table_destroy(app.saved);
  printf("BYE\n");
  return status;
}
