// The public API is a deliberate list: every name each entry point exports (values and types), checked
// against test/package/public-api.txt. A change to what users can import fails here until the list is updated
// with `UPDATE_PUBLIC_API=1 npx vitest run test/package/public-api.test.ts` (and the change is reviewed, with a
// CHANGELOG line when a name goes away). The entry points are read from package.json "exports", so a new
// subpath is listed too. Reads the sources: no build needed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { publicEntries, REPO_ROOT, readPackageJson } from "./package-consumer.js";

const ENTRIES = publicEntries(readPackageJson());
const LIST = join(REPO_ROOT, "test", "package", "public-api.txt");
/** The most names (values and types) the root entry may export: advanced pieces belong in a subpath. */
const MAX_ROOT_NAMES = 100;

/** `entry name (value|type)` for every export of every entry point, sorted. */
function readPublicApi(): string[] {
  const files = ENTRIES.map((entry) => join(REPO_ROOT, entry.source));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const { specifier, source: file } of ENTRIES) {
    const source = program.getSourceFile(join(REPO_ROOT, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`cannot read ${file}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = target.flags & ts.SymbolFlags.Value ? "value" : "type";
      lines.push(`${specifier} ${symbol.name} ${kind}`);
    }
  }
  return lines.sort();
}

let cached: string[] | undefined;
function publicApi(): string[] {
  cached ??= readPublicApi();
  return cached;
}

it("exports exactly the names in test/package/public-api.txt", () => {
  const actual = publicApi();
  if (process.env.UPDATE_PUBLIC_API === "1") writeFileSync(LIST, `${actual.join("\n")}\n`);
  const expected = readFileSync(LIST, "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const added = actual.filter((line) => !expected.includes(line));
  const removed = expected.filter((line) => !actual.includes(line));
  expect({ added, removed }).toEqual({ added: [], removed: [] });
}, 60_000);

it(`keeps the root entry small (at most ${MAX_ROOT_NAMES} names, values and types)`, () => {
  const root = publicApi().filter((line) => line.startsWith("agentloop "));
  expect(root.length).toBeGreaterThan(0);
  expect(root.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
}, 60_000);

it("exports each name from one entry point only", () => {
  const entriesOf = new Map<string, string[]>();
  for (const line of publicApi()) {
    const [specifier = "", name = ""] = line.split(" ");
    entriesOf.set(name, [...(entriesOf.get(name) ?? []), specifier]);
  }
  const duplicated = [...entriesOf].filter(([, specifiers]) => specifiers.length > 1);
  expect(duplicated).toEqual([]);
}, 60_000);

/** The files whose code shows users what to import: the examples, the README and the docs. */
function userFacingFiles(): string[] {
  const under = (dir: string, pattern: RegExp): string[] =>
    readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => pattern.test(file))
      .map((file) => join(dir, file));
  return ["README.md", ...under("docs", /\.md$/), ...under("examples", /\.(mjs|js|ts)$/)];
}

/** `entry name` for every name imported from agentloop (import or require, with braces) in `text`. */
function importedNames(text: string): string[] {
  const patterns = [
    /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["'](agentloop(?:\/[\w-]+)?)["']/g,
    /\{([^}]*)\}\s*=\s*(?:await\s+)?(?:require|import)\(\s*["'](agentloop(?:\/[\w-]+)?)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].flatMap(([, names = "", specifier = ""]) =>
      names
        .split(",")
        .map(
          (name) =>
            name
              .replace(/^\s*type\s+/, "")
              .split(/\s+as\s+|:/)[0]
              ?.trim() ?? "",
        )
        .filter((name) => name !== "")
        .map((name) => `${specifier} ${name}`),
    ),
  );
}

it("every import from agentloop in the examples, README and docs names an export of that entry", () => {
  const exported = new Set(publicApi().map((line) => line.split(" ").slice(0, 2).join(" ")));
  const imports = userFacingFiles().flatMap((file) =>
    importedNames(readFileSync(join(REPO_ROOT, file), "utf8")).map((name) => ({ file, name })),
  );
  expect(imports.length).toBeGreaterThan(20);
  expect(imports.filter(({ name }) => !exported.has(name))).toEqual([]);
}, 60_000);
