import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../models/message.js";
import { createLoopState } from "../loop-state.js";
import { ToolCallGuards, type ToolCallGuardsOptions } from "./tool-call-guards.js";

const call = (id: string, v: number): ToolCall => ({
  id,
  name: "echo",
  arguments: { v },
  rawArguments: `{"v":${v}}`,
});

const setup = (options: Partial<Omit<ToolCallGuardsOptions, "state">> & { spent?: boolean } = {}) => {
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  state.turns = 1;
  const guards = new ToolCallGuards({
    state,
    maxToolCallsPerTurn: options.maxToolCallsPerTurn ?? 128,
    loopDetection: options.loopDetection ?? { window: 4, threshold: 3 },
    limits: { tokensSpent: () => options.spent === true },
  });
  /** Appends the response like the model turn does, then asks the guards. */
  const respond = (calls: ToolCall[]) => {
    state.messages.push({ role: "assistant", content: "", toolCalls: calls });
    return guards.check(calls);
  };
  return { state, respond };
};

describe("ToolCallGuards", () => {
  it("lets ordinary calls run (undefined) and leaves the history alone", () => {
    const { state, respond } = setup();
    expect(respond([call("a", 1), call("b", 2)])).toBeUndefined();
    expect(state.messages).toHaveLength(2);
  });

  it("refuses a response with more than maxToolCallsPerTurn calls: none runs, each is answered, the run goes on", () => {
    const { state, respond } = setup({ maxToolCallsPerTurn: 2 });
    const verdict = respond([call("a", 1), call("b", 2), call("c", 3)]);
    expect(verdict).toMatchObject({
      kind: "refused",
      event: { type: "error", turn: 1, data: { name: "TooManyToolCalls", fatal: false } },
    });
    const results = state.messages.slice(2);
    expect(results.map((m) => m.role === "tool" && m.toolCallId)).toEqual(["a", "b", "c"]);
    expect(results[0]?.content).toMatch(/^Not executed: the response made 3 tool calls and at most 2/);
  });

  it("stops with loop_detected when the same call repeats `threshold` times, answering the last turn's calls", () => {
    const { state, respond } = setup();
    expect(respond([call("a", 1)])).toBeUndefined();
    expect(respond([call("b", 1)])).toBeUndefined();
    const verdict = respond([call("c", 1)]);
    expect(verdict).toMatchObject({
      kind: "stop",
      stopReason: "loop_detected",
      event: { type: "error", data: { name: "LoopDetected", fatal: false } },
    });
    expect(state.messages.at(-1)).toMatchObject({
      role: "tool",
      toolCallId: "c",
      content: expect.stringMatching(/a loop was detected/),
    });
  });

  it("never detects a loop with loopDetection: false", () => {
    const { respond } = setup({ loopDetection: false });
    for (let i = 0; i < 10; i++) expect(respond([call(`c${i}`, 1)])).toBeUndefined();
  });

  it("stops with token_limit (no event) when the run's tokens are spent, closing the calls", () => {
    const { state, respond } = setup({ spent: true });
    expect(respond([call("a", 1)])).toEqual({ kind: "stop", stopReason: "token_limit" });
    expect(state.messages.at(-1)).toMatchObject({
      toolCallId: "a",
      content: "Not executed: the run's token limit was reached.",
    });
  });

  it("checks in order: too many calls before a loop before the token limit", () => {
    const { respond } = setup({ maxToolCallsPerTurn: 1, spent: true });
    expect(respond([call("a", 1), call("b", 2)])?.kind).toBe("refused");
  });
});
