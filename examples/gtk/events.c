/* pindrop's events: each printed on stdout, and what the host does about it (answers a geocode
   request, pans on AUTOPAN, zooms into a tapped cluster, saves a move, updates the callout). */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <stdio.h>

static const char *event_names[] = {"SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED",
                                    "DRAG_CANCELLED", "MOVED", "GEOCODE_REQUEST", "CALLOUT_CHANGED",
                                    "NEARBY", "AUTOPAN", "CLUSTER_TAPPED", "STACK_OPENED", "STACK_CLOSED"};

static const char *cause_names[] = {"NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE", "KEYBOARD"};

void report(App *app, const char *what, int status) {
  if (status < 0)
    fprintf(stderr, "pindrop-gtk: %s: %s: %s\n", what, pindrop_status_string((pindrop_status)status),
            pindrop_map_last_error(app->pd));
}

void drain(App *app) {
  pindrop_event e;
  while (pindrop_map_poll_event(app->pd, &e) == 1) {
    const char *name = (e.type >= 0 && e.type <= PINDROP_EVENT_STACK_CLOSED) ? event_names[e.type] : "OTHER";
    printf("EVENT %s id=%lld t=%.1f", name, (long long)e.id, e.time_ms);
    switch (e.type) {
    case PINDROP_EVENT_MOVED:
      printf(" lon=%.17g lat=%.17g from_lon=%.17g from_lat=%.17g cause=%s", e.lon, e.lat, e.from_lon,
             e.from_lat, (e.cause >= 0 && e.cause <= PINDROP_CAUSE_KEYBOARD) ? cause_names[e.cause] : "OTHER");
      break;
    case PINDROP_EVENT_DRAGGED:
    case PINDROP_EVENT_DRAG_CANCELLED:
      printf(" lon=%.17g lat=%.17g", e.lon, e.lat);
      break;
    case PINDROP_EVENT_GEOCODE_REQUEST: {
      /* Answered at once from the local geocoder; an answer pindrop finds stale is not shown. */
      char *answer = geocoder_answer(&app->geocoder, e.lon, e.lat);
      int status = pindrop_map_answer_geocode(app->pd, e.request, answer);
      printf(" lon=%.17g lat=%.17g request=%llu answer=\"%s\" status=%s", e.lon, e.lat,
             (unsigned long long)e.request, answer, pindrop_status_string((pindrop_status)status));
      g_free(answer);
      break;
    }
    case PINDROP_EVENT_NEARBY:
      printf(" other=%lld distance_m=%.3f", (long long)e.other, e.distance_m);
      break;
    case PINDROP_EVENT_AUTOPAN:
      printf(" dx=%.3f dy=%.3f", e.dx, e.dy);
      /* The host moves its camera: the view centre by (dx, dy) points. */
      pan_by(app, e.dx, e.dy, 0, 0);
      break;
    case PINDROP_EVENT_CLUSTER_TAPPED: {
      /* The host zooms in to where the cluster comes apart, centred on it. */
      double zoom;
      printf(" key=%llu lon=%.17g lat=%.17g", (unsigned long long)e.request, e.lon, e.lat);
      if (pindrop_map_cluster_expansion_zoom(app->pd, e.request, &zoom) == PINDROP_OK) {
        shumate_viewport_set_zoom_level(app->viewport, zoom);
        shumate_location_set_location(SHUMATE_LOCATION(app->viewport), e.lat, e.lon);
        sync_camera(app);
        printf(" expansion_zoom=%.17g", zoom);
      }
      break;
    }
    default:
      break;
    }
    printf("\n");
    if (e.type == PINDROP_EVENT_MOVED) save_move(app, e.id, e.lon, e.lat);
    announce_event(app, &e);
    if (e.type == PINDROP_EVENT_SELECTED) on_selected(app, e.id);
    else if (e.type == PINDROP_EVENT_DESELECTED && e.id == app->selected) app->selected = PINDROP_NO_ID;
    else if (e.type == PINDROP_EVENT_CALLOUT_CHANGED && e.id == app->selected) print_callout(app);
  }
  fflush(stdout);
  gtk_widget_queue_draw(app->layer);
}
