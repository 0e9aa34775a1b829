// Builds dist/: one ESM bundle per public entry and bin (dist/X.js from src/X.ts, dependencies external, every
// source module once across all entries; see bundle-entries.mjs for how the chunks are planned), the type
// declarations from tsc, and the dev UI. Bundling matters for cold start: Node's ESM loader pays per file as
// much as per byte (docs/performance.md, "Import of the root entry").
//
//   node scripts/build.mjs                       # dist/
//   node scripts/build.mjs --outdir DIR --js-only # the JavaScript only, into DIR (experiments, benches)
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildDevUi } from "./build-dev-ui.mjs";
import { bundleEntries } from "./bundle-entries.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: { outdir: { type: "string", default: join(ROOT, "dist") }, "js-only": { type: "boolean" } },
});
const outdir = resolve(values.outdir);

// One entry per public subpath and per bin, read from package.json: dist/X.js is built from src/X.ts.
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const outputs = [
  ...Object.values(pkg.exports).flatMap((target) => (typeof target === "object" ? [target.import] : [])),
  ...Object.values(pkg.bin),
];
const entries = Object.fromEntries(
  outputs
    .map((output) => output.replace(/^\.\/dist\/(.+)\.js$/, "$1"))
    .map((name) => [name, join(ROOT, "src", `${name}.ts`)]),
);
const root = pkg.exports["."].import.replace(/^\.\/dist\/(.+)\.js$/, "$1");

rmSync(outdir, { recursive: true, force: true });
await bundleEntries({ entries, root, outdir });
if (!values["js-only"]) {
  execFileSync(
    "npx",
    ["tsc", "-p", join(ROOT, "tsconfig.build.json"), "--emitDeclarationOnly", "--outDir", outdir],
    { stdio: "inherit" },
  );
  // The `agentloop dev` browser app (dist/dev-ui/), bundled for browsers (see build-dev-ui.mjs).
  await buildDevUi({ outdir: join(outdir, "dev-ui") });
}
