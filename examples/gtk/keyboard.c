/* The keys: the keyboard path of a drag (docs/accessibility.md's key map), focus, undo, zoom. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>
#include <string.h>

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

/* L or Alt+Space: the focused pin (selected first if it is not) is lifted by the keyboard. Alt+Space
   opens the window menu on Windows and in GNOME, XFCE and some KDE setups, where the window manager
   takes it before the app sees it; no window manager takes a plain L. */
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
    announce(app, sel == PINDROP_NO_ID ? "select a tree first: Tab to it, then L" : pindrop_map_last_error(app->pd));
  }
}

gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, App *app) {
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
  case GDK_KEY_l:
  case GDK_KEY_L:
    key_lift(app, t);
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
