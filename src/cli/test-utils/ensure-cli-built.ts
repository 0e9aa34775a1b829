import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The built CLI: what `npm run build` makes and the `agentloop` bin points to. */
export const CLI_PATH = join(REPO_ROOT, "dist", "cli", "main.js");

const LOCK = join(REPO_ROOT, "dist", ".cli-build.lock");

/** The newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether dist/cli/main.js is newer than every source file (and package.json). */
function isFresh(): boolean {
  const built = mtimeOf(CLI_PATH);
  const sources = Math.max(
    newestMtime(join(REPO_ROOT, "src")),
    mtimeOf(join(REPO_ROOT, "package.json")) ?? 0,
  );
  return built !== undefined && built >= sources;
}

/** Takes the build lock (a directory), waiting while another test file builds; a lock older than 60 s is stale. */
async function lock(): Promise<void> {
  mkdirSync(join(REPO_ROOT, "dist"), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      const since = mtimeOf(LOCK);
      if (since !== undefined && Date.now() - since > 60_000) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Bundles the CLI entry alone into dist/, with the options of scripts/build.mjs. Each file is written to a
 * temporary name and renamed into place, chunks before the entry, so a CLI process started meanwhile never
 * reads a half-written file.
 */
async function bundleCli(): Promise<void> {
  const result = await build({
    write: false,
    absWorkingDir: REPO_ROOT,
    entryPoints: { "cli/main": "src/cli/main.ts" },
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
  const files = [...result.outputFiles].sort(
    (a, b) => Number(a.path === CLI_PATH) - Number(b.path === CLI_PATH),
  );
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents, { mode: file.path === CLI_PATH ? 0o755 : 0o644 });
    renameSync(temporary, file.path);
  }
}

/**
 * Makes sure `dist/cli/main.js` is built from the current sources: when it is missing or older than any file
 * under `src/` (or package.json), the CLI entry alone is bundled into `dist/` like scripts/build.mjs does.
 * Bundling only this entry keeps the tests independent of the other entry points (and of declaration emit),
 * which may be mid-change. Test files building at the same time wait for each other (a lock directory).
 */
export async function ensureCliBuilt(): Promise<string> {
  if (isFresh()) return CLI_PATH;
  await lock();
  try {
    if (!isFresh()) await bundleCli();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  return CLI_PATH;
}
