// The trees the page shows (its data loading; the layer gets them as arrays, with their
// categories' names for the legend): the 7,937 Lawndale street trees bundled in examples/data (default),
// or the 916,114 LA county trees (?data=la), with their categories (species or city), their
// titles and the place a geocoder would name.

export async function loadTrees(which) {
  if (which === "la") {
    const res = await fetch("/data/la_trees.csv");
    if (!res.ok) throw new Error("the LA trees are not here (../shared/data/la_trees.csv): try ?data=lawndale");
    const text = await res.text();
    // city,idx,lat,lon ; id = the row number (0 .. 916,113)
    const n = countLines(text) - 1;
    const ids = new Float64Array(n), lonlat = new Float64Array(2 * n), city = new Uint16Array(n);
    const cities = [], cityIndex = new Map();
    let pos = text.indexOf("\n") + 1, row = 0;
    while (pos < text.length && row < n) {
      let end = text.indexOf("\n", pos);
      if (end < 0) end = text.length;
      const c1 = text.indexOf(",", pos), c2 = text.indexOf(",", c1 + 1), c3 = text.indexOf(",", c2 + 1);
      const name = text.slice(pos, c1);
      let ci = cityIndex.get(name);
      if (ci === undefined) { ci = cities.length; cities.push(name); cityIndex.set(name, ci); }
      ids[row] = row;
      lonlat[2 * row + 1] = +text.slice(c2 + 1, c3);
      lonlat[2 * row] = +text.slice(c3 + 1, end);
      city[row] = ci;
      row++;
      pos = end + 1;
    }
    const pretty = (s) => s.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
    return {
      name: `LA county street trees (${n.toLocaleString("en-US")})`, ids, lonlat, count: n,
      categories: Uint32Array.from(city), categoryName: (c) => pretty(cities[c]), categoryKind: "cities",
      categoryNames: cities.map(pretty),
      rowOf: (id) => (Number.isInteger(id) && id >= 0 && id < n ? id : -1),
      title: (row) => `Tree #${row} · ${pretty(cities[city[row]])}`,
      place: (row) => pretty(cities[city[row]]),
      center: [34.0219, -118.4814], zoom: 10,
    };
  }
  const res = await fetch("/data/lawndale_trees.csv");
  if (!res.ok) throw new Error("examples/data/lawndale_trees.csv is missing");
  const lines = (await res.text()).split("\n").slice(1).filter((l) => l.length > 0);
  const n = lines.length;
  const ids = new Float64Array(n), lonlat = new Float64Array(2 * n), species = new Array(n);
  const rows = new Map(), categories = new Uint32Array(n), speciesIndex = new Map(), speciesNames = [];
  lines.forEach((line, i) => {
    const [id, lon, lat, sp] = line.split(",");
    ids[i] = +id; lonlat[2 * i] = +lon; lonlat[2 * i + 1] = +lat; species[i] = sp || "unknown species";
    rows.set(+id, i);
    let c = speciesIndex.get(species[i]);
    if (c === undefined) { c = speciesNames.length; speciesNames.push(species[i]); speciesIndex.set(species[i], c); }
    categories[i] = c;
  });
  return {
    name: `Lawndale street trees (${n.toLocaleString("en-US")})`, ids, lonlat, count: n,
    categories, categoryName: (c) => speciesNames[c] ?? "mixed", categoryKind: "species", categoryNames: speciesNames,
    rowOf: (id) => rows.get(id) ?? -1,
    title: (row) => `${species[row]} #${ids[row]}`,
    place: () => "Lawndale",
    center: [33.8872, -118.3526], zoom: 15,
  };
}

function countLines(text) {
  let n = 0, i = -1;
  while ((i = text.indexOf("\n", i + 1)) >= 0) n++;
  if (text.length && text[text.length - 1] !== "\n") n++;
  return n;
}
