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
 *   --spread ring|spiral|off   how stacks are drawn: on a ring in metres (the default), on a
 *                      spiral in points, or not at all
 *   --cluster-radius R clusters of the pins drawn within R points of each other below zoom 17
 *                      (default 60; 0: none); a tap on a cluster zooms in to where it comes apart
 *   --addresses PATH   a GeoJSON inventory with address attributes, or a folder of them (*.geojson),
 *                      for the reverse geocoder; may be given more than once
 *   --check            compare Shumate's and pindrop's projections at several cameras and exit
 *
 * The trees file is a CSV whose columns are found by name (trees_table.h): lon/lat in either order,
 * an id column or the line number, a species (or city) column for the callout's title.
 *
 * Keys: Esc cancels the gesture, arrows move the selected tree by a point (Shift: ten), e edits the
 * selected tree (then a tap on the map moves it), Return commits, u / r undo / redo, + / - zoom,
 * f prints the frame, Ctrl+Q quits, Ctrl+W closes the window.
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
                                    "NEARBY", "AUTOPAN", "CLUSTER_TAPPED"};
static const char *cause_names[] = {"NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE"};

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

static void drain(App *app) {
  pindrop_event e;
  while (pindrop_map_poll_event(app->pd, &e) == 1) {
    const char *name = (e.type >= 0 && e.type <= PINDROP_EVENT_CLUSTER_TAPPED) ? event_names[e.type] : "OTHER";
    printf("EVENT %s id=%lld t=%.1f", name, (long long)e.id, e.time_ms);
    switch (e.type) {
    case PINDROP_EVENT_MOVED:
      printf(" lon=%.17g lat=%.17g from_lon=%.17g from_lat=%.17g cause=%s", e.lon, e.lat, e.from_lon,
             e.from_lat, (e.cause >= 0 && e.cause <= PINDROP_CAUSE_NUDGE) ? cause_names[e.cause] : "OTHER");
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

static void touch(App *app, pindrop_touch_phase phase, double x, double y, double t) {
  int owned;
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
  touch(app, PINDROP_TOUCH_CANCEL, x, y, now_ms(app));
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

static void zoom_by(App *app, double dz) {
  app->zoom_started_us = g_get_monotonic_time();
  shumate_viewport_set_zoom_level(app->viewport, shumate_viewport_get_zoom_level(app->viewport) + dz);
  sync_camera(app);
  printf("ZOOM %.17g\n", shumate_viewport_get_zoom_level(app->viewport));
  fflush(stdout);
  gtk_widget_queue_draw(app->layer);
}

static gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, App *app) {
  pindrop_id sel = PINDROP_NO_ID;
  double t = event_ms(app, GTK_EVENT_CONTROLLER(c));
  (void)keycode;
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) return FALSE; /* the application's shortcuts */
  sync_camera(app);
  switch (keyval) {
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
  case GDK_KEY_KP_Enter:
    report(app, "pindrop_map_commit", pindrop_map_commit(app->pd, t));
    printf("COMMIT\n");
    break;
  case GDK_KEY_u:
    report(app, "pindrop_map_undo", pindrop_map_undo(app->pd, t));
    break;
  case GDK_KEY_r:
    report(app, "pindrop_map_redo", pindrop_map_redo(app->pd, t));
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

/* Clusters: one path of discs (radius growing with the count), then each count with Pango. */
static void draw_clusters(App *app, cairo_t *cr, PangoLayout *layout) {
  size_t i;
  if (!app->clusters_n) return;
  cairo_new_path(cr);
  for (i = 0; i < app->clusters_n; i++) {
    const pindrop_cluster_view *c = &app->clusters[i];
    double r = cluster_radius_points(c->count);
    cairo_move_to(cr, c->x + r, c->y);
    cairo_arc(cr, c->x, c->y, r, 0, 2 * G_PI);
  }
  cairo_set_source_rgba(cr, 0.1, 0.45, 0.45, 0.85);
  cairo_fill(cr);
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
    if (v->lift != 0 && v->lift != 1) animating = TRUE;
    if (!(v->flags & PINDROP_PIN_SPREAD)) continue;
    cairo_move_to(cr, v->anchor_x, v->anchor_y);
    cairo_line_to(cr, v->x, v->y);
  }
  cairo_stroke(cr);

  draw_trees(app, cr, surface, scale, n);
  font = pango_font_description_from_string("Sans Bold 8");
  pango_layout_set_font_description(layout, font);
  draw_clusters(app, cr, layout);
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
    printf("CLUSTER key=%llu x=%.17g y=%.17g lon=%.17g lat=%.17g count=%u\n", (unsigned long long)c->key, c->x, c->y,
           c->lon, c->lat, c->count);
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
    double flon = -118.34600679066747, flat = 33.88355188855412, fzoom = 14;
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
  shumate_map_add_layer(app->map, SHUMATE_LAYER(app->layer));
  gtk_widget_set_vexpand(GTK_WIDGET(app->map), TRUE);
  if (app->width > 0) gtk_widget_set_size_request(GTK_WIDGET(app->map), app->width, app->height);

  app->status = gtk_label_new(app->load_summary);
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
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), app);
  gtk_widget_add_controller(app->window, keys);

  g_signal_connect(app->viewport, "notify", G_CALLBACK(on_viewport_changed), app);
  gtk_window_present(GTK_WINDOW(app->window));
}

int main(int argc, char **argv) {
  static App app;
  const char *spread = "ring";
  double cluster_radius = 60;
  int touch_profile = 0, i, status;
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
    else if (!strcmp(argv[i], "--touch")) touch_profile = 1;
    else if (!strcmp(argv[i], "--check")) app.check = TRUE;
    else if (argv[i][0] != '-' && !app.csv) app.csv = argv[i];
    else {
      fprintf(stderr, "usage: %s [--center LON,LAT] [--zoom Z] [--bearing DEG] [--size WxH] [--touch]\n"
                      "          [--spread ring|spiral|off] [--cluster-radius R] [--addresses GEOJSON|DIR]... [--check]\n"
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
  if (!strcmp(spread, "off")) app.options.spread_mode = PINDROP_SPREAD_OFF;
  else if (!strcmp(spread, "ring")) app.options.spread_mode = PINDROP_SPREAD_RING;
  else if (!strcmp(spread, "spiral")) app.options.spread_mode = PINDROP_SPREAD_SPIRAL;
  else {
    fprintf(stderr, "%s: --spread %s is not known to this build\n", argv[0], spread);
    return 2;
  }
  printf("PROFILE %s lift_delay_ms=%g lift_height=%g drag_threshold=%g double_tap_ms=%g cluster_radius=%g\n",
         touch_profile ? "touch" : "mouse", app.options.lift_delay_ms, app.options.lift_height,
         app.options.drag_threshold, app.options.double_tap_ms, app.options.cluster_radius);
  status = pindrop_map_create(&app.options, &app.pd);
  if (status != PINDROP_OK) {
    fprintf(stderr, "pindrop_map_create: %s\n", pindrop_status_string((pindrop_status)status));
    return 1;
  }
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
  printf("BYE\n");
  return status;
}
