/* The camera: pindrop's Web Mercator camera kept in step with Shumate's viewport, panning, the
   first view (fitted to the trees) and --check. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* pindrop's camera from Shumate's viewport: same centre and zoom (both 256-point tiles), bearing =
   -rotation (Shumate turns the map content clockwise by `rotation` radians; pindrop's bearing is the
   direction the top of the view faces, clockwise from north), the layer's size in points. */
void sync_camera(App *app) {
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
void pan_by(App *app, double from_x, double from_y, double to_x, double to_y) {
  double w = gtk_widget_get_width(app->layer), h = gtk_widget_get_height(app->layer), lat, lon;
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, w / 2 + from_x - to_x,
                                             h / 2 + from_y - to_y, &lat, &lon);
  shumate_location_set_location(SHUMATE_LOCATION(app->viewport), lat, lon);
  sync_camera(app);
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

/* The header bar's close button (a GtkButton with the style class "close"), or NULL. */
static GtkWidget *find_close_button(GtkWidget *w) {
  GtkWidget *child, *found;
  if (GTK_IS_BUTTON(w) && gtk_widget_has_css_class(w, "close")) return w;
  for (child = gtk_widget_get_first_child(w); child; child = gtk_widget_get_next_sibling(child))
    if ((found = find_close_button(child))) return found;
  return NULL;
}

void first_view(App *app) {
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
