/*
 * pindrop-gtk — a GTK 4 map app on libshumate (GNOME Maps' map widget) that hosts pindrop.
 *
 *   cc pindrop_gtk.c $(pkg-config --cflags --libs pindrop shumate-1.0 gtk4) -lm -o pindrop-gtk
 *   ./pindrop-gtk ../data/lawndale_trees.csv
 *
 * The host's share of the work, and nothing of pindrop's: Shumate owns the viewport (centre, zoom,
 * rotation) and the map widget; the app keeps pindrop's Web Mercator camera in step with it, feeds
 * the pointer from GTK's gesture controllers to pindrop as touches with real times, runs
 * pindrop_map_tick from a timer at pindrop_map_next_deadline, pans the map itself when pindrop
 * leaves a gesture to the host, and draws what pindrop_map_frame says (trees, spread legs) on a
 * Shumate layer with cairo. No tiles are loaded (no network): the map is a plain background.
 *
 * Options:
 *   --center LON,LAT   map centre (default: Lawndale's big stack)   --zoom Z      (default 18)
 *   --size WxH         window size (default 800x600)                --bearing DEG (default 0)
 *   --touch            touch-screen profile (lift after 250 ms, pin 40 points above the finger);
 *                      the default is the mouse profile (lift_delay_ms = 0, lift_height = 0)
 *   --spread ring|spiral|off   how stacks are drawn: on a ring in metres (the default), on a
 *                      spiral in points, or not at all
 *   --cluster-radius R clusters of the pins drawn within R points of each other below zoom 17
 *                      (0, the default: none); a tap on a cluster zooms in to where it comes apart
 *   --check            compare Shumate's and pindrop's projections at several cameras and exit
 *
 * Keys: Esc cancels the gesture, arrows move the selected tree by a point (Shift: ten), e edits the
 * selected tree (then a tap on the map moves it), Return commits, u / r undo / redo, + / - zoom,
 * f prints the frame, q quits.
 *
 * Every pindrop event is printed on stdout, one a line ("EVENT MOVED id=... lon=... lat=..."), with
 * coordinates to 17 significant digits: examples/gtk/tests drive the app under Xvfb with real X
 * events and read them.
 */
#include <gtk/gtk.h>
#include <math.h>
#include <pindrop.h>
#include <shumate/shumate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c/trees_csv.h"

typedef struct {
  GtkWidget *window, *layer;
  ShumateMap *map;
  ShumateViewport *viewport;
  pindrop_map *pd;
  pindrop_options options;
  double last_ms;
  guint tick_source, redraw_tick;
  gboolean animating;
  /* the pointer gesture */
  double press_x, press_y, press_lat, press_lon;
  gboolean host_panning;
  /* what was drawn last */
  pindrop_pin_view *views;
  size_t views_cap, views_n;
  pindrop_cluster_view *clusters;
  size_t clusters_cap, clusters_n;
  gboolean running;
} App;

static const char *event_names[] = {"SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED",
                                    "DRAG_CANCELLED", "MOVED", "GEOCODE_REQUEST", "CALLOUT_CHANGED",
                                    "NEARBY", "AUTOPAN", "CLUSTER_TAPPED"};
static const char *cause_names[] = {"NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE"};

/* ---- time and camera ---------------------------------------------------------------------------- */

/* Milliseconds on GLib's monotonic clock, never less than a time already given to the map. */
static double now_ms(App *app) {
  double t = (double)g_get_monotonic_time() / 1000.0;
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
    case PINDROP_EVENT_GEOCODE_REQUEST:
      printf(" lon=%.17g lat=%.17g", e.lon, e.lat);
      break;
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

static void touch(App *app, pindrop_touch_phase phase, double x, double y) {
  int owned;
  sync_camera(app);
  owned = pindrop_map_touch(app->pd, 0, phase, x, y, now_ms(app));
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
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, x, y, &app->press_lat, &app->press_lon);
  touch(app, PINDROP_TOUCH_DOWN, x, y);
}

static void on_drag_update(GtkGestureDrag *g, double dx, double dy, App *app) {
  (void)g;
  touch(app, PINDROP_TOUCH_MOVE, app->press_x + dx, app->press_y + dy);
}

static void on_drag_end(GtkGestureDrag *g, double dx, double dy, App *app) {
  (void)g;
  touch(app, PINDROP_TOUCH_UP, app->press_x + dx, app->press_y + dy);
  app->host_panning = FALSE;
}

static void on_drag_cancel(GtkGesture *g, GdkEventSequence *seq, App *app) {
  double x, y;
  (void)seq;
  if (!gtk_gesture_get_point(g, NULL, &x, &y)) { x = app->press_x; y = app->press_y; }
  touch(app, PINDROP_TOUCH_CANCEL, x, y);
  app->host_panning = FALSE;
}

/* A double click zooms in around the pointer (pindrop never moves anything on a double tap). */
static void on_click_pressed(GtkGestureClick *g, int n_press, double x, double y, App *app) {
  double lat, lon, px, py;
  (void)g;
  if (n_press != 2) return;
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
  shumate_viewport_set_zoom_level(app->viewport, shumate_viewport_get_zoom_level(app->viewport) + dz);
  sync_camera(app);
  printf("ZOOM %.17g\n", shumate_viewport_get_zoom_level(app->viewport));
  fflush(stdout);
  gtk_widget_queue_draw(app->layer);
}

static gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, App *app) {
  pindrop_id sel = PINDROP_NO_ID;
  (void)c; (void)keycode;
  sync_camera(app);
  switch (keyval) {
  case GDK_KEY_Escape:
    report(app, "pindrop_map_cancel_gesture", pindrop_map_cancel_gesture(app->pd, now_ms(app)));
    break;
  case GDK_KEY_e:
    pindrop_map_selected(app->pd, &sel);
    if (sel != PINDROP_NO_ID) report(app, "pindrop_map_edit", pindrop_map_edit(app->pd, sel, now_ms(app)));
    printf("EDIT id=%lld\n", (long long)sel);
    break;
  case GDK_KEY_Return:
  case GDK_KEY_KP_Enter:
    report(app, "pindrop_map_commit", pindrop_map_commit(app->pd, now_ms(app)));
    printf("COMMIT\n");
    break;
  case GDK_KEY_u:
    report(app, "pindrop_map_undo", pindrop_map_undo(app->pd, now_ms(app)));
    break;
  case GDK_KEY_r:
    report(app, "pindrop_map_redo", pindrop_map_redo(app->pd, now_ms(app)));
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
    int status = pindrop_map_nudge(app->pd, dx, dy, now_ms(app));
    if (status == PINDROP_ERR_STATE) printf("NUDGE refused: %s\n", pindrop_map_last_error(app->pd));
    else report(app, "pindrop_map_nudge", status);
    break;
  }
  case GDK_KEY_f:
    print_frame(app);
    break;
  case GDK_KEY_q:
    app->running = FALSE;
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

static void pin_layer_snapshot(GtkWidget *widget, GtkSnapshot *snapshot) {
  App *app = PIN_LAYER(widget)->app;
  double w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget);
  cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
  size_t i, n;
  gboolean animating = FALSE;

  sync_camera(app);
  n = fetch_frame(app, now_ms(app));

  /* A plain background instead of tiles. */
  cairo_set_source_rgb(cr, 0.93, 0.92, 0.88);
  cairo_paint(cr);

  /* Spread legs: from the true spot (anchor) to where the tree is drawn. */
  cairo_set_line_width(cr, 1.0);
  cairo_set_source_rgba(cr, 0.35, 0.35, 0.35, 0.8);
  for (i = 0; i < n; i++) {
    const pindrop_pin_view *v = &app->views[i];
    if (!(v->flags & PINDROP_PIN_SPREAD)) continue;
    cairo_move_to(cr, v->anchor_x, v->anchor_y);
    cairo_line_to(cr, v->x, v->y);
  }
  cairo_stroke(cr);

  /* Trees: a disc at the point each marks; a lifted one rises above a shadow at its landing point. */
  for (i = 0; i < n; i++) {
    const pindrop_pin_view *v = &app->views[i];
    double rise = v->lift * 8.0, r = (v->flags & PINDROP_PIN_DRAGGING) ? 8.0 : 6.0;
    if (v->lift != 0 && v->lift != 1) animating = TRUE;
    if (v->lift > 0) {
      cairo_set_source_rgba(cr, 0, 0, 0, 0.25 * v->lift);
      cairo_arc(cr, v->x, v->y, 4.0, 0, 2 * G_PI);
      cairo_fill(cr);
    }
    if (v->flags & PINDROP_PIN_INVALID) cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
    else if (v->flags & PINDROP_PIN_EDITING) cairo_set_source_rgb(cr, 0.1, 0.35, 0.9);
    else if (v->flags & PINDROP_PIN_SELECTED) cairo_set_source_rgb(cr, 0.95, 0.55, 0.05);
    else cairo_set_source_rgb(cr, 0.13, 0.55, 0.13);
    cairo_arc(cr, v->x, v->y - rise, r, 0, 2 * G_PI);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.05, 0.2, 0.05);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
  }
  /* Clusters: a disc that grows with the count, the count in it. */
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, 11);
  for (i = 0; i < app->clusters_n; i++) {
    const pindrop_cluster_view *c = &app->clusters[i];
    char text[16];
    cairo_text_extents_t ext;
    double r = 10 + 3 * log10((double)c->count);
    cairo_set_source_rgba(cr, 0.1, 0.45, 0.45, 0.85);
    cairo_arc(cr, c->x, c->y, r, 0, 2 * G_PI);
    cairo_fill(cr);
    snprintf(text, sizeof text, "%u", c->count);
    cairo_text_extents(cr, text, &ext);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_move_to(cr, c->x - ext.width / 2 - ext.x_bearing, c->y - ext.height / 2 - ext.y_bearing);
    cairo_show_text(cr, text);
  }
  cairo_destroy(cr);

  app->animating = animating;
  if (animating && !app->redraw_tick)
    app->redraw_tick = gtk_widget_add_tick_callback(widget, redraw_while_animating, app, NULL);
}

static void pin_layer_class_init(PinLayerClass *klass) {
  GTK_WIDGET_CLASS(klass)->snapshot = pin_layer_snapshot;
}

static void pin_layer_init(PinLayer *self) { (void)self; }

/* 'f': what is drawn, one tree a line (screen points). */
static void print_frame(App *app) {
  size_t i, n;
  sync_camera(app);
  n = fetch_frame(app, now_ms(app));
  printf("FRAME n=%zu clusters=%zu zoom=%.17g\n", n, app->clusters_n, shumate_viewport_get_zoom_level(app->viewport));
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

/* ---- set-up ------------------------------------------------------------------------------------- */

/* Reads the trees (../c/trees_csv.h) and adds them with one batch call. */
static int load_trees(App *app, const char *path) {
  pindrop_id *ids;
  double *lonlat;
  size_t n;
  int status;
  if (read_trees_csv(path, &ids, &lonlat, &n) != 0) return -1;
  status = pindrop_map_add_many(app->pd, ids, lonlat, n);
  free(ids);
  free(lonlat);
  report(app, "pindrop_map_add_many", status);
  if (status == PINDROP_OK) printf("LOADED %zu %s\n", n, path);
  return status;
}

/* --check: Shumate's location_to_widget_coords against pindrop_map_to_screen over a grid of probes,
   at several cameras. Prints the largest difference in points for each. */
static void check_projections(App *app) {
  static const double cams[][3] = {{18, 0, 0}, {3.7, 0, 0}, {12.25, 0.5, 0}, {21, -1.2, 0}, {16.5, 2.8, 0}};
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
    printf("CHECK zoom=%g rotation=%g center=%.9f,%.9f size=%gx%g max_diff_points=%.3g back=%.3g\n", cams[c][0],
           cams[c][1], lon0, lat0, w, h, worst, worst_back);
  }
  fflush(stdout);
}

static gboolean on_close(GtkWindow *w, App *app) {
  (void)w;
  app->running = FALSE;
  return TRUE;
}

static void on_viewport_changed(GObject *o, GParamSpec *p, App *app) {
  (void)o; (void)p;
  sync_camera(app);
  gtk_widget_queue_draw(app->layer);
}

int main(int argc, char **argv) {
  App app;
  const char *csv = NULL, *spread = "ring";
  double lon = -118.34600679066747, lat = 33.88355188855412, zoom = 18, bearing = 0, cluster_radius = 0;
  int width = 800, height = 600, check = 0, touch_profile = 0, i, status;
  ShumateRasterRenderer *source;
  GtkGesture *drag, *click;
  GtkEventController *keys;

  memset(&app, 0, sizeof app);
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--center") && i + 1 < argc && sscanf(argv[i + 1], "%lf,%lf", &lon, &lat) == 2) i++;
    else if (!strcmp(argv[i], "--zoom") && i + 1 < argc) zoom = atof(argv[++i]);
    else if (!strcmp(argv[i], "--bearing") && i + 1 < argc) bearing = atof(argv[++i]);
    else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &width, &height) == 2) i++;
    else if (!strcmp(argv[i], "--spread") && i + 1 < argc) spread = argv[++i];
    else if (!strcmp(argv[i], "--cluster-radius") && i + 1 < argc) cluster_radius = atof(argv[++i]);
    else if (!strcmp(argv[i], "--touch")) touch_profile = 1;
    else if (!strcmp(argv[i], "--check")) check = 1;
    else if (argv[i][0] != '-' && !csv) csv = argv[i];
    else {
      fprintf(stderr, "usage: %s [--center LON,LAT] [--zoom Z] [--bearing DEG] [--size WxH] [--touch]\n"
                      "          [--spread ring|spiral|off] [--cluster-radius R] [--check] TREES.csv\n", argv[0]);
      return 2;
    }
  }
  if (!csv) {
    fprintf(stderr, "%s: no trees CSV given\n", argv[0]);
    return 2;
  }

  /* pindrop: the mouse profile unless --touch. */
  {
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
    printf("PROFILE %s lift_delay_ms=%g lift_height=%g drag_threshold=%g double_tap_ms=%g\n",
           touch_profile ? "touch" : "mouse", app.options.lift_delay_ms, app.options.lift_height,
           app.options.drag_threshold, app.options.double_tap_ms);
  }
  status = pindrop_map_create(&app.options, &app.pd);
  if (status != PINDROP_OK) {
    fprintf(stderr, "pindrop_map_create: %s\n", pindrop_status_string((pindrop_status)status));
    return 1;
  }
  if (load_trees(&app, csv) != PINDROP_OK) return 1;

  gtk_init();
  app.window = gtk_window_new();
  gtk_window_set_title(GTK_WINDOW(app.window), "pindrop-gtk");
  gtk_window_set_decorated(GTK_WINDOW(app.window), FALSE);
  gtk_window_set_default_size(GTK_WINDOW(app.window), width, height);

  /* Shumate's map with a reference map source for the viewport's projection (256-point tiles,
     zoom 0..22) but no tile layer: nothing is downloaded. */
  app.map = shumate_map_new();
  app.viewport = shumate_map_get_viewport(app.map);
  source = shumate_raster_renderer_new_full_from_url("pindrop-plain", "Plain", "", "", 0, 22, 256,
                                                     SHUMATE_MAP_PROJECTION_MERCATOR, "file:///nonexistent/{z}/{x}/{y}.png");
  shumate_viewport_set_reference_map_source(app.viewport, SHUMATE_MAP_SOURCE(source));
  shumate_viewport_set_zoom_level(app.viewport, zoom);
  shumate_viewport_set_rotation(app.viewport, -bearing * G_PI / 180.0);
  shumate_location_set_location(SHUMATE_LOCATION(app.viewport), lat, lon);
  app.layer = g_object_new(PIN_TYPE_LAYER, "viewport", app.viewport, NULL);
  PIN_LAYER(app.layer)->app = &app;
  shumate_map_add_layer(app.map, SHUMATE_LAYER(app.layer));
  gtk_window_set_child(GTK_WINDOW(app.window), GTK_WIDGET(app.map));

  /* Input: the pointer through a drag gesture (and a click gesture for double clicks) on the map,
     in the capture phase so that the map's own pan gesture never sees it; keys on the window. */
  drag = gtk_gesture_drag_new();
  gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(drag), GTK_PHASE_CAPTURE);
  g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), &app);
  g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), &app);
  g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), &app);
  g_signal_connect(drag, "cancel", G_CALLBACK(on_drag_cancel), &app);
  gtk_widget_add_controller(GTK_WIDGET(app.map), GTK_EVENT_CONTROLLER(drag));
  click = gtk_gesture_click_new();
  gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click), GTK_PHASE_CAPTURE);
  g_signal_connect(click, "pressed", G_CALLBACK(on_click_pressed), &app);
  gtk_widget_add_controller(GTK_WIDGET(app.map), GTK_EVENT_CONTROLLER(click));
  gtk_gesture_group(drag, click);
  keys = gtk_event_controller_key_new();
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), &app);
  gtk_widget_add_controller(app.window, keys);

  g_signal_connect(app.viewport, "notify", G_CALLBACK(on_viewport_changed), &app);
  g_signal_connect(app.window, "close-request", G_CALLBACK(on_close), &app);
  gtk_window_present(GTK_WINDOW(app.window));

  /* Wait until the map has its size, then say so. */
  app.running = TRUE;
  while (app.running && gtk_widget_get_width(app.layer) < 1) g_main_context_iteration(NULL, TRUE);
  sync_camera(&app);
  if (check) {
    check_projections(&app);
    app.running = FALSE;
  } else {
    printf("READY width=%d height=%d zoom=%.17g center_lon=%.17g center_lat=%.17g bearing=%.17g\n",
           gtk_widget_get_width(app.layer), gtk_widget_get_height(app.layer),
           shumate_viewport_get_zoom_level(app.viewport), lon, lat, bearing);
    fflush(stdout);
  }
  while (app.running) g_main_context_iteration(NULL, TRUE);

  if (app.tick_source) g_source_remove(app.tick_source);
  gtk_window_destroy(GTK_WINDOW(app.window));
  g_object_unref(source);
  pindrop_map_destroy(app.pd);
  g_free(app.views);
  g_free(app.clusters);
  printf("BYE\n");
  return 0;
}
