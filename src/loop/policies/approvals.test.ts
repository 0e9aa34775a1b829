import { describe, expect, it } from "vitest";
import { PENDING_APPROVALS_KEY } from "../../sessions/close-pending-calls.js";
import { RunState } from "../../sessions/run-state.js";
import { createLoopState } from "../loop-state.js";
import type { ApprovalDecisions } from "../tool-step.js";
import { Approvals } from "./approvals.js";

const decisions: ApprovalDecisions = { approve: new Set(["a"]), deny: new Set() };
const setup = (decided?: ReadonlyMap<number, ApprovalDecisions>) => {
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  const runState = new RunState();
  return { state, runState, approvals: new Approvals({ state, runState, decided }) };
};

describe("Approvals", () => {
  it("gives a turn the decisions already taken for it, and none to other turns", () => {
    const { approvals } = setup(new Map([[2, decisions]]));
    expect(approvals.decisionsFor(2)).toBe(decisions);
    expect(approvals.decisionsFor(1)).toBeUndefined();
    expect(setup().approvals.decisionsFor(2)).toBeUndefined();
  });

  it("pausing keeps the pending calls (and in the run state) and stops the run awaiting_approval", () => {
    const { approvals, runState } = setup();
    const pending = [{ toolCallId: "a", toolName: "rm", arguments: { path: "/" } }];
    expect(approvals.pending).toBeUndefined();
    expect(approvals.pause(pending)).toBe("awaiting_approval");
    expect(approvals.pending).toBe(pending);
    expect(runState.get(PENDING_APPROVALS_KEY)).toEqual(pending);
  });

  it("resuming runs the last assistant message's calls, and removes the pending calls from the run state", () => {
    const { state, approvals, runState } = setup();
    const calls = [{ id: "a", name: "rm", arguments: {}, rawArguments: "{}" }];
    expect(approvals.pausedCalls()).toEqual([]);
    state.messages.push({ role: "assistant", content: "", toolCalls: calls });
    expect(approvals.pausedCalls()).toBe(calls);
    approvals.pause([{ toolCallId: "a", toolName: "rm", arguments: {} }]);
    approvals.resumed();
    expect(runState.get(PENDING_APPROVALS_KEY)).toBeUndefined();
  });
});
