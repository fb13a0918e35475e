// Compiled (not run) by types.test.js with tsc --strict: index.d.ts describes the package as the
// tests use it, 0.3's calls included; the lines marked @ts-expect-error must not compile.
import { load, Map, distance, spread, PindropEvent, Clusters, ClusterSummary, Focus, Key,
  CLUSTER_STACK, CLUSTER_ONE_SPOT, CATEGORY_MIXED, PIN_FOCUSED, NotFound } from "../index.js";

export async function use(): Promise<number> {
  const version: string = await load();
  await load({ source: { href: "file:///srv/pindrop.wasm" }, fresh: true });
  await load(new Uint8Array(8));
  // @ts-expect-error an unknown load option
  await load({ sauce: 1 });
  const m = new Map({ clusterRadius: 60, clusterMinPoints: 3, clusterByCategory: true, spreadOnTap: 1 });
  m.setCamera(-118.2, 33.8, 18, 1200, 800);
  m.addMany([1, 2n], Float64Array.of(-118.2, 33.8, -118.2, 33.8));
  m.setAttributes([1, 2], Float64Array.of(1.5, NaN), 7);
  m.setAttributes(new BigInt64Array([1n]), null, Uint32Array.of(3));
  m.setAttributes([1], [2.5]);
  const c: Clusters = m.clusters(0);
  const key: Key = c.key[0];
  const stack: boolean = (c.flags[0] & CLUSTER_STACK) !== 0;
  const s: ClusterSummary = m.clusterSummary(key);
  const mixed: boolean = s.category === CATEGORY_MIXED && (s.flags & CLUSTER_ONE_SPOT) === 0;
  const cats = m.clusterCategories(key);
  const first: number = cats.category[0] + cats.count[0];
  const page = m.clusterMembers(key, 0, 100);
  m.openStack(key, 10);
  m.closeStack(20);
  const f: Focus = m.focusStep(1);
  const k: Key | null = m.focus.key;
  const rank: number | null = m.focusRank.index;
  if (f.kind === "pin" && f.id !== null) m.select(f.id);
  m.keyLift(30); m.nudge(10, 0, 40); m.keyDrop(50);
  const events: PindropEvent[] = m.events();
  const opened = events.filter((e) => e.type === "STACK_OPENED" && e.key === key && e.cause !== "KEYBOARD");
  const d: { metres: number; bearing: number } = distance(0, 0, 1, 1);
  const out: Float64Array = spread([0, 0, 0, 0]);
  // @ts-expect-error a cluster key is a bigint, not a string
  m.clusterSummary("1");
  // @ts-expect-error keys come back as a BigUint64Array
  const wrong: Float64Array = c.key;
  // @ts-expect-error the focus is read-only
  m.focus = f;
  // @ts-expect-error an unknown option
  new Map({ spreadOnTab: true });
  // @ts-expect-error bearingDeg, not bearing
  m.setCamera({ centerLon: 0, centerLat: 0, zoom: 1, width: 10, height: 10, bearing: 30 });
  // @ts-expect-error toleranceM, not tolerance
  spread([0, 0], { tolerance: 3 });
  // @ts-expect-error a yes/no option is not a string
  new Map({ bigintIds: "yes" });
  m.dispose();
  return version.length + page.length + first + d.metres + out.length + opened.length + (rank ?? 0) + Number(k ?? 0n) +
    (stack ? 1 : 0) + (mixed ? 1 : 0) + PIN_FOCUSED + wrong.length + (NotFound.name.length);
}
