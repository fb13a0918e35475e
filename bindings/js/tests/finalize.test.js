// A Map that is dropped without dispose() is freed by the FinalizationRegistry: in a child Node
// with --expose-gc, 300 maps of 5,000 pins each are made and dropped; the module's memory stays a
// fraction of what they would hold if none were freed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const script = `
const { load, Map, __memoryBytes } = await import(${JSON.stringify(new URL("../index.js", import.meta.url).href)});
await load();
const ll = new Float64Array(10000).map((_, i) => (i % 2 ? 34 : -118) + (i % 997) * 1e-4);
const ids = Array.from({ length: 5000 }, (_, i) => i + 1);
const one = () => { const m = new Map({ clusterRadius: 60 }); m.addMany(ids, ll); m.setCamera(-118, 34, 12, 800, 600); m.clusters(0); };
one();
globalThis.gc(); await new Promise((r) => setTimeout(r, 20));
const perMap = __memoryBytes();
for (let i = 0; i < 300; i++) {
  one();
  if (i % 10 === 9) { globalThis.gc(); await new Promise((r) => setTimeout(r, 5)); }
}
globalThis.gc(); await new Promise((r) => setTimeout(r, 20));
console.log(JSON.stringify({ perMap, after: __memoryBytes() }));
`;

test("dropped maps are freed by the FinalizationRegistry", () => {
  const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  console.log(r.stdout.trim());
  const { perMap, after } = JSON.parse(r.stdout);
  // 300 maps kept alive would need 300 times one map's share of the heap.
  assert.ok(after < 40 * perMap, `memory ${after} bytes after 300 dropped maps (the first map: ${perMap})`);
});
