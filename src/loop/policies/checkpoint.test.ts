import { describe, expect, it } from "vitest";
import type { Message } from "../../models/message.js";
import type { StopReason } from "../agent-event.js";
import { createLoopState } from "../loop-state.js";
import { Checkpoint } from "./checkpoint.js";

const recorder = () => {
  const calls: { kind: "flush" | "replace"; messages: readonly Message[] }[] = [];
  return {
    calls,
    persistence: {
      flush: async (messages: readonly Message[]) => void calls.push({ kind: "flush", messages }),
      replace: async (messages: readonly Message[]) => void calls.push({ kind: "replace", messages }),
    },
  };
};

const setup = ({ modelCalled = false } = {}) => {
  const state = createLoopState({ messages: [{ role: "user", content: "go" }], resumed: false });
  state.modelCalled = modelCalled;
  const { calls, persistence } = recorder();
  return { state, calls, checkpoint: new Checkpoint({ state, persistence }) };
};

describe("Checkpoint", () => {
  it("flushes the run's own messages array once per completed step", async () => {
    const { state, calls, checkpoint } = setup();
    await checkpoint.turnDone();
    await checkpoint.turnDone();
    expect(calls.map((c) => c.kind)).toEqual(["flush", "flush"]);
    expect(calls[0]?.messages).toBe(state.messages);
  });

  it("replaces the stored history after a compaction", async () => {
    const { state, calls, checkpoint } = setup();
    await checkpoint.compacted();
    expect(calls).toEqual([{ kind: "replace", messages: state.messages }]);
  });

  it("flushes at the end of a run that called the model, whatever stopped it", async () => {
    for (const stop of ["completed", "error", "aborted", "timeout", "awaiting_approval"] as StopReason[]) {
      const { calls, checkpoint } = setup({ modelCalled: true });
      await checkpoint.end(stop);
      expect(calls.map((c) => c.kind)).toEqual(["flush"]);
    }
  });

  it("keeps nothing of a run aborted or timed out before its first model call; flushes other early ends", async () => {
    for (const stop of ["aborted", "timeout"] as StopReason[]) {
      const { calls, checkpoint } = setup();
      expect(checkpoint.end(stop)).toBeUndefined();
      expect(calls).toEqual([]);
    }
    for (const stop of ["cost_limit", "error", "token_limit"] as StopReason[]) {
      const { calls, checkpoint } = setup();
      await checkpoint.end(stop);
      expect(calls.map((c) => c.kind)).toEqual(["flush"]);
    }
  });

  it("without persistence makes no promise at all", () => {
    const state = createLoopState({ messages: [], resumed: true });
    const checkpoint = new Checkpoint({ state, persistence: undefined });
    expect(checkpoint.turnDone()).toBeUndefined();
    expect(checkpoint.compacted()).toBeUndefined();
    expect(checkpoint.end("completed")).toBeUndefined();
  });

  it("passes a store failure on (the loop ends the run with error)", async () => {
    const state = createLoopState({ messages: [], resumed: false });
    const failing = {
      flush: () => Promise.reject(new Error("store down")),
      replace: () => Promise.resolve(),
    };
    await expect(new Checkpoint({ state, persistence: failing }).turnDone()).rejects.toThrow("store down");
  });
});
