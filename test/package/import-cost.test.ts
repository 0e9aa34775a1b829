// What `import("agentloop")` loads, read from the built package (`npm test` builds dist/ first): the files of
// the root entry's static import graph, their bytes, and the packages they import. Cold import time follows
// the number of files Node's ESM loader resolves and opens as much as the bytes it compiles (#22, docs/
// performance.md "Import of the root entry"; bench/import-time.mjs measures the time). Budgets, not timings.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseAst } from "rollup/parseAst";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, readPackageJson } from "./package-consumer.js";

const DIST = join(REPO_ROOT, "dist");
/** At most this many files: the entry, its `core` chunk and the (at most 5) it shares with lighter entries. */
const MAX_ROOT_FILES = 7;
/**
 * At most this many bytes of JavaScript (504 KiB when set; 656 KiB before the providers' request and response
 * code moved behind a dynamic import loaded by a model's first call).
 */
const MAX_ROOT_BYTES = 520 * 1024;
/**
 * The only packages the root entry may import statically (each costs the loader several files): none. The SSE
 * parser (eventsource-parser) comes with the providers' stream readers, on a model's first call.
 */
const ROOT_PACKAGES: string[] = [];
/**
 * Source modules of the providers that build requests and read answers: the bulk of each provider, loaded on a
 * model's first call (src/providers/lazy-implementation.ts), never by `import("agentloop")`.
 */
const LAZY_PROVIDER_MODULE = /src\/providers\/[^/]+\/(build|read|parse|convert|map|to)-[^/]*\.ts$/;

type AstNode = { type?: string; source?: { type?: string; value?: unknown } | null };

/** The specifiers a module imports: statically (`import … from`, `export … from`, `import "x"`) or not. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const program = parseAst(readFileSync(file, "utf8"));
  const found = { static: [] as string[], dynamic: [] as string[] };
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const { type, source } = node as AstNode;
    if (
      (type === "ImportDeclaration" ||
        type === "ExportNamedDeclaration" ||
        type === "ExportAllDeclaration") &&
      source
    ) {
      found.static.push(String(source.value));
    }
    if (type === "ImportExpression" && source?.type === "Literal") found.dynamic.push(String(source.value));
    for (const value of Object.values(node)) visit(value);
  };
  visit(program.body);
  return found;
}

/** The files an entry loads (its static graph, or with `dynamic` every file it may load), bytes and packages. */
function graphOf(entries: string[], { dynamic = false } = {}) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [...entries];
  let bytes = 0;
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    bytes += readFileSync(file).length;
    const imports = importsOf(file);
    for (const specifier of dynamic ? [...imports.static, ...imports.dynamic] : imports.static) {
      if (specifier.startsWith(".")) stack.push(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { files: [...files], bytes, packages };
}

/** The source modules (absolute paths, from the source maps) bundled into `files`. */
function sourcesOf(files: string[]): string[] {
  return files.flatMap((file) => {
    const map = `${file}.map`;
    const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
    return sources.map((source) => resolve(dirname(map), source));
  });
}

/** Every built JavaScript file of the package's entries and bins (dist/ may also hold a previous build's). */
function entryFiles(): string[] {
  const pkg = readPackageJson();
  const targets = [
    ...Object.values(pkg.exports).flatMap((target) => (typeof target === "object" ? [target.import] : [])),
    ...Object.values(pkg.bin),
  ];
  return targets.flatMap((target) => (target === undefined ? [] : [join(REPO_ROOT, target)]));
}

describe("the cost of importing the root entry", () => {
  it("needs the built package", () => {
    expect(existsSync(join(DIST, "index.js")), "run `node scripts/build.mjs` first").toBe(true);
  });

  it(`loads at most ${MAX_ROOT_FILES} files and ${MAX_ROOT_BYTES / 1024} KiB of JavaScript`, () => {
    const { files, bytes } = graphOf([join(DIST, "index.js")]);
    expect(files.length, files.join("\n")).toBeLessThanOrEqual(MAX_ROOT_FILES);
    expect(bytes).toBeLessThanOrEqual(MAX_ROOT_BYTES);
  });

  it("imports no package statically but the few it needs (not zod, not the JSON Schema validator)", () => {
    const { packages } = graphOf([join(DIST, "index.js")]);
    expect([...packages].filter((name) => !ROOT_PACKAGES.includes(name))).toEqual([]);
  });

  it("leaves the providers' request and response code to a model's first call (a dynamic import)", () => {
    const eager = sourcesOf(graphOf([join(DIST, "index.js")]).files);
    const all = sourcesOf(graphOf([join(DIST, "index.js")], { dynamic: true }).files);
    const lazy = all.filter((path) => LAZY_PROVIDER_MODULE.test(path));
    for (const name of ["openai", "openai-responses", "anthropic", "google", "bedrock"]) {
      expect(lazy.some((path) => path.includes(`/src/providers/${name}/read-`))).toBe(true);
    }
    expect(eager.filter((path) => LAZY_PROVIDER_MODULE.test(path))).toEqual([]);
  });

  it("bundles each source module into exactly one file, shared by every entry that uses it", () => {
    const bundledIn = new Map<string, string[]>();
    for (const file of graphOf(entryFiles(), { dynamic: true }).files) {
      const map = `${file}.map`;
      const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
      for (const source of sources) {
        const path = resolve(dirname(map), source);
        bundledIn.set(path, [...(bundledIn.get(path) ?? []), map]);
      }
    }
    expect(bundledIn.get(join(REPO_ROOT, "src", "agent.ts"))).toHaveLength(1);
    expect([...bundledIn].filter(([, maps]) => maps.length > 1)).toEqual([]);
  });
});
