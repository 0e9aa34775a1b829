import { afterEach, describe, expect, it, vi } from "vitest";
import { RunSignal } from "./run-signal.js";

describe("RunSignal", () => {
  afterEach(() => vi.useRealTimers());

  it("aborts with stop reason `timeout` once timeoutMs has passed", () => {
    vi.useFakeTimers();
    const run = new RunSignal({ timeoutMs: 100 });
    vi.advanceTimersByTime(99);
    expect(run.stopReason()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(run.aborted).toBe(true);
    expect(run.stopReason()).toBe("timeout");
    run.dispose({ finished: true });
  });

  it("aborts with stop reason `aborted` and the caller's reason when the caller's signal aborts", () => {
    const caller = new AbortController();
    const run = new RunSignal({ signal: caller.signal, timeoutMs: 1000 });
    expect(run.stopReason()).toBeUndefined();
    const reason = new Error("user left");
    caller.abort(reason);
    expect(run.stopReason()).toBe("aborted");
    expect(run.signal.reason).toBe(reason);
    run.dispose({ finished: true });
  });

  it("starts aborted when the caller's signal already is", () => {
    const caller = new AbortController();
    caller.abort("early");
    const run = new RunSignal({ signal: caller.signal, timeoutMs: 1000 });
    expect(run.stopReason()).toBe("aborted");
    expect(run.signal.reason).toBe("early");
    run.dispose({ finished: true });
  });

  it("has no timer for timeouts setTimeout cannot hold (Infinity, > 2^31-1 ms)", () => {
    vi.useFakeTimers();
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 2 ** 31]) {
      const run = new RunSignal({ timeoutMs });
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(10);
      expect(run.stopReason()).toBeUndefined();
      run.dispose({ finished: true });
    }
  });

  it("dispose clears the timer and stops listening to the caller", () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const run = new RunSignal({ signal: caller.signal, timeoutMs: 50 });
    run.dispose({ finished: true });
    vi.advanceTimersByTime(100);
    expect(run.aborted).toBe(false); // the timer was cleared
    caller.abort();
    expect(run.aborted).toBe(false); // and the caller's signal no longer followed
  });

  it("dispose of an unfinished run aborts what is in flight; a finished or aborted one keeps its reason", () => {
    const unfinished = new RunSignal({ timeoutMs: 1000 });
    unfinished.dispose({ finished: false });
    expect(unfinished.aborted).toBe(true);
    expect((unfinished.signal.reason as Error).message).toBe("run finished");
    expect(unfinished.stopReason()).toBe("aborted");

    const caller = new AbortController();
    const aborted = new RunSignal({ signal: caller.signal, timeoutMs: 1000 });
    caller.abort("mine");
    aborted.dispose({ finished: false });
    expect(aborted.signal.reason).toBe("mine");
  });
});
