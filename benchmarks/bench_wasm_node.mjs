// The LA trees through the WebAssembly module in Node: add_many, a frame, frame_clusters (zoom 10
// over Los Angeles, then zoom 16), hit tests after the frame. Prints JSON (milliseconds, best of
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
const m = new Map({ clusterRadius: 60 });
let t0 = now();
m.addMany(ids.subarray(0, k), lonlat.subarray(0, 2 * k));
out.add_many = now() - t0;
let time = 0;
const best = (f, repeats = 5) => { let b = Infinity; for (let r = 0; r < repeats; r++) { const s = now(); f(); b = Math.min(b, now() - s); } return b; };
m.setCamera(-118.35, 34.05, 10, 1280, 800);
t0 = now(); m.clusters(++time); out.first_frame_clusters_z10 = now() - t0;
out.frame_clusters_z10 = best(() => m.clusters(++time));
out.frame_z10 = best(() => m.frame(++time));
m.setCamera(-118.35, 34.05, 16, 1280, 800);
out.frame_clusters_z16 = best(() => m.clusters(++time));
out.frame_z16 = best(() => m.frame(++time));
out.frame_z16_pins = m.frame(++time).count;
out.hit_tests_1000_z16 = best(() => { for (let i = 0; i < 1000; i++) m.hitTest((i * 37) % 1280, (i * 53) % 800); });
m.dispose();
process.stdout.write(JSON.stringify(out));
