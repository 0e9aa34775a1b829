import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import type { RunOptions } from "../../src/agent-options.js";
import { FileJournal } from "../../src/durable/file-journal.js";
import type { RunJournal } from "../../src/durable/run-journal.js";
import { PostgresJournal } from "../../src/integrations/postgres/postgres-journal.js";
import { PostgresStore } from "../../src/integrations/postgres/postgres-store.js";
import { RedisJournal } from "../../src/integrations/redis/redis-journal.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import { FileStore } from "../../src/stores/file-store.js";
import type { SessionStore } from "../../src/stores/session-store.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import type { ScriptedStep } from "../../src/testing/scripted-step.js";
import { tool } from "../../src/tools/tool.js";

/**
 * Every combination of the run path — `run` and `stream`, each with `sessionId`, `runId` or both — end to end
 * on each real backend (files, Redis, PostgreSQL): a tool step, a gated step decided by a second Agent object
 * (as another process would), the session history and the run log checked from outside.
 */

const REDIS = "redis://127.0.0.1:6379";
const POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const tag = `combo_${process.pid}_${randomUUID().slice(0, 8)}`;
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Backend {
  name: string;
  open: () => Promise<{ store: SessionStore; journal: RunJournal; close: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: "files",
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), "agentloop-combo-"));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const store = new FileStore({ dir: join(dir, "sessions") });
      const journal = new FileJournal({ dir: join(dir, "journal") });
      return { store, journal, close: async () => undefined };
    },
  },
  {
    name: "Redis",
    open: async () => {
      const prefix = `agentloop-test:${tag}:`;
      const store = new RedisStore({ url: REDIS, prefix });
      const journal = new RedisJournal({ url: REDIS, prefix });
      cleanups.push(async () => {
        const admin = new Redis(REDIS);
        const keys = await admin.keys(`${prefix}*`);
        if (keys.length > 0) await admin.del(...keys);
        admin.disconnect();
      });
      return {
        store,
        journal,
        close: async () => void (await Promise.all([store.close(), journal.close()])),
      };
    },
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const store = new PostgresStore({ connectionString: POSTGRES, table: `${tag}_sessions` });
      const journal = new PostgresJournal({ connectionString: POSTGRES, table: `${tag}_journal` });
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: POSTGRES });
        await client.connect();
        const { rows } = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE tablename LIKE $1",
          [`${tag}%`],
        );
        for (const { tablename } of rows) await client.query(`DROP TABLE IF EXISTS "${tablename}"`);
        await client.end();
      });
      return {
        store,
        journal,
        close: async () => void (await Promise.all([store.close(), journal.close()])),
      };
    },
  },
];

function tools() {
  const effects: string[] = [];
  const lookup = tool({
    name: "lookup",
    description: "looks a thing up",
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      effects.push(`lookup ${q}`);
      return `found ${q}`;
    },
  });
  const pay = tool({
    name: "pay",
    description: "pays",
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => {
      effects.push(`pay ${to}`);
      return `paid ${to}`;
    },
  });
  return { effects, list: [lookup, pay] };
}

const steps: ScriptedStep[] = [
  { toolCalls: [{ id: "l1", name: "lookup", arguments: { q: "bill" } }] },
  { toolCalls: [{ id: "p1", name: "pay", arguments: { to: "acme" } }] },
  { text: "Paid acme." },
];

type Mode = "run" | "stream";
const settle = (agent: Agent, mode: Mode, input: string, options: RunOptions): Promise<AgentResult> =>
  mode === "run" ? agent.run(input, options) : agent.stream(input, options).result;

const roles = (result: AgentResult) => result.messages.filter((m) => m.role !== "system").map((m) => m.role);

describe.each(backends)("run combinations on $name", (backend) => {
  const cases: Array<{ mode: Mode; session: boolean; durable: boolean }> = [];
  for (const mode of ["run", "stream"] as const) {
    for (const [session, durable] of [
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      cases.push({ mode, session, durable });
    }
  }

  it.each(cases)("$mode with session=$session, durable=$durable", async ({ mode, session, durable }) => {
    const { store, journal, close } = await backend.open();
    try {
      const id = randomUUID();
      const options: RunOptions = {
        ...(session && { sessionId: `s-${id}` }),
        ...(durable && { runId: `r-${id}` }),
      };
      const first = tools();
      const model = new ScriptedModel(steps.slice(0, 2));
      const paused = await settle(
        new Agent({ model, tools: first.list, store, journal }),
        mode,
        "Pay the bill",
        options,
      );
      expect(paused.stopReason).toBe("awaiting_approval");
      expect(paused.pendingApprovals?.map((p) => p.toolCallId)).toEqual(["p1"]);
      expect(first.effects).toEqual(["lookup bill"]);

      // The decision, from a second Agent object with its own model and tools (another process, in effect).
      const second = tools();
      const resumeModel = new ScriptedModel(steps.slice(2));
      const agent = new Agent({ model: resumeModel, tools: second.list, store, journal });
      const target = durable
        ? (options.runId as string)
        : session
          ? { sessionId: options.sessionId as string }
          : paused;
      const done = await agent.resume(target, { approve: ["p1"] });
      expect(done.stopReason).toBe("completed");
      expect(done.text).toBe("Paid acme.");
      expect(second.effects).toEqual(["pay acme"]); // the lookup was not executed again
      expect(resumeModel.calls).toHaveLength(1);
      expect(roles(done)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
      expect(done.error).toBeUndefined();

      if (session) {
        const stored = await store.load(options.sessionId as string);
        expect(stored?.messages.map((m) => m.role)).toEqual([
          "user",
          "assistant",
          "tool",
          "assistant",
          "tool",
          "assistant",
        ]);
        expect(stored?.state).toEqual({});
      }
      if (durable) {
        const kinds = (await journal.load(options.runId as string))?.map((r) => r.kind);
        expect(kinds?.[0]).toBe("start");
        expect(kinds).toContain("approval_requested");
        expect(kinds).toContain("approval_decided");
        expect(kinds?.at(-1)).toBe("end");
        // Finished: answered from the log, whole, nothing called or executed.
        const again = await settle(agent, mode, "Pay the bill", options);
        expect(again.text).toBe("Paid acme.");
        expect(again.toolCalls.map((c) => c.name)).toEqual(["lookup", "pay"]);
        expect(again.events.every((e) => e.type === "loop_end" || e.replayed === true)).toBe(true);
        expect(resumeModel.calls).toHaveLength(1);
        expect(second.effects).toEqual(["pay acme"]);
      }
    } finally {
      await close();
    }
  });
});
