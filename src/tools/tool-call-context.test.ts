import { describe, expect, it } from "vitest";
import { RunState } from "../sessions/run-state.js";
import { CALLER_RUN } from "./caller-run-key.js";
import { type CallAbort, toolCallContext } from "./tool-call-context.js";

function context(overrides: Partial<Parameters<typeof toolCallContext>[0]> = {}) {
  const abort: CallAbort = { controller: undefined, abortReason: undefined };
  const ctx = toolCallContext({
    abort,
    toolCallId: "c1",
    turn: 2,
    sessionId: undefined,
    state: undefined,
    caller: undefined,
    ...overrides,
  });
  return { ctx, abort: overrides.abort ?? abort };
}

describe("toolCallContext", () => {
  it("has signal, toolCallId and turn as own enumerable keys, in that order, and nothing else by default", () => {
    const { ctx } = context();
    expect(Object.keys(ctx)).toEqual(["signal", "toolCallId", "turn"]);
    expect(Object.getOwnPropertyDescriptor(ctx, "signal")).toMatchObject({
      enumerable: true,
      configurable: true,
    });
    expect(ctx.toolCallId).toBe("c1");
    expect(ctx.turn).toBe(2);
  });

  it("makes the AbortController on the first read of signal only, and returns the same signal after", () => {
    const { ctx, abort } = context();
    expect(abort.controller).toBeUndefined();
    const signal = ctx.signal;
    expect(abort.controller?.signal).toBe(signal);
    expect(ctx.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    abort.controller?.abort("stop");
    expect(ctx.signal.reason).toBe("stop");
  });

  it("gives a call aborted before its first read an aborted signal with the reason", () => {
    const reason = new Error("timed out");
    const { ctx } = context({ abort: { controller: undefined, abortReason: { value: reason } } });
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe(reason);
  });

  it("keeps each context's own call (contexts share one getter)", () => {
    const a = context();
    const b = context();
    a.abort.abortReason = { value: "a" };
    expect(a.ctx.signal.aborted).toBe(true);
    expect(b.ctx.signal.aborted).toBe(false);
  });

  it("adds sessionId, state and the caller when given; a spread copies the signal as a value", () => {
    const state = new RunState();
    const caller = { run: 1 };
    const { ctx } = context({ sessionId: "s1", state, caller });
    expect(Object.keys(ctx)).toEqual(["signal", "toolCallId", "turn", "sessionId", "state"]);
    expect(ctx[CALLER_RUN]).toBe(caller);
    const copy = { ...ctx, idempotencyKey: "k" };
    expect(copy.signal).toBe(ctx.signal);
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(copy.sessionId).toBe("s1");
    expect(copy[CALLER_RUN]).toBe(caller);
  });
});
