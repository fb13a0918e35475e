/* The Shumate layer that draws pindrop's frame as one texture, and the frame printed for the
   tests ('f', 'm', PAINTED). */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>

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
void print_frame(App *app) {
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
void print_members(App *app) {
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

static void on_layer_realize(GtkWidget *layer, App *app) {
  g_signal_connect(gtk_widget_get_frame_clock(layer), "after-paint", G_CALLBACK(on_after_paint), app);
}

/* The layer for the app's viewport; it draws the app's frames. */
GtkWidget *pin_layer_new(App *app) {
  GtkWidget *layer = g_object_new(PIN_TYPE_LAYER, "viewport", app->viewport, NULL);
  PIN_LAYER(layer)->app = app;
  g_signal_connect(layer, "realize", G_CALLBACK(on_layer_realize), app);
  return layer;
}
