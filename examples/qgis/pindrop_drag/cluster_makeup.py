"""What clusters hold (pindrop 0.3): each cluster's colour and ring of category shares, and its
summary in words ("1,204 trees · 38 species · mostly Jacaranda · mean trunk 31")."""
from __future__ import annotations

import math

import pindrop

from .drawing import ClusterOverlay
from .library import CLUSTER_STACK, HAS_SUMMARIES

#: Category colours (Tableau 10), category 0 ("none") grey.
PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac"]
NONE_COLOUR = "#9a9a9a"
#: Shares drawn as slices at most (the rest as one grey slice).
SLICES = 6


class ClusterMakeup:
    """The makeup of the clusters the map tool draws (a part of `PindropMapTool`)."""

    def summary(self, key: int, count: int) -> str:
        """What a cluster holds, in words: "1,204 trees · 38 species · mostly Jacaranda · mean
        trunk 31" (the parts the fields allow)."""
        parts = [f"{count:,} {self.noun}"]
        if HAS_SUMMARIES and self.pins is not None:
            try:
                s = self.map.cluster_summary(key)
                counts = self.map.cluster_categories(key, as_dict=True) if self.pins.category_field else {}
            except pindrop.NotFound:
                return parts[0]
            named = {c: n for c, n in counts.items() if c != 0}
            if named:
                from .settings import categories_are
                field = self.pins.category_field
                label = categories_are(self.layer) or (
                    field if field.endswith("s") else (field[:-1] + "ies" if field.endswith("y") else field + "s"))
                parts.append(f"{len(named):,} {label}")
                top = next(iter(named))
                parts.append(f"mostly {self.pins.category_names[top]}" if named[top] * 2 < s.count
                             else f"{named[top] * 100 // s.count} % {self.pins.category_names[top]}")
            if self.pins.value_field and s.valued:
                mean = s.value_sum / s.valued
                parts.append(f"mean {self.pins.value_field} " + (f"{mean:,.0f}" if abs(mean) >= 100 else f"{mean:.3g}"))
            if s.flags & getattr(pindrop, "CLUSTER_ONE_SPOT", 1):
                parts.append("all on one spot")
        return " · ".join(parts)

    def colour(self, code: int) -> str:
        """The colour of a category: the layer's own when its renderer is categorized on the
        category field, else a qualitative palette; grey for none."""
        if code == 0 or self.pins is None:
            return NONE_COLOUR
        own = self._renderer_colours()
        name = self.pins.category_names[code] if code < len(self.pins.category_names) else None
        if name is not None and name in own:
            return own[name]
        return PALETTE[(code - 1) % len(PALETTE)]

    def cluster_at(self, x: float, y: float):
        """The cluster or stack drawn under screen point (x, y), or None."""
        best = None
        for c in self.clusters:
            d = math.hypot(c.x - x, c.y - y)
            if d <= ClusterOverlay.radius(c.count, bool(c.flags & CLUSTER_STACK)) + 2 and (best is None or d < best[0]):
                best = (d, c)
        return best[1] if best else None

    def _shares(self, key: int):
        """[(colour, fraction)] of a cluster's categories, most members first (SLICES at most, the
        rest as one grey share); [] without categories."""
        if not HAS_SUMMARIES or self.pins is None or not self.pins.category_field:
            return []
        try:
            counts = self.map.cluster_categories(key, as_dict=True)
        except pindrop.NotFound:
            return []
        total = sum(counts.values()) or 1
        items = list(counts.items())
        shares = [(self.colour(code), n / total) for code, n in items[:SLICES]]
        rest = sum(n for _, n in items[SLICES:])
        if rest:
            shares.append((NONE_COLOUR, rest / total))
        return shares

    def _renderer_colours(self) -> dict:
        renderer = self._swap.original if self._swap is not None and self._swap.active else \
            (self.layer.renderer() if self.layer is not None else None)
        if renderer is None or renderer.type() != "categorizedSymbol" or self.pins is None \
                or renderer.classAttribute() != self.pins.category_field:
            return {}
        return {str(c.value()): c.symbol().color().name() for c in renderer.categories() if c.symbol() is not None}
