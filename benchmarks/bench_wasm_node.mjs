// The LA trees through the WebAssembly module in Node: add_many, a frame, frame_clusters (zoom 10
// over Los Angeles, then zoom 16 over Lawndale), hit tests after the frame. Prints JSON (milliseconds, best of
// the repeats after the first); benchmarks/bench_wasm.py runs it beside the native library.
import { readFileSync } from "node:fs";
import { load, Map } from "../bindings/js/index.js";

const csv = readFileSync(process.argv[2], "utf8").split("\n");
const n = csv.length - 2;
const ids = new Float64Array(n), lonlat = new Float64Array(2 * n);
let k = 0;
for (let i = 1; i < csv.length; i++) {
  const f = csv[i].split(",");
  if (f.length !== 4) continue;
  ids[k] = k + 1; lonlat[2 * k] = +f[3]; lonlat[2 * k + 1] = +f[2]; k++;
}
await load();
const now = () => performance.now();
const out = { pins: k };
// add_many: the best of three fresh maps (the last one is kept).
let m = null, t0;
out.add_many = Infinity;
for (let r = 0; r < 3; r++) {
  m?.dispose();
  m = new Map({ clusterRadius: 60 });
  t0 = now();
  m.addMany(ids.subarray(0, k), lonlat.subarray(0, 2 * k));
  out.add_many = Math.min(out.add_many, now() - t0);
}
let time = 0;
const best = (f, repeats = 5) => { let b = Infinity; for (let r = 0; r < repeats; r++) { const s = now(); f(); b = Math.min(b, now() - s); } return b; };
m.setCamera(-118.25, 33.95, 10, 1280, 800);
t0 = now(); m.clusters(++time); out.first_frame_clusters_z10 = now() - t0;
out.frame_clusters_z10 = best(() => m.clusters(++time));
out.frame_z10 = best(() => m.frame(++time));
out.clusters_z10 = m.clusters(++time).count;
// A zoom change: the camera set, then frame_clusters and frame; the mean over zooms 8 to 16.
out.zoom_change_8_16 = best(() => {
  for (let z = 8; z <= 16; z++) { m.setCamera(-118.25, 33.95, z, 1280, 800); m.clusters(++time); m.frame(time); }
}, 3) / 9;
m.setCamera(-118.3526, 33.887, 16, 1280, 800);  // Lawndale
out.frame_clusters_z16 = best(() => m.clusters(++time));
out.frame_z16 = best(() => m.frame(++time));
out.frame_z16_pins = m.frame(++time).count;
out.hit_tests_1000_z16 = best(() => { for (let i = 0; i < 1000; i++) m.hitTest((i * 37) % 1280, (i * 53) % 800); });
// 1,000 host moves, each followed by the clusters' update (frame_clusters), at zoom 12.
m.setCamera(-118.3526, 33.887, 12, 1280, 800);
m.clusters(++time);
out.set_position_and_clusters_1000 = best(() => {
  for (let i = 0; i < 1000; i++) {
    const j = (i * 7919) % k;
    m.setPosition(j + 1, lonlat[2 * j] + 1e-4, lonlat[2 * j + 1]);
    m.clusters(++time);
  }
}, 3);
// A mouse drag of a pin at zoom 18: 1,000 MOVE events (the mean is per event).
m.setCamera(-118.3526, 33.887, 18, 1280, 800);
const f = m.frame(++time);
const x0 = f.x[0], y0 = f.y[0];
m.touch(0, "down", x0, y0, ++time);
time += 300; m.tick(time);
out.drag_moves_1000 = best(() => { for (let i = 0; i < 1000; i++) m.touch(0, "move", x0 + (i % 200), y0 + (i % 100), ++time); }, 3);
m.touch(0, "up", x0, y0, ++time);
m.dispose();
process.stdout.write(JSON.stringify(out));
