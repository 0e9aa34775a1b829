import { describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import type { AgentEvent, StopReason } from "./agent-event.js";
import type { AgentLoopOutcome } from "./agent-loop.js";
import { type EndRunOptions, endRun } from "./end-run.js";
import { createLoopState } from "./loop-state.js";

const openCall = (): Message[] => [
  { role: "user", content: "go" },
  { role: "assistant", content: "", toolCalls: [{ id: "a", name: "t", arguments: {}, rawArguments: "{}" }] },
];

function setup({
  stopReason,
  failure,
  end,
}: {
  stopReason: StopReason;
  failure?: Error;
  end?: () => Promise<void>;
}) {
  const state = createLoopState({ messages: openCall(), resumed: false });
  state.turns = 2;
  state.text = "last";
  const ends: StopReason[] = [];
  const options: EndRunOptions = {
    state,
    stopReason,
    failure,
    checkpoint: {
      end: (reason: StopReason) => {
        ends.push(reason);
        return end?.();
      },
    } as EndRunOptions["checkpoint"],
    cost: { totals: () => ({ costUsd: 0.75, costUnknownModels: ["m"] }) },
    approvals: { pending: [{ toolCallId: "a", toolName: "t", arguments: {} }], paused: undefined },
  };
  return { state, ends, options };
}

async function finish(options: EndRunOptions) {
  const events: AgentEvent[] = [];
  const gen = endRun(options);
  for (;;) {
    const next = await gen.next();
    if (next.done) return { events, outcome: next.value as AgentLoopOutcome };
    events.push(next.value);
  }
}

describe("endRun", () => {
  it("closes the calls left open with the stop's reason, persists once and ends with loop_end", async () => {
    const cases: [StopReason, string][] = [
      ["timeout", "Not executed: the run timed out."],
      ["aborted", "Not executed: the run was aborted."],
      ["max_turns", "Not executed: the run stopped."],
    ];
    for (const [stopReason, content] of cases) {
      const { state, ends, options } = setup({ stopReason });
      const { events, outcome } = await finish(options);
      expect(state.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "a", content, isError: true });
      expect(ends).toEqual([stopReason]);
      expect(events).toEqual([
        expect.objectContaining({ type: "loop_end", turn: 2, data: { stopReason, text: "last" } }),
      ]);
      expect(outcome).toEqual({
        stopReason,
        text: "last",
        turns: 2,
        usage: state.usage,
        messages: state.messages,
        costUsd: 0.75,
        costUnknownModels: ["m"],
      });
    }
  });

  it("leaves a paused run's calls open and returns them as pendingApprovals", async () => {
    const { state, options } = setup({ stopReason: "awaiting_approval" });
    const { outcome } = await finish(options);
    expect(state.messages).toHaveLength(2);
    expect(outcome.pendingApprovals).toEqual([{ toolCallId: "a", toolName: "t", arguments: {} }]);
  });

  it("keeps the failure that ended the run", async () => {
    const failure = new Error("model down");
    const { options } = setup({ stopReason: "error", failure });
    const { events, outcome } = await finish(options);
    expect(outcome.error).toBe(failure);
    expect(outcome.pendingApprovals).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["loop_end"]);
  });

  it("a failing checkpoint turns the run into an error: a fatal error event before loop_end", async () => {
    const { options } = setup({
      stopReason: "completed",
      end: () => Promise.reject(new Error("store down")),
    });
    const { events, outcome } = await finish(options);
    expect(events.map((e) => e.type)).toEqual(["error", "loop_end"]);
    expect(events[0]).toMatchObject({ data: { message: "store down", fatal: true } });
    expect(events[1]).toMatchObject({ data: { stopReason: "error" } });
    expect(outcome).toMatchObject({ stopReason: "error", error: { message: "store down" } });
  });
});
