// The hosts' one clock: times handed to a pindrop map never go back, whatever the host passes.
//
// pindrop refuses a time earlier than the last one it was given ("time went backwards"). In
// Chromium an input event's `timeStamp` can be earlier than the `performance.now()` read for the
// last animation frame (the event was queued before the frame ran), so a host that passes
// `event.timeStamp` to touch() and `performance.now()` to frame() fails now and then, and loses
// the press it was passing. The clock below takes any time a host offers (or reads
// performance.now() when none is) and returns the latest time it has returned when the offer is
// earlier: the sequence it returns never decreases.

const platformNow = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

export class MonotonicClock {
  /** source: where the time comes from when none is offered (default performance.now()). */
  constructor(source = platformNow) {
    this.source = source;
    this.last = -Infinity;
  }

  /** The time to hand to pindrop: `offered` (e.g. an event's timeStamp) or the source's time,
   *  raised to the last time returned when it is earlier. A time that is not a finite number is
   *  not an offer: the source's time is read instead. */
  now(offered) {
    const t = typeof offered === "number" && Number.isFinite(offered) ? offered : this.source();
    if (t > this.last) this.last = t;
    return this.last === -Infinity ? 0 : this.last;
  }

  /** The last time returned (−Infinity before the first). */
  get latest() { return this.last; }
}
