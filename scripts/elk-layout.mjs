// Lays out one graph with ELK's layered algorithm (npm `elkjs`) for `tfgraph bench`.
// stdin: an ELK JSON graph (`layout::inputs::input_to_elk`: clusters as compound nodes, every
// edge on the root with `sources`/`targets`). stdout: `{"ms": N, "nodes": [[id, cx, cy], ...],
// "edges": [[[x, y], ...], ...]}`, absolute coordinates (node centres; each edge's start point,
// bend points and end point), edges in input order. elkjs is found through ELKJS_DIR (a folder
// whose node_modules holds it) or Node's own resolution.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const base = process.env.ELKJS_DIR ? path.join(process.env.ELKJS_DIR, "x.js") : import.meta.url;
const ELK = createRequire(base)("elkjs/lib/elk.bundled.js");
const graph = JSON.parse(readFileSync(0, "utf8"));
const elk = new ELK();
const t0 = performance.now();
const out = await elk.layout(graph);
const ms = performance.now() - t0;

// Absolute offset of every compound node, and node centres.
const offset = new Map([[out.id, [0, 0]]]);
const nodes = [];
const walk = (n, ox, oy) => {
  for (const c of n.children ?? []) {
    const x = ox + (c.x ?? 0), y = oy + (c.y ?? 0);
    offset.set(c.id, [x, y]);
    if (c.children && c.children.length) walk(c, x, y);
    else nodes.push([c.id, x + (c.width ?? 0) / 2, y + (c.height ?? 0) / 2]);
  }
};
walk(out, 0, 0);
// Edges may have been moved into the compound node that holds both ends (`container`).
const edges = new Map();
const collect = (n) => {
  for (const e of n.edges ?? []) edges.set(e.id, e);
  for (const c of n.children ?? []) collect(c);
};
collect(out);
const polylines = graph.edges.map((e0) => {
  const e = edges.get(e0.id);
  if (!e) return [];
  const [ox, oy] = offset.get(e.container ?? out.id) ?? [0, 0];
  const pts = [];
  for (const s of e.sections ?? []) {
    pts.push(s.startPoint, ...(s.bendPoints ?? []), s.endPoint);
  }
  return pts.map((p) => [ox + p.x, oy + p.y]);
});
process.stdout.write(JSON.stringify({ ms, nodes, edges: polylines }));
