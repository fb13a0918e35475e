// Writes leaflet.global.js, the plain-script form of "pindrop/leaflet" (no bundler, no module
// script): <script src="leaflet.js"></script><script src="pindrop/leaflet.global.js"></script>
// then L.pindropLayer(options). It is src/leaflet/layer.js (which has no imports) inside a
// function that loads the host core with a dynamic import() beside the script.
//
//   node bindings/js/scripts/build-global.mjs          writes it
//   node bindings/js/scripts/build-global.mjs --check  fails when it is not what this writes
import { readFileSync, writeFileSync } from "node:fs";

const layer = new URL("../src/leaflet/layer.js", import.meta.url);
const out = new URL("../leaflet.global.js", import.meta.url);

export function globalScript() {
  const source = readFileSync(layer, "utf8");
  if (/^\s*import\s/m.test(source) || /import\.meta/.test(source)) throw new Error("src/leaflet/layer.js must have no imports");
  const body = source.replace(/^export function definePindropLayer/m, "function definePindropLayer");
  return `// pindrop's Leaflet layer as a plain script: load Leaflet, then this file, then
//   L.pindropLayer({ clusterRadius: 60 }).addTo(map).addGeoJSON(trees, { id: "tree_id" });
// Written by scripts/build-global.mjs from src/leaflet/layer.js: do not edit.
(function () {
  "use strict";
  var L = window.L;
  if (!L || !L.Layer) throw new Error("pindrop: load Leaflet before leaflet.global.js");
  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var core = null;
  function loadCore() {
    core = core || import(new URL("src/host/index.js", base).href);
    return core;
  }

${body.trim().split("\n").map((line) => (line ? "  " + line : line)).join("\n")}

  L.PindropLayer = definePindropLayer(L, loadCore);
  L.pindropLayer = function (options) { return new L.PindropLayer(options); };
})();
`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const text = globalScript();
  if (process.argv.includes("--check")) {
    if (readFileSync(out, "utf8") !== text) { console.error("leaflet.global.js is stale: node bindings/js/scripts/build-global.mjs"); process.exit(1); }
  } else {
    writeFileSync(out, text);
    console.log("leaflet.global.js written");
  }
}
