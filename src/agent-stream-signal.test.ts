import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent } from "./agent.js";
import { MemoryJournal } from "./durable/memory-journal.js";
import { ScriptedModel } from "./testing/scripted-model.js";

// A long-lived signal (a server's shutdown signal) passed to every run must not accumulate anything. On
// Node 20, AbortSignal.any([longLived, ...]) leaves an entry in the long-lived signal per call that is never
// pruned (nodejs/node#55351): the soak (bench/soak.mjs) measured ~55 bytes per streamed run.
describe("Agent: the caller's signal", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("stream and durable runs follow a long-lived signal without AbortSignal.any, and unlink at the end", async () => {
    const any = vi.spyOn(AbortSignal, "any");
    const shutdown = new AbortController();
    const agent = new Agent({
      model: new ScriptedModel(() => ({ text: "ok" })),
      journal: new MemoryJournal(),
    });
    for (let i = 0; i < 3; i++) {
      expect((await agent.stream("hi", { signal: shutdown.signal }).result).stopReason).toBe("completed");
      const stream = agent.stream("hi", { signal: shutdown.signal });
      for await (const event of stream) if (event.type === "loop_start") break; // stops reading early
      expect((await stream.result).stopReason).toBe("aborted");
      const durable = await agent.run("hi", { runId: `run-${i}`, signal: shutdown.signal });
      expect(durable.stopReason).toBe("completed");
    }
    expect(any).not.toHaveBeenCalled();
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  it("an abort of the caller's signal still aborts a streamed run, with its reason", async () => {
    const caller = new AbortController();
    const agent = new Agent({ model: new ScriptedModel(() => ({ text: "late", delayMs: 5_000 })) });
    const stream = agent.stream("hi", { signal: caller.signal });
    setTimeout(() => caller.abort(new Error("shutting down")), 10);
    const started = Date.now();
    const result = await stream.result;
    expect(result.stopReason).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);

    const aborted = AbortSignal.abort(new Error("already"));
    expect((await agent.stream("hi", { signal: aborted }).result).stopReason).toBe("aborted");
  });
});
