// The per-map memory of the WebAssembly module in Node: 1,000 maps of one pin, each with a
// 1920x1080 camera, a frame drawn and a tap (as Tests/c/test_map_memory.c does natively), and
// the growth of the module's linear memory (which only grows). Prints JSON; bench_load.py runs it.
import { load, Map, __memoryBytes } from "../bindings/js/index.js";

await load();
const warm = new Map();
warm.add(1, -118.2, 34.0); warm.setCamera(-118.2, 34.0, 16, 1920, 1080); warm.frame(0); warm.dispose();
const before = __memoryBytes();
const maps = [];
for (let i = 0; i < 1000; i++) {
  const m = new Map(), lon = -118.2 + 1e-4 * i, lat = 34.0 + 1e-4 * i;
  m.add(i + 1, lon, lat);
  m.setCamera(lon, lat, 16, 1920, 1080);
  const views = m.frame(0);
  if (views.count !== 1) throw new Error(`map ${i + 1} drew ${views.count} pins`);
  m.hitTest(views.x[0], views.y[0]);
  maps.push(m);
}
const after = __memoryBytes();
for (const m of maps) m.dispose();
console.log(JSON.stringify({ maps: maps.length, before_bytes: before, after_bytes: after, grown_mb: (after - before) / 1048576 }));
