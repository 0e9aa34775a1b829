import { describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error.js";
import { boundStoreCall } from "./bound-store-call.js";

const never = () => new Promise<never>(() => undefined);
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("boundStoreCall", () => {
  it("passes a value or a rejection through when the store answers in time", async () => {
    const base = { operation: "load", sessionId: "s", deadline: Date.now() + 1_000, graceMs: 100 };
    expect(await boundStoreCall({ ...base, call: () => later(10, 42) })).toBe(42);
    await expect(boundStoreCall({ ...base, call: () => Promise.reject(new Error("down")) })).rejects.toThrow(
      "down",
    );
    await expect(
      boundStoreCall({
        ...base,
        call: () => {
          throw new Error("sync");
        },
      }),
    ).rejects.toThrow("sync");
  });

  it("gives up at the deadline with a StoreError naming the operation; a late value goes to onLate", async () => {
    const late: string[] = [];
    const started = Date.now();
    const error = await boundStoreCall({
      operation: "lock",
      sessionId: "s",
      deadline: Date.now() + 100,
      graceMs: 1_000,
      call: () => later(200, "lock"),
      onLate: (value) => late.push(value),
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(180);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: "lock", sessionId: "s" });
    await later(150, undefined);
    expect(late).toEqual(["lock"]);
  });

  it("gives up when the run is aborted; after the deadline or the abort, grants graceMs", async () => {
    const controller = new AbortController();
    const pending = boundStoreCall({
      operation: "append",
      sessionId: "s",
      deadline: Number.POSITIVE_INFINITY,
      signal: controller.signal,
      graceMs: 1_000,
      call: never,
    });
    controller.abort();
    await expect(pending).rejects.toThrow(/aborted/);
    // Started after the abort: bounded by the grace, and it may still succeed in it.
    expect(
      await boundStoreCall({
        operation: "append",
        sessionId: "s",
        deadline: Number.POSITIVE_INFINITY,
        signal: controller.signal,
        graceMs: 200,
        call: () => later(50, "closing write"),
      }),
    ).toBe("closing write");
    const started = Date.now();
    await expect(
      boundStoreCall({
        operation: "release",
        sessionId: "s",
        deadline: Date.now() - 1,
        graceMs: 100,
        call: never,
      }),
    ).rejects.toThrow(/within 100 ms after the run ended/);
    expect(Date.now() - started).toBeLessThan(300);
  });
});
