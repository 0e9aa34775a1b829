import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { applySummary } from "./apply-summary.js";
import { compactMessages } from "./compact-messages.js";
import { parseCompactionMarker } from "./compaction-marker.js";
import { createEstimatingCounter } from "./create-estimating-counter.js";
import { splitUnits } from "./group-turns.js";
import { loadTokenCounter } from "./load-token-counter.js";
import { findSummary, SUMMARY_PREFIX } from "./summary-message.js";
import { historyArbitrary } from "./test-utils/history-arbitrary.js";
import { countMessages, type TokenCounter } from "./token-counter.js";
import { truncateToolResult } from "./truncate-tool-result.js";
import { validateHistory } from "./validate-history.js";

const optionsArbitrary = fc.record({
  history: historyArbitrary,
  // Where the budget falls: below the minimum that must be kept (< 0), between it and the full size (0–1), or
  // above the full size (> 1).
  budgetPosition: fc.oneof(
    fc.double({ min: -0.5, max: 1.2, noNaN: true }),
    fc.double({ min: 0.85, max: 1, noNaN: true }), // only a little to remove
    fc.constantFrom(-1, 0, 1),
  ),
  keepLastMessages: fc.integer({ min: 0, max: 10 }),
  truncateToolResultsTo: fc.integer({ min: 1, max: 3000 }),
});

function leadingSystem(messages: readonly Message[]): number {
  let n = 0;
  while (n < messages.length && messages[n]!.role === "system") n++;
  return n;
}

/** The input message an output message stands for (itself, the unmerged user message, or the untruncated tool result). */
function sourceOf(
  message: Message,
  input: readonly Message[],
  pinned: number,
  position: number,
): Message | "marker" {
  if (input.includes(message)) return message;
  if (position === pinned) {
    const marker = parseCompactionMarker(message);
    if (marker !== undefined) return marker.original ?? "marker";
  }
  if (message.role === "tool") {
    const original = input.find((m) => m.role === "tool" && m.toolCallId === message.toolCallId);
    if (original !== undefined) return original;
  }
  throw new Error(`output message ${position} comes from nowhere: ${JSON.stringify(message).slice(0, 200)}`);
}

/** Which outcomes the runs covered, so that a property cannot pass vacuously. */
type Outcome = "unchanged" | "fits" | "overflow" | "merged-marker" | "stand-alone-marker" | "truncated";

function checkProperties(
  counter: TokenCounter,
  input: Message[],
  options: { budgetPosition: number; keepLastMessages: number; truncateToolResultsTo: number },
  seen: Set<Outcome>,
): void {
  expect(validateHistory(input)).toEqual([]);
  const { keepLastMessages, truncateToolResultsTo, budgetPosition: position } = options;
  const tokensBefore = countMessages({ counter, messages: input });
  // The minimum: what compaction keeps when nothing fits.
  const minimum = compactMessages({
    messages: input,
    counter,
    budget: 0,
    keepLastMessages,
    truncateToolResultsTo,
  });
  expect(minimum.fits).toBe(false);
  const floor = Math.min(minimum.tokensAfter, tokensBefore);
  const budget = Math.floor(
    position < 0 ? floor * (1 + position) : floor + position * (tokensBefore - floor),
  );
  const result = compactMessages({
    messages: input,
    counter,
    budget,
    keepLastMessages,
    truncateToolResultsTo,
  });
  const output = result.messages;
  const pinned = leadingSystem(input);

  expect(result.tokensBefore).toBe(tokensBefore);
  expect(result.tokensAfter).toBe(countMessages({ counter, messages: output }));
  expect(output).not.toBe(input);

  // Valid for OpenAI and Anthropic: no orphan results, no call without its result right after it, the first
  // non-system message is `user`, no two consecutive assistant messages.
  expect(validateHistory(output)).toEqual([]);
  // The system messages are never removed (same objects, same place).
  expect(output.slice(0, pinned)).toEqual(input.slice(0, pinned));
  for (let i = 0; i < pinned; i++) expect(output[i]).toBe(input[i]);
  expect(leadingSystem(output)).toBe(pinned);

  // Every output message is an input message (same object), a truncated tool result, the marker, or the marker
  // merged into a user message; in input order, each at most once.
  const sources = output.map((message, position) => sourceOf(message, input, pinned, position));
  const sourceIndexes = sources.filter((s): s is Message => s !== "marker").map((s) => input.indexOf(s));
  expect(sourceIndexes).toEqual([...sourceIndexes].sort((a, b) => a - b));
  expect(new Set(sourceIndexes).size).toBe(sourceIndexes.length);
  output.forEach((message, position) => {
    const source = sources[position]!;
    if (source === "marker" || source === message) return;
    if (source.role === "user") {
      expect(position).toBe(pinned);
      expect(String(message.content).endsWith(String(source.content))).toBe(true);
    } else {
      expect(source.role).toBe("tool");
      expect(message.role).toBe("tool");
      expect(source.content.length).toBeGreaterThan(truncateToolResultsTo);
      expect(
        String(message.content).startsWith(String(source.content).slice(0, truncateToolResultsTo - 1)),
      ).toBe(true);
      expect(message.content).toMatch(/more characters truncated to fit the context window\]$/);
    }
  });
  // Removed + kept = the input after the system messages.
  const kept = sources.filter((s): s is Message => s !== "marker").slice(pinned);
  expect([...result.removed, ...kept].sort((a, b) => input.indexOf(a) - input.indexOf(b))).toEqual(
    input.slice(pinned),
  );
  for (const message of result.removed) expect(input.includes(message)).toBe(true);
  expect(result.truncated).toBe(output.filter((m, i) => m.role === "tool" && sources[i] !== m).length);

  // The marker counts the removed messages and is the only one.
  const markers = output
    .map((m) => (m.role === "user" ? parseCompactionMarker(m) : undefined))
    .filter(Boolean);
  expect(markers.length).toBe(result.removed.length > 0 ? 1 : 0);
  if (result.removed.length > 0) expect(markers[0]!.removed).toBe(result.removed.length);
  if (markers[0] !== undefined)
    seen.add(markers[0].original === undefined ? "stand-alone-marker" : "merged-marker");
  if (result.truncated > 0) seen.add("truncated");
  seen.add(tokensBefore <= budget ? "unchanged" : result.fits ? "fits" : "overflow");

  // The latest user message is kept.
  const latestUser = input.findLast((m) => m.role === "user");
  if (latestUser !== undefined) expect(sources).toContain(latestUser);

  if (tokensBefore <= budget) {
    // Already fitting: unchanged.
    expect(result.fits).toBe(true);
    expect(output.length).toBe(input.length);
    for (const [i, message] of output.entries()) expect(message).toBe(input[i]);
    expect(result.removed).toEqual([]);
    expect(result.truncated).toBe(0);
  } else if (result.fits) {
    expect(result.tokensAfter).toBeLessThanOrEqual(budget);
  } else {
    expect(budget).toBeLessThan(minimum.tokensAfter);
    expect(result.tokensAfter).toBe(minimum.tokensAfter);
    // Not fitting only at the minimum: system + marker + latest user message + last unit, tool results cut.
    expect(result.tokensAfter).toBeGreaterThan(budget);
    const units = splitUnits(input, pinned);
    const last = units[units.length - 1]!;
    const latestUserIndex = latestUser === undefined ? -1 : input.indexOf(latestUser);
    const minimal = input.filter((_, i) => i === latestUserIndex || (i >= last.start && i < last.end));
    expect(kept).toEqual(minimal);
    for (const [i, message] of output.entries()) {
      const source = sources[i]!;
      if (message.role === "tool" && source !== "marker" && source.content.length > truncateToolResultsTo) {
        // Left whole only when cutting it would not have saved a token.
        if (message === source) {
          const cut = truncateToolResult({ message, maxChars: truncateToolResultsTo });
          expect(counter.countMessage(cut)).toBeGreaterThanOrEqual(counter.countMessage(message));
        }
      }
    }
  }
}

describe("compactMessages properties (random valid histories)", () => {
  it("keeps histories valid, keeps what must be kept, fits when it says so (estimating counter)", () => {
    const counter = createEstimatingCounter();
    const seen = new Set<Outcome>();
    fc.assert(
      fc.property(optionsArbitrary, ({ history, ...options }) =>
        checkProperties(counter, history, options, seen),
      ),
      { numRuns: 600 },
    );
    expect([...seen].sort()).toEqual(
      ["fits", "merged-marker", "overflow", "stand-alone-marker", "truncated", "unchanged"].sort(),
    );
  });

  it("holds with the exact o200k_base counter too", async () => {
    const counter = await loadTokenCounter({ modelId: "gpt-4o-mini" });
    expect(counter.exact).toBe(true);
    const seen = new Set<Outcome>();
    fc.assert(
      fc.property(optionsArbitrary, ({ history, ...options }) =>
        checkProperties(counter, history, options, seen),
      ),
      { numRuns: 200 },
    );
    expect(seen.size).toBe(6);
  });

  it("a second compaction replaces the marker and adds up its count", () => {
    const counter = createEstimatingCounter();
    fc.assert(
      fc.property(historyArbitrary, fc.double({ min: 0.2, max: 0.9, noNaN: true }), (history, ratio) => {
        const before = countMessages({ counter, messages: history });
        const first = compactMessages({ messages: history, counter, budget: Math.floor(before * ratio) });
        fc.pre(first.fits && first.removed.length > 0);
        const budget = Math.floor(first.tokensAfter * ratio);
        const second = compactMessages({ messages: first.messages, counter, budget });
        expect(validateHistory(second.messages)).toEqual([]);
        const markers = second.messages.map((m) => parseCompactionMarker(m)).filter((m) => m !== undefined);
        expect(markers.length).toBe(1);
        expect(markers[0]!.removed).toBe(first.removed.length + second.removed.length);
        // The earlier marker is never reported as a removed message; a merged one is unwrapped.
        for (const message of second.removed) {
          expect(parseCompactionMarker(message)).toBeUndefined();
          expect(first.messages.includes(message) || history.includes(message)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("summaries keep the history valid and stay one message across repeated compactions", () => {
    const counter = createEstimatingCounter();
    fc.assert(
      fc.property(
        historyArbitrary,
        historyArbitrary,
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        (a, b, ratio) => {
          let history = a;
          let summarized = false;
          const pinned = leadingSystem(a);
          for (const [round, more] of [b.filter((m) => m.role !== "system"), []].entries()) {
            const budget = Math.floor(countMessages({ counter, messages: history }) * ratio);
            const result = compactMessages({ messages: history, counter, budget });
            if (result.removed.length > 0) {
              expect(findSummary(history) !== undefined).toBe(summarized);
              history = applySummary({ compacted: result.messages, summary: `summary ${round}` });
              summarized = true;
              expect(findSummary(history)).toBe(`summary ${round}`);
            }
            expect(validateHistory(history)).toEqual([]);
            expect(
              history.filter((m) => m.role === "system" && m.content.startsWith(SUMMARY_PREFIX)).length,
            ).toBe(findSummary(history) === undefined ? 0 : 1);
            for (let i = 0; i < pinned; i++) expect(history[i]).toBe(a[i]);
            history = [...history, ...more];
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
