import { describe, expect, it } from "vitest";
import { listenForAbort } from "./listen-for-abort.js";

describe("listenForAbort", () => {
  it("calls each listener once, in registration order, and not the removed ones", () => {
    const controller = new AbortController();
    const calls: string[] = [];
    listenForAbort({ signal: controller.signal, listener: () => calls.push("a") });
    const stopB = listenForAbort({ signal: controller.signal, listener: () => calls.push("b") });
    listenForAbort({ signal: controller.signal, listener: () => calls.push("c") });
    stopB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(["a", "c"]);
  });

  it("adds one real listener per signal however many register", () => {
    const controller = new AbortController();
    let added = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = (...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    };
    for (let i = 0; i < 100; i++) listenForAbort({ signal: controller.signal, listener: () => {} })();
    expect(added).toBe(1);
  });

  it("a throwing listener does not stop the others; its error is reported asynchronously", async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const reported: unknown[] = [];
    const onError = (error: unknown) => reported.push(error);
    process.prependListener("uncaughtException", onError);
    const vitestListeners = process.rawListeners("uncaughtException").filter((l) => l !== onError);
    for (const listener of vitestListeners) process.removeListener("uncaughtException", listener as never);
    try {
      listenForAbort({
        signal: controller.signal,
        listener: () => {
          throw new Error("boom");
        },
      });
      listenForAbort({ signal: controller.signal, listener: () => calls.push("second") });
      controller.abort();
      expect(calls).toEqual(["second"]);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(reported).toEqual([new Error("boom")]);
    } finally {
      process.removeListener("uncaughtException", onError);
      for (const listener of vitestListeners) process.on("uncaughtException", listener as never);
    }
  });
});
