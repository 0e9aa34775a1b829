// Helpers for the package tests: what package.json promises, and a consumer project in a temporary directory
// that installs the built package the way npm would (a copy of the packed files, not a link into this repo).
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface ExportTarget {
  types?: string;
  import?: string;
  default?: string;
}

/** package.json, as far as these tests read it. */
export interface PackageJson {
  name: string;
  exports: Record<string, ExportTarget | string>;
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
}

/** The repository's package.json. */
export function readPackageJson(): PackageJson {
  return JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;
}

/** A public subpath with a module behind it: its specifier ("agentloop/tools") and its declaration file. */
export interface PublicEntry {
  specifier: string;
  /** The declaration file package.json points at, relative to the package ("dist/builtin-tools/index.d.ts"). */
  types: string;
  /** The source file it is built from ("src/builtin-tools/index.ts"). */
  source: string;
}

/** Every public subpath with a module behind it, in package.json order. */
export function publicEntries(pkg: PackageJson): PublicEntry[] {
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target !== "object") return [];
    const types = (target.types ?? "").replace(/^\.\//, "");
    const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    return [{ specifier, types, source: types.replace(/^dist\/(.+)\.d\.ts$/, "src/$1.ts") }];
  });
}

/** Every public subpath with a module behind it ("agentloop", "agentloop/tools", ...). */
export function publicSpecifiers(pkg: PackageJson): string[] {
  return publicEntries(pkg).map((entry) => entry.specifier);
}

/** A consumer project: `dir` holds node_modules/agentloop (a copy of the packed files) and the links given. */
export interface Consumer {
  dir: string;
  remove(): void;
}

/**
 * Makes a consumer project in a fresh temporary directory. `files` are the packed file names (from
 * `npm pack --dry-run --json`), copied into node_modules/agentloop; `links` are packages of this repository's
 * node_modules made available to the consumer (for example "@types/node", "zod").
 */
export function makeConsumer(options: { files: string[]; links: string[] }): Consumer {
  const dir = mkdtempSync(join(tmpdir(), "agentloop-consumer-"));
  const installed = join(dir, "node_modules", "agentloop");
  for (const file of options.files) {
    mkdirSync(dirname(join(installed, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(installed, file));
  }
  for (const name of options.links) {
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The file names `npm pack` would put in the tarball, packing `dir` (with or without its lifecycle scripts). */
export async function packedFiles(dir: string, options: { scripts: boolean }): Promise<string[]> {
  const args = ["pack", "--dry-run", "--json", ...(options.scripts ? [] : ["--ignore-scripts"])];
  const { stdout } = await run("npm", args, { cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  const start = stdout.search(/^\[\n {2}\{/m); // lifecycle scripts may print before the JSON
  const [packed] = JSON.parse(stdout.slice(start)) as [{ files: { path: string }[] }];
  return packed.files.map((file) => file.path).sort();
}
