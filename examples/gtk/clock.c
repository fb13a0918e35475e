/* pindrop's clock (GLib's monotonic one, in ms), input events' own times mapped onto it, and the
   one timer that runs pindrop_map_tick at pindrop_map_next_deadline. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>

static double clock_ms(void) { return (double)g_get_monotonic_time() / 1000.0; }

/* Now on pindrop's clock, never less than a time already given to the map (for timers and for
   calls that no input event caused). */
double now_ms(App *app) {
  double t = clock_ms();
  if (t < app->last_ms) t = app->last_ms;
  app->last_ms = t;
  return t;
}

/* The time of the event the controller is handling, on pindrop's clock: when it happened, not when
   the app got round to it (under load the two differ, and hold and double-tap timing must not
   drift with the app's delays). The X server's 32-bit millisecond time is unwrapped and mapped
   onto the monotonic clock by the smallest offset seen so far. */
double event_ms(App *app, GtkEventController *c) {
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
void schedule_tick(App *app) {
  double due = pindrop_map_next_deadline(app->pd), wait;
  if (app->tick_source) g_source_remove(app->tick_source);
  app->tick_source = 0;
  if (isinf(due)) return;
  wait = ceil(due - now_ms(app));
  app->tick_source = g_timeout_add(wait > 0 ? (guint)wait : 0, on_tick_timer, app);
}
