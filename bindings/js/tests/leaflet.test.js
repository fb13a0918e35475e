// "pindrop/leaflet" without a browser: the plain script is what scripts/build-global.mjs writes
// from src/leaflet/layer.js, that file has no imports (so the plain script can hold it), and
// leaflet.d.ts type-checks the README's uses. The layer itself runs in Chromium:
// examples/web/tests/test_layer.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globalScript } from "../scripts/build-global.mjs";

test("leaflet.global.js is the plain-script form of src/leaflet/layer.js, as scripts/build-global.mjs writes it", () => {
  assert.equal(readFileSync(new URL("../leaflet.global.js", import.meta.url), "utf8"), globalScript(),
    "leaflet.global.js is stale: node bindings/js/scripts/build-global.mjs");
  const r = spawnSync(process.execPath, ["--check", fileURLToPath(new URL("../leaflet.global.js", import.meta.url))], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

test("package.json exports pindrop/leaflet, its types and the plain script", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.deepEqual(pkg.exports["./leaflet"], { types: "./leaflet.d.ts", default: "./src/leaflet.js" });
  assert.equal(pkg.exports["./leaflet.global.js"], "./leaflet.global.js");
  assert.equal(pkg.exports["./host"], "./src/host/index.js");
});

test("without Leaflet, pindrop/leaflet says it needs it", async () => {
  const m = await import("../src/leaflet.js");
  assert.equal(m.PindropLayer, undefined);
  assert.throws(() => m.pindropLayer({}), /needs Leaflet/);
});

const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });
test("leaflet.d.ts type-checks the layer's uses and refuses wrong ones", { skip: tsc.status !== 0 && "tsc is not installed" }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pindrop-types-"));
  try {
    const config = join(dir, "tsconfig.json");
    writeFileSync(config, JSON.stringify({ files: [fileURLToPath(new URL("./types-leaflet.ts", import.meta.url))],
      compilerOptions: { noEmit: true, strict: true, target: "es2020", module: "es2020", moduleResolution: "node", lib: ["es2020", "dom"], types: [] } }));
    const r = spawnSync("tsc", ["-p", config], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("the README's Leaflet page is examples/web/minimal.html (which the browser tests drive), 30 lines at most", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const m = /```html\n([\s\S]*?)\n```/.exec(readme);
  assert.ok(m, "bindings/js/README.md has no html page");
  const page = readFileSync(new URL("../../../examples/web/minimal.html", import.meta.url), "utf8");
  assert.equal(m[1] + "\n", page);
  assert.ok(page.trimEnd().split("\n").length <= 30, `the page has ${page.trimEnd().split("\n").length} lines`);
});
