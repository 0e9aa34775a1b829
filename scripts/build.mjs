// Builds dist/: one ESM bundle per public entry (shared code split into chunks, dependencies external) and
// the type declarations from tsc. Bundling matters for cold start: loading ~60 small modules costs ~40 ms on
// Node 20, one bundle ~3 ms (see docs/performance.md).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";
import { buildDevUi } from "./build-dev-ui.mjs";

// One entry per public subpath and per bin, read from package.json: dist/X.js is built from src/X.ts.
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const outputs = [
  ...Object.values(pkg.exports).flatMap((target) => (typeof target === "object" ? [target.import] : [])),
  ...Object.values(pkg.bin),
];
const entryPoints = Object.fromEntries(
  outputs
    .map((output) => output.replace(/^\.\/dist\/(.+)\.js$/, "$1"))
    .map((name) => [name, `src/${name}.ts`]),
);

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints,
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
execFileSync("npx", ["tsc", "-p", "tsconfig.build.json", "--emitDeclarationOnly"], { stdio: "inherit" });
// The `agentloop dev` browser app (dist/dev-ui/), bundled for browsers (see build-dev-ui.mjs).
await buildDevUi();
