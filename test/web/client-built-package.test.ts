// Issue #20, from the outside: the BUILT package (dist/: `node scripts/build.mjs` first, as `npm test` does).
// A server made with the built agentloop/web runs a durable agent and cuts its first connection; a separate Node
// process imports the built `agentloop/client` by its package name, streams the run, reconnects with
// Last-Event-ID, and gets the whole run once. The built client's module graph holds nothing of Node's.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Root from "../../src/index.js";
import type * as Testing from "../../src/testing/index.js";
import type * as Web from "../../src/web/index.js";
import { serveFetch, type TestServer } from "../../src/web/test-utils/serve-fetch.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dist = (entry: string) => join(ROOT, "dist", entry);
const missing = ["index.js", "web/index.js", "client/index.js", "testing/index.js"].filter(
  (f) => !existsSync(dist(f)),
);
if (missing.length > 0) throw new Error(`not built: ${missing.join(", ")} (run node scripts/build.mjs)`);

const { Agent, MemoryJournal, tool } = (await import(dist("index.js"))) as typeof Root;
const { ScriptedModel } = (await import(dist("testing/index.js"))) as typeof Testing;
const { createAgentHandler, RunEventLog } = (await import(dist("web/index.js"))) as typeof Web;

const ANSWER = "It is sunny in Paris today, with a light breeze from the west.";

let server: TestServer;
let connections = 0;
beforeAll(async () => {
  const model = new ScriptedModel(
    [
      { text: "Let me check.", toolCalls: [{ id: "c1", name: "lookup", arguments: { city: "Paris" } }] },
      { text: ANSWER },
    ],
    { streamDelayMs: 5 },
  );
  const lookup = tool({
    name: "lookup",
    description: "Looks up the weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: () => "sunny",
  });
  const pricing = { scripted: { inputPerMTok: 1, outputPerMTok: 2 } };
  const agent = new Agent({ model, tools: [lookup], journal: new MemoryJournal(), pricing });
  const handler = createAgentHandler(agent, { log: new RunEventLog() });
  server = await serveFetch(async (request) => {
    const response = await handler(request);
    if (++connections > 1) return response;
    // The first connection breaks after a few chunks.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let chunks = 0;
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        if (++chunks === 5) {
          controller.error(new Error("connection reset"));
          void reader.cancel();
        }
      },
    });
    return new Response(cut, { headers: response.headers });
  });
});
afterAll(() => server?.close());

describe("the built agentloop/client in another Node process", () => {
  it("streams a durable run, reconnects after a cut, and gets each event once", async () => {
    const script = `
import { streamRun, RunStreamError } from "agentloop/client";
const run = streamRun(${JSON.stringify(server.url)}, "Weather in Paris?", { reconnectDelayMs: 10 });
const events = [];
for await (const event of run) events.push(event);
const result = await run.result;
console.log(JSON.stringify({ events, result, runId: run.runId, isError: typeof RunStreamError.isInstance }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT, // "agentloop/client" resolves to the package itself (self-reference through "exports")
      timeout: 30_000,
    });
    const out = JSON.parse(stdout) as {
      events: Array<{ type: string; turn: number; data: { delta?: string; result?: string } }>;
      result: { stopReason: string; text: string; runId: string };
      runId: string;
    };
    expect(connections).toBe(2); // it reconnected
    expect(out.result).toMatchObject({ stopReason: "completed", text: ANSWER, runId: out.runId });
    const text = out.events.flatMap((e) => (e.type === "text_delta" ? [e.data.delta] : [])).join("");
    expect(text).toBe(`Let me check.${ANSWER}`);
    const types = out.events.map((e) => e.type).filter((t) => !t.endsWith("_delta"));
    expect(types).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "thought",
      "action",
      "observation",
      "turn_start",
      "model_call",
      "loop_end",
    ]);
  });

  it("is browser-safe: no Node built-ins, Buffer or process in the client's module graph", () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, "utf8");
      for (const [, specifier = ""] of code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        expect(specifier, file).not.toMatch(/^node:|^(fs|path|http|https|net|os|crypto|stream|util|buffer)$/);
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
        else expect(["eventsource-parser"]).toContain(specifier);
      }
      expect(code, file).not.toMatch(/\bBuffer\.|\bprocess\.|\brequire\(/);
    };
    visit(dist("client/index.js"));
    expect(seen.size).toBeGreaterThan(1);
  });

  it("agentloop/web loads without Node built-ins (edge runtimes): no node:* import in its module graph", () => {
    const seen = new Set<string>();
    const found: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, "utf8");
      for (const [, specifier = ""] of code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        if (/^node:/.test(specifier)) found.push(`${file}: ${specifier}`);
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
      }
    };
    visit(dist("web/index.js"));
    expect(seen.size).toBeGreaterThan(1);
    expect(found).toEqual([]);
  });
});
