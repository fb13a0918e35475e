// The same recording as Tests/web/recording.py, replayed through the WebAssembly module with the JS
// package: node replay.mjs RECORDING.json > LOG.json. The log has recording.py's layout.
import { readFileSync } from "node:fs";
import { load, Map, PindropError, CLUSTER_STACK } from "../../bindings/js/index.js";

await load();
const recording = JSON.parse(readFileSync(process.argv[2], "utf8"));
const o = recording.options;
const m = new Map({ clusterRadius: o.cluster_radius, spreadMode: o.spread_mode,
  outsidePolicy: o.outside_policy ?? "revert", minSpacingM: o.min_spacing_m ?? 0,
  spreadOnTap: o.spread_on_tap ?? 0, clusterMinPoints: o.cluster_min_points ?? 2 });
const v03 = o.v03 ?? false;
let lastT = 0;
const log = [];
const NO_ID = "NO_ID";

const ev = () => m.events().map((e) => [e.type, e.cause ?? "NONE", e.id ?? NO_ID, e.other ?? NO_ID, e.lon ?? 0, e.lat ?? 0,
  e.fromLon ?? 0, e.fromLat ?? 0, e.dx ?? 0, e.dy ?? 0, e.distanceM ?? 0, e.timeMs, e.request ?? 0]);

function call(f) {
  try { return f(); } catch (e) {
    if (!(e instanceof PindropError)) throw e;
    log.push(["error", e.name]);
    return null;
  }
}

function pick(seed, t) {
  const f = m.frame(t);
  if (f.count === 0) return null;
  const i = seed % f.count;
  return [f.x[i], f.y[i]];
}

for (const [op, ...a] of recording.steps) {
  switch (op) {
    case "area": call(() => m.setAllowedArea(a[0])); break;
    case "add_many": call(() => m.addMany(a[0], new Float64Array(a[1]))); break;
    case "camera": call(() => m.setCamera(...a)); break;
    case "frame": {
      const f = m.frame(a[0]), rows = [];
      for (let i = 0; i < f.count; i++) rows.push([f.id[i], f.x[i], f.y[i], f.anchorX[i], f.anchorY[i], f.lift[i], f.flags[i]]);
      log.push(["frame", rows]);
      break;
    }
    case "clusters": {
      const c = m.clusters(a[0]), rows = [];
      lastT = a[0];
      const copy = { key: [...c.key], x: [...c.x], y: [...c.y], lon: [...c.lon], lat: [...c.lat], size: [...c.size], flags: [...c.flags] };
      for (let i = 0; i < c.count; i++) {
        const row = [copy.key[i], copy.x[i], copy.y[i], copy.lon[i], copy.lat[i], copy.size[i],
          m.clusterMembers(copy.key[i]).sort((p, q) => p - q)];
        if (v03) {
          const s = m.clusterSummary(copy.key[i]), cats = m.clusterCategories(copy.key[i]);
          row.push(copy.flags[i], [s.count, s.valued, s.category, s.flags, s.valueSum, s.valueMin, s.valueMax],
            [...cats.category].map((cat, j) => [cat, cats.count[j]]));
        }
        rows.push(row);
      }
      log.push(["clusters", rows]);
      break;
    }
    case "attributes": call(() => m.setAttributes(a[0], a[1].map((v) => v ?? NaN), a[2])); break;
    case "focus": {
      const out = a[0].map((d) => { const f = call(() => m.focusStep(d)); return f && [f.kind, f.id, f.key, f.x, f.y]; });
      const r = m.focusRank;
      log.push(["focus", out, [r.index, r.total]]);
      break;
    }
    case "key_drag": {
      const t = a[2], f = m.focus;
      if (f.kind === "pin") {
        call(() => m.select(f.id));
        call(() => m.keyLift(t));
        a[0].forEach(([dx, dy], i) => call(() => m.nudge(dx, dy, t + 10 * (i + 1))));
        call(() => (a[1] ? m.keyDrop(t + 100) : m.cancelGesture(t + 100)));
      }
      break;
    }
    case "open_stack": {
      const t = a[2], c = m.clusters(lastT), items = [];
      for (let i = 0; i < c.count; i++) if (c.flags[i] & CLUSTER_STACK) items.push([c.key[i], c.x[i], c.y[i]]);
      if (items.length) {
        const [key, x, y] = items[a[0] % items.length];
        if (a[1]) call(() => m.openStack(key, t));
        else {
          call(() => m.touch(2, "down", x, y, t));
          call(() => m.touch(2, "up", x, y, t + 50));
          m.advance(t + 400);
        }
      }
      break;
    }
    case "members_paged": {
      const c = m.clusters(a[2]);
      if (c.count) {
        const i = a[0] % c.count, key = c.key[i], size = c.size[i], pages = [];
        for (let offset = 0; offset <= size; offset += a[1]) pages.push(m.clusterMembers(key, offset, a[1]));
        log.push(["pages", pages]);
      }
      break;
    }
    case "drag_from_frame": {
      const p = pick(a[0], a[3]);
      if (p) {
        const t = a[3];
        log.push(["owned", call(() => m.touch(0, "down", p[0], p[1], t + 1))]);
        call(() => m.touch(0, "move", (p[0] + a[1]) / 2, (p[1] + a[2]) / 2, t + 20));
        call(() => m.touch(0, "move", a[1], a[2], t + 40));
        call(() => m.touch(0, "up", a[1], a[2], t + 60));
        m.advance(t + 400);
      }
      break;
    }
    case "hold_from_frame": {
      const p = pick(a[0], a[3]);
      if (p) {
        const t = a[3];
        call(() => m.touch(1, "down", p[0], p[1], t + 1));
        m.advance(t + 300);
        call(() => m.touch(1, "move", a[1], a[2], t + 500));
        if (a[4]) call(() => m.cancelGesture(t + 600));
        call(() => m.touch(1, "up", a[1], a[2], t + 700));
        m.advance(t + 1200);
      }
      break;
    }
    case "tap":
      call(() => m.touch(2, "down", a[0], a[1], a[2]));
      call(() => m.touch(2, "up", a[0], a[1], a[2] + 50));
      m.advance(a[2] + 400);
      break;
    case "nudge_selected": call(() => m.nudge(a[0], a[1], a[2])); break;
    case "undo": call(() => m.undo(a[0])); break;
    case "redo": call(() => m.redo(a[0])); break;
    case "commit": call(() => m.commit(a[0])); break;
    case "place": call(() => m.place(...a)); break;
    case "set_position": call(() => m.setPosition(...a)); break;
    case "add": call(() => m.add(...a)); break;
    case "remove": call(() => m.remove(...a)); break;
    case "positions": {
      const out = [];
      for (const i of a[0]) {
        try { out.push([i, ...m.position(i), ...m.displayPosition(i)]); } catch (e) { out.push([i, null]); }
      }
      log.push(["positions", out]);
      break;
    }
    default: throw new Error(`unknown step ${op}`);
  }
  log.push(["events", ev()]);
}
m.dispose();
// Cluster keys (and the requests of CLUSTER_TAPPED) are BigInts of up to 64 bits: written as exact
// integers, as Python's json writes the native ones.
process.stdout.write(JSON.stringify(log, (k, v) => (typeof v === "bigint" ? `@@bigint:${v}@@` : v))
  .replace(/"@@bigint:(-?\d+)@@"/g, "$1"));
