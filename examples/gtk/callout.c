/* The selected tree's callout: its title (the species), the geocoder's answer until pindrop has a
   subtitle, and the box drawn above the tree. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>

char *callout_text(App *app, pindrop_id id, int which) {
  size_t len = 0;
  char *buf;
  if (pindrop_map_callout(app->pd, id, which, NULL, 0, &len) != PINDROP_OK) return g_strdup("");
  buf = g_malloc(len + 1);
  pindrop_map_callout(app->pd, id, which, buf, len + 1, &len);
  return buf;
}

/* The title of a tree: its species (or "Tree ID, city" when the file names places, not species). */
void give_title(App *app, pindrop_id id) {
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
void print_callout(App *app) {
  char *title, *subtitle;
  if (app->selected == PINDROP_NO_ID) return;
  title = callout_text(app, app->selected, PINDROP_TITLE);
  subtitle = callout_text(app, app->selected, PINDROP_SUBTITLE);
  printf("CALLOUT id=%lld title=\"%s\" subtitle=\"%s\"\n", (long long)app->selected, title,
         subtitle[0] ? subtitle : (app->fallback_subtitle ? app->fallback_subtitle : ""));
  g_free(title);
  g_free(subtitle);
}

void on_selected(App *app, pindrop_id id) {
  double lon, lat;
  app->selected = id;
  g_clear_pointer(&app->fallback_subtitle, g_free);
  give_title(app, id);
  if (pindrop_map_position(app->pd, id, &lon, &lat) == PINDROP_OK)
    app->fallback_subtitle = geocoder_answer(&app->geocoder, lon, lat);
  print_callout(app);
}

/* The selected tree's callout: a box above it with the title in bold and the subtitle. */
void draw_callout(App *app, cairo_t *cr, PangoLayout *layout, double width) {
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
