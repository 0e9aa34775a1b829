import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { createEstimatingCounter } from "../context/create-estimating-counter.js";
import { SUMMARY_PREFIX } from "../context/summary-message.js";
import { validateHistory } from "../context/validate-history.js";
import { Budget } from "../cost/budget.js";
import { ContextOverflowError } from "../errors/context-overflow-error.js";
import { ModelCallError } from "../errors/model-call-error.js";
import type { Message } from "../models/message.js";
import type { ModelRequest } from "../models/model.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import type { AgentEventOf } from "./agent-event.js";

const counter = createEstimatingCounter();
const count = (messages: readonly Message[]) => messages.reduce((n, m) => n + counter.countMessage(m), 0);

// A tool that returns a large result, so the history grows quickly.
const fetchPage = tool({
  name: "fetch_page",
  description: "fetches a page",
  parameters: z.object({ page: z.number() }),
  execute: ({ page }) => `page ${page}: ${"lorem ipsum dolor sit amet ".repeat(120)}`,
});

// Reports realistic input usage (the estimate of what it was sent), as a provider would: the loop calibrates
// its estimates with it.
const usageOf = (request: ModelRequest) => ({
  inputTokens:
    count(request.messages) + (request.tools === undefined ? 0 : counter.countTools(request.tools)),
  outputTokens: 10,
});
const browsing = (pages: number) =>
  new ScriptedModel((request, index) => ({
    usage: usageOf(request),
    ...(index < pages
      ? { toolCalls: [{ id: `p${index}`, name: "fetch_page", arguments: { page: index } }] }
      : { text: "Read them all." }),
  }));

const compactions = (events: readonly { type: string }[]) =>
  events.filter((e): e is AgentEventOf<"compaction"> => e.type === "compaction");

describe("agent loop: context compaction", () => {
  it("compacts before a model call past compactAt × maxContextTokens; every request fits and stays valid", async () => {
    const maxContextTokens = 4000;
    const model = browsing(12);
    const result = await new Agent({
      model,
      tools: [fetchPage],
      system: "You browse.",
      loopDetection: false,
      context: { maxContextTokens, counter, truncateToolResultsTo: 5000 },
    }).run("Read pages 0 to 11.");
    expect(result.stopReason).toBe("completed");
    const events = compactions(result.events);
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]?.data).toMatchObject({ strategy: "sliding_window", reason: "threshold" });
    expect(events[0]?.data.tokensAfter).toBeLessThan(events[0]?.data.tokensBefore ?? 0);
    for (const call of model.calls) {
      expect(usageOf(call.request).inputTokens).toBeLessThanOrEqual(0.75 * maxContextTokens);
      expect(validateHistory(call.request.messages)).toEqual([]);
      expect(call.request.messages[0]).toEqual({ role: "system", content: "You browse." });
      expect(
        call.request.messages.some(
          (m) => m.role === "user" && String(m.content).includes("Read pages 0 to 11."),
        ),
      ).toBe(true);
    }
    const marker = model.calls
      .at(-1)
      ?.request.messages.find((m) => String(m.content).includes("earlier messages removed"));
    expect(marker).toBeDefined();
  });

  it("summarises removed turns with the summary model, extending one running summary", async () => {
    const summaries = new ScriptedModel((request, index) => {
      const prior = request.messages.map((m) => m.content).join("\n");
      return {
        text: `SUMMARY-${index + 1}${prior.includes("SUMMARY-") ? " (extends previous)" : ""}`,
        usage: { inputTokens: 10, outputTokens: 5 },
      };
    });
    const model = browsing(12);
    const result = await new Agent({
      model,
      tools: [fetchPage],
      system: "You browse.",
      loopDetection: false,
      context: {
        maxContextTokens: 4000,
        counter,
        strategy: "summarize",
        summaryModel: summaries,
        truncateToolResultsTo: 5000,
      },
    }).run("Read pages 0 to 11.");
    expect(result.stopReason).toBe("completed");
    expect(summaries.calls.length).toBeGreaterThanOrEqual(2);
    const last = model.calls.at(-1)?.request.messages ?? [];
    const summaryMessages = last.filter((m) => m.role === "system" && m.content.startsWith(SUMMARY_PREFIX));
    expect(summaryMessages).toHaveLength(1);
    expect(summaryMessages[0]?.content).toContain(`SUMMARY-${summaries.calls.length} (extends previous)`);
    expect(compactions(result.events).every((e) => e.data.strategy === "summarize")).toBe(true);
    // Summary calls count in the run's usage (each summary step reports 15 tokens).
    const modelTokens = model.calls.reduce((n, c) => n + usageOf(c.request).inputTokens + 10, 0);
    expect(result.usage.totalTokens).toBe(modelTokens + summaries.calls.length * 15);
  });

  it("charges summary calls to a shared budget and to the run's cost (they are not reserved first)", async () => {
    const summaries = new ScriptedModel(
      () => ({ text: "SUMMARY", usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
      { modelId: "summarizer" },
    );
    const model = browsing(12);
    const budget = new Budget({ limitUsd: 1_000 });
    const result = await new Agent({
      model,
      tools: [fetchPage],
      loopDetection: false,
      // The main model is free, so everything the budget holds comes from the summary calls ($1 each).
      pricing: {
        scripted: { inputPerMTok: 0, outputPerMTok: 0 },
        summarizer: { inputPerMTok: 1, outputPerMTok: 0 },
      },
      context: {
        maxContextTokens: 4000,
        counter,
        strategy: "summarize",
        summaryModel: summaries,
        truncateToolResultsTo: 5000,
      },
    }).run("Read pages 0 to 11.", { budget });
    expect(result.stopReason).toBe("completed");
    expect(summaries.calls.length).toBeGreaterThanOrEqual(2);
    expect(result.costUsd).toBeCloseTo(summaries.calls.length, 6);
    expect(budget.spentUsd).toBeCloseTo(summaries.calls.length, 6);
  });

  it("compacts and retries once after a context_length_exceeded error", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "a", name: "fetch_page", arguments: { page: 1 } }] },
      { toolCalls: [{ id: "b", name: "fetch_page", arguments: { page: 2 } }] },
      {
        error: new ModelCallError({
          message: "This model's maximum context length is 8192 tokens",
          status: 400,
          code: "context_length_exceeded",
          isRetryable: false,
        }),
      },
      { text: "Done after compaction." },
    ]);
    const result = await new Agent({ model, tools: [fetchPage], loopDetection: false }).run(
      "Read two pages.",
    );
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Done after compaction.");
    const [event] = compactions(result.events);
    expect(event?.data.reason).toBe("context_length_exceeded");
    const failed = model.calls[2]?.request.messages ?? [];
    const retried = model.calls[3]?.request.messages ?? [];
    expect(count(retried)).toBeLessThan(count(failed));
    expect(validateHistory(retried)).toEqual([]);
  });

  it("does not retry a second context-length error", async () => {
    const tooLong = () =>
      new ModelCallError({
        message: "prompt is too long",
        status: 400,
        code: "context_length_exceeded",
        isRetryable: false,
      });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "a", name: "fetch_page", arguments: { page: 1 } }] },
      { toolCalls: [{ id: "b", name: "fetch_page", arguments: { page: 2 } }] },
      { error: tooLong() },
      { error: tooLong() },
    ]);
    const result = await new Agent({ model, tools: [fetchPage], loopDetection: false }).run("Read.");
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/too long/);
    expect(compactions(result.events)).toHaveLength(1);
    expect(model.calls).toHaveLength(4);
  });

  it("fails with a clear ContextOverflowError (no model call) when even the latest message cannot fit", async () => {
    const model = new ScriptedModel([]);
    const result = await new Agent({ model, context: { maxContextTokens: 200, counter } }).run(
      "word ".repeat(2000),
    );
    expect(result.stopReason).toBe("error");
    expect(ContextOverflowError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/context budget/);
    expect(model.calls).toHaveLength(0);
  });

  it("sends a latest message that misses the compaction target but fits maxContextTokens; refuses one over maxContextTokens", async () => {
    // maxContextTokens 1000: compaction aims at 1000 × 0.75 × 0.7 = 525 tokens. A ~800-token task cannot get there
    // (it must be kept whole) but fits the window, so it is sent rather than refused.
    const task = "word ".repeat(800);
    const tokens = count([{ role: "user", content: task }]);
    expect(tokens).toBeGreaterThan(750);
    expect(tokens).toBeLessThan(1000);
    const model = new ScriptedModel([{ text: "ok" }]);
    const fits = await new Agent({ model, context: { maxContextTokens: 1000, counter } }).run(task);
    expect(fits.error).toBeUndefined();
    expect(fits.stopReason).toBe("completed");
    expect(model.calls).toHaveLength(1);

    const refused = await new Agent({
      model: new ScriptedModel([]),
      context: { maxContextTokens: 700, counter },
    }).run(task);
    expect(ContextOverflowError.isInstance(refused.error)).toBe(true);
    expect((refused.error as ContextOverflowError).budget).toBe(700);
  });

  it("persists the compacted history to the session store", async () => {
    const { MemoryStore } = await import("../stores/memory-store.js");
    const store = new MemoryStore();
    const result = await new Agent({
      model: browsing(10),
      tools: [fetchPage],
      store,
      loopDetection: false,
      context: { maxContextTokens: 4000, counter, truncateToolResultsTo: 5000 },
    }).run("Read pages.", { sessionId: "compacted" });
    expect(compactions(result.events).length).toBeGreaterThan(0);
    const stored = (await store.load("compacted"))?.messages ?? [];
    expect(stored.map((m) => m.content)).toEqual(result.messages.map((m) => m.content));
    expect(validateHistory(stored)).toEqual([]);
  });
});
