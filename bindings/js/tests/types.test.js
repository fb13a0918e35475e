// index.d.ts type-checks against a program that uses the whole API (tests/types-check.ts) with
// TypeScript's --strict, and refuses what it must (the @ts-expect-error lines). tsc comes from
// Debian's node-typescript (make test-js installs it). It compiles with ES2020's library only: the
// declarations must not lean on the DOM's types (URL) or Node's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });
const file = fileURLToPath(new URL("./types-check.ts", import.meta.url));

// No DOM and no @types/node ("types": [], as tsc's command line cannot say): a Node project
// without them must compile against index.d.ts.
function typeCheck(path) {
  const dir = mkdtempSync(join(tmpdir(), "pindrop-types-"));
  try {
    const config = join(dir, "tsconfig.json");
    writeFileSync(config, JSON.stringify({ files: [path], compilerOptions: { noEmit: true, strict: true, target: "es2020",
      module: "es2020", moduleResolution: "node", lib: ["es2020"], types: [] } }));
    return spawnSync("tsc", ["-p", config], { encoding: "utf8" });
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test("index.d.ts type-checks a program using every 0.3 call, and refuses wrong uses", { skip: tsc.status !== 0 && "tsc is not installed" }, () => {
  const r = typeCheck(file);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("a module importing PinMap keeps the global Map: new Map<string, number>() compiles", { skip: tsc.status !== 0 && "tsc is not installed" }, () => {
  const r = typeCheck(fileURLToPath(new URL("./types-global-map.ts", import.meta.url)));
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
