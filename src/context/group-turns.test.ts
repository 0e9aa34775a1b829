import { describe, expect, it } from "vitest";
import { createToolCall, type Message } from "../models/message.js";
import { groupTurns } from "./group-turns.js";
import { validateHistory } from "./validate-history.js";

const call = (id: string) => createToolCall({ id, name: "f", rawArguments: "{}" });
const result = (id: string): Message => ({ role: "tool", toolCallId: id, toolName: "f", content: id });

describe("groupTurns", () => {
  it("pins the leading system messages and groups a tool round with all its results", () => {
    const messages: Message[] = [
      { role: "system", content: "a" },
      { role: "system", content: "b" },
      { role: "user", content: "q" },
      { role: "assistant", content: "", toolCalls: [call("1"), call("2")] },
      result("2"),
      result("1"),
      { role: "assistant", content: "answer" },
      { role: "system", content: "late instruction" },
      { role: "user", content: "thanks" },
    ];
    expect(groupTurns(messages)).toEqual({
      pinned: 2,
      units: [
        { kind: "user", start: 2, end: 3 },
        { kind: "tool_round", start: 3, end: 6 },
        { kind: "assistant", start: 6, end: 7 },
        { kind: "system", start: 7, end: 8 },
        { kind: "user", start: 8, end: 9 },
      ],
    });
  });

  it("makes orphan and duplicate results their own units and keeps a round with a missing result", () => {
    const messages: Message[] = [
      { role: "user", content: "q" },
      result("x"),
      { role: "assistant", content: "", toolCalls: [call("1"), call("2")] },
      result("1"),
      result("1"),
      { role: "assistant", content: "", toolCalls: [] },
    ];
    expect(groupTurns(messages).units).toEqual([
      { kind: "user", start: 0, end: 1 },
      { kind: "orphan_tool_result", start: 1, end: 2 },
      { kind: "tool_round", start: 2, end: 4 },
      { kind: "orphan_tool_result", start: 4, end: 5 },
      { kind: "assistant", start: 5, end: 6 },
    ]);
  });
});

describe("validateHistory", () => {
  it("accepts a valid history", () => {
    expect(
      validateHistory([
        { role: "system", content: "s" },
        { role: "user", content: "q" },
        { role: "assistant", content: "", toolCalls: [call("1")] },
        result("1"),
        { role: "assistant", content: "a" },
        { role: "user", content: "q2" },
        { role: "user", content: "q3" },
      ]),
    ).toEqual([]);
    expect(validateHistory([])).toEqual([]);
  });

  it("reports orphans, missing results, a non-user first message and consecutive assistant messages", () => {
    const problems = validateHistory([
      { role: "system", content: "s" },
      { role: "assistant", content: "hello" },
      { role: "assistant", content: "", toolCalls: [call("1"), call("2")] },
      result("1"),
      { role: "user", content: "q" },
      result("2"),
    ]);
    expect(problems.map(({ kind, index, toolCallId }) => ({ kind, index, toolCallId }))).toEqual([
      { kind: "first_message_not_user", index: 1, toolCallId: undefined },
      { kind: "missing_tool_result", index: 2, toolCallId: "2" },
      { kind: "orphan_tool_result", index: 5, toolCallId: "2" },
      { kind: "consecutive_assistant_messages", index: 2, toolCallId: undefined },
    ]);
    for (const problem of problems) expect(problem.message.length).toBeGreaterThan(10);
  });
});
