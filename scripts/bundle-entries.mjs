// Bundles the public entries (src/<name>.ts -> <outdir>/<name>.js) in ONE rollup build, so every source module
// exists once across all entries (an Agent made from the root works with agentloop/agents, `instanceof` on
// errors holds, module-level caches are shared). esbuild only strips the TypeScript; rollup places the modules.
//
// Why rollup and a chunk plan (issue #22): cold `import("agentloop")` cost follows the number of files Node's
// ESM loader resolves and opens as much as the bytes it compiles. esbuild's `splitting` makes one chunk
// per distinct set of entries that share code: the root alone loaded 46 files. Here the modules the root
// entry reaches statically go into a few chunks instead:
// - `core`: the modules no light entry needs (those only the root, and entries that load nearly all of the
//   root anyway, like the planner, reach);
// - at most MAX_SHARED `shared` chunks for root modules that lighter entries (client, web, guardrails, …) also
//   use, grouped so that each light entry loads as few bytes it does not need as possible.
// The providers' request and response code is outside the root's graph: a model loads it with a dynamic import on
// its first call (src/providers/lazy-implementation.ts). Those modules, when no entry imports them statically, go
// into ONE `providers` chunk: the first call then opens one file (not one per provider plus the small chunks they
// share), which measured cheaper than loading only the provider's own code (#22).
// Everything else outside the root's graph is chunked by rollup as usual. Dependencies stay external.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { transform } from "esbuild";
import { rollup } from "rollup";

/**
 * How many chunks, besides `core`, the root's graph may be split into for the lighter entries: each is one more
 * file for the root entry (3, 4 and 5 measured alike for it), and 5 about halves what client, context, durable,
 * guardrails or otel load against 3 (#22).
 */
const MAX_SHARED = 5;
/** An entry that reaches more than this share of the root's bytes loads `core` with it (it costs it little). */
const HEAVY_SHARE = 0.5;
/**
 * Browser- and edge-facing entries: a chunk they load holds only modules they use. Else a shared chunk can
 * carry code with a dynamic import of an optional peer (the token counter's gpt-tokenizer) into the browser
 * client, which a bundler without that package installed cannot build.
 */
const STRICT_ENTRIES = new Set(["client/index", "web/index"]);
/** Source modules that only dynamic imports reach, grouped into one chunk each (see the top of this file). */
const LAZY_GROUPS = [{ chunk: "providers", folder: "/src/providers/" }];

/**
 * Resolves `./x.js` to `./x.ts` (sources import with .js), leaves every package import external, and strips
 * the types with esbuild under the project's tsconfig.json (as esbuild's own bundling did).
 */
function typescript() {
  const tsconfigRaw = readFileSync(new URL("../tsconfig.json", import.meta.url), "utf8");
  return {
    name: "agentloop-typescript",
    resolveId(source, importer) {
      if (importer === undefined) return null;
      if (!source.startsWith(".") && !source.startsWith("/")) return { id: source, external: true };
      const path = resolve(dirname(importer), source);
      const ts = path.replace(/\.js$/, ".ts");
      return ts !== path && existsSync(ts) ? ts : path;
    },
    async transform(code, id) {
      if (!id.endsWith(".ts")) return null;
      const result = await transform(code, {
        loader: "ts",
        format: "esm",
        target: "node20",
        sourcemap: true,
        sourcefile: id,
        tsconfigRaw,
      });
      return { code: result.code, map: result.map };
    },
  };
}

/** The modules `start` reaches through static imports (dynamic imports load later, on their own). */
function staticGraph(start, getModuleInfo) {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    const info = getModuleInfo(id);
    if (info === null || info.isExternal) continue;
    seen.add(id);
    stack.push(...info.importedIds);
  }
  return seen;
}

/**
 * Assigns each module of the root entry's static graph to `core` or to one of at most MAX_SHARED `shared-N`
 * chunks. Modules are first grouped by the set of light entries that reach them (as rollup would chunk them);
 * groups are then merged greedily, cheapest merge first, where the cost of a plan is the bytes the light entries
 * load without needing them (a chunk loads the chunks it imports). Merges that would make two chunks import
 * each other are skipped.
 */
function planRootChunks({ input, root, getModuleInfo }) {
  const rootGraph = staticGraph(input[root], getModuleInfo);
  const size = (id) => getModuleInfo(id)?.code?.length ?? 0;
  const rootBytes = [...rootGraph].reduce((sum, id) => sum + size(id), 0);
  const light = [];
  const strict = [];
  for (const [name, file] of Object.entries(input)) {
    if (name === root) continue;
    const reached = [...staticGraph(file, getModuleInfo)].filter((id) => rootGraph.has(id));
    if (reached.reduce((sum, id) => sum + size(id), 0) <= HEAVY_SHARE * rootBytes) {
      light.push(new Set(reached));
      strict.push(STRICT_ENTRIES.has(name));
    }
  }
  const byUsers = new Map();
  for (const id of rootGraph) {
    const key = light.flatMap((reached, index) => (reached.has(id) ? [index] : [])).join(",");
    byUsers.set(key, [...(byUsers.get(key) ?? []), id]);
  }
  const chunks = new Map();
  for (const id of byUsers.get("") ?? []) chunks.set(id, "core");
  byUsers.delete("");
  // groups[i]: modules; the plan is evaluated on the quotient graph of imports between groups.
  let groups = [...byUsers.values()];
  const evaluate = (candidate) => {
    const groupOf = new Map();
    candidate.forEach((modules, index) => {
      for (const id of modules) groupOf.set(id, index);
    });
    const bytes = candidate.map((modules) => modules.reduce((sum, id) => sum + size(id), 0));
    const edges = candidate.map((modules, index) => {
      const targets = new Set();
      for (const id of modules) {
        for (const imported of getModuleInfo(id).importedIds) {
          const target = groupOf.get(imported);
          if (target !== undefined && target !== index) targets.add(target);
        }
      }
      return targets;
    });
    const closure = (starts) => {
      const seen = new Set();
      const stack = [...starts];
      while (stack.length > 0) {
        const group = stack.pop();
        if (seen.has(group)) continue;
        seen.add(group);
        stack.push(...edges[group]);
      }
      return seen;
    };
    // A cycle: some group reaches itself through its imports.
    if (edges.some((targets, index) => [...targets].some((target) => closure([target]).has(index)))) {
      return Number.POSITIVE_INFINITY;
    }
    let waste = 0;
    for (const [index, reached] of light.entries()) {
      const loaded = closure(new Set([...reached].map((id) => groupOf.get(id))));
      if (strict[index] && [...loaded].some((group) => candidate[group].some((id) => !reached.has(id)))) {
        return Number.POSITIVE_INFINITY;
      }
      for (const group of loaded) waste += bytes[group];
    }
    return waste;
  };
  while (groups.length > MAX_SHARED) {
    let best;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const candidate = groups.filter((_, index) => index !== i && index !== j);
        candidate.push([...groups[i], ...groups[j]]);
        const cost = evaluate(candidate);
        if (best === undefined || cost < best.cost) best = { cost, candidate };
      }
    }
    if (best === undefined || best.cost === Number.POSITIVE_INFINITY) break;
    groups = best.candidate;
  }
  // Named by size, largest first, so that names stay stable while the plan does.
  groups.sort((a, b) => b.reduce((sum, id) => sum + size(id), 0) - a.reduce((sum, id) => sum + size(id), 0));
  groups.forEach((modules, index) => {
    for (const id of modules) chunks.set(id, `shared-${index + 1}`);
  });
  return chunks;
}

/**
 * The chunk of each module of a {@link LAZY_GROUPS} folder that no entry reaches through static imports (a module
 * an entry imports statically stays where rollup or the root plan puts it, so that entry loads no more than it
 * did). A module such a group imports from elsewhere (outside the root's graph, e.g. the SSE reader the browser
 * client also uses) gets a chunk of its own: rollup would otherwise pull it into the group's chunk, and the
 * entries that use it would load the whole group.
 */
function planLazyChunks({ input, getModuleIds, getModuleInfo }) {
  const reached = new Set(Object.values(input).flatMap((file) => [...staticGraph(file, getModuleInfo)]));
  const chunks = new Map();
  for (const id of getModuleIds()) {
    const group = LAZY_GROUPS.find(({ folder }) => id.includes(folder));
    if (group !== undefined && !reached.has(id)) chunks.set(id, group.chunk);
  }
  for (const id of [...chunks.keys()]) {
    for (const imported of getModuleInfo(id).importedIds) {
      if (chunks.has(imported) || getModuleInfo(imported)?.isExternal !== false) continue;
      chunks.set(imported, basename(imported).replace(/\.[^.]+$/, ""));
    }
  }
  return chunks;
}

/**
 * Bundles `entries` ({ name: "src/name.ts" }, `root` naming the root entry) into `outdir` as ESM with source
 * maps: entries at `<outdir>/<name>.js`, shared chunks in `<outdir>/chunks/`.
 */
export async function bundleEntries({ entries, root, outdir }) {
  const input = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, resolve(file)]));
  const bundle = await rollup({
    input,
    plugins: [typescript()],
    // An entry file exports exactly what its source does (a facade re-exports from the chunks when needed).
    preserveEntrySignatures: "strict",
    // A package imported only for its exports is dropped where they are unused (as esbuild did, by package.json
    // "sideEffects"), so a chunk does not load, say, eventsource-parser for an entry that never parses SSE.
    treeshake: { moduleSideEffects: "no-external" },
    onwarn(warning, warn) {
      if (warning.code !== "CIRCULAR_DEPENDENCY") warn(warning);
    },
  });
  let plan;
  try {
    await bundle.write({
      dir: outdir,
      format: "es",
      sourcemap: true,
      entryFileNames: "[name].js",
      chunkFileNames: "chunks/[name]-[hash].js",
      manualChunks(id, { getModuleIds, getModuleInfo }) {
        plan ??= new Map([
          ...planLazyChunks({ input, getModuleIds, getModuleInfo }),
          ...planRootChunks({ input, root, getModuleInfo }),
        ]);
        return plan.get(id);
      },
    });
  } finally {
    await bundle.close();
  }
}
