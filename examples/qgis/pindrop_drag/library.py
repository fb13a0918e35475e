"""What the map tool asks of pindrop: the options of its two profiles and of clusters, and what the
library in use offers (pindrop 0.3's cluster summaries, keyboard drag and stacks on tap)."""
import pindrop

MOUSE = dict(lift_delay_ms=0.0, lift_height=0.0)
TOUCH = dict(lift_delay_ms=250.0, lift_height=40.0)
CLUSTERS = dict(cluster_radius=60.0, cluster_max_zoom=16.0)  # street level and closer: every point
# An opened stack: on a spiral in screen points (the default: Lawndale's 305 trees fit an 800 x 600
# canvas at any zoom), or on the ground's ring (1.5 m a point: 457.5 m for 305 trees).
SPIRAL = dict(spread_mode=int(getattr(pindrop, "SPREAD_SPIRAL", 2)), spread_spacing=25.0)
RING = dict(spread_mode=int(getattr(pindrop, "SPREAD_RING", 1)))
HAS_SUMMARIES = hasattr(pindrop.Map, "cluster_summary")   # pindrop 0.3: what clusters hold
HAS_KEYBOARD = hasattr(pindrop.Map, "focus_step")         # pindrop 0.3: the keyboard drag
HAS_STACKS = hasattr(pindrop.Map, "open_stack")           # pindrop 0.3: stacks that open on tap
CLUSTER_STACK = getattr(pindrop, "CLUSTER_STACK", 2)
PIN_FOCUSED = getattr(pindrop, "PIN_FOCUSED", 32)
PIN_ANIMATING = getattr(pindrop, "PIN_ANIMATING", 64)
