// Every name a user can import has documentation where their editor shows it: each export of each entry point
// in package.json "exports" has a JSDoc comment in the published declarations (dist/**/*.d.ts). Reads the
// built package: `npm test` builds dist/ before vitest runs (or run `node scripts/build.mjs`).
import { existsSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { publicEntries, REPO_ROOT, readPackageJson } from "./package-consumer.js";

const ENTRIES = publicEntries(readPackageJson());

/** True when one of the symbol's declarations carries a JSDoc comment (text or tags). */
function hasJsDoc(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  return symbol.getDocumentationComment(checker).length > 0 || symbol.getJsDocTags(checker).length > 0;
}

/** `entry name` for every exported name of the built declarations that has no JSDoc. */
function undocumentedExports(): string[] {
  const files = ENTRIES.map((entry) => join(REPO_ROOT, entry.types));
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`not built: ${missing.join(", ")} (run node scripts/build.mjs)`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const undocumented: string[] = [];
  for (const entry of ENTRIES) {
    const source = program.getSourceFile(join(REPO_ROOT, entry.types));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`cannot read ${entry.types}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!hasJsDoc(target, checker)) undocumented.push(`${entry.specifier} ${symbol.name}`);
    }
  }
  return undocumented.sort();
}

describe("the published declarations", () => {
  it("document every exported name of every entry point with JSDoc", () => {
    expect(undocumentedExports()).toEqual([]);
  }, 60_000);

  it("are checked for real: a declaration without JSDoc is reported", () => {
    const host = ts.createCompilerHost({ noEmit: true });
    const text = "/** Documented. */\nexport declare const a: number;\nexport declare const b: number;\n";
    const file = ts.createSourceFile("probe.d.ts", text, ts.ScriptTarget.ES2022, true);
    const program = ts.createProgram({
      rootNames: ["probe.d.ts"],
      options: { noEmit: true },
      host: {
        ...host,
        getSourceFile: (name, ...rest) => (name === "probe.d.ts" ? file : host.getSourceFile(name, ...rest)),
      },
    });
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(file);
    const exports = module === undefined ? [] : checker.getExportsOfModule(module);
    expect(exports.map((symbol) => [symbol.name, hasJsDoc(symbol, checker)])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  });
});
