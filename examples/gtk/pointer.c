/* The pointer: GtkGestureDrag (press, motion, release, cancel) fed to pindrop as touches with the
   events' own times, the host's pan when pindrop leaves a gesture to it, double-click zoom. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdio.h>

void touch(App *app, pindrop_touch_phase phase, double x, double y, double t) {
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

void on_drag_begin(GtkGestureDrag *g, double x, double y, App *app) {
  /* The map takes no pointer gesture of its own: the app decides (pindrop, else pan). */
  gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_CLAIMED);
  app->press_x = x;
  app->press_y = y;
  app->host_panning = FALSE;
  app->pointer_cancelled = FALSE;
  shumate_viewport_widget_coords_to_location(app->viewport, app->layer, x, y, &app->press_lat, &app->press_lon);
  touch(app, PINDROP_TOUCH_DOWN, x, y, event_ms(app, GTK_EVENT_CONTROLLER(g)));
}

void on_drag_update(GtkGestureDrag *g, double dx, double dy, App *app) {
  if (app->pointer_cancelled) return;
  touch(app, PINDROP_TOUCH_MOVE, app->press_x + dx, app->press_y + dy, event_ms(app, GTK_EVENT_CONTROLLER(g)));
}

void on_drag_end(GtkGestureDrag *g, double dx, double dy, App *app) {
  if (!app->pointer_cancelled)
    touch(app, PINDROP_TOUCH_UP, app->press_x + dx, app->press_y + dy, event_ms(app, GTK_EVENT_CONTROLLER(g)));
  app->host_panning = FALSE;
}

void on_drag_cancel(GtkGesture *g, GdkEventSequence *seq, App *app) {
  double x, y;
  (void)seq;
  if (app->pointer_cancelled) return;
  if (!gtk_gesture_get_point(g, NULL, &x, &y)) { x = app->press_x; y = app->press_y; }
  touch(app, PINDROP_TOUCH_CANCEL, x, y, event_ms(app, GTK_EVENT_CONTROLLER(g)));
  app->pointer_cancelled = TRUE;
  app->host_panning = FALSE;
}

/* A double click zooms in around the pointer (pindrop never moves anything on a double tap). */
void on_click_pressed(GtkGestureClick *g, int n_press, double x, double y, App *app) {
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
