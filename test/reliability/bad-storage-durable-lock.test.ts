import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { FileJournal } from "../../src/durable/file-journal.js";
import { runDurably } from "../../src/durable/run-durably.js";
import type { RunJournal } from "../../src/durable/run-journal.js";
import { DurableRunBusyError } from "../../src/errors/durable-run-busy-error.js";
import { RedisJournal } from "../../src/integrations/redis/redis-journal.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// Two journal objects (or processes) on the same storage must not attempt the same durable run at once:
// both would execute its tool calls.

let dir: string;
const prefix = `agentloop-durable-lock-${randomUUID()}:`;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-durable-lock-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  const redis = new Redis();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

function slowAgent(effects: string[]): Agent {
  const record = tool({
    name: "record",
    description: "Records a side effect.",
    parameters: z.object({}),
    execute: async () => {
      effects.push("effect");
      return "recorded";
    },
  });
  const model = new ScriptedModel([
    { toolCalls: [{ id: "call_1", name: "record", arguments: {} }], delayMs: 400 },
    { text: "done" },
  ]);
  return new Agent({ model, tools: [record] });
}

describe.each([
  ["FileJournal", () => new FileJournal({ dir })],
  ["RedisJournal", () => new RedisJournal({ prefix })],
])("two %s objects on the same storage", (_name, create: () => RunJournal) => {
  it("refuse a second concurrent attempt of one run with DurableRunBusyError; the tool runs once", async () => {
    const runId = `run-${randomUUID()}`;
    const [first, second] = [create(), create()];
    const effects: string[] = [];
    const running = runDurably({ agent: slowAgent(effects), journal: first, runId, input: "record once" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(
      runDurably({ agent: slowAgent(effects), journal: second, runId, input: "record once" }),
    ).rejects.toSatisfy(DurableRunBusyError.isInstance);
    expect((await running).stopReason).toBe("completed");
    expect(effects).toEqual(["effect"]);
    // Released at the end: the other object now answers the finished run from the journal.
    const again = await runDurably({ agent: slowAgent(effects), journal: second, runId });
    expect(again.text).toBe("done");
    expect(effects).toEqual(["effect"]);
    for (const journal of [first, second]) await (journal as { close?: () => Promise<void> }).close?.();
  });
});

describe("two processes on one FileJournal directory", () => {
  it("attempt one run: one completes, the other is refused, the side effect happens once", async () => {
    const runId = `proc-${randomUUID()}`;
    const effectsFile = join(dir, `${runId}.effects`);
    const env = {
      ...process.env,
      JOURNAL_DIR: join(dir, "shared"),
      RUN_ID: runId,
      EFFECTS_FILE: effectsFile,
    };
    const script = join(import.meta.dirname, "bad-storage-durable-child.ts");
    const bin = join(import.meta.dirname, "../../node_modules/.bin/vite-node");
    const children: ChildProcess[] = [0, 1].map(() =>
      spawn(bin, [script], { env, stdio: ["pipe", "pipe", "inherit"] }),
    );
    const outputs = children.map((child) => {
      let text = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      return {
        ready: new Promise<void>((resolve) => {
          const check = () => (text.includes("ready\n") ? resolve() : setTimeout(check, 20));
          check();
        }),
        done: new Promise<string>((resolve) => child.on("exit", () => resolve(text))),
      };
    });
    await Promise.all(outputs.map((output) => output.ready));
    for (const child of children) child.stdin?.write("go\n");
    const texts = await Promise.all(outputs.map((output) => output.done));
    const outcomes = texts
      .map((text) => JSON.parse(text.split("\n").find((line) => line.startsWith("{")) ?? "{}").outcome)
      .sort();
    expect(outcomes).toEqual(["busy", "completed"]);
    const effects = (await readFile(effectsFile, "utf8")).split("\n").filter((line) => line !== "");
    expect(effects).toHaveLength(1);
  }, 30_000);
});
