"""The type hints of the arguments that take geometries, and of the arguments that take an enum,
its value or its name."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from ._constants import Callout, OutsidePolicy, SpreadMode, TouchPhase

if TYPE_CHECKING:
    from typing import Literal

#: What the coordinates arguments accept: an (n, 2) array of (lon, lat), shapely points,
#: a GeoSeries or GeoDataFrame, ``__geo_interface__``, GeoJSON or WKT text.
Coordinates = Any
#: One point: a shapely Point, ``__geo_interface__``, GeoJSON or WKT text, or a (lon, lat) pair.
PointLike = Any
#: An allowed area: WKT or GeoJSON text, shapely (Multi)Polygons, a GeoSeries, a GeoJSON mapping.
AreaLike = Any

if TYPE_CHECKING:
    Phase = Union[TouchPhase, int, Literal["down", "move", "up", "cancel"]]
    SpreadModeLike = Union[SpreadMode, int, Literal["off", "ring", "spiral"]]
    OutsidePolicyLike = Union[OutsidePolicy, int, Literal["revert", "snap"]]
    CalloutLike = Union[Callout, int, Literal["title", "subtitle"]]
