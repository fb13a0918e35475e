// Shared by the tests: the package loaded once, small maps, event and number checks.
import { load, Map } from "../index.js";

export const ready = load();

/** A map with a mouse's options (drag at once, the pin under the pointer) unless overridden. */
export async function mouseMap(options = {}) {
  await ready;
  const m = new Map({ liftDelayMs: 0, liftHeight: 0, ...options });
  m.setCamera(-118.35, 33.9, 16, 800, 600);
  return m;
}

export function types(events) { return events.map((e) => e.type); }

export function closeTo(actual, expected, tol, message) {
  if (!(Math.abs(actual - expected) <= tol)) {
    throw new Error(`${message ?? "value"}: ${actual} is not within ${tol} of ${expected}`);
  }
}
