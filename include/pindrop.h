/*
 * pindrop.h — placement, drag and spreading of map pins, as an embeddable library.
 *
 * The host draws the map and the pins and feeds touches or mouse events in; pindrop decides what
 * they mean, moves the right pin to the right coordinate, spreads pins that share a coordinate and
 * tells the host what to draw and what to save.
 *
 * Conventions (they hold for every function below unless its comment says otherwise):
 *  - Coordinates are WGS84 degrees, always (lon, lat). lon in [-180, 180], lat in [-90, 90]. NaN,
 *    infinities or values outside are PINDROP_ERR_INVALID_ARGUMENT.
 *    A latitude beyond Web Mercator's ±85.0511287798° (but not ±90) is valid data: it is stored,
 *    kept and reported as given, and in the Web Mercator camera the pin is drawn, hit, clustered
 *    and spread (PINDROP_SPREAD_SPIRAL) on the world's edge (the top or bottom of the map) at its
 *    own longitude, as if its latitude were ±85.0511287798°; to_screen answers that edge point
 *    (0.3.0). A PINDROP_SPREAD_RING ring (laid out in metres) that would pass the edge is centred
 *    on the group's meridian where it reaches the edge point, every pin on the map, drawn and hit
 *    where it lies (since 0.4.0; pindrop_spread keeps the true centre; docs/robustness.md,
 *    "Beyond ±85.0511°"). A pole (±90°, where every
 *    longitude is one point) has no screen point: see "A coordinate the view cannot place" below.
 *    A host projection places every coordinate itself.
 *  - Screen positions are points, origin top-left, x right, y down. A screen point passed in
 *    (touch, hit tests, to_lonlat) must be finite and within the viewport grown by 1e7 points on
 *    each side (x in [-1e7, width + 1e7], y in [-1e7, height + 1e7]), else
 *    PINDROP_ERR_INVALID_ARGUMENT: no display is that large, and a point beyond means no place.
 *  - Time is double milliseconds on any monotonic clock, finite and within [0, 1e13] (317 years;
 *    Unix time in ms fits until 2286). Time passed to one map must never decrease: an earlier time,
 *    or one outside that range, is PINDROP_ERR_INVALID_ARGUMENT and changes nothing.
 *  - The accepted range of every argument of every function is tabled in docs/robustness.md
 *    ("Accepted ranges"). A value outside is PINDROP_ERR_INVALID_ARGUMENT, whose message names
 *    the argument, its value and the range, and the call changes nothing.
 *  - Distances are metres on the sphere of radius 6378137 m.
 *  - Ids are chosen by the host; PINDROP_NO_ID (INT64_MIN) is never a valid id.
 *  - Functions that can fail return pindrop_status: PINDROP_OK (0) or a negative error. New codes
 *    may be added in later versions. A failed call changes nothing (batch calls are all-or-nothing)
 *    and pindrop_map_last_error() describes why. A NULL map or NULL required pointer is
 *    PINDROP_ERR_INVALID_ARGUMENT (for functions returning a count, it is a count of 0).
 *  - A map is used by one thread at a time; different maps may be used by different threads.
 *    Calling into one map from two threads at once is a data race the library does not detect or
 *    survive: the map's state may be corrupted and the process may crash. Serialise the calls on a
 *    map (one mutex per map, or one thread per map). Maps share no mutable state with each other
 *    (each has its own GEOS context), and pindrop_last_error() is per thread.
 *  - A capacity or count is any size_t: one no buffer could hold (2^63 and above, or whose size in
 *    bytes overflows) is PINDROP_ERR_INVALID_ARGUMENT (a count of 0 with the last error set, for
 *    functions returning a count). A coordinate the view cannot place (a pole in Web Mercator) is
 *    never returned as a screen point: to_screen fails, frames and hit tests leave the pin out.
 *  - Ownership: strings returned as const char * are owned by the library (static, or owned by the
 *    map where stated) and must not be freed. Everything else is written into buffers the caller
 *    provides with a capacity; such functions also report the total available.
 *
 * Since 0.1.0 unless stated otherwise.
 */
#ifndef PINDROP_H
#define PINDROP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PINDROP_VERSION_MAJOR 0
#define PINDROP_VERSION_MINOR 3
#define PINDROP_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" of the library actually loaded; static storage. */
const char *pindrop_version(void);

/* ------------------------------------------------------------------------------------------------
 * Ids and status codes
 * ---------------------------------------------------------------------------------------------- */

#define PINDROP_NO_ID INT64_MIN
typedef int64_t pindrop_id;

typedef enum pindrop_status {
  PINDROP_OK = 0,
  PINDROP_STALE = 1,                   /* not an error: a geocode answer that arrived too late */
  PINDROP_ERR_INVALID_ARGUMENT = -1,   /* NULL, NaN, out of range, time going backwards, ... */
  PINDROP_ERR_NOT_FOUND = -2,          /* no such id, or nothing at that point */
  PINDROP_ERR_DUPLICATE_ID = -3,
  PINDROP_ERR_PARSE = -4,              /* bad WKT / GeoJSON */
  PINDROP_ERR_STATE = -5,              /* e.g. commit with nothing being edited */
  PINDROP_ERR_GEOS = -6,               /* GEOS reported an error */
  PINDROP_ERR_NO_MEMORY = -7
} pindrop_status;

/* A short English name for a status ("PINDROP_OK", ...); static storage. Unknown values give
   "PINDROP_UNKNOWN_STATUS". */
const char *pindrop_status_string(pindrop_status status);

/* ------------------------------------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------------------------------- */

/* The defaults pindrop_options_init fills in (and pindrop_map_create takes for options NULL or
   fields beyond the caller's struct_size), one per field of pindrop_options, in its order. Since
   0.3.0 as macros; the values are those of every version. */
#define PINDROP_DEFAULT_HIT_RADIUS 22.0
#define PINDROP_DEFAULT_DRAG_THRESHOLD 5.0
#define PINDROP_DEFAULT_LIFT_DELAY_MS 250.0
#define PINDROP_DEFAULT_LIFT_HEIGHT 40.0
#define PINDROP_DEFAULT_LIFT_DURATION_MS 200.0
#define PINDROP_DEFAULT_DROP_DURATION_MS 250.0
#define PINDROP_DEFAULT_TAP_MAX_MS 250.0
#define PINDROP_DEFAULT_DOUBLE_TAP_MS 300.0
#define PINDROP_DEFAULT_DOUBLE_TAP_SLOP 40.0
#define PINDROP_DEFAULT_AUTOPAN_MARGIN 40.0
#define PINDROP_DEFAULT_AUTOPAN_SPEED 600.0
#define PINDROP_DEFAULT_MIN_SPACING_M 0.0
#define PINDROP_DEFAULT_SPREAD_MODE 1          /* PINDROP_SPREAD_RING */
#define PINDROP_DEFAULT_SPREAD_TOLERANCE_M 0.0
#define PINDROP_DEFAULT_OUTSIDE_POLICY 0       /* PINDROP_OUTSIDE_REVERT */
#define PINDROP_DEFAULT_CLUSTER_RADIUS 0.0
#define PINDROP_DEFAULT_CLUSTER_MAX_ZOOM 17.0
#define PINDROP_DEFAULT_SPREAD_SPACING 25.0
#define PINDROP_DEFAULT_CLUSTER_MIN_POINTS 2
#define PINDROP_DEFAULT_CLUSTER_BY_CATEGORY 0
#define PINDROP_DEFAULT_SPREAD_ON_TAP 0
#define PINDROP_DEFAULT_SNAP_TOLERANCE 0.0
#define PINDROP_DEFAULT_SNAP_TO_PINS 0

typedef struct pindrop_options {
  uint32_t struct_size;       /* sizeof the caller's struct, set by pindrop_options_init; lets it grow */
  double hit_radius;          /* points, default 22; > 0 */
  double drag_threshold;      /* points, default 5; >= 0 */
  double lift_delay_ms;       /* default 250; 0 = mouse: drag at once; >= 0 */
  double lift_height;         /* points, default 40; >= 0 */
  double lift_duration_ms;    /* default 200; >= 0 */
  double drop_duration_ms;    /* default 250, ends with a small bounce; >= 0 */
  double tap_max_ms;          /* default 250; >= 0 */
  double double_tap_ms;       /* default 300; >= 0 */
  double double_tap_slop;     /* points, default 40; >= 0 */
  double autopan_margin;      /* points, default 40; 0 = off; >= 0 */
  double autopan_speed;       /* points per second at the very edge, default 600; >= 0 */
  double min_spacing_m;       /* default 0 = off; >= 0 */
  int32_t spread_mode;        /* PINDROP_SPREAD_OFF | PINDROP_SPREAD_RING (default) | PINDROP_SPREAD_SPIRAL */
  double spread_tolerance_m;  /* default 0 = exact same coordinate; >= 0 */
  int32_t outside_policy;     /* PINDROP_OUTSIDE_REVERT (default) | PINDROP_OUTSIDE_SNAP */
  /* Since 0.2.0 (a caller's struct_size tells an older, smaller struct apart: an old-size struct
     gets the defaults below). */
  double cluster_radius;      /* points, default 0 = off; >= 0 (60 is typical) */
  double cluster_max_zoom;    /* clusters only below this zoom, default 17; in [0, 30] */
  double spread_spacing;      /* points, PINDROP_SPREAD_SPIRAL's spacing, default 25; > 0 */
  /* Since 0.3.0 (an 0.2-size struct gets the defaults below). cluster_min_points: a cluster that
     would hold fewer pins is not formed at that level and its items stay separate (supercluster's
     minPoints; kept up to date after changes as with the default, since 0.3.0).
     cluster_by_category = 1: only pins of one category are clustered together (each category its
     own hierarchy, as MapKit's clusteringIdentifier). spread_on_tap = 1: each group of two or more
     pins is drawn collapsed, one stack item, until tapped open ("Stacks that open on demand"). */
  uint32_t cluster_min_points;  /* default 2; >= 2 */
  uint32_t cluster_by_category; /* default 0; 0 or 1 */
  uint32_t spread_on_tap;       /* default 0 (groups always spread); 0 or 1 */
  /* Since 0.4.0 (an 0.3-size struct gets the defaults below). snap_tolerance: a dragged pin lands
     on the nearest snap target within this many points of where it would otherwise be drawn
     (behaviour 24, "Snapping"); snap_to_pins = 1: the true coordinates of the other pins are
     targets too, beside the snap layers' vertices and segments. */
  double snap_tolerance;        /* points, default 0 = off; >= 0 and <= 1e7 (12 is typical) */
  uint32_t snap_to_pins;        /* default 0; 0 or 1 */
} pindrop_options;

enum { PINDROP_SPREAD_OFF = 0, PINDROP_SPREAD_RING = 1 };
enum { PINDROP_SPREAD_SPIRAL = 2 };  /* since 0.2.0: stacks laid out in screen points, spread_spacing
                                        apart (a circle below 9 pins, a spiral from 9), the same
                                        size at every zoom; see pindrop_spread_spiral for the rule */
enum { PINDROP_OUTSIDE_REVERT = 0, PINDROP_OUTSIDE_SNAP = 1 };

/* Fills the defaults into a caller's struct of struct_size bytes (pass sizeof(pindrop_options)).
   A program compiled against an older, smaller header keeps working: fields beyond struct_size are
   neither written nor read. struct_size smaller than the first two fields (offsetof hit_radius +
   sizeof(double)) or options NULL: PINDROP_ERR_INVALID_ARGUMENT. */
pindrop_status pindrop_options_init(pindrop_options *options, uint32_t struct_size);

/* ------------------------------------------------------------------------------------------------
 * The map
 * ---------------------------------------------------------------------------------------------- */

typedef struct pindrop_map pindrop_map;

/* Creates a map. options NULL = defaults; otherwise only options->struct_size bytes are read, and
   fields the caller's struct does not have take their defaults. Every numeric option must be
   finite and within the range given above, else PINDROP_ERR_INVALID_ARGUMENT (no map is made,
   *out is set to NULL). The new map has the Web Mercator camera at (0, 0), zoom 0, 256x256 points.
   Free it with pindrop_map_destroy.
   Memory: a map holds memory in proportion to its pins and to the largest recent frame, not a
   fixed amount: a map of one pin that has drawn a frame and answered a tap holds a few kilobytes
   (1,000 of them about 6 MB, Tests/c/test_map_memory.c), one of the 916k LA street trees about
   105 bytes a pin once every tree of its index is built (Tests/c/test_memory.c). A frame of n pins
   adds about 60 bytes a pin while it is kept (its views, 56 bytes each, and their sort's bucket
   bounds); the next frames give that room back once they need less than a quarter of it
   (docs/architecture.md). benchmarks/bench_memory.c measures both from outside (VmRSS, VmHWM). */
pindrop_status pindrop_map_create(const pindrop_options *options, pindrop_map **out);

/* Frees the map and everything it owns. NULL is a no-op. */
void pindrop_map_destroy(pindrop_map *map);

/* The message of the last failed call on this map ("" if none). Owned by the map, valid until the
   next call on it. NULL map: a static message saying so. */
const char *pindrop_map_last_error(const pindrop_map *map);

/* The message of the last failed call made on the calling thread, whichever function it was, with
   or without a map (pindrop_map_create, pindrop_options_init, pindrop_spread, a NULL map): "" if
   none yet. A PINDROP_STALE geocode answer leaves its reason here too, as on the map. A successful call does not clear it (libgit2's git_error_last). Owned by the library,
   per thread; valid until the thread's next failed call. Since 0.2.0. */
const char *pindrop_last_error(void);

/* ------------------------------------------------------------------------------------------------
 * The view
 *
 * Either the built-in Web Mercator camera (256-point tiles: the world is 256 * 2^zoom points wide)
 * or the host's own projection through callbacks (any CRS; return 0 on success).
 * ---------------------------------------------------------------------------------------------- */

typedef struct pindrop_camera {
  double center_lon, center_lat; /* degrees; center_lat within +-85.0511287798 (Web Mercator) */
  double zoom;                   /* 0 .. 30 */
  double bearing_deg;            /* clockwise, finite, within [-1e6, 1e6] (used modulo 360; since
                                    0.3.0 a larger bearing is INVALID_ARGUMENT) */
  double width, height;          /* viewport in points, > 0 */
} pindrop_camera;

/* Sets the built-in Web Mercator camera (replacing any host projection). The screen position of a
   point is computed on the copy of the world nearest to the centre, so views across the
   antimeridian work. PINDROP_ERR_INVALID_ARGUMENT, changing nothing: camera NULL, a centre that is
   not a coordinate or lies beyond ±85.0511287798°, zoom outside [0, 30], a bearing that is not
   finite or beyond ±1e6°, a width or height that is not finite or not > 0. */
pindrop_status pindrop_map_set_camera(pindrop_map *map, const pindrop_camera *camera);

typedef int (*pindrop_project_fn)(void *user, double lon, double lat, double *x, double *y);
typedef int (*pindrop_unproject_fn)(void *user, double x, double y, double *lon, double *lat);

/* Uses the host's projection instead of the camera: project maps (lon, lat) to a screen point,
   unproject the reverse; both return 0 on success. user is passed back untouched and must stay
   valid while the map uses it. width and height are the viewport in points (> 0). A callback that
   fails, or returns NaN, makes the query that needed it fail with PINDROP_ERR_INVALID_ARGUMENT
   (for pin positions: the pin is treated as off-screen). */
pindrop_status pindrop_map_set_projection(pindrop_map *map, pindrop_project_fn project,
                                          pindrop_unproject_fn unproject, void *user,
                                          double width, double height);

/* Screen point of (lon, lat), and the reverse, through the current view. to_screen of a latitude
   beyond ±85.0511° in the Web Mercator camera is its point on the world's edge (see the
   conventions); to_lonlat takes a screen point within the viewport grown by 1e7 points. */
pindrop_status pindrop_map_to_screen(const pindrop_map *map, double lon, double lat, double *x, double *y);
pindrop_status pindrop_map_to_lonlat(const pindrop_map *map, double x, double y, double *lon, double *lat);

/* ------------------------------------------------------------------------------------------------
 * Pins
 * ---------------------------------------------------------------------------------------------- */

/* Adds a pin. PINDROP_ERR_DUPLICATE_ID if the id exists, INVALID_ARGUMENT for PINDROP_NO_ID or bad
   coordinates. */
pindrop_status pindrop_map_add(pindrop_map *map, pindrop_id id, double lon, double lat);

/* Adds n pins: ids[i] at (lonlat[2i], lonlat[2i+1]). All-or-nothing: any bad coordinate, any id
   already on the map or repeated within ids fails the whole call. n = 0 is OK (pointers may then
   be NULL). */
pindrop_status pindrop_map_add_many(pindrop_map *map, const pindrop_id *ids, const double *lonlat, size_t n);

/* Removes a pin (ending any gesture or edit on it). NOT_FOUND if there is no such id. */
pindrop_status pindrop_map_remove(pindrop_map *map, pindrop_id id);

/* Moves a pin's true coordinate as the host (not the user): no MOVED event, no undo entry. */
pindrop_status pindrop_map_set_position(pindrop_map *map, pindrop_id id, double lon, double lat);

/* The pin's true coordinate. */
pindrop_status pindrop_map_position(const pindrop_map *map, pindrop_id id, double *lon, double *lat);

/* Where the pin is drawn: its true coordinate, or its place on a spread ring, or where it would
   land while it is dragged. */
pindrop_status pindrop_map_display_position(const pindrop_map *map, pindrop_id id, double *lon, double *lat);

/* Whether the user may lift the pin (default 1). Non-draggable pins can still be selected. */
pindrop_status pindrop_map_set_draggable(pindrop_map *map, pindrop_id id, int draggable);

/* Number of pins (0 for NULL). */
size_t pindrop_map_count(const pindrop_map *map);

/* ------------------------------------------------------------------------------------------------
 * Queries
 * ---------------------------------------------------------------------------------------------- */

/* The pin whose drawn position is nearest to screen point (x, y) and within hit_radius points.
   Ties go to the pin being edited, then the selected pin, then the higher id. NOT_FOUND if none. */
pindrop_status pindrop_map_hit_test(pindrop_map *map, double x, double y, pindrop_id *out_id);

/* hit_test for n screen points xy[2i], xy[2i+1]; out_ids[i] is the hit or PINDROP_NO_ID for a miss.
   Any coordinate that is not finite or lies beyond the viewport grown by 1e7 points fails the
   whole call (out_ids untouched). */
pindrop_status pindrop_map_hit_test_many(pindrop_map *map, const double *xy, size_t n, pindrop_id *out_ids);

/* Pins whose true coordinate lies within radius_m metres (great circle, inclusive) of (lon, lat),
   nearest first (ties: lower id first). Returns how many exist; min(capacity, total) are written
   into out_ids and out_distance_m (either may be NULL to skip it). Bad arguments return 0 and set
   the last error; a successful call clears it. */
size_t pindrop_map_nearby(pindrop_map *map, double lon, double lat, double radius_m,
                          pindrop_id *out_ids, double *out_distance_m, size_t capacity);

/* ------------------------------------------------------------------------------------------------
 * What to draw
 * ---------------------------------------------------------------------------------------------- */

/* The layouts of pindrop_pin_view and pindrop_event are fixed for the 0.x ABI (arrays of them are
   passed); new information comes through new functions, not new fields. */
typedef struct pindrop_pin_view {
  pindrop_id id;
  double x, y;               /* screen point the pin marks: where it is drawn / will land */
  double anchor_x, anchor_y; /* screen point of its true coordinate (the end of a spread leg) */
  double lift;               /* 0 at rest .. 1 fully lifted; below 0 during the drop bounce */
  uint32_t flags;            /* PINDROP_PIN_* */
} pindrop_pin_view;

enum { PINDROP_PIN_SELECTED = 1, PINDROP_PIN_EDITING = 2, PINDROP_PIN_DRAGGING = 4,
       PINDROP_PIN_SPREAD = 8, PINDROP_PIN_INVALID = 16 };
enum { PINDROP_PIN_FOCUSED = 32 };  /* since 0.3.0: has the keyboard focus (pindrop_map_focus_step);
                                       drawn after the other unselected pins, so none hides it */
enum { PINDROP_PIN_ANIMATING = 64 };  /* since 0.3.0: its drawing still changes at a later time_ms with
                                         no input: a lift rising, a drop falling, or a glide (after a
                                         cancel, a refused or snapped drop, a drop onto a spread ring,
                                         a tap-to-move). Keep drawing frames while a drawn pin has it:
                                         pindrop_map_next_deadline does not count animations. */
enum { PINDROP_PIN_SNAPPED = 128 };  /* since 0.4.0: the dragged pin is snapped (snap_tolerance; what
                                        to, pindrop_map_snap_target) */

/* The pins whose drawn position is inside the viewport grown by hit_radius, with their animation
   state at time_ms, in drawing order: by screen y (lower on screen drawn later, on top), then id;
   the focused pin after those (since 0.3.0), then the selected pin, the dragged pin last. Returns how many there are; min(capacity,
   total) are written to out (out may be NULL when capacity is 0). Bad arguments return 0 and set
   the last error. time_ms follows the rule of never decreasing. */
size_t pindrop_map_frame(pindrop_map *map, double time_ms, pindrop_pin_view *out, size_t capacity);

/* Clusters (since 0.2.0). With cluster_radius > 0 and a view whose zoom is below cluster_max_zoom
   (a host projection's zoom is the Web Mercator zoom with the same ground resolution at the
   viewport centre), pins drawn within cluster_radius points of each other are drawn as one
   cluster: the levels follow supercluster's greedy rule, kept up to date as pins are added,
   removed and moved. pindrop_map_frame then returns only the unclustered pins (and always the
   selected, the edited and the held pin, which are never in a cluster); the clusters come from
   pindrop_map_frame_clusters. Hit tests and touches see what is drawn: a clustered pin cannot be
   touched, a touch on a cluster is PINDROP_EVENT_CLUSTER_TAPPED (a tap) or the host's (a move). */
typedef struct pindrop_cluster_view {
  uint64_t key;           /* names the cluster in the calls below while its members stay the same
                             (since 0.3.0; see "Clusters that say what they hold") */
  double x, y;            /* screen point: the members' mean Web Mercator point */
  double lon, lat;        /* the same point on the map (degrees) */
  uint32_t count;         /* members, >= 2 */
  uint32_t flags;         /* since 0.3.0: PINDROP_CLUSTER_ONE_SPOT, PINDROP_CLUSTER_STACK for a collapsed stack */
} pindrop_cluster_view;

/* The clusters whose drawn point is inside the viewport grown by cluster_radius, for the view at
   time_ms (the time follows the rule of never decreasing; pass the frame's). Returns how many
   there are (0 when clustering is off or the zoom is at or above cluster_max_zoom); min(capacity,
   total) are written to out (NULL when capacity is 0). Bad arguments return 0 and set the last
   error. With spread_on_tap (since 0.3.0) the collapsed stacks inside the viewport grown by
   hit_radius follow the clusters, flagged PINDROP_CLUSTER_STACK, clustering on or off, and no two
   items lie within hit_radius of each other (items that would are merged, see "Badges
   never overlap" below). Since 0.2.0. */
size_t pindrop_map_frame_clusters(pindrop_map *map, double time_ms, pindrop_cluster_view *out, size_t capacity);

/* The ids of a cluster's members (in ascending id order since 0.3.0; see
   pindrop_map_cluster_members_from to page). Returns how many there are; min(capacity, total) are written to
   out_ids (NULL when capacity is 0). An unknown or stale key returns 0 and sets the last error
   (PINDROP_ERR_NOT_FOUND's message). Since 0.2.0. */
size_t pindrop_map_cluster_members(pindrop_map *map, uint64_t key, pindrop_id *out_ids, size_t capacity);

/* The lowest zoom at which the cluster's members are no longer all in one cluster (at most
   cluster_max_zoom): where a tap on it should take the camera. PINDROP_ERR_NOT_FOUND for an
   unknown or stale key; out_zoom NULL: PINDROP_ERR_INVALID_ARGUMENT. Since 0.2.0. */
pindrop_status pindrop_map_cluster_expansion_zoom(pindrop_map *map, uint64_t key, double *out_zoom);

/* Clusters that say what they hold (since 0.3.0, behaviour 19). Each pin carries a value (a double,
   e.g. a trunk diameter; NaN = none, the default) and a category (a uint32_t, e.g. a species code;
   default 0). Every cluster's summary, category counts and members follow every add, remove, move
   and attribute change, kept up to date incrementally as the counts are.

   Keys never name another cluster: a key (from pindrop_map_frame_clusters or a
   PINDROP_EVENT_CLUSTER_TAPPED event) stays valid while its cluster's members stay the same (the
   members moving does not change them) and the view's level exists; once a member joins or leaves,
   or the cluster dissolves, the key is stale (PINDROP_ERR_NOT_FOUND), even when the same members
   form a cluster again later (it then has another key). A rebuild of levels makes every key of
   the levels it rebuilds stale: after a bulk change (more than max(4096, n/32) pins between two
   frames), and for coarse levels a view at a finer zoom left behind while many pins changed, when
   a view next needs them (docs/clusters.md). */
#define PINDROP_CATEGORY_MIXED UINT32_MAX  /* a summary's category when its members' categories differ;
                                              not a category a pin may have */
enum { PINDROP_CLUSTER_ONE_SPOT = 1 };     /* pindrop_cluster_view.flags and the summary's flags: all
                                              members share one point (the same Web Mercator point, so
                                              the same coordinate; beyond ±85.0511° the world's edge):
                                              zooming in cannot separate them, spread them instead */

/* Sets the values and/or categories of n pins: ids[i] gets values[i] (finite, or NaN = none) and
   categories[i] (any uint32_t but PINDROP_CATEGORY_MIXED). values or categories may be NULL: that
   attribute is left as it is. All-or-nothing: an unknown id is PINDROP_ERR_NOT_FOUND, an infinite
   value or a category of PINDROP_CATEGORY_MIXED PINDROP_ERR_INVALID_ARGUMENT, and nothing changes.
   A repeated id takes its last entry. n = 0 is OK (pointers may then be NULL); ids NULL with n > 0
   is PINDROP_ERR_INVALID_ARGUMENT. A pin added later starts with NaN and 0; a removed pin's
   attributes go with it. Clustered or not, the map keeps them. */
pindrop_status pindrop_map_set_attributes(pindrop_map *map, const pindrop_id *ids, const double *values,
                                          const uint32_t *categories, size_t n);

typedef struct pindrop_cluster_summary {
  uint32_t count, valued;               /* members; members with a value (not NaN)               */
  uint32_t category, flags;             /* common category or PINDROP_CATEGORY_MIXED; ONE_SPOT     */
  double value_sum, value_min, value_max; /* over the valued members; NaN when valued == 0       */
} pindrop_cluster_summary;

/* A cluster's summary, written to *out. The sum is kept incrementally as a double-double (a pair
   of doubles): it is within 1e-12 of the sum of the members' absolute values of the exact sum.
   PINDROP_ERR_NOT_FOUND for an unknown or stale key; out NULL: PINDROP_ERR_INVALID_ARGUMENT. */
pindrop_status pindrop_map_cluster_summary(pindrop_map *map, uint64_t key, pindrop_cluster_summary *out);

/* The members' categories with their member counts, most members first, ties by lower category.
   Returns how many categories there are; min(capacity, total) pairs are written to out_categories
   and out_counts (both NULL when capacity is 0). A stale or unknown key returns 0 and sets the
   last error (PINDROP_ERR_NOT_FOUND's message); so do NULL buffers with capacity > 0
   (PINDROP_ERR_INVALID_ARGUMENT's). */
size_t pindrop_map_cluster_categories(pindrop_map *map, uint64_t key, uint32_t *out_categories,
                                      uint32_t *out_counts, size_t capacity);

/* The cluster's members in ascending id order from `offset` (supercluster's getLeaves offset):
   returns the total number of members and writes min(capacity, total - offset) ids to out_ids
   (none when offset >= total; out_ids NULL only when capacity is 0). Paging through a cluster with
   the same key lists each member once, as long as the key stays valid. A stale or unknown key
   returns 0 and sets the last error (PINDROP_ERR_NOT_FOUND's message). */
size_t pindrop_map_cluster_members_from(pindrop_map *map, uint64_t key, size_t offset,
                                        pindrop_id *out_ids, size_t capacity);
/* Stacks that open on demand (since 0.3.0). With spread_on_tap = 1 (and spreading on), each group
   of two or more pins (pins at one coordinate, or within spread_tolerance_m of the group's first
   pin: the groups of PINDROP_SPREAD_RING and _SPIRAL) is drawn collapsed: one item at the group's
   centre, returned by pindrop_map_frame_clusters with count = the group's size and flags =
   PINDROP_CLUSTER_STACK, whether clustering is on or off (where a cluster holds the group's pins,
   the cluster is drawn instead). pindrop_map_frame does not return a collapsed group's pins,
   hit tests do not find them (pindrop_map_display_position gives the group's centre), and a touch
   on the item is like a touch on a cluster: a press never lifts a pin, a finger that moves from
   it pans (touch returns 0), a tap opens it (PINDROP_EVENT_STACK_OPENED).
   Badges never overlap: with spread_on_tap, at every zoom, the items
   pindrop_map_frame_clusters returns (clusters and stacks) whose screen points would lie within
   hit_radius points of each other are one item: every two within hit_radius are joined, each
   joined group becomes one item at its parts' count-weighted mean screen point (count = the sum),
   again until no two items lie within hit_radius. A merged item's key is its leader's key with
   bit 31 set (the leader: the part with the most pins among its clusters, else among its stacks;
   ties to the smaller key), so it is a stack (PINDROP_CLUSTER_STACK; a tap or
   pindrop_map_open_stack opens all its stacks as one) when all its parts are stacks, else a
   cluster (CLUSTER_TAPPED; its expansion zoom is the largest of its clusters'). Members, summary
   and categories are those of the union of its parts' pins; it is hit where it is drawn. While a
   stack is drawn open (the open stack, or the group of the selected, edited or held pin), an item
   whose screen point lies within hit_radius points of one of its pins is neither returned nor hit
   (since 0.4.0): no badge covers the open grid, a touch there finds the pin drawn there, and the
   item comes back when the stack closes. A
   merged key lasts while the view and the pins draw the same item (and, for the open stack,
   while it is open): another view may merge otherwise, and then the key is NOT_FOUND.
   An open stack fits the view: its pins (all of a merged item's) are drawn in screen
   points on a triangular lattice around its centre (clamped into the view), nearest first, ties
   clockwise from up, at spread_spacing points, or, when they do not all fit inside the view
   inset by half the spacing, at the largest spacing at which they do: every pin is inside the
   view without panning, whatever the stack's size (up to 537 pins fit a 390x844 view at 25 points,
   1,000 at 18.5 and 4,000 at 9.5), and touchable where it is drawn (flags PINDROP_PIN_SPREAD, the anchor at its
   true coordinate). The layout follows the view. One stack is open at a time: it closes
   (PINDROP_EVENT_STACK_CLOSED) when another opens, when the map is tapped off every pin, cluster
   and stack, on pindrop_map_close_stack, on pindrop_map_cancel_gesture with no gesture under way
   (Esc), and when its group dissolves. A pin dragged out of the open stack leaves its group; the
   rest stay open. The group of the selected, the edited or the held pin is drawn spread (open, fitted)
   whatever the open stack is. A stack's key (its top five bits all set; a cluster key's never
   are) names the group's membership: it goes stale when a pin joins or leaves the group, not when
   the view changes (a merged item's key excepted, above). pindrop_map_cluster_members (and _members_from) returns a stack's pins
   (ascending id), pindrop_map_cluster_summary and pindrop_map_cluster_categories what they hold
   (summed from its pins when asked; the summary's ONE_SPOT when they share one coordinate: the
   stack's view carries PINDROP_CLUSTER_STACK alone), and
   pindrop_map_cluster_expansion_zoom the view's zoom (no zoom separates a stack's pins). */
enum { PINDROP_CLUSTER_STACK = 2 };  /* pindrop_cluster_view.flags: a collapsed stack */

/* Opens the stack that key names (from pindrop_map_frame_clusters, flags PINDROP_CLUSTER_STACK):
   STACK_CLOSED for the stack open before it, then STACK_OPENED. Opening the open stack again is OK
   and emits nothing. PINDROP_ERR_NOT_FOUND for a key that names no stack now (unknown, stale, or
   spread_on_tap off); time_ms follows the rule of never decreasing. Since 0.3.0. */
pindrop_status pindrop_map_open_stack(pindrop_map *map, uint64_t key, double time_ms);

/* Closes the open stack (STACK_CLOSED). OK, emitting nothing, when none is open. Since 0.3.0. */
pindrop_status pindrop_map_close_stack(pindrop_map *map, double time_ms);

/* ------------------------------------------------------------------------------------------------
 * Input (sans-IO: no threads, no timers inside)
 * ---------------------------------------------------------------------------------------------- */

typedef enum { PINDROP_TOUCH_DOWN, PINDROP_TOUCH_MOVE, PINDROP_TOUCH_UP, PINDROP_TOUCH_CANCEL } pindrop_touch_phase;

/* Feeds one touch (or mouse) event. Returns 1 when pindrop owns the gesture (the host must not pan
   or zoom with it), 0 when the host's map should handle it, or a negative pindrop_status.
   pointer identifies a finger (any value; the mouse may always use 0). A pointer whose events
   returned 1 is handed to the host by the first event that returns 0 for it (a quick swipe from a
   pin, a second finger during a press): start the host's pan there, as if it were the DOWN.
   PINDROP_ERR_INVALID_ARGUMENT, changing nothing: an unknown phase, an x or y that is not finite or
   lies beyond the viewport grown by 1e7 points (CANCEL ignores them), a time earlier than the last, a DOWN for a pointer already down, a MOVE / UP /
   CANCEL for a pointer that is not down. Due timeouts are resolved first, at time_ms.
   docs/gestures.md describes the state machine, the animations and auto-pan. */
int pindrop_map_touch(pindrop_map *map, int32_t pointer, pindrop_touch_phase phase, double x, double y, double time_ms);

/* Resolves timeouts due at time_ms: lift delay, double-tap window, auto-pan (one AUTOPAN event with
   the distance owed since the last tick; while auto-panning a tick is due every 1000/60 ms). */
pindrop_status pindrop_map_tick(pindrop_map *map, double time_ms);

/* When the next tick is due (ms, same clock), INFINITY when nothing is pending (also for NULL). */
double pindrop_map_next_deadline(const pindrop_map *map);

/* Cancels the gesture in progress (e.g. the Esc key): a lifted pin (by a finger or, since 0.3.0,
   by the keyboard) goes back to its original coordinate, nothing is saved. OK (and nothing
   happens) when there is no gesture; with spread_on_tap, it then closes the open stack (since
   0.3.0). */
pindrop_status pindrop_map_cancel_gesture(pindrop_map *map, double time_ms);

/* ------------------------------------------------------------------------------------------------
 * Events, drained by the host after each call
 * ---------------------------------------------------------------------------------------------- */

typedef enum pindrop_event_type {
  PINDROP_EVENT_SELECTED, PINDROP_EVENT_DESELECTED,
  PINDROP_EVENT_LIFTED,         /* hold recognised: animate the lift */
  PINDROP_EVENT_DRAGGED,        /* lon,lat = where it would land now */
  PINDROP_EVENT_DROPPED,        /* the finger let go of a lifted pin (moved or not) */
  PINDROP_EVENT_DRAG_CANCELLED, /* lon,lat = the restored coordinate */
  PINDROP_EVENT_MOVED,          /* the TRUE coordinate changed by a user action: save it.
                                   from_lon/from_lat = before; cause = PINDROP_CAUSE_* */
  PINDROP_EVENT_GEOCODE_REQUEST,/* please reverse-geocode lon,lat; answer with request */
  PINDROP_EVENT_CALLOUT_CHANGED,
  PINDROP_EVENT_NEARBY,         /* other = the pin within min_spacing_m, distance_m */
  PINDROP_EVENT_AUTOPAN,        /* please move the camera centre by dx,dy screen points (dx > 0: the
                                   view moves right, the map content slides left), then update the
                                   camera */
  PINDROP_EVENT_CLUSTER_TAPPED = 11, /* since 0.2.0: request = the cluster's key, lon/lat = its
                                   position, id = PINDROP_NO_ID */
  PINDROP_EVENT_STACK_OPENED = 12, /* since 0.3.0: a collapsed stack opened (a tap on it, or
                                   pindrop_map_open_stack): request = its key, lon/lat = the group's
                                   centre, id = PINDROP_NO_ID */
  PINDROP_EVENT_STACK_CLOSED = 13  /* since 0.3.0: the open stack closed; request, lon/lat as its
                                   STACK_OPENED said, id = PINDROP_NO_ID */
} pindrop_event_type;

typedef struct pindrop_event {
  int32_t type; int32_t cause;
  pindrop_id id, other;
  double lon, lat, from_lon, from_lat;
  double dx, dy, distance_m, time_ms;
  uint64_t request;
} pindrop_event;

enum { PINDROP_CAUSE_NONE = 0, PINDROP_CAUSE_DRAG = 1, PINDROP_CAUSE_TAP = 2, PINDROP_CAUSE_PLACE = 3,
       PINDROP_CAUSE_UNDO = 4, PINDROP_CAUSE_REDO = 5, PINDROP_CAUSE_SNAP = 6 };
enum { PINDROP_CAUSE_NUDGE = 7 };  /* since 0.2.0 */
enum { PINDROP_CAUSE_KEYBOARD = 8 };  /* since 0.3.0: the drop of a keyboard drag (pindrop_map_key_drop) */

/* Which fields of pindrop_event each type fills (since 0.3.0): PINDROP_EVENT_FIELDS_<TYPE> is a
   mask of PINDROP_EVENT_FIELD_<FIELD>, one bit per field of pindrop_event under its name; type and
   time_ms are always filled, the other fields of an event are 0 (id and other: PINDROP_NO_ID).
   PINDROP_EVENT_REQUEST_IS_KEY marks the types whose request is a cluster's or a stack's key (as
   pindrop_cluster_view.key), not a geocode request's number. */
#define PINDROP_EVENT_FIELD_ID 0x001
#define PINDROP_EVENT_FIELD_OTHER 0x002
#define PINDROP_EVENT_FIELD_LON 0x004
#define PINDROP_EVENT_FIELD_LAT 0x008
#define PINDROP_EVENT_FIELD_FROM_LON 0x010
#define PINDROP_EVENT_FIELD_FROM_LAT 0x020
#define PINDROP_EVENT_FIELD_DX 0x040
#define PINDROP_EVENT_FIELD_DY 0x080
#define PINDROP_EVENT_FIELD_DISTANCE_M 0x100
#define PINDROP_EVENT_FIELD_REQUEST 0x200
#define PINDROP_EVENT_FIELD_CAUSE 0x400
#define PINDROP_EVENT_REQUEST_IS_KEY 0x800
#define PINDROP_EVENT_FIELDS_SELECTED (PINDROP_EVENT_FIELD_ID)
#define PINDROP_EVENT_FIELDS_DESELECTED (PINDROP_EVENT_FIELD_ID)
#define PINDROP_EVENT_FIELDS_LIFTED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT)
#define PINDROP_EVENT_FIELDS_DRAGGED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT)
#define PINDROP_EVENT_FIELDS_DROPPED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT)
#define PINDROP_EVENT_FIELDS_DRAG_CANCELLED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT)
#define PINDROP_EVENT_FIELDS_MOVED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT | \
                                    PINDROP_EVENT_FIELD_FROM_LON | PINDROP_EVENT_FIELD_FROM_LAT | \
                                    PINDROP_EVENT_FIELD_CAUSE)
#define PINDROP_EVENT_FIELDS_GEOCODE_REQUEST (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | \
                                              PINDROP_EVENT_FIELD_LAT | PINDROP_EVENT_FIELD_REQUEST)
#define PINDROP_EVENT_FIELDS_CALLOUT_CHANGED (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT)
#define PINDROP_EVENT_FIELDS_NEARBY (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_OTHER | PINDROP_EVENT_FIELD_LON | \
                                     PINDROP_EVENT_FIELD_LAT | PINDROP_EVENT_FIELD_DISTANCE_M)
#define PINDROP_EVENT_FIELDS_AUTOPAN (PINDROP_EVENT_FIELD_ID | PINDROP_EVENT_FIELD_DX | PINDROP_EVENT_FIELD_DY)
#define PINDROP_EVENT_FIELDS_CLUSTER_TAPPED (PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT | \
                                             PINDROP_EVENT_FIELD_REQUEST | PINDROP_EVENT_REQUEST_IS_KEY)
#define PINDROP_EVENT_FIELDS_STACK_OPENED (PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT | \
                                           PINDROP_EVENT_FIELD_REQUEST | PINDROP_EVENT_REQUEST_IS_KEY)
#define PINDROP_EVENT_FIELDS_STACK_CLOSED (PINDROP_EVENT_FIELD_LON | PINDROP_EVENT_FIELD_LAT | \
                                           PINDROP_EVENT_FIELD_REQUEST | PINDROP_EVENT_REQUEST_IS_KEY)

/* The event queue is bounded (since 0.4.0). While fewer than PINDROP_EVENT_QUEUE_LIMIT events
   wait, every event is queued as it comes. From the limit on, the events a drag produces for every
   finger move, nudge or auto-pan tick are merged instead of added:
    - a DRAGGED replaces the DRAGGED of the same pin in the queue's tail: one event with the latest
      landing point and time_ms;
    - an AUTOPAN is added to the AUTOPAN of the same pin in the queue's tail: dx and dy are the sums
      of the merged ones (the whole pan owed), time_ms the latest.
   The tail is the run of DRAGGED and AUTOPAN events at the end of the queue: any other event ends
   it, so a merge never crosses an event of another kind, and the merged event moves to the end of
   the queue, after the events it was merged across. Every other event is always queued, never
   dropped or merged: SELECTED, DESELECTED, LIFTED, DROPPED, DRAG_CANCELLED, MOVED (what a host
   saves), GEOCODE_REQUEST, CALLOUT_CHANGED, NEARBY, CLUSTER_TAPPED, STACK_OPENED and STACK_CLOSED.
   So events keep their order, times never decrease along the queue, a DROPPED or MOVED of a drag
   still follows the DRAGGED at its landing point, and a host that does not poll holds at most
   PINDROP_EVENT_QUEUE_LIMIT events plus one per such discrete event (one or a few per user
   action: a drop, a nudge, a tap), however long a drag lasts. */
#define PINDROP_EVENT_QUEUE_LIMIT 1024

/* Takes the oldest pending event into *out: 1 = written, 0 = none left (or NULL arguments). */
int pindrop_map_poll_event(pindrop_map *map, pindrop_event *out);

/* ------------------------------------------------------------------------------------------------
 * Editing
 * ---------------------------------------------------------------------------------------------- */

/* Adds pin id at (lon, lat) and starts editing it (placement): tap-to-move applies to it until
   commit (MOVED with cause PLACE) or cancel_edit (the pin is removed). Any edit in progress is
   committed first. Outside the allowed area: INVALID_ARGUMENT under PINDROP_OUTSIDE_REVERT, placed
   at the nearest point inside under PINDROP_OUTSIDE_SNAP. Rules in docs/editing.md. */
pindrop_status pindrop_map_place(pindrop_map *map, pindrop_id id, double lon, double lat, double time_ms);

/* Starts editing an existing pin; cancel_edit restores its coordinate from before. */
pindrop_status pindrop_map_edit(pindrop_map *map, pindrop_id id, double time_ms);

/* Ends the edit, keeping the pin where it is. PINDROP_ERR_STATE when nothing is being edited. */
pindrop_status pindrop_map_commit(pindrop_map *map, double time_ms);

/* Ends the edit: removes a placed pin, restores an edited one. STATE when nothing is edited. */
pindrop_status pindrop_map_cancel_edit(pindrop_map *map, double time_ms);

/* Selects a pin (PINDROP_NO_ID = none), emitting SELECTED / DESELECTED as the selection changes. */
pindrop_status pindrop_map_select(pindrop_map *map, pindrop_id id);

/* The selected pin, or PINDROP_NO_ID. */
pindrop_status pindrop_map_selected(const pindrop_map *map, pindrop_id *out_id);

/* ------------------------------------------------------------------------------------------------
 * Several pins at once and snapping (behaviours 23-24; since 0.4.0). The selection is a set of
 * pins; pindrop_map_select and pindrop_map_selected above keep their meaning (a set of one, the
 * lowest id). Every selected pin is flagged PINDROP_PIN_SELECTED, is never in a cluster and keeps
 * its stack open; dragging one pin of a selection of two or more moves them all rigidly (each
 * keeps its Web Mercator offset from the grabbed pin), as one undo step. Rules in docs/editing.md.
 * ---------------------------------------------------------------------------------------------- */

/* The keys the host's user holds (pindrop_map_set_modifiers): PINDROP_MOD_ADD, a tap adds an
   unselected pin to the selection or removes a selected one (Shift or Ctrl in desktop GIS);
   PINDROP_MOD_NO_SNAP, snapping is off while it is held. */
enum { PINDROP_MOD_ADD = 1, PINDROP_MOD_NO_SNAP = 2 };

/* The modifiers the host's user holds now, as PINDROP_MOD_* bits (0 = none); they apply from the
   next call on. Bits other than these are PINDROP_ERR_INVALID_ARGUMENT (nothing changes).
   Emits nothing. */
pindrop_status pindrop_map_set_modifiers(pindrop_map *map, uint32_t modifiers);

/* How pindrop_map_select_many and pindrop_map_select_in_rect change the selection: SET replaces
   it, ADD adds the pins, REMOVE takes them out, TOGGLE adds each unselected one and removes each
   selected one. */
enum { PINDROP_SELECT_SET = 0, PINDROP_SELECT_ADD = 1, PINDROP_SELECT_REMOVE = 2, PINDROP_SELECT_TOGGLE = 3 };

/* Changes the selection by the n ids (ids may be NULL when n is 0; a repeated id counts once),
   emitting DESELECTED for each pin that leaves it, then SELECTED for each that joins, each in
   ascending id order. All-or-nothing: an unknown id is PINDROP_ERR_NOT_FOUND and an unknown mode
   PINDROP_ERR_INVALID_ARGUMENT; either changes nothing. SET with n = 0 clears the selection.
   pindrop_map_select(id) stays: SET with one id (NO_ID clears). A drag under way keeps moving the
   pins it lifted; a changed selection moves together from the next drag. */
pindrop_status pindrop_map_select_many(pindrop_map *map, const pindrop_id *ids, size_t n, int32_t mode);

/* Changes the selection by the pins drawn inside the screen rectangle with corners (x0, y0) and
   (x1, y1), points, in either order, edges included: a pin counts where pindrop_map_frame draws
   it at time_ms (its place in a spread layout), a cluster drawn inside counts with all its
   members. mode as for pindrop_map_select_many. PINDROP_ERR_INVALID_ARGUMENT for a corner that is
   not finite or outside the viewport grown by 1e7 points, an unknown mode, or a time earlier than
   the last; nothing changes then. time_ms follows the rule of never decreasing. */
pindrop_status pindrop_map_select_in_rect(pindrop_map *map, double x0, double y0, double x1, double y1,
                                          int32_t mode, double time_ms);

/* The selection in ascending id order: returns how many pins are selected; min(capacity, total)
   ids are written to out_ids (out_ids may be NULL when capacity is 0). pindrop_map_selected()
   gives the lowest selected id (PINDROP_NO_ID when none). Bad arguments return 0 and set the last
   error. */
size_t pindrop_map_selection(pindrop_map *map, pindrop_id *out_ids, size_t capacity);

/* Snap layers (behaviour 24): the text replaces the layer's features (NULL or "" clears the
   layer). GeoJSON features carry their id in "id" (an integer); WKT is a GEOMETRYCOLLECTION or a
   single geometry whose parts get ids 0, 1, ... Points, lines and polygons, lon/lat. Bad text is
   PINDROP_ERR_PARSE and changes nothing. Layers are 0-1023; a higher one is
   PINDROP_ERR_INVALID_ARGUMENT and changes nothing. */
pindrop_status pindrop_map_set_snap_layer(pindrop_map *map, uint32_t layer, const char *wkt_or_geojson);

/* What a snapped pin snapped to (pindrop_snap.kind). */
enum { PINDROP_SNAP_NONE = 0, PINDROP_SNAP_PIN = 1, PINDROP_SNAP_VERTEX = 2, PINDROP_SNAP_SEGMENT = 3 };

typedef struct pindrop_snap {
  int32_t kind;                  /* PINDROP_SNAP_*                                               */
  uint32_t layer;                /* the snap layer (0 for a pin)                                 */
  int64_t feature;               /* the feature's id, or the pin's id                            */
  int64_t index;                 /* the vertex or the segment's first vertex, in the feature     */
  double lon, lat;               /* the snapped point                                            */
} pindrop_snap;

/* What the dragged pin is snapped to now (kind NONE when nothing: not dragging or not snapped).
   out NULL is PINDROP_ERR_INVALID_ARGUMENT. */
pindrop_status pindrop_map_snap_target(pindrop_map *map, pindrop_snap *out);

/* ------------------------------------------------------------------------------------------------
 * Callouts. Strings are UTF-8; callout copies into buf (NUL-terminated, truncated to capacity on a
 * character boundary) and reports the full length in bytes, without the NUL, in *out_len.
 * ---------------------------------------------------------------------------------------------- */

enum { PINDROP_TITLE = 0, PINDROP_SUBTITLE = 1 };

/* Sets the pin's title (NULL clears it). Invalid UTF-8 is INVALID_ARGUMENT. */
pindrop_status pindrop_map_set_title(pindrop_map *map, pindrop_id id, const char *utf8);

/* Answers a GEOCODE_REQUEST: OK if the subtitle was replaced, PINDROP_STALE if the pin moved (or
   was removed) since the request (nothing changes), NOT_FOUND for an unknown request. */
pindrop_status pindrop_map_answer_geocode(pindrop_map *map, uint64_t request, const char *subtitle_utf8);

/* Copies the title or subtitle of a pin into buf. buf may be NULL when capacity is 0. */
pindrop_status pindrop_map_callout(const pindrop_map *map, pindrop_id id, int which, char *buf,
                                   size_t capacity, size_t *out_len);

/* ------------------------------------------------------------------------------------------------
 * Allowed area
 * ---------------------------------------------------------------------------------------------- */

/* Sets the area pins may be dropped in: WKT or GeoJSON (Polygon / MultiPolygon, or a Feature /
   FeatureCollection of them), lon/lat. NULL clears it. Bad text: PINDROP_ERR_PARSE. */
pindrop_status pindrop_map_set_allowed_area(pindrop_map *map, const char *wkt_or_geojson);

/* ------------------------------------------------------------------------------------------------
 * History of user moves
 * ---------------------------------------------------------------------------------------------- */

/* Undoes / redoes the latest user move (MOVED with cause UNDO / REDO). STATE when there is nothing
   to undo / redo. */
pindrop_status pindrop_map_undo(pindrop_map *map, double time_ms);
pindrop_status pindrop_map_redo(pindrop_map *map, double time_ms);

/* ------------------------------------------------------------------------------------------------
 * Keyboard moves
 * ---------------------------------------------------------------------------------------------- */

/* Moves the selected pin by (dx, dy) screen points (x right, y down), from where it is drawn (its
   place in a spread layout, else its true coordinate): the keyboard alternative to a drag (WCAG
   2.2, 2.5.7). A host sends 1 point per arrow key, 10 with Shift. A user move: MOVED with cause
   PINDROP_CAUSE_NUDGE (PINDROP_CAUSE_SNAP when the allowed area snaps it), the callout, a
   geocode request and NEARBY warnings. Nudges of one pin less than 1000 ms apart are one undo
   step (a run of key presses is taken back by one undo); any other move, undo, redo or commit in
   between starts a new step. (0, 0) moves nothing. While the keyboard holds a pin
   (pindrop_map_key_lift, since 0.3.0) a nudge moves that pin as a drag instead (DRAGGED only). Returns PINDROP_ERR_STATE when no pin is
   selected or a gesture holds it (pressed, lifted or dragged), PINDROP_ERR_INVALID_ARGUMENT for a
   dx or dy that is not finite or beyond ±1e7 points (since 0.3.0: farther than any touch may lie
   outside the view), a time earlier than the last, a pin or target the view cannot place, or a
   target outside the allowed area with PINDROP_OUTSIDE_REVERT; nothing changes then.
   Since 0.2.0. */
pindrop_status pindrop_map_nudge(pindrop_map *map, double dx, double dy, double time_ms);

/* ------------------------------------------------------------------------------------------------
 * Keyboard focus and the keyboard drag (behaviour 20; since 0.3.0). The whole drag has a keyboard
 * path, as Google Maps' draggable markers have: Tab / Shift+Tab move the focus
 * (pindrop_map_focus_step), Alt+Space (or L, which no window manager takes) lifts the selected
 * pin (select the focused one first), arrows nudge it (1 point, 10 with Shift), Space or Enter
 * drops it, Esc cancels (pindrop_map_cancel_gesture), Ctrl+Z undoes the drop. docs/accessibility.md has the key map and
 * what a host must do for each WCAG 2.2 criterion; docs/gestures.md the keyboard machine.
 * ---------------------------------------------------------------------------------------------- */

/* What has the keyboard focus: a pin, a cluster, or nothing. */
enum { PINDROP_FOCUS_NONE = 0, PINDROP_FOCUS_PIN = 1, PINDROP_FOCUS_CLUSTER = 2 };  /* pindrop_focus.kind */
typedef struct pindrop_focus {
  int32_t kind;                         /* 0 none, 1 pin, 2 cluster (PINDROP_FOCUS_*)            */
  int32_t reserved;                     /* 0                                                     */
  pindrop_id id;                        /* the pin, or PINDROP_NO_ID                             */
  uint64_t key;                         /* the cluster's key, or 0                               */
  double x, y;                          /* its drawn screen point (points) in the last frame     */
} pindrop_focus;

/* Moves the keyboard focus one step through what the last pindrop_map_frame drew: the pins and
   clusters whose drawn point lies inside the viewport (not its margin: their point is off the
   screen), in reading order — by row floor(drawn y / hit_radius), then drawn x, then pins before
   clusters, then id (signed) or key (unsigned) — wrapping at either end. step is +1 (next, Tab)
   or -1 (previous, Shift+Tab); with nothing focused, +1 takes the first item and -1 the last. The
   new focus is written to *out (kind 0 when the last frame drew nothing focusable, or no frame was
   drawn yet). The focus stays on an item while the frames draw it (its pin view flagged
   PINDROP_PIN_FOCUSED), even as it moves; when a frame no longer draws it (it left the view,
   joined a cluster, a cluster's members changed), that frame moves it to the next item in reading
   order from where it was last drawn. A focused pin that is removed hands the focus on at once,
   and a step never lands on a pin removed since the frame. The keyboard's held pin keeps the
   focus while it is held. The focus emits no events and never changes the selection: to lift the
   focused pin, select it (pindrop_map_select) and call pindrop_map_key_lift. Allocates nothing.
   PINDROP_ERR_INVALID_ARGUMENT, changing nothing: step other than +1 or -1, out NULL. */
pindrop_status pindrop_map_focus_step(pindrop_map *map, int32_t step, pindrop_focus *out);

/* The current keyboard focus, as the last frame left it (after a frame moved it on, a removal
   handed it on, or a key lift put it on the lifted pin): what a host draws its focus ring around
   and announces. kind 0 when nothing has the focus. out NULL: PINDROP_ERR_INVALID_ARGUMENT. */
pindrop_status pindrop_map_focused(const pindrop_map *map, pindrop_focus *out);

/* Where the focus stands among the items focus_step moves through (the last frame's pins and
   clusters inside the viewport), for announcements such as "4 of 27" (aria-posinset / setsize):
   *out_index items come before it in reading order, of *out_total. *out_index == *out_total when
   none of them has the focus (nothing focused, or the keyboard's pin held beyond the frame).
   out_index or out_total NULL: PINDROP_ERR_INVALID_ARGUMENT. */
pindrop_status pindrop_map_focus_rank(const pindrop_map *map, size_t *out_index, size_t *out_total);

/* Lifts the selected pin by keyboard, as a held finger would: LIFTED (its true coordinate), drawn
   lifted where it was (pindrop_pin_view.lift rises over lift_duration_ms; lift_height is not
   applied: nothing hides it), flagged PINDROP_PIN_DRAGGING, and given the keyboard focus. While
   the keyboard holds it, pindrop_map_nudge moves it as a drag: each nudge moves the screen point
   it marks by (dx, dy) and reports DRAGGED with the coordinate under that point (no MOVED, no
   history); near the viewport's edge it asks for AUTOPAN on pindrop_map_tick as a finger drag
   does, and stays at its screen point while the host's camera moves (DRAGGED). Then
   pindrop_map_key_drop drops it, pindrop_map_cancel_gesture puts it back (DRAG_CANCELLED, its
   coordinate unchanged), removing it cancels the drag. Undo, redo and tap-to-move do not apply to
   it while it is held. Returns PINDROP_ERR_STATE, changing nothing, when nothing is selected, the
   keyboard already holds a pin, a pointer is down (a finger on a pin, or the host's pan: lift
   once it is up), the selected pin is not draggable, or a tap on the map due by time_ms would
   clear the selection; PINDROP_ERR_INVALID_ARGUMENT for a time earlier than the last. While the
   keyboard holds a pin, pindrop_map_touch returns PINDROP_ERR_STATE and changes nothing. */
pindrop_status pindrop_map_key_lift(pindrop_map *map, double time_ms);

/* Drops the pin the keyboard holds: DROPPED at its last DRAGGED coordinate, then MOVED (from, to)
   with cause PINDROP_CAUSE_KEYBOARD (PINDROP_CAUSE_SNAP when the allowed area snaps it; none when
   PINDROP_OUTSIDE_REVERT refuses it and it glides back) and the follow-ups of a user move: the
   callout, a GEOCODE_REQUEST, NEARBY warnings. The whole keyboard drag is one undo step. A pin
   lifted and never nudged falls back where it was (DROPPED, no MOVED). PINDROP_ERR_STATE when the
   keyboard holds no pin; PINDROP_ERR_INVALID_ARGUMENT for a time earlier than the last. */
pindrop_status pindrop_map_key_drop(pindrop_map *map, double time_ms);

/* The facts of an announcement ("moved 12 m north-east"): the great-circle distance in metres
   between two coordinates on pindrop's sphere (radius 6378137 m, as every distance pindrop
   reports, NEARBY's included), and, when out_bearing_deg is not NULL, the initial bearing from the
   first to the second in degrees clockwise from north, in [0, 360) (0 for the same point). A host
   measures a keyboard or finger drag from LIFTED's coordinate to DRAGGED's, a drop from MOVED's
   from_lon/from_lat to lon/lat. PINDROP_ERR_INVALID_ARGUMENT for a coordinate that is not finite
   or out of range, or out_distance_m NULL (the thread's last error says which). No map involved. */
pindrop_status pindrop_distance(double from_lon, double from_lat, double to_lon, double to_lat,
                                double *out_distance_m, double *out_bearing_deg);

/* ------------------------------------------------------------------------------------------------
 * Batch spreading for GIS tools
 * ---------------------------------------------------------------------------------------------- */

/* Applies the spreading rule (pins sharing a coordinate, or within tolerance_m of a group's first
   pin, drawn on a ring) to n points lonlat[2i], lonlat[2i+1], ordered by their index, writing the
   drawn positions to out_lonlat. out may alias in. All-or-nothing: bad input writes nothing.
   tolerance_m = 0 groups equal coordinates only; > 0: in index order, a point joins the group of the
   lowest-index first pin within tolerance_m metres (no chaining), and the ring centres on the
   members' mean. A point alone is copied unchanged. n = 0 is OK (pointers may then be NULL).
   Returns PINDROP_ERR_INVALID_ARGUMENT for a NULL pointer with n > 0, a coordinate that is not
   finite or out of range, or a tolerance that is negative or not finite. See docs/spreading.md. */
pindrop_status pindrop_spread(const double *lonlat, size_t n, double tolerance_m, double *out_lonlat);

/* Compact spreading for big stacks (PINDROP_SPREAD_SPIRAL) over a whole data set, for
   a GIS tool that draws one zoom: groups exactly as pindrop_spread (tolerance_m, index order as id
   order, centre = the members' mean), then lays each group of n >= 2 out in Web Mercator screen
   points at `zoom` (256-point tiles: the world is 256·2^zoom points wide), north up, with
   s = spacing_points / 25:
     n < 9:  a circle of radius max(spacing, spacing·(n+2)/(2π)) points, pin k at bearing 2πk/n;
     n >= 9: Leaflet.markercluster's spiral: L = 11s, A = 0; for k = n down to 0: if k < n, pin k at
             distance L points and bearing A; then A += 28s/L + 0.0005k; L += 5s·2π/A
   (bearings in radians clockwise from north; a spacing above 2^40 points, wider than the world at
   zoom 30, lays out as 2^40 instead of overflowing), writing the drawn positions as lon/lat to
   out_lonlat. At another zoom the same layout is another set of lon/lat: call it again per zoom
   (a map does this by itself with spread_mode = PINDROP_SPREAD_SPIRAL). out may alias in;
   all-or-nothing. n = 0 is OK (pointers may then be NULL; the other arguments are still checked).
   PINDROP_ERR_INVALID_ARGUMENT for what pindrop_spread refuses, spacing_points not finite or
   <= 0, zoom outside [0, 30], or a group of two or more centred beyond Web Mercator's ±85.0511°.
   Since 0.2. */
pindrop_status pindrop_spread_spiral(const double *lonlat, size_t n, double tolerance_m, double spacing_points,
                                     double zoom, double *out_lonlat);

#ifdef __cplusplus
}
#endif

#endif /* PINDROP_H */
