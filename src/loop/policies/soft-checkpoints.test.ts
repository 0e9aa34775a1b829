import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentLimits } from "../agent-limits.js";
import { createLoopState } from "../loop-state.js";
import { SoftCheckpoints } from "./soft-checkpoints.js";

const setup = (limits: Pick<AgentLimits, "softMaxTurns" | "softTimeoutMs">, started = Date.now()) => {
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  const prompts = {
    softTurns: ({ turns }: { turns: number }) => `turns:${turns}`,
    softTime: ({ elapsedMs }: { elapsedMs: number }) => `time:${elapsedMs}`,
  };
  return { state, policy: new SoftCheckpoints({ state, limits, prompts, started }) };
};

describe("SoftCheckpoints", () => {
  afterEach(() => vi.useRealTimers());

  it("does nothing without soft limits", () => {
    const { state, policy } = setup({});
    for (let i = 0; i < 50; i++) expect(policy.beforeTurn()).toBeUndefined();
    expect(state.messages).toHaveLength(1);
  });

  it("every softMaxTurns turns: appends the turns prompt and returns its soft_limit event", () => {
    const { state, policy } = setup({ softMaxTurns: 2 });
    const fired: number[] = [];
    for (let turn = 0; turn < 7; turn++) {
      state.turns = turn;
      const event = policy.beforeTurn();
      if (event === undefined) continue;
      fired.push(turn);
      expect(event).toMatchObject({
        type: "soft_limit",
        turn,
        data: { reason: "turns", prompt: `turns:${turn}` },
      });
      expect(state.messages.at(-1)).toEqual({ role: "user", content: `turns:${turn}` });
    }
    expect(fired).toEqual([2, 4, 6]);
    expect(state.messages).toHaveLength(4);
  });

  it("every softTimeoutMs: appends the time prompt with the time since the run started", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { state, policy } = setup({ softTimeoutMs: 100 }, Date.now());
    vi.advanceTimersByTime(99);
    expect(policy.beforeTurn()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(policy.beforeTurn()?.data).toEqual({ reason: "time", prompt: "time:100" });
    vi.advanceTimersByTime(50);
    expect(policy.beforeTurn()).toBeUndefined(); // the period restarts at the checkpoint
    vi.advanceTimersByTime(50);
    expect(policy.beforeTurn()?.data).toEqual({ reason: "time", prompt: "time:200" });
    expect(state.messages.map((m) => m.content)).toEqual(["go", "time:100", "time:200"]);
  });

  it("the turns checkpoint wins when both are due; the time one, still due, fires at the next turn", () => {
    vi.useFakeTimers({ now: 0 });
    const { state, policy } = setup({ softMaxTurns: 2, softTimeoutMs: 10 }, 0);
    expect(policy.beforeTurn()).toBeUndefined();
    expect(policy.beforeTurn()).toBeUndefined();
    vi.advanceTimersByTime(20);
    expect(policy.beforeTurn()?.data.reason).toBe("turns");
    expect(state.messages).toHaveLength(2);
    expect(policy.beforeTurn()?.data.reason).toBe("time");
    expect(state.messages).toHaveLength(3);
  });
});
