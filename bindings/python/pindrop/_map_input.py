"""`Map`'s input: touches and the clock (tick, deadlines), the events they produce, and the keyboard's
focus and drag."""
from __future__ import annotations

from ctypes import byref, c_size_t
from typing import TYPE_CHECKING, Iterator, Optional, Tuple

from . import _check, _ffi
from ._constants import TouchPhase
from ._events import Event
from ._ffi import lib
from ._map_state import _MapState
from ._records import Focus

if TYPE_CHECKING:
    from ._hints import Phase


class _Input(_MapState):
    # -- input ------------------------------------------------------------------------------------
    def touch(self, pointer: int, phase: "Phase", x: float, y: float, time_ms: float) -> bool:
        """Feeds one touch or mouse event: `phase` a `TouchPhase` or its name ("down", "move",
        "up", "cancel"). A mouse host sends "move" only while the button is down. True when
        pindrop owns the gesture (the host must not pan or zoom with it), False when the host's map
        should handle it."""
        h = _check.open_handle(self)
        p = _check.fits(_check.integer(pointer, "pointer"), "pointer", "int32")
        ph = _check.enum(TouchPhase, phase, "phase")
        t = _check.time(time_ms)
        r = lib.pindrop_map_touch(h, p, ph, _check.real(x, "x"), _check.real(y, "y"), t)
        if r < 0:
            _ffi.raise_for(r, h, "pindrop_map_touch")
        self._note_time(t)
        return bool(r == 1)

    def tick(self, time_ms: float) -> None:
        """Resolves the timeouts due at time_ms (lift delay, double-tap window, auto-pan)."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_tick(h, t)
        self._note_time(t)

    @property
    def next_deadline(self) -> float:
        """When the next tick is due (ms), math.inf when nothing is pending."""
        return float(lib.pindrop_map_next_deadline(_check.open_handle(self)))

    def advance(self, time_ms: float) -> None:
        """Ticks at every deadline up to time_ms, then at time_ms: what a host's timer would do."""
        t = _check.time(time_ms)
        deadline = self.next_deadline
        while deadline <= t:
            self.tick(deadline)
            following = self.next_deadline
            if following <= deadline:  # a deadline that does not move on is due again at time_ms
                break
            deadline = following
        self.tick(t)

    def cancel_gesture(self, time_ms: float) -> None:
        """Cancels the gesture in progress (the Esc key): a lifted pin goes back, nothing is saved."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_cancel_gesture(h, t)
        self._note_time(t)

    def poll_event(self) -> Optional[Event]:
        """The oldest pending event, or None."""
        h = _check.open_handle(self)
        e = _ffi.Event()
        return Event._from_c(e) if lib.pindrop_map_poll_event(h, byref(e)) == 1 else None

    def events(self) -> Iterator[Event]:
        """Drains the pending events, oldest first."""
        _check.open_handle(self)

        def drain() -> Iterator[Event]:
            while (e := self.poll_event()) is not None:
                yield e
        return drain()


class _Keyboard(_MapState):
    # -- keyboard focus and drag (behaviour 20, since 0.3.0; docs/accessibility.md) --------------
    def focus_step(self, step: int) -> Focus:
        """Moves the keyboard focus to the next (+1, Tab) or previous (-1, Shift+Tab) pin or
        cluster that the last `frame` drew inside the viewport, in reading order (rows of
        hit_radius points, then x, then pins before clusters, then id or key), wrapping.
        InvalidArgument for any other step. The focused pin is flagged PIN_FOCUSED in frames."""
        h = _check.open_handle(self)
        out = _ffi.Focus()
        lib.pindrop_map_focus_step(h, _check.fits(_check.integer(step, "step"), "step", "int32"), byref(out))
        return Focus._from_c(out)

    @property
    def focus(self) -> Focus:
        """The keyboard focus as the last frame left it (it moves on when its item leaves)."""
        h = _check.open_handle(self)
        out = _ffi.Focus()
        lib.pindrop_map_focused(h, byref(out))
        return Focus._from_c(out)

    @property
    def focus_rank(self) -> Tuple[Optional[int], int]:
        """(index, total): the focus is item `index` (from 0) of the `total` items `focus_step`
        moves through, in reading order ("4 of 27" is (3, 27)); index None when none of them
        has the focus."""
        h = _check.open_handle(self)
        index, total = c_size_t(), c_size_t()
        lib.pindrop_map_focus_rank(h, byref(index), byref(total))
        return (None if index.value == total.value else index.value), total.value

    def key_lift(self, time_ms: float) -> None:
        """Lifts the selected pin by keyboard (Alt+Space, or L): LIFTED, drawn lifted in place; nudges
        then drag it (DRAGGED), `key_drop` drops it, `cancel_gesture` puts it back. StateError
        when nothing is selected, the keyboard already holds a pin, or a pointer is down."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_key_lift(h, t)
        self._note_time(t)

    def key_drop(self, time_ms: float) -> None:
        """Drops the pin the keyboard holds (Space or Enter): DROPPED, then MOVED with cause
        KEYBOARD and its follow-ups, one undo step. StateError when there is no keyboard drag."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_key_drop(h, t)
        self._note_time(t)
