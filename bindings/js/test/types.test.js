// index.d.ts type-checks against a program that uses the whole API (test/types-check.ts) with
// TypeScript's --strict, and refuses what it must (the @ts-expect-error lines). tsc comes from
// Debian's node-typescript (make test-js installs it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });
const file = fileURLToPath(new URL("./types-check.ts", import.meta.url));

test("index.d.ts type-checks a program using every 0.3 call, and refuses wrong uses", { skip: tsc.status !== 0 && "tsc is not installed" }, () => {
  const r = spawnSync("tsc", ["--noEmit", "--strict", "--target", "es2020", "--module", "es2020",
    "--moduleResolution", "node", "--lib", "es2020,dom", file], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
