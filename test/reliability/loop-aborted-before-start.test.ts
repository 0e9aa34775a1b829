import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { resolveRetryPolicy } from "../../src/http/retry-policy.js";
import { DEFAULT_LIMIT_PROMPTS, resolveLimits } from "../../src/loop/agent-limits.js";
import { agentLoop } from "../../src/loop/agent-loop.js";
import type { AgentResult } from "../../src/loop/agent-result.js";
import type { Message } from "../../src/models/message.js";
import { FileStore } from "../../src/stores/file-store.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import { ToolRegistry } from "../../src/tools/tool-registry.js";

// A run started with an already-aborted signal ends at once with stop reason "aborted" and leaves its
// session exactly as it was: the user's message is not saved, no lock is left behind.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-aborted-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const runWith = (
  agent: Agent,
  mode: "run" | "stream",
  input: string,
  options: object,
): Promise<AgentResult> => (mode === "run" ? agent.run(input, options) : agent.stream(input, options).result);

describe.each(["run", "stream"] as const)("a run with an already-aborted signal (%s)", (mode) => {
  it("does not save the user message of a new session", async () => {
    const store = new FileStore({ dir });
    const model = new ScriptedModel([{ text: "never" }, { text: "later" }]);
    const agent = new Agent({ model, store });
    const result = await runWith(agent, mode, "hello", {
      sessionId: `new-${mode}`,
      signal: AbortSignal.abort(),
    });
    expect(result.stopReason).toBe("aborted");
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "aborted" } });
    expect(model.calls).toHaveLength(0);
    expect((await store.load(`new-${mode}`))?.messages ?? []).toEqual([]);
    // Nothing is locked: the next run of the session works and starts from an empty history.
    const next = await agent.run("again", { sessionId: `new-${mode}` });
    expect(next.text).toBe("never");
    expect((await store.load(`new-${mode}`))?.messages.map((m) => m.content)).toEqual(["again", "never"]);
  });

  it("leaves an existing session's history unchanged", async () => {
    const store = new FileStore({ dir });
    const sessionId = `old-${mode}`;
    const model = new ScriptedModel([{ text: "first answer" }]);
    await new Agent({ model, store }).run("first", { sessionId });
    const before = (await store.load(sessionId))?.messages;
    const result = await runWith(new Agent({ model: new ScriptedModel([]), store }), mode, "second", {
      sessionId,
      signal: AbortSignal.abort(),
    });
    expect(result.stopReason).toBe("aborted");
    expect((await store.load(sessionId))?.messages).toEqual(before);
  });
});

describe.each(["run", "stream"] as const)(
  "a run aborted while its session lock is being taken (%s)",
  (mode) => {
    it("ends aborted (not a rejection), saves nothing and releases the lock that arrives late", async () => {
      class SlowLockStore extends MemoryStore {
        released = 0;
        override async lock(sessionId: string, options: { ttlMs: number }) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          const lock = await super.lock(sessionId, options);
          if (lock === undefined) return undefined;
          return {
            ...lock,
            release: async () => {
              this.released++;
              await lock.release();
            },
          };
        }
      }
      const store = new SlowLockStore();
      const model = new ScriptedModel([{ text: "answer" }]);
      const agent = new Agent({ model, store });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("the client went away")), 20);
      const result = await runWith(agent, mode, "hello", {
        sessionId: `slow-${mode}`,
        signal: controller.signal,
      });
      expect(result.stopReason).toBe("aborted");
      expect(model.calls).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 250)); // the abandoned lock arrives and is released
      expect(store.released).toBe(1);
      expect((await store.load(`slow-${mode}`))?.messages ?? []).toEqual([]);
      expect((await agent.run("again", { sessionId: `slow-${mode}` })).text).toBe("answer");
    });
  },
);

it("the loop persists nothing when it is aborted before its first model call", async () => {
  const flushed: Message[][] = [];
  const persistence = {
    flush: async (messages: readonly Message[]) => {
      flushed.push([...messages]);
    },
    replace: async () => undefined,
  };
  const loop = agentLoop({
    model: new ScriptedModel([]),
    tools: new ToolRegistry(),
    messages: [{ role: "user", content: "hello" }],
    task: "hello",
    limits: resolveLimits(undefined),
    prompts: DEFAULT_LIMIT_PROMPTS,
    retry: resolveRetryPolicy(undefined),
    stream: false,
    parallelToolCalls: true,
    toolTimeoutMs: 1000,
    loopDetection: false,
    signal: AbortSignal.abort(),
    persistence,
  });
  let next = await loop.next();
  while (!next.done) next = await loop.next();
  expect(next.value.stopReason).toBe("aborted");
  expect(flushed).toEqual([]);
});
