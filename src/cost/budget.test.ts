import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryStateStore } from "../stores/memory-state-store.js";
import { Budget } from "./budget.js";

const at = (iso: string) => vi.setSystemTime(new Date(iso));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Budget", () => {
  it("reserves, settles and refuses what does not fit (no window)", async () => {
    const budget = new Budget({ limitUsd: 1 });
    const first = await budget.reserve(0.6);
    expect(first).toEqual({ amountUsd: 0.6 });
    expect(await budget.reserve(0.5)).toBeUndefined(); // 0.6 reserved + 0.5 > 1
    await budget.settle(first as { amountUsd: number }, 0.4);
    expect(budget.spentUsd).toBeCloseTo(0.4, 12);
    expect(budget.remainingUsd).toBeCloseTo(0.6, 12);
    expect(await budget.reserve(0.5)).toEqual({ amountUsd: 0.5 });
    expect(await budget.usage()).toMatchObject({ reservedUsd: 0.5 });
  });

  it("a calendar day window resets at 00:00 UTC", async () => {
    at("2026-03-01T22:00:00Z");
    const budget = new Budget({ limitUsd: 1, window: { period: "day" } });
    const r = await budget.reserve(0.9);
    await budget.settle(r as { amountUsd: number }, 0.8);
    at("2026-03-01T23:59:00Z");
    expect(await budget.reserve(0.5)).toBeUndefined();
    at("2026-03-02T00:00:01Z");
    expect(budget.spentUsd).toBe(0);
    expect(await budget.reserve(0.5)).toEqual({ amountUsd: 0.5 });
    const usage = await budget.usage();
    expect(usage.windowStart).toBe(Date.parse("2026-03-02T00:00:00Z"));
    expect(usage.windowEnd).toBe(Date.parse("2026-03-03T00:00:00Z"));
  });

  it("a rolling hour window forgets spending older than an hour, minute by minute", async () => {
    const budget = new Budget({ limitUsd: 1, window: { period: "hour", rolling: true } });
    at("2026-03-01T10:00:30Z");
    await budget.settle((await budget.reserve(0.6)) as { amountUsd: number }, 0.6);
    at("2026-03-01T10:30:30Z");
    await budget.settle((await budget.reserve(0.3)) as { amountUsd: number }, 0.3);
    at("2026-03-01T10:59:30Z");
    expect(await budget.reserve(0.2)).toBeUndefined(); // 0.9 spent in the last hour
    // A calendar window would have reset at 11:00; the rolling one still counts 10:00:30 until 11:01.
    at("2026-03-01T11:00:30Z");
    expect(await budget.reserve(0.2)).toBeUndefined();
    at("2026-03-01T11:01:30Z");
    expect((await budget.usage()).spentUsd).toBeCloseTo(0.3, 12);
    expect(await budget.reserve(0.6)).toEqual({ amountUsd: 0.6 });
  });

  it("two Budget objects on one store share the spending (and a new one sees it)", async () => {
    at("2026-03-01T12:00:00Z");
    const store = new MemoryStateStore();
    const a = new Budget({ limitUsd: 1, store, key: "user-42", window: { period: "day" } });
    const b = new Budget({ limitUsd: 1, store, key: "user-42", window: { period: "day" } });
    await a.settle((await a.reserve(0.5)) as { amountUsd: number }, 0.5);
    const held = await b.reserve(0.4);
    expect(held).toBeDefined();
    expect(await a.reserve(0.2)).toBeUndefined(); // 0.5 spent by a + 0.4 reserved by b
    await b.settle(held as { amountUsd: number }, 0.1);
    expect(await a.reserve(0.2)).toBeDefined();
    const later = new Budget({ limitUsd: 1, store, key: "user-42", window: { period: "day" } });
    expect(await later.usage()).toMatchObject({ spentUsd: 0.6, reservedUsd: 0.2 });
    // Another key is another budget.
    expect((await new Budget({ limitUsd: 1, store, key: "user-7" }).usage()).spentUsd).toBe(0);
  });

  it("a dead process's reservation stops counting after reservationTtlMs", async () => {
    at("2026-03-01T12:00:00Z");
    const store = new MemoryStateStore();
    const dead = new Budget({ limitUsd: 1, store, reservationTtlMs: 60_000 });
    expect(await dead.reserve(0.9)).toBeDefined(); // never settled
    const alive = new Budget({ limitUsd: 1, store, reservationTtlMs: 60_000 });
    expect(await alive.reserve(0.5)).toBeUndefined();
    at("2026-03-01T12:01:01Z");
    expect(await alive.reserve(0.5)).toBeDefined();
  });

  it("without a store it behaves exactly as one Budget alone on a store (initial spending, windows, record)", async () => {
    const script = async (budget: Budget) => {
      const seen: unknown[] = [];
      at("2026-03-01T10:00:00Z");
      seen.push(await budget.reserve(0.4)); // 0.7 already spent: refused
      const held = await budget.reserve(0.3);
      seen.push(held, budget.remainingUsd, await budget.usage());
      await budget.settle(held as { amountUsd: number }, 0.2);
      await budget.record(0.05);
      await budget.record(Number.NaN);
      seen.push(budget.spentUsd, await budget.usage());
      at("2026-03-01T10:59:00Z");
      seen.push(await budget.reserve(0.1)); // 0.95 spent in the window
      at("2026-03-01T11:01:00Z");
      seen.push(budget.spentUsd, await budget.reserve(0.9), await budget.usage());
      return seen;
    };
    const options = { limitUsd: 1, spentUsd: 0.7, window: { period: "hour" as const, rolling: true } };
    const alone = await script(new Budget(options));
    const stored = await script(new Budget({ ...options, store: new MemoryStateStore() }));
    expect(alone).toEqual(stored);
    expect(alone[0]).toBeUndefined();
    expect(alone[1]).toEqual({ amountUsd: 0.3 });
    expect(alone.at(-2)).toEqual({ amountUsd: 0.9 });
  });

  it("validates its options", () => {
    expect(() => new Budget({ limitUsd: Number.NaN })).toThrow(/limitUsd/);
    expect(() => new Budget({ limitUsd: 1, window: { period: "week" as "day" } })).toThrow(/window\.period/);
    expect(() => new Budget({ limitUsd: 1, key: "" })).toThrow(/key/);
  });
});
