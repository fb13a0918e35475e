/* Drawing a frame's trees (stamped from one sprite per style), clusters and the focus ring. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

void draw_trees(App *app, cairo_t *cr, cairo_surface_t *surface, int scale, size_t n) {
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

double cluster_radius_points(uint32_t count) { return 10 + 3 * log10((double)count); }

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
void draw_clusters(App *app, cairo_t *cr, PangoLayout *layout) {
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
void draw_focus(App *app, cairo_t *cr) {
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
