// The built package from a consumer project, in separate processes: every public subpath loads with
// `require` (CommonJS, Node >= 20.19) and with `import`, and the bin runs. `npm test` builds dist/ first.
import { execFile } from "node:child_process";
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
const pkg = readPackageJson();
const specifiers = publicSpecifiers(pkg);
// What npm would install beside agentloop: its dependencies and the optional peers the subpaths load.
const installed = [
  ...Object.keys((pkg as { dependencies?: Record<string, string> }).dependencies ?? {}),
  "zod",
  "ioredis",
  "pg",
  "bullmq",
  "@modelcontextprotocol/sdk",
  "@opentelemetry/api",
];

let consumer: Consumer;
beforeAll(async () => {
  consumer = makeConsumer({ files: await packedFiles(REPO_ROOT, { scripts: false }), links: installed });
}, 60_000);
afterAll(() => consumer?.remove());

async function node(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--no-warnings", ...args], {
    cwd: consumer.dir,
    timeout: 30_000,
  });
  return stdout.trim();
}

describe("the built package from a consumer project", () => {
  it("lists every subpath it exports", () => {
    expect(specifiers).toEqual([
      "agentloop",
      "agentloop/tools",
      "agentloop/testing",
      "agentloop/redis",
      "agentloop/postgres",
      "agentloop/mcp",
      "agentloop/queue",
      "agentloop/context",
      "agentloop/trace",
      "agentloop/durable",
      "agentloop/planner",
      "agentloop/render",
      "agentloop/agents",
      "agentloop/guardrails",
      "agentloop/otel",
      "agentloop/control",
      "agentloop/web",
      "agentloop/client",
    ]);
  });

  it.each(specifiers)("require(%j) works from CommonJS", async (specifier) => {
    const out = await node([
      "-e",
      `console.log(Object.keys(require(${JSON.stringify(specifier)})).join(","))`,
    ]);
    expect(out.split(",").length).toBeGreaterThan(0);
    expect(out).not.toBe("");
  });

  it.each(specifiers)("import(%j) works from ESM and matches require", async (specifier) => {
    const script = `const esm = Object.keys(await import(${JSON.stringify(specifier)})).filter((k) => k !== "default").sort();
const cjs = Object.keys((await import("node:module")).createRequire(process.cwd() + "/")(${JSON.stringify(specifier)})).filter((k) => k !== "default" && k !== "module.exports").sort();
console.log(JSON.stringify({ same: JSON.stringify(esm) === JSON.stringify(cjs), count: esm.length }));`;
    const out = JSON.parse(await node(["--input-type=module", "-e", script])) as {
      same: boolean;
      count: number;
    };
    expect(out.same).toBe(true);
    expect(out.count).toBeGreaterThan(0);
  });

  it("runs a full tool loop from CommonJS against the bundled mock server", async () => {
    const script = `
const { Agent, createOpenAI, tool } = require("agentloop");
const { startMockOpenAIServer } = require("agentloop/testing");
(async () => {
  const script = (body) =>
    body.messages.some((m) => m.role === "tool")
      ? { text: "It is " + body.messages.find((m) => m.role === "tool").content + "." }
      : { toolCalls: [{ name: "multiply", arguments: { a: 6, b: 7 } }] };
  const server = await startMockOpenAIServer({ script });
  try {
    const multiply = tool({
      name: "multiply",
      description: "Multiplies two numbers",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      execute: async ({ a, b }) => String(a * b),
    });
    const model = createOpenAI({ baseURL: server.url, apiKey: "mock-key" })("gpt-4o-mini");
    const result = await new Agent({ model, tools: [multiply] }).run("6 times 7?");
    console.log(result.stopReason, result.text);
  } finally {
    await server.close();
  }
})().catch((error) => { console.error(error); process.exit(1); });`;
    expect(await node(["-e", script])).toBe("completed It is 42.");
  });

  it("runs the agentloop bin", async () => {
    const out = await node([
      join(consumer.dir, "node_modules", "agentloop", pkg.bin.agentloop ?? ""),
      "--help",
    ]);
    expect(out).toContain("agentloop run");
  });
});
