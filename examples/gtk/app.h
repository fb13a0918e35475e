/*
 * app.h — what the files of pindrop-gtk share: the App (the one state of the app, owned by main)
 * and the functions one file calls in another, by file.
 */
#ifndef PINDROP_GTK_APP_H
#define PINDROP_GTK_APP_H

#include <gtk/gtk.h>
#include <pindrop.h>
#include <shumate/shumate.h>

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
  /* categories: the label column's values, coded by how many trees have them (0: the most) */
  guint32 *categories;
  GPtrArray *category_names;
  const char *category_noun; /* "species" or "cities" */
  /* the keyboard: pindrop's focus, a keyboard drag from where the pin was lifted */
  pindrop_focus focus;
  gboolean key_dragging;
  double lift_lon, lift_lat;
  /* --save: the trees users moved, id -> lon/lat, written after every move */
  const char *save_path;
  GHashTable *saved;
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

/* clock.c */
double now_ms(App *app);
double event_ms(App *app, GtkEventController *c);
void schedule_tick(App *app);

/* camera.c */
void sync_camera(App *app);
void pan_by(App *app, double from_x, double from_y, double to_x, double to_y);
void first_view(App *app);

/* events.c */
void report(App *app, const char *what, int status);
void drain(App *app);

/* callout.c */
char *callout_text(App *app, pindrop_id id, int which);
void give_title(App *app, pindrop_id id);
void print_callout(App *app);
void on_selected(App *app, pindrop_id id);
void draw_callout(App *app, cairo_t *cr, PangoLayout *layout, double width);

/* announce.c */
void announce(App *app, const char *text);
void announce_event(App *app, const pindrop_event *e);
char *cluster_text(App *app, uint64_t key, uint32_t count, uint32_t flags, guint32 *out_dominant);
char *thousands(size_t n);

/* pointer.c */
void touch(App *app, pindrop_touch_phase phase, double x, double y, double t);
void on_drag_begin(GtkGestureDrag *g, double x, double y, App *app);
void on_drag_update(GtkGestureDrag *g, double dx, double dy, App *app);
void on_drag_end(GtkGestureDrag *g, double dx, double dy, App *app);
void on_drag_cancel(GtkGesture *g, GdkEventSequence *seq, App *app);
void on_click_pressed(GtkGestureClick *g, int n_press, double x, double y, App *app);

/* keyboard.c */
gboolean on_key(GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state, App *app);

/* pin_layer.c */
GtkWidget *pin_layer_new(App *app);
void print_frame(App *app);
void print_members(App *app);

/* drawing.c */
void draw_trees(App *app, cairo_t *cr, cairo_surface_t *surface, int scale, size_t n);
void draw_clusters(App *app, cairo_t *cr, PangoLayout *layout);
void draw_focus(App *app, cairo_t *cr);
double cluster_radius_points(uint32_t count);

/* files.c */
void load_trees(App *app);
void load_addresses(App *app, GPtrArray *paths);
void save_move(App *app, pindrop_id id, double lon, double lat);

/* window.c */
void on_activate(GtkApplication *gtk_app, App *app);

#endif
