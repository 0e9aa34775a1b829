// Builds the `agentloop dev` browser app into dist/dev-ui/: src/dev/app/main.ts bundled by esbuild into app.js
// (framework-free TypeScript, no runtime dependencies), styles.css (with the sheets it imports) into styles.css,
// and index.html copied. Shipped prebuilt
// in the package; the dev server serves these files. Each file is written under a temporary name and renamed
// into place, so a running server never reads half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const APP = join(ROOT, "src", "dev", "app");

/** Bundles the dev UI into `outdir` (default dist/dev-ui). */
export async function buildDevUi({ outdir = join(ROOT, "dist", "dev-ui") } = {}) {
  const result = await build({
    // styles.css @imports the other style sheets: esbuild bundles them into one.
    entryPoints: { app: join(APP, "main.ts"), styles: join(APP, "styles.css") },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: ["chrome110", "firefox110", "safari16"],
    legalComments: "none",
    logLevel: "warning",
    outdir,
  });
  const files = [
    ...result.outputFiles.map((file) => ({ name: basename(file.path), contents: file.contents })),
    { name: "index.html", contents: readFileSync(join(APP, "index.html")) },
  ];
  mkdirSync(outdir, { recursive: true });
  for (const { name, contents } of files) {
    const path = join(outdir, name);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, path);
  }
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDevUi();
