import { describe, expect, it } from "vitest";
import { createToolCall, type Message } from "../models/message.js";
import { applySummary } from "./apply-summary.js";
import { buildSummaryRequest } from "./build-summary-request.js";
import { compactMessages } from "./compact-messages.js";
import { compactionMarkerText, parseCompactionMarker } from "./compaction-marker.js";
import { findSummary, SUMMARY_PREFIX } from "./summary-message.js";
import { charCounter } from "./test-utils/char-counter.js";
import { countMessages } from "./token-counter.js";
import { validateHistory } from "./validate-history.js";

const counter = charCounter();
const system: Message = { role: "system", content: "You are a travel agent." };
const search = createToolCall({ id: "call_9", name: "search_flights", rawArguments: '{"to":"LIS"}' });

describe("findSummary", () => {
  it("finds the summary among the leading system messages only", () => {
    expect(findSummary([system, { role: "user", content: "hi" }])).toBeUndefined();
    expect(findSummary([system, { role: "system", content: `${SUMMARY_PREFIX}- wants Lisbon` }])).toBe(
      "- wants Lisbon",
    );
    expect(
      findSummary([
        system,
        { role: "user", content: "x" },
        { role: "system", content: `${SUMMARY_PREFIX}late` },
      ]),
    ).toBeUndefined();
  });
});

describe("buildSummaryRequest", () => {
  it("includes the previous summary and every removed message, with tool calls and results", () => {
    const removed: Message[] = [
      { role: "user", content: "Find me a flight to Lisbon in May." },
      { role: "assistant", content: "Searching.", toolCalls: [search] },
      { role: "tool", toolCallId: "call_9", toolName: "search_flights", content: "TP1350 09:10 €120" },
      { role: "tool", toolCallId: "call_8", toolName: "book", content: "card declined", isError: true },
      { role: "assistant", content: "x".repeat(5000) },
    ];
    const request = buildSummaryRequest({ removed, previousSummary: "- budget: €300", maxWords: 250 });
    expect(request.tools).toBeUndefined();
    expect(request.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const [instructions, prompt] = request.messages.map((m) => m.content) as [string, string];
    expect(instructions).toContain("at most 250 words");
    expect(instructions).toMatch(/decisions/);
    expect(instructions).toMatch(/open questions/);
    expect(prompt).toContain("<previous_summary>\n- budget: €300\n</previous_summary>");
    expect(prompt).toContain("[user] Find me a flight to Lisbon in May.");
    expect(prompt).toContain("[assistant] Searching.");
    expect(prompt).toContain('[assistant called search_flights (call_9)] {"to":"LIS"}');
    expect(prompt).toContain("[result of search_flights (call_9)] TP1350 09:10 €120");
    expect(prompt).toContain("[error from book (call_8)] card declined");
    // Long messages are clipped.
    expect(prompt).toContain(`${"x".repeat(2000)} […3000 more characters]`);
    expect(prompt).not.toContain("x".repeat(2001));
  });

  it("works without a previous summary", () => {
    const request = buildSummaryRequest({ removed: [{ role: "user", content: "hello" }] });
    expect(request.messages[1]!.content).not.toContain("previous_summary");
    expect(request.messages[1]!.content).toContain("[user] hello");
  });
});

describe("applySummary", () => {
  it("replaces a merged marker with one system summary and restores the user message", () => {
    const latest: Message = { role: "user", content: "And hotels?" };
    const messages: Message[] = [
      system,
      { role: "user", content: "Flights to Lisbon ".repeat(20) },
      { role: "assistant", content: "Here are flights ".repeat(20) },
      latest,
    ];
    const result = compactMessages({ messages, counter, budget: countMessages({ counter, messages }) - 500 });
    expect(String(result.messages[1]!.content).startsWith(compactionMarkerText(2))).toBe(true);
    const applied = applySummary({ compacted: result.messages, summary: "- flying to Lisbon\n" });
    expect(applied).toEqual([
      system,
      { role: "system", content: `${SUMMARY_PREFIX}- flying to Lisbon` },
      latest,
    ]);
    expect(applied[0]).toBe(system);
    expect(applied[2]).toBe(latest);
  });

  it("keeps a stand-alone marker before an assistant message, so a user message still comes first", () => {
    const compacted: Message[] = [
      system,
      { role: "user", content: compactionMarkerText(3) },
      { role: "assistant", content: "", toolCalls: [search] },
      { role: "tool", toolCallId: "call_9", toolName: "search_flights", content: "TP1350" },
    ];
    const applied = applySummary({ compacted, summary: "- wants Lisbon" });
    expect(applied.map((m) => m.role)).toEqual(["system", "system", "user", "assistant", "tool"]);
    expect(applied[2]).toBe(compacted[1]);
    expect(validateHistory(applied)).toEqual([]);
  });

  it("changes nothing for an empty summary", () => {
    const compacted: Message[] = [system, { role: "user", content: compactionMarkerText(1) }];
    expect(applySummary({ compacted, summary: "  " })).toEqual(compacted);
  });

  it("keeps exactly one summary message across two compactions", () => {
    const history: Message[] = [system];
    const compactAndSummarize = (summary: string) => {
      const budget = Math.floor(countMessages({ counter, messages: history }) * 0.5);
      const result = compactMessages({ messages: history, counter, budget, keepLastMessages: 2 });
      expect(result.removed.length).toBeGreaterThan(0);
      const request = buildSummaryRequest({ removed: result.removed, previousSummary: findSummary(history) });
      const applied = applySummary({ compacted: result.messages, summary });
      history.length = 0;
      history.push(...applied);
      return request;
    };
    for (let i = 0; i < 6; i++)
      history.push(
        { role: "user", content: `step ${i} `.repeat(30) },
        { role: "assistant", content: `done ${i} `.repeat(30) },
      );
    compactAndSummarize("- first summary");
    for (let i = 6; i < 12; i++)
      history.push(
        { role: "user", content: `step ${i} `.repeat(30) },
        { role: "assistant", content: `done ${i} `.repeat(30) },
      );
    const second = compactAndSummarize("- second summary, which includes the first");

    expect(second.messages[1]!.content).toContain("<previous_summary>\n- first summary\n</previous_summary>");
    const summaries = history.filter((m) => m.role === "system" && m.content.startsWith(SUMMARY_PREFIX));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.content).toBe(`${SUMMARY_PREFIX}- second summary, which includes the first`);
    expect(history[0]).toBe(system);
    expect(history[1]).toBe(summaries[0]);
    // A marker survives only stand-alone, right before an assistant message (a user message must come first).
    const markers = history.flatMap((m, i) => (parseCompactionMarker(m) === undefined ? [] : [i]));
    expect(markers.length).toBeLessThanOrEqual(1);
    for (const i of markers) {
      expect(i).toBe(2);
      expect(parseCompactionMarker(history[i]!)?.original).toBeUndefined();
      expect(history[i + 1]?.role).toBe("assistant");
    }
    expect(validateHistory(history)).toEqual([]);
  });
});
