import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Budget, type BudgetReservation } from "../../src/cost/budget.js";
import { RedisStateStore } from "../../src/integrations/redis/redis-state-store.js";

// A shared Budget across processes: two Budget objects, each on its own Redis connection (as two processes
// would be), on one budget key in a real Redis.

const URL = "redis://127.0.0.1:6379";
const prefix = `agentloop-test:budget:${randomUUID()}:`;
const stores: RedisStateStore[] = [];
const storeFor = () => {
  const store = new RedisStateStore({ url: URL, prefix });
  stores.push(store);
  return store;
};

afterAll(async () => {
  for (const store of stores) await store.close();
  const admin = new Redis(URL);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("usability: a windowed Budget shared through Redis", () => {
  it("two Budget objects never reserve more than the limit together, and use it", async () => {
    const options = { limitUsd: 1, key: `race-${randomUUID()}`, window: { period: "day" as const } };
    const a = new Budget({ ...options, store: storeFor() });
    const b = new Budget({ ...options, store: storeFor() });
    let live = 0;
    let maxLive = 0;
    let granted = 0;
    // Each "process" runs three concurrent runs; every call reserves 0.1 and costs 0.05.
    const worker = async (budget: Budget) => {
      for (let i = 0; i < 12; i++) {
        const reservation: BudgetReservation | undefined = await budget.reserve(0.1);
        if (reservation === undefined) return;
        granted++;
        live += 0.1;
        maxLive = Math.max(maxLive, live);
        await pause(2);
        live -= 0.1;
        await budget.settle(reservation, 0.05);
      }
    };
    await Promise.all([worker(a), worker(b), worker(a), worker(b), worker(a), worker(b)]);
    const usage = await a.usage();
    expect(usage.reservedUsd).toBeCloseTo(0, 12);
    expect(usage.spentUsd).toBeCloseTo(granted * 0.05, 9);
    // What was spent plus what was in flight never passed the limit...
    expect(usage.spentUsd).toBeLessThanOrEqual(1 + 1e-9);
    expect(maxLive).toBeLessThanOrEqual(1 + 1e-9);
    // ...and the budget was used, not refused early: the last refused call had less than 0.1 left.
    expect(usage.spentUsd).toBeGreaterThan(0.9 - 0.05);
    expect((await b.usage()).spentUsd).toBeCloseTo(usage.spentUsd, 9);
  });

  it("a reservation that only one holder can have at a time is never held twice (write, then read)", async () => {
    const options = { limitUsd: 1, key: `mutex-${randomUUID()}` };
    const a = new Budget({ ...options, store: storeFor() });
    const b = new Budget({ ...options, store: storeFor() });
    let holders = 0;
    let maxHolders = 0;
    let granted = 0;
    const worker = async (budget: Budget) => {
      for (let i = 0; i < 25; i++) {
        const reservation = await budget.reserve(0.6); // two of them never fit in 1.0
        if (reservation !== undefined) {
          granted++;
          holders++;
          maxHolders = Math.max(maxHolders, holders);
          await pause(1);
          holders--;
          await budget.settle(reservation, 0); // a failed call: costs nothing
        }
      }
    };
    await Promise.all([worker(a), worker(b)]);
    expect(maxHolders).toBe(1);
    expect(granted).toBeGreaterThan(10);
    expect((await a.usage()).reservedUsd).toBeCloseTo(0, 12);
  });

  it("a new process sees the window's spending; another window does not", async () => {
    const key = `window-${randomUUID()}`;
    const first = new Budget({ limitUsd: 2, key, window: { period: "hour" }, store: storeFor() });
    await first.settle((await first.reserve(0.5)) as BudgetReservation, 0.75);
    const second = new Budget({ limitUsd: 2, key, window: { period: "hour" }, store: storeFor() });
    const usage = await second.usage();
    expect(usage).toMatchObject({ spentUsd: 0.75, reservedUsd: 0, remainingUsd: 1.25 });
    expect(await second.reserve(1.5)).toBeUndefined();
    expect(await second.reserve(1.25)).toBeDefined();
    // The same key without a window is the all-time total of the same records.
    const allTime = new Budget({ limitUsd: 10, key, store: storeFor() });
    expect((await allTime.usage()).spentUsd).toBeCloseTo(0.75, 12);
  });
});
