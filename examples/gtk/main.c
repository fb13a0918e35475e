/*
 * pindrop-gtk — a GTK 4 map app on libshumate (GNOME Maps' map widget) that hosts pindrop.
 *
 *   cc *.c $(pkg-config --cflags --libs pindrop shumate-1.0 gtk4 json-glib-1.0) -lm -o pindrop-gtk
 *   ./pindrop-gtk --addresses data/lawndale.geojson ../data/lawndale_trees.csv
 *   ./pindrop-gtk --addresses ../../../shared/data/la_trees_geojson ../../../shared/data/la_trees.csv
 *
 * The host's share of the work, and nothing of pindrop's: Shumate owns the viewport (centre, zoom,
 * rotation) and the map widget; the app keeps pindrop's Web Mercator camera in step with it, feeds
 * the pointer from GTK's gesture controllers to pindrop as touches with the events' own times, runs
 * pindrop_map_tick from a timer at pindrop_map_next_deadline, pans the map itself when pindrop
 * leaves a gesture to the host, answers pindrop's reverse-geocode requests from a local geocoder
 * (geocoder.h), and draws what pindrop_map_frame and pindrop_map_frame_clusters say (trees, spread
 * legs, clusters, the selected tree's callout) on a Shumate layer with cairo and Pango. No tiles
 * are loaded (no network): the map is a plain background.
 *
 * Options:
 *   --center LON,LAT   map centre  --zoom Z   (default: the view that fits the trees, 1 % trimmed
 *                      from each side so that a stray point far away does not shrink it)
 *   --size WxH         the map's size in points (default: a 1024x720 window, resizable)
 *   --bearing DEG      (default 0)
 *   --touch            touch-screen profile (lift after 250 ms, pin 40 points above the finger);
 *                      the default is the mouse profile (lift_delay_ms = 0, lift_height = 0)
 *   --spread ring|spiral|off   how stacks are drawn: on a spiral in points (the default), on a
 *                      ring in metres, or not at all
 *   --spread-on-tap 0|1  1 (the default): a stack is one marker with its count until clicked open
 *   --save MOVES.csv   after every move, the trees users moved: id,lon,lat
 *   --cluster-radius R clusters of the pins drawn within R points of each other below zoom 17
 *                      (default 60; 0: none); a tap on a cluster zooms in to where it comes apart
 *   --addresses PATH   a GeoJSON inventory with address attributes, or a folder of them (*.geojson),
 *                      for the reverse geocoder; may be given more than once
 *   --check            compare Shumate's and pindrop's projections at several cameras and exit
 *
 * The trees file is a CSV whose columns are found by name (trees_table.h): lon/lat in either order,
 * an id column or the line number, a species (or city) column for the callout's title.
 *
 * Keys: Tab / Shift+Tab move pindrop's keyboard focus through what is drawn, Enter or Space acts
 * on it (a tree: select; a cluster: zoom in; a stack: open), L or Alt+Space lifts the focused tree,
 * arrows move the held or selected tree by a point (Shift: ten), Enter or Space drops it, Esc
 * cancels, Ctrl+Z / Ctrl+Shift+Z (or u / r) undo / redo; each is announced (the status line, an
 * accessible "status" label). e edits the selected tree (then a tap on the map moves it), Return
 * commits, + / - zoom, f prints the frame, m the clusters' members, Ctrl+Q quits, Ctrl+W closes.
 *
 * Every pindrop event is printed on stdout, one a line ("EVENT MOVED id=... lon=... lat=..."), with
 * coordinates to 17 significant digits, and after each zoom the time until it was painted
 * ("PAINTED ms=..."): examples/gtk/tests drive the app under Xvfb with real X events and read them.
 */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  static App app;
  const char *spread = "spiral";
  double cluster_radius = 60;
  int touch_profile = 0, spread_on_tap = 1, i, status;
  GPtrArray *addresses = g_ptr_array_new();

  app.selected = PINDROP_NO_ID;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--center") && i + 1 < argc &&
        sscanf(argv[i + 1], "%lf,%lf", &app.center_lon, &app.center_lat) == 2) i++, app.center_given = TRUE;
    else if (!strcmp(argv[i], "--zoom") && i + 1 < argc) app.zoom = atof(argv[++i]), app.zoom_given = TRUE;
    else if (!strcmp(argv[i], "--bearing") && i + 1 < argc) app.bearing = atof(argv[++i]);
    else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &app.width, &app.height) == 2) i++;
    else if (!strcmp(argv[i], "--spread") && i + 1 < argc) spread = argv[++i];
    else if (!strcmp(argv[i], "--cluster-radius") && i + 1 < argc) cluster_radius = atof(argv[++i]);
    else if (!strcmp(argv[i], "--addresses") && i + 1 < argc) g_ptr_array_add(addresses, argv[++i]);
    else if (!strcmp(argv[i], "--spread-on-tap") && i + 1 < argc) spread_on_tap = atoi(argv[++i]) != 0;
    else if (!strcmp(argv[i], "--save") && i + 1 < argc) app.save_path = argv[++i];
    else if (!strcmp(argv[i], "--touch")) touch_profile = 1;
    else if (!strcmp(argv[i], "--check")) app.check = TRUE;
    else if (argv[i][0] != '-' && !app.csv) app.csv = argv[i];
    else {
      fprintf(stderr, "usage: %s [--center LON,LAT] [--zoom Z] [--bearing DEG] [--size WxH] [--touch]\n"
                      "          [--spread ring|spiral|off] [--spread-on-tap 0|1] [--cluster-radius R]\n"
                      "          [--addresses GEOJSON|DIR]... [--save MOVES.csv] [--check]\n"
                      "          TREES.csv\n", argv[0]);
      return 2;
    }
  }
  if (!app.csv) {
    fprintf(stderr, "%s: no trees CSV given\n", argv[0]);
    return 2;
  }

  /* pindrop: the mouse profile unless --touch. */
  pindrop_options_init(&app.options, sizeof app.options);
  if (!touch_profile) {
    app.options.lift_delay_ms = 0;
    app.options.lift_height = 0;
  }
  app.options.cluster_radius = cluster_radius;
  app.options.spread_on_tap = (uint32_t)spread_on_tap;
  if (!strcmp(spread, "off")) app.options.spread_mode = PINDROP_SPREAD_OFF;
  else if (!strcmp(spread, "ring")) app.options.spread_mode = PINDROP_SPREAD_RING;
  else if (!strcmp(spread, "spiral")) app.options.spread_mode = PINDROP_SPREAD_SPIRAL;
  else {
    fprintf(stderr, "%s: --spread %s is not known to this build\n", argv[0], spread);
    return 2;
  }
  printf("PROFILE %s lift_delay_ms=%g lift_height=%g drag_threshold=%g double_tap_ms=%g cluster_radius=%g "
         "spread=%s spread_on_tap=%u\n",
         touch_profile ? "touch" : "mouse", app.options.lift_delay_ms, app.options.lift_height,
         app.options.drag_threshold, app.options.double_tap_ms, app.options.cluster_radius, spread,
         app.options.spread_on_tap);
  status = pindrop_map_create(&app.options, &app.pd);
  if (status != PINDROP_OK) {
    fprintf(stderr, "pindrop_map_create: %s\n", pindrop_status_string((pindrop_status)status));
    return 1;
  }
  app.saved = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  load_trees(&app);
  load_addresses(&app, addresses);
  g_ptr_array_free(addresses, TRUE);

  /* GApplication parses no options of ours: only the program name goes to it. */
  app.gtk_app = gtk_application_new("org.pindrop.GtkDemo", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app.gtk_app, "activate", G_CALLBACK(on_activate), &app);
  status = g_application_run(G_APPLICATION(app.gtk_app), 1, argv);

  if (app.tick_source) g_source_remove(app.tick_source);
  g_object_unref(app.gtk_app);
  if (app.source) g_object_unref(app.source);
  pindrop_map_destroy(app.pd);
  trees_free(&app.trees);
  geocoder_free(&app.geocoder);
  g_free(app.views);
  g_free(app.clusters);
  g_free(app.load_summary);
  g_free(app.fallback_subtitle);
  g_free(app.categories);
  if (app.category_names) g_ptr_array_free(app.category_names, TRUE);
  g_hash_table_destroy(app.saved);
  printf("BYE\n");
  return status;
}
