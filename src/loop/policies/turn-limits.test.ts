import { describe, expect, it } from "vitest";
import type { ModelRequest, ModelResponse } from "../../models/model.js";
import type { AgentEvent } from "../agent-event.js";
import { type AgentLimits, DEFAULT_LIMIT_PROMPTS, DEFAULT_LIMITS } from "../agent-limits.js";
import { createLoopState, type LoopState } from "../loop-state.js";
import { TurnLimits, type TurnRunner } from "./turn-limits.js";

const setup = (limits: Partial<AgentLimits>) => {
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  const policy = new TurnLimits({
    state,
    limits: { ...DEFAULT_LIMITS, ...limits },
    prompts: DEFAULT_LIMIT_PROMPTS,
  });
  return { state, policy };
};

/** A turn runner that records its overrides and answers with `answer` (appending it like the real one). */
const runner = (state: LoopState, answer: ModelResponse | undefined) => {
  const seen: (Partial<ModelRequest> | undefined)[] = [];
  const turn: TurnRunner = {
    async *run(overrides): AsyncGenerator<AgentEvent, ModelResponse | undefined> {
      yield* [];
      seen.push(overrides);
      if (answer !== undefined)
        state.messages.push({ role: "assistant", content: answer.text, toolCalls: answer.toolCalls });
      return answer;
    },
  };
  return { turn, seen };
};

const drain = async <T>(gen: AsyncGenerator<AgentEvent, T>): Promise<T> => {
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
  }
};

const response = (toolCalls: ModelResponse["toolCalls"] = []): ModelResponse => ({
  text: "best so far",
  toolCalls,
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  finishReason: { unified: "stop", raw: "stop" },
});

describe("TurnLimits", () => {
  it("lets a turn start under both limits", () => {
    const { state, policy } = setup({ maxTurns: 3, maxTotalTokens: 100 });
    state.turns = 2;
    state.usage.totalTokens = 99;
    expect(policy.beforeTurn()).toBeUndefined();
    expect(policy.tokensSpent()).toBe(false);
  });

  it("decides max_turns once maxTurns turns were made", () => {
    const { state, policy } = setup({ maxTurns: 3 });
    state.turns = 3;
    expect(policy.beforeTurn()).toBe("max_turns");
  });

  it("decides token_limit once usage reaches maxTotalTokens, before max_turns", () => {
    const { state, policy } = setup({ maxTurns: 3, maxTotalTokens: 100 });
    state.usage.totalTokens = 100;
    expect(policy.tokensSpent()).toBe(true);
    expect(policy.beforeTurn()).toBe("token_limit");
    state.turns = 3;
    expect(policy.beforeTurn()).toBe("token_limit");
  });

  it("never decides token_limit without maxTotalTokens", () => {
    const { state, policy } = setup({});
    state.usage.totalTokens = Number.MAX_SAFE_INTEGER;
    expect(policy.tokensSpent()).toBe(false);
    expect(policy.beforeTurn()).toBeUndefined();
  });

  it("at maxTurns without wrapUp: max_turns, no call, the history untouched", async () => {
    const { state, policy } = setup({ maxTurns: 1 });
    const { turn, seen } = runner(state, response());
    expect(await drain(policy.atMaxTurns(turn))).toBe("max_turns");
    expect(seen).toEqual([]);
    expect(state.messages).toHaveLength(1);
  });

  it("at maxTurns with wrapUp: one tool-less call after the wrap-up prompt; calls it still made are closed", async () => {
    const { state, policy } = setup({ maxTurns: 1, wrapUp: true });
    const { turn, seen } = runner(
      state,
      response([{ id: "x", name: "echo", arguments: {}, rawArguments: "{}" }]),
    );
    expect(await drain(policy.atMaxTurns(turn))).toBe("max_turns");
    expect(seen).toEqual([{ toolChoice: "none" }]);
    expect(state.messages[1]).toEqual({ role: "user", content: DEFAULT_LIMIT_PROMPTS.wrapUp });
    expect(state.messages.at(-1)).toMatchObject({
      role: "tool",
      toolCallId: "x",
      content: "Not executed: the step limit was reached.",
      isError: true,
    });
  });

  it("at maxTurns with wrapUp: cost_limit when the cost policy refused the wrap-up call", async () => {
    const { state, policy } = setup({ maxTurns: 1, wrapUp: true });
    const { turn } = runner(state, undefined);
    expect(await drain(policy.atMaxTurns(turn))).toBe("cost_limit");
  });
});
