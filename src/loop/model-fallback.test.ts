import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import type { AgentEvent } from "./agent-event.js";

const down = (status = 503) =>
  new ModelCallError({ message: `HTTP ${status}`, status, isRetryable: status >= 500 || status === 429 });

let lookups = 0;
const lookup = tool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: z.object({ word: z.string() }),
  execute: async ({ word }) => {
    lookups++;
    return `${word}: found`;
  },
});

const retry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 };

describe("model fallback (Agent({ model: [primary, fallback] }))", () => {
  it("moves the turn to the next model after the primary's retries are spent, and stays there", async () => {
    lookups = 0;
    const primary = new ScriptedModel(
      [
        { toolCalls: [{ name: "lookup", arguments: { word: "a" } }] },
        { error: down() },
        { error: down() },
        { error: down() },
      ],
      { modelId: "gpt-4o-mini" },
    );
    const fallback = new ScriptedModel(
      [{ toolCalls: [{ name: "lookup", arguments: { word: "b" } }] }, { text: "Done." }],
      { modelId: "claude-sonnet-4-5" },
    );
    const agent = new Agent({ model: [primary, fallback], tools: [lookup], retry });
    const result = await agent.run("Look a and b up.");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Done.");
    expect(primary.calls).toHaveLength(4); // turn 1, then turn 2 with its 2 retries
    expect(fallback.calls).toHaveLength(2); // turn 2 again, and turn 3: the run stays on the fallback
    expect(lookups).toBe(2); // turn 1's tool did not run again
    const switches = result.events.filter((e) => e.type === "model_fallback");
    expect(switches.map((e) => e.data)).toEqual([
      { from: "scripted:gpt-4o-mini", to: "scripted:claude-sonnet-4-5", error: "HTTP 503" },
    ]);
    const calls = result.events.filter((e) => e.type === "model_call").map((e) => e.data.model);
    expect(calls).toEqual([
      "scripted:gpt-4o-mini",
      "scripted:claude-sonnet-4-5",
      "scripted:claude-sonnet-4-5",
    ]);
    // The same request went to the fallback: the history up to the failed turn.
    expect(fallback.calls[0]?.request.messages).toEqual(primary.calls[1]?.request.messages);
  });

  it("prices each call as the model that answered it", async () => {
    const primary = new ScriptedModel([{ error: down(400) }], { modelId: "gpt-4o-mini" });
    const fallback = new ScriptedModel([{ text: "ok", usage: { inputTokens: 1_000_000, outputTokens: 0 } }], {
      modelId: "claude-sonnet-4-5",
    });
    const result = await new Agent({ model: [primary, fallback], retry }).run("Hi");
    expect(primary.calls).toHaveLength(1); // not retryable: no retries, straight to the fallback
    expect(result.costUsd).toBeCloseTo(3, 6); // claude-sonnet-4-5: $3 per million input tokens
    expect(result.costUnknownModels).toEqual([]);
  });

  it("when streaming, a turn that already streamed text is voided by a retry event of source stream", async () => {
    const primary = new ScriptedModel(
      [
        {
          text: "Half an answer that breaks",
          error: new StreamInterruptedError({ message: "dropped" }),
          errorAfterParts: 2,
        },
      ],
      { modelId: "gpt-4o-mini" },
    );
    const fallback = new ScriptedModel([{ text: "Whole answer." }], { modelId: "claude-sonnet-4-5" });
    const agent = new Agent({ model: [primary, fallback], retry: { maxRetries: 0 } });
    const events: AgentEvent[] = [];
    const stream = agent.stream("Hi");
    for await (const event of stream) events.push(event);
    const types = events.map((e) => e.type);
    const fell = types.indexOf("model_fallback");
    expect(fell).toBeGreaterThan(0);
    expect(events[fell - 1]).toMatchObject({ type: "retry", data: { source: "stream" } });
    expect(types.slice(0, fell).filter((t) => t === "text_delta").length).toBeGreaterThan(0);
    const after = events
      .slice(fell)
      .filter((e) => e.type === "text_delta")
      .map((e) => (e.data as { delta: string }).delta);
    expect(after.join("")).toBe("Whole answer.");
    expect((await stream.result).text).toBe("Whole answer.");
  });

  it("ends with the last model's error when every model fails", async () => {
    const a = new ScriptedModel([{ error: down(400) }], { modelId: "a" });
    const b = new ScriptedModel([{ error: down(401) }], { modelId: "b" });
    const result = await new Agent({ model: [a, b], retry }).run("Hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toBe("HTTP 401");
    expect(result.events.filter((e) => e.type === "model_fallback")).toHaveLength(1);
  });

  it("does not fall back when the run is aborted", async () => {
    const controller = new AbortController();
    const a = new ScriptedModel([{ text: "slow", delayMs: 200 }], { modelId: "a" });
    const b = new ScriptedModel([{ text: "never" }], { modelId: "b" });
    setTimeout(() => controller.abort(), 20);
    const result = await new Agent({ model: [a, b] }).run("Hi", { signal: controller.signal });
    expect(result.stopReason).toBe("aborted");
    expect(b.calls).toHaveLength(0);
  });

  it("a durable run that fell back resumes from its log without calling either model again", async () => {
    lookups = 0;
    const journal = new MemoryJournal();
    const primary = new ScriptedModel(
      [{ toolCalls: [{ name: "lookup", arguments: { word: "a" } }] }, { error: down(400) }],
      { modelId: "a" },
    );
    const fallback = new ScriptedModel([{ text: "Done." }], { modelId: "b" });
    const agent = new Agent({ model: [primary, fallback], tools: [lookup], journal, retry });
    const first = await agent.run("Look a up.", { runId: "fb-1" });
    expect(first.error?.message).toBeUndefined();
    expect(first.text).toBe("Done.");
    // The run log names the model that answered each call.
    const records = (await journal.load("fb-1")) ?? [];
    const answered = records.flatMap((r) => (r.kind === "model_response" ? [r.model] : []));
    expect(answered).toEqual(["scripted:a", "scripted:b"]);
    const again = await agent.run("Look a up.", { runId: "fb-1" });
    expect(again.text).toBe("Done.");
    expect(again.stopReason).toBe("completed");
    expect(primary.calls).toHaveLength(2);
    expect(fallback.calls).toHaveLength(1);
    expect(lookups).toBe(1);
  });

  it("refuses an empty model list", () => {
    expect(() => new Agent({ model: [] as unknown as [string] })).toThrow(/Invalid model: an empty list/);
  });
});
