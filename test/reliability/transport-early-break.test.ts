// Item "crash on early break": a caller that stops reading `agent.stream()` (a closed browser tab) or aborts it,
// at any moment, never crashes the process, never hangs, and leaves no socket or timer behind. Each transport
// (node:http default, fetch, a fetch that ignores its signal) against an in-process server and a server in
// another process; then the built package in a child process that must exit 0 on its own.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { fetchIgnoringSignal, runEarlyBreaks } from "./transport-break-scenarios.mjs";
import { startSseServer } from "./transport-sse-server.mjs";

const run = promisify(execFile);
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** Handles of the kinds a leak would show: sockets and timers. */
function openHandles(): { sockets: number; timers: number } {
  const info = process.getActiveResourcesInfo();
  return {
    sockets: info.filter((name) => name === "TCPSocketWrap").length,
    timers: info.filter((name) => name === "Timeout").length,
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Starts the SSE server in another process; resolves with its URL. */
async function startChildServer(): Promise<{ url: string; child: ChildProcess; close(): Promise<void> }> {
  const child = spawn(process.execPath, [here("./transport-sse-server.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.once("data", (data: Buffer) => resolve(String(data).trim()));
  });
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.stdin?.end();
    });
  return { url, child, close };
}

const transports = [
  { name: "node:http (default)", fetch: undefined },
  { name: "fetch", fetch: globalThis.fetch },
  { name: "a fetch that ignores its signal", fetch: fetchIgnoringSignal as typeof globalThis.fetch },
];

describe.each([
  { where: "in-process", start: startSseServer },
  { where: "out-of-process", start: startChildServer },
])("early breaks against an $where server", ({ start }) => {
  let server: { url: string; close(): Promise<void> };
  let before: { sockets: number; timers: number };
  beforeAll(async () => {
    before = openHandles();
    server = await start();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(transports)(
    "$name: 60 stopped runs all settle, the process survives, nothing leaks",
    async ({ fetch }) => {
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", onUncaught);
      try {
        const outcomes = await runEarlyBreaks({ Agent, createOpenAI, baseURL: server.url, fetch, runs: 60 });
        // Most runs are stopped; a few may complete first (the whole answer arrived before the abort).
        expect((outcomes.aborted ?? 0) + (outcomes.completed ?? 0)).toBe(60);
        expect(outcomes.aborted ?? 0).toBeGreaterThan(40);
        await settle();
        expect(uncaught).toEqual([]);
        // Keep-alive sockets may stay pooled (idle, at most a few); no timer of a run outlives it.
        const after = openHandles();
        expect(after.timers).toBeLessThanOrEqual(before.timers);
        expect(after.sockets - before.sockets).toBeLessThanOrEqual(8);
      } finally {
        process.off("uncaughtException", onUncaught);
      }
    },
  );
});

describe("early breaks through the built package, in a child process", () => {
  const entry = process.env.AGENTLOOP_ENTRY ?? fileURLToPath(new URL("../../dist/index.js", import.meta.url));
  it.skipIf(!existsSync(entry))(
    "exits 0 on its own after 180 stopped runs in three transports",
    async () => {
      const { stdout } = await run(process.execPath, [here("./transport-break-child.mjs")], {
        env: { ...process.env, AGENTLOOP_ENTRY: entry, RUNS: "60" },
        timeout: 60_000,
      });
      const results = JSON.parse(stdout.trim()) as Array<Record<string, number>>;
      expect(results).toHaveLength(3);
      for (const outcome of results) expect((outcome.aborted ?? 0) + (outcome.completed ?? 0)).toBe(60);
    },
    70_000,
  );
});
