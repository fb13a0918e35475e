/* The window: header bar, Shumate's map, the status line, the input controllers, tooltips. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

void on_activate(GtkApplication *gtk_app, App *app) {
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
  app->layer = pin_layer_new(app);
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
