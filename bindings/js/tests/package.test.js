// `npm pack` (offline, no registry) packs the module (index.js and every module of src/), its
// declarations and pindrop.wasm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = fileURLToPath(new URL("..", import.meta.url));
const npm = spawnSync("npm", ["--version"], { encoding: "utf8" });

test("npm pack holds index.js, src/ (the host core and the Leaflet layer too), the declarations, leaflet.global.js, pindrop.wasm and the README", { skip: npm.status !== 0 && "npm is not installed" }, () => {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--offline"], { cwd: dir, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const [pack] = JSON.parse(r.stdout);
  const files = pack.files.map((f) => f.path).sort();
  const modules = readdirSync(join(dir, "src"), { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => `src/${f}`);
  assert.ok(modules.includes("src/map.js") && modules.includes("src/tables.js") && modules.includes("src/host/index.js"), modules.join(", "));
  assert.deepEqual(files, ["README.md", "index.d.ts", "index.js", "leaflet.d.ts", "leaflet.global.js", "maplibre.d.ts", "package.json", "pindrop.wasm",
    ...modules].sort());
  assert.equal(pack.name, "pindrop");
  const wasm = pack.files.find((f) => f.path === "pindrop.wasm");
  assert.ok(wasm.size > 100000, `pindrop.wasm is ${wasm.size} bytes`);
  // 400 KiB until 0.4; the web host core, the Leaflet and MapLibre layers add some 40 KiB packed,
  // selections and snapping some 34 KiB of module (gzipped)
  assert.ok(pack.size < 480 * 1024, `the tarball is ${pack.size} bytes`);
});

test("package.json's version is the module's (pindrop_version, from the header's macros)", async () => {
  const { load } = await import("../index.js");
  const pkg = JSON.parse((await import("node:fs")).readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.equal(await load(), pkg.version);
});
