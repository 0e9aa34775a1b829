// The public API is a deliberate list: every name each entry point exports (values and types), checked
// against test/package/public-api.txt. A change to what users can import fails here until the list is updated
// with `UPDATE_PUBLIC_API=1 npx vitest run test/package/public-api.test.ts` (and the change is reviewed, with a
// CHANGELOG line when a name goes away).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { REPO_ROOT } from "./package-consumer.js";

const ENTRIES: Record<string, string> = {
  agentloop: "src/index.ts",
  "agentloop/tools": "src/builtin-tools/index.ts",
  "agentloop/testing": "src/testing/index.ts",
  "agentloop/redis": "src/integrations/redis/index.ts",
  "agentloop/postgres": "src/integrations/postgres/index.ts",
  "agentloop/mcp": "src/integrations/mcp/index.ts",
  "agentloop/queue": "src/integrations/queue/index.ts",
};
const LIST = join(REPO_ROOT, "test", "package", "public-api.txt");

/** `entry name (value|type)` for every export of every entry point, sorted. */
function publicApi(): string[] {
  const files = Object.values(ENTRIES).map((file) => join(REPO_ROOT, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(REPO_ROOT, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`cannot read ${file}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = target.flags & ts.SymbolFlags.Value ? "value" : "type";
      lines.push(`${entry} ${symbol.name} ${kind}`);
    }
  }
  return lines.sort();
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
