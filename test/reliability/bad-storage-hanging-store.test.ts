import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { StoreError } from "../../src/errors/store-error.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import type { SessionStore } from "../../src/stores/session-store.js";
import { ScriptedModel } from "../../src/testing/index.js";

// A store that never answers (a user's own Redis or pg client without timeouts, a custom store): every store
// operation of a run is bounded by the run's deadline, so the run ends with a clear error instead of hanging.

type Operation = "lock" | "load" | "append" | "saveState" | "release";

/** A MemoryStore whose `hang` operations never settle. */
function hangingStore(hang: readonly Operation[]): SessionStore {
  const inner = new MemoryStore();
  const never = new Promise<never>(() => undefined);
  const maybe = <T>(operation: Operation, call: () => Promise<T>): Promise<T> =>
    hang.includes(operation) ? never : call();
  return {
    load: (id) => maybe("load", () => inner.load(id)),
    append: (id, messages, options) => maybe("append", () => inner.append(id, messages, options)),
    replace: (id, messages) => inner.replace(id, messages),
    saveState: (id, state) => maybe("saveState", () => inner.saveState(id, state)),
    list: () => inner.list(),
    delete: (id) => inner.delete(id),
    lock: (id, options) =>
      maybe("lock", async () => {
        const lock = await inner.lock(id, options);
        return lock && { release: () => maybe("release", () => lock.release()) };
      }),
  };
}

const limits = { timeoutMs: 500 };

describe("a session store that never answers, with limits.timeoutMs 500", () => {
  for (const operation of ["lock", "load"] as const) {
    it(`${operation}: the run rejects with StoreError at the deadline`, async () => {
      const agent = new Agent({ model: new ScriptedModel([]), store: hangingStore([operation]), limits });
      const started = Date.now();
      const error = await agent.run("hello", { sessionId: "s" }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const elapsed = Date.now() - started;
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as StoreError).operation).toBe(operation);
      expect((error as Error).message).toMatch(/did not finish within the run's deadline/);
      expect(elapsed).toBeGreaterThanOrEqual(450);
      expect(elapsed).toBeLessThan(1_500);
    });
  }

  it("append: the run ends with stop reason error and the StoreError, without hanging", async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ text: "answer" }]),
      store: hangingStore(["append"]),
      limits,
    });
    const started = Date.now();
    const result = await agent.run("hello", { sessionId: "s" });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.stopReason).toBe("error");
    expect(StoreError.isInstance(result.error)).toBe(true);
    expect((result.error as StoreError).operation).toBe("append");
  });

  it("append and release: a stream ends too, and the release does not fail the run", async () => {
    const agent = new Agent({
      model: new ScriptedModel([{ text: "answer" }]),
      store: hangingStore(["append", "release"]),
      limits,
    });
    const started = Date.now();
    const stream = agent.stream("hello", { sessionId: "s" });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(types.at(-1)).toBe("loop_end");
    expect(result.stopReason).toBe("error");
  });

  it("a caller's abort ends a hanging lock at once", async () => {
    const agent = new Agent({ model: new ScriptedModel([]), store: hangingStore(["lock"]) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    // The abort ends the wait for the lock; the run ends as aborted (not a rejection), the session untouched.
    const result = await agent.run("hello", { sessionId: "s", signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.stopReason).toBe("aborted");
  });
});
