import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { createToolCall, type Message, type ToolMessage } from "../models/message.js";
import { compactMessages } from "./compact-messages.js";
import { compactionMarkerText, parseCompactionMarker } from "./compaction-marker.js";
import { charCounter } from "./test-utils/char-counter.js";
import { countMessages } from "./token-counter.js";
import { validateHistory } from "./validate-history.js";

const counter = charCounter();
const system: Message = { role: "system", content: "You are a careful assistant." };
let ids = 0;

function round(results: string[], text = ""): Message[] {
  const calls = results.map(() => createToolCall({ id: `call_${ids++}`, name: "read", rawArguments: "{}" }));
  return [
    { role: "assistant", content: text, toolCalls: calls },
    ...results.map(
      (content, i): ToolMessage => ({ role: "tool", toolCallId: calls[i]!.id, toolName: "read", content }),
    ),
  ];
}
const user = (content: string): Message => ({ role: "user", content });
const answer = (content: string): Message => ({ role: "assistant", content });
const tokens = (messages: readonly Message[]) => countMessages({ counter, messages });

describe("compactMessages", () => {
  it("returns a history that fits unchanged, in a new array", () => {
    const messages = [system, user("hi"), answer("hello")];
    const result = compactMessages({ messages, counter, budget: tokens(messages) });
    expect(result.messages).not.toBe(messages);
    expect(result.messages).toEqual(messages);
    for (const [i, message] of result.messages.entries()) expect(message).toBe(messages[i]);
    expect(result).toMatchObject({ removed: [], truncated: 0, fits: true, tokensAfter: tokens(messages) });
  });

  it("first truncates old tool results, oldest first, and leaves recent ones whole", () => {
    const old = round(["x".repeat(5000)]);
    const recent = round(["y".repeat(3000)]);
    const messages = [system, user("read both"), ...old, ...recent, answer("done")];
    const budget = tokens(messages) - 2000;
    const result = compactMessages({
      messages,
      counter,
      budget,
      keepLastMessages: 3,
      truncateToolResultsTo: 1000,
    });
    expect(result.fits).toBe(true);
    expect(result.removed).toEqual([]);
    expect(result.truncated).toBe(1);
    const cut = result.messages[3] as ToolMessage;
    expect(cut).not.toBe(old[1]);
    expect(cut.toolCallId).toBe((old[1] as ToolMessage).toolCallId);
    expect(cut.content).toBe(
      `${"x".repeat(1000)}\n[… 4000 more characters truncated to fit the context window]`,
    );
    // Everything else is the same objects.
    expect(result.messages.filter((m) => m !== cut)).toEqual(messages.filter((m) => m !== old[1]));
    expect(result.messages[5]).toBe(recent[1]);
  });

  it("removes whole units from the oldest and puts a stand-alone marker before an assistant message", () => {
    const first = round(["a".repeat(400), "b".repeat(400)]);
    const second = round(["c".repeat(100)]);
    const messages = [system, user("x".repeat(300)), ...first, ...second, user("latest"), answer("ok")];
    const budget = tokens(messages) - 900;
    const result = compactMessages({ messages, counter, budget, keepLastMessages: 2 });
    expect(result.fits).toBe(true);
    expect(result.removed).toEqual([messages[1], ...first]);
    expect(result.messages).toEqual([
      system,
      user(compactionMarkerText(4)),
      ...second,
      messages[7],
      messages[8],
    ]);
    expect(validateHistory(result.messages)).toEqual([]);
    expect(result.tokensAfter).toBe(tokens(result.messages));
    expect(result.tokensAfter).toBeLessThanOrEqual(budget);
  });

  it("merges the marker into the first kept message when it is a user message", () => {
    const messages = [
      system,
      user("old question ".repeat(30)),
      answer("old answer ".repeat(30)),
      user("new question"),
    ];
    const result = compactMessages({
      messages,
      counter,
      budget: tokens(messages) - 500,
      keepLastMessages: 1,
    });
    expect(result.removed).toEqual([messages[1], messages[2]]);
    expect(result.messages).toHaveLength(2);
    const merged = result.messages[1]!;
    expect(merged.content).toBe(`${compactionMarkerText(2)}\n\nnew question`);
    expect(parseCompactionMarker(merged)).toEqual({ removed: 2, original: messages[3] });
    expect(parseCompactionMarker(merged)?.original).toBe(messages[3]);
  });

  it("removes tool rounds after the latest user message when needed, keeping the last round", () => {
    const rounds = [round(["r".repeat(500)]), round(["s".repeat(500)]), round(["t".repeat(500)])];
    const messages = [system, user("do the task"), ...rounds.flat()];
    const budget = tokens(messages) - 800;
    const result = compactMessages({
      messages,
      counter,
      budget,
      keepLastMessages: 2,
      truncateToolResultsTo: 10_000,
    });
    expect(result.fits).toBe(true);
    expect(result.removed).toEqual([...rounds[0]!, ...rounds[1]!]);
    expect(result.messages[1]!.content).toBe(`${compactionMarkerText(4)}\n\ndo the task`);
    expect(result.messages.slice(2)).toEqual(rounds[2]);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("reports fits: false with the minimum when even that exceeds the budget", () => {
    const messages = [
      system,
      user("old"),
      answer("older answer"),
      user("z".repeat(1000)),
      ...round(["w".repeat(5000)]),
    ];
    const result = compactMessages({ messages, counter, budget: 500, truncateToolResultsTo: 100 });
    expect(result.fits).toBe(false);
    expect(result.removed).toEqual([messages[1], messages[2]]);
    // System + latest user message (with the marker) + the last round, its result cut.
    expect(result.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect((result.messages[3] as ToolMessage).content.length).toBeLessThan(200);
    expect(result.tokensAfter).toBe(tokens(result.messages));
    expect(result.tokensAfter).toBeGreaterThan(500);
  });

  it("replaces an earlier marker and adds up its count on the next compaction", () => {
    const history: Message[] = [system];
    for (let i = 0; i < 6; i++)
      history.push(user(`question ${i} `.repeat(20)), answer(`answer ${i} `.repeat(20)));
    const first = compactMessages({
      messages: history,
      counter,
      budget: Math.floor(tokens(history) * 0.7),
      keepLastMessages: 2,
    });
    const firstMarker = parseCompactionMarker(first.messages[1]!);
    expect(firstMarker?.removed).toBe(first.removed.length);
    const grown = [...first.messages, user("one more ".repeat(30)), answer("sure ".repeat(30))];
    const second = compactMessages({
      messages: grown,
      counter,
      budget: Math.floor(tokens(grown) * 0.6),
      keepLastMessages: 2,
    });
    const markers = second.messages.filter((m) => parseCompactionMarker(m) !== undefined);
    expect(markers).toHaveLength(1);
    expect(parseCompactionMarker(markers[0]!)?.removed).toBe(first.removed.length + second.removed.length);
    // The user message the first marker was merged into is reported unwrapped, as the original object.
    expect(second.removed[0]).toBe(firstMarker?.original);
    for (const message of second.removed) expect(history).toContain(message);
  });

  it("rejects invalid options", () => {
    const messages = [user("hi")];
    expect(() => compactMessages({ messages, counter, budget: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => compactMessages({ messages, counter, budget: 10, keepLastMessages: -1 })).toThrow(
      /keepLastMessages/,
    );
    expect(() => compactMessages({ messages, counter, budget: 10, truncateToolResultsTo: 0 })).toThrow(
      /truncateToolResultsTo/,
    );
  });
});
