// The published type declarations compile in a user's project with `skipLibCheck: false`: without zod
// (JSON-Schema-only tools), without @types/pg, and with zod (argument types inferred from the schema).
// `npm test` builds dist/ first.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Consumer,
  makeConsumer,
  packedFiles,
  publicSpecifiers,
  REPO_ROOT,
  readPackageJson,
} from "./package-consumer.js";

const run = promisify(execFile);
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
// What npm installs beside agentloop (its dependencies) and what a Node TypeScript project has.
const BASE = ["@types/node", "@cfworker/json-schema", "eventsource-parser", "ipaddr.js", "jsep"];

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    noEmit: true,
    types: ["node"],
  },
  include: ["*.ts"],
};

/** Type-checks `source` as index.ts in `consumer`; returns tsc's diagnostics ("" when it compiles). */
async function typecheck(consumer: Consumer, source: string): Promise<string> {
  writeFileSync(join(consumer.dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  writeFileSync(join(consumer.dir, "index.ts"), source);
  try {
    await run(process.execPath, [TSC, "-p", "."], { cwd: consumer.dir, timeout: 60_000 });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

let files: string[];
const consumers: Consumer[] = [];
beforeAll(async () => {
  files = await packedFiles(REPO_ROOT, { scripts: false });
}, 60_000);
afterAll(() => {
  for (const consumer of consumers) consumer.remove();
});

function consumerWith(links: string[]): Consumer {
  const consumer = makeConsumer({ files, links: [...BASE, ...links] });
  consumers.push(consumer);
  return consumer;
}

const JSON_SCHEMA_ONLY = `
import { Agent, tool, type AgentResult } from "agentloop";
import { ScriptedModel } from "agentloop/testing";
import { calculator } from "agentloop/tools";
import { PostgresStore } from "agentloop/postgres";

const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: async (args) => JSON.stringify(args),
});
const agent = new Agent({ model: new ScriptedModel([{ text: "hi" }]), tools: [add, calculator] });
export const result: Promise<AgentResult> = agent.run("hello");
export const store = new PostgresStore({ connectionString: "postgres://127.0.0.1/test" });
// @ts-expect-error maxTurns is a number
new Agent({ model: "openai:gpt-4o-mini", limits: { maxTurns: "ten" } });
`;

const WITH_ZOD = `
import { tool } from "agentloop";
import { z } from "zod";

export const weather = tool({
  name: "weather",
  description: "Weather for a city",
  parameters: z.object({ city: z.string(), days: z.number().optional() }),
  execute: async ({ city, days }) => {
    const upper: string = city.toUpperCase();
    const count: number | undefined = days;
    // @ts-expect-error city is a string, not a number
    const wrong: number = city;
    return upper + String(count) + String(wrong);
  },
});
`;

describe("published types in a user's project (skipLibCheck: false)", () => {
  it("compile without zod and without @types/pg (JSON-Schema-only tools)", async () => {
    expect(await typecheck(consumerWith([]), JSON_SCHEMA_ONLY)).toBe("");
  }, 90_000);

  it("infer tool arguments from a zod schema when zod is installed", async () => {
    expect(await typecheck(consumerWith(["zod"]), WITH_ZOD)).toBe("");
  }, 90_000);

  it("compile for every subpath with its optional peer installed", async () => {
    const peers = [
      "zod",
      "ioredis",
      "bullmq",
      "@modelcontextprotocol/sdk",
      "@opentelemetry/api",
      "@types/pg",
      "pg",
    ];
    const specifiers = publicSpecifiers(readPackageJson());
    const source = [
      ...specifiers.map((specifier, i) => `import * as entry${i} from ${JSON.stringify(specifier)};`),
      `export const all = [${specifiers.map((_, i) => `entry${i}`).join(", ")}];`,
    ].join("\n");
    expect(await typecheck(consumerWith(peers), source)).toBe("");
  }, 90_000);

  it("report a real type error (the check is not vacuous)", async () => {
    const out = await typecheck(
      consumerWith([]),
      `import { Agent } from "agentloop";\nnew Agent({ model: 42 });\n`,
    );
    expect(out).toContain("index.ts");
  }, 90_000);
});
