import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { FileStore } from "../stores/file-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { MemoryJournal } from "./memory-journal.js";

describe("a durable run streamed to a consumer that stops reading", () => {
  it("the abandoned attempt ends aborted, frees the run lock, and the run resumes without redoing its steps", async () => {
    const journal = new MemoryJournal();
    const executed: string[] = [];
    const lookup = tool({
      name: "lookup",
      description: "looks up",
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        executed.push(q);
        return `found ${q}`;
      },
    });
    const steps = [
      { toolCalls: [{ id: "c1", name: "lookup", arguments: { q: "a" } }] },
      { toolCalls: [{ id: "c2", name: "lookup", arguments: { q: "b" } }] },
      { text: "Done." },
    ];
    const first = new ScriptedModel(steps);
    const stream = new Agent({ model: first, tools: [lookup], journal }).stream("Look", { runId: "s-1" });
    for await (const event of stream) {
      if (event.type === "observation") break; // the browser tab closed after the first tool result
    }
    const abandoned = await stream.result;
    expect(abandoned.stopReason).toBe("aborted");
    expect(executed).toEqual(["a"]);

    const second = new ScriptedModel(steps.slice(1));
    const done = await new Agent({ model: second, tools: [lookup], journal }).run("Look", { runId: "s-1" });
    expect(done.text).toBe("Done.");
    expect(executed).toEqual(["a", "b"]); // the first lookup was not executed again
    expect(second.calls).toHaveLength(2);
    // (The scripted model's UnpricedModel warning is an `error` event, replayed too.)
    expect(done.events.filter((e) => e.replayed).map((e) => e.type)).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "error",
      "action",
      "observation",
    ]);
  });
});

describe("a durable run of a session whose signal is aborted before it starts", () => {
  it("touches neither the run log nor the session, and ends aborted", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-aborted-"));
    try {
      const journal = new MemoryJournal();
      const store = new FileStore({ dir });
      const model = new ScriptedModel([{ text: "never" }]);
      const agent = new Agent({ model, journal, store });
      const result = await agent.run("Hi", { sessionId: "s", runId: "r", signal: AbortSignal.abort() });
      expect(result.stopReason).toBe("aborted");
      expect(await journal.load("r")).toBeUndefined();
      expect(await store.load("s")).toBeUndefined();
      // The run can still start later, in its session.
      const later = await agent.run("Hi", { sessionId: "s", runId: "r" });
      expect(later.text).toBe("never");
      expect((await journal.load("r"))?.[0]).toMatchObject({ kind: "start", sessionId: "s" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a durable session run whose tool timed out, resumed after a failure", () => {
  it("replays the timeout with the same text, without waiting, and stores nothing twice", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-timeout-"));
    try {
      const journal = new MemoryJournal();
      const store = new FileStore({ dir });
      let runs = 0;
      const slow = tool({
        name: "slow",
        description: "never answers in time",
        parameters: z.object({}),
        timeoutMs: 30,
        execute: () => {
          runs++;
          return new Promise<string>(() => undefined);
        },
      });
      const steps = [{ toolCalls: [{ id: "t1", name: "slow", arguments: {} }] }];
      const first = await new Agent({
        model: new ScriptedModel(steps), // the second call is not scripted: the run fails there
        tools: [slow],
        journal,
        store,
        retry: { maxRetries: 0 },
      }).run("Try", { sessionId: "s", runId: "r" });
      expect(first.stopReason).toBe("error");
      const timedOut = first.messages.find((m) => m.role === "tool")?.content;
      expect(timedOut).toBe('Tool "slow" timed out after 30 ms');

      const started = Date.now();
      const model = new ScriptedModel([{ text: "It timed out." }]);
      const done = await new Agent({ model, tools: [slow], journal, store }).run("Try", {
        sessionId: "s",
        runId: "r",
      });
      expect(done.text).toBe("It timed out.");
      expect(runs).toBe(1); // not executed again
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(model.calls[0]?.request.messages.at(-1)?.content).toBe(timedOut);
      const stored = await store.load("s");
      expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
