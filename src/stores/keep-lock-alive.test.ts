import { describe, expect, it } from "vitest";
import { keepLockAlive } from "./keep-lock-alive.js";
import type { SessionLock } from "./session-store.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lockWith(renew: () => Promise<boolean>): SessionLock & { renewals: number } {
  const lock = {
    renewals: 0,
    release: async () => undefined,
    renew: () => {
      lock.renewals++;
      return renew();
    },
  };
  return lock;
}

describe("keepLockAlive", () => {
  it("renews every third of the TTL until stopped", async () => {
    const lock = lockWith(async () => true);
    const heartbeat = keepLockAlive({ lock, ttlMs: 90, onLost: () => expect.fail("not lost") });
    await sleep(200);
    heartbeat.stop();
    const renewals = lock.renewals;
    expect(renewals).toBeGreaterThanOrEqual(4);
    await sleep(100);
    expect(lock.renewals).toBe(renewals); // stopped: no more renewals
    expect(heartbeat.lost).toBe(false);
  });

  it("reports the loss once when a renewal resolves false, and stops", async () => {
    const lock = lockWith(async () => false);
    const causes: unknown[] = [];
    const heartbeat = keepLockAlive({ lock, ttlMs: 60, onLost: (cause) => causes.push(cause) });
    await sleep(150);
    expect(causes).toHaveLength(1);
    expect(heartbeat.lost).toBe(true);
    expect(lock.renewals).toBe(1);
  });

  it("tolerates failing renewals for less than a TTL, and reports a loss past it", async () => {
    let failing = true;
    const lock = lockWith(async () => {
      if (failing) throw new Error("backend unreachable");
      return true;
    });
    let lost = 0;
    const heartbeat = keepLockAlive({ lock, ttlMs: 300, onLost: () => lost++ });
    await sleep(150); // one failed renewal
    failing = false;
    await sleep(250);
    expect(lost).toBe(0);
    failing = true;
    await sleep(450);
    expect(lost).toBe(1);
    heartbeat.stop();
  });

  it("reports a loss when one renewal hangs for a whole TTL", async () => {
    const lock = lockWith(() => new Promise<boolean>(() => undefined));
    let lost = 0;
    keepLockAlive({ lock, ttlMs: 90, onLost: () => lost++ });
    await sleep(250);
    expect(lost).toBe(1);
    expect(lock.renewals).toBe(1);
  });

  it("does nothing for a lock without renew", () => {
    const heartbeat = keepLockAlive({
      lock: { release: async () => undefined },
      ttlMs: 30,
      onLost: () => {},
    });
    heartbeat.stop();
    expect(heartbeat.lost).toBe(false);
  });
});
