// Compiled (not run) by types.test.js: a module that imports the package as its README shows
// (PinMap) keeps JavaScript's global Map. Before 0.4 the map class was exported only as `Map`,
// and `new Map<string, number>()` below did not compile in such a module.
import { load, PinMap } from "../index.js";

export async function counts(): Promise<number> {
  await load();
  const byCity = new Map<string, number>();
  byCity.set("Lawndale", 7937);
  const m = new PinMap({ clusterRadius: 60 });
  m.add(1, -118.35, 33.9);
  const n = m.count + (byCity.get("Lawndale") ?? 0);
  m.dispose();
  return n;
}
