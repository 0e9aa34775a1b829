import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { COMPARE_AND_DELETE, redisScript, runRedisScript } from "./redis-script.js";

const client = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const key = `agentloop-test:script:${process.pid}:${Date.now()}`;
afterAll(async () => {
  await client.del(key);
  client.disconnect();
});

describe("runRedisScript", () => {
  it("runs a script by SHA and loads it when the server does not have it (NOSCRIPT)", async () => {
    const script = redisScript(`return redis.call("INCRBY", KEYS[1], ARGV[1]) -- ${key}`);
    // A fresh script is not cached on the server: the first call takes the EVAL path, which caches it.
    expect(await client.script("EXISTS", script.sha)).toEqual([0]);
    expect(await runRedisScript({ client, script, keys: [key], args: [5] })).toBe(5);
    expect(await client.script("EXISTS", script.sha)).toEqual([1]);
    expect(await runRedisScript({ client, script, keys: [key], args: [2] })).toBe(7);
  });

  it("compare-and-delete deletes only the holder's value", async () => {
    await client.set(key, "owner-a");
    expect(await runRedisScript({ client, script: COMPARE_AND_DELETE, keys: [key], args: ["owner-b"] })).toBe(
      0,
    );
    expect(await client.get(key)).toBe("owner-a");
    expect(await runRedisScript({ client, script: COMPARE_AND_DELETE, keys: [key], args: ["owner-a"] })).toBe(
      1,
    );
    expect(await client.get(key)).toBeNull();
  });

  it("passes other errors through", async () => {
    const broken = redisScript(`return redis.call("NOSUCHCOMMAND") -- ${key}`);
    await expect(runRedisScript({ client, script: broken, keys: [key] })).rejects.toThrow(
      /unknown command|Unknown Redis command/i,
    );
  });
});
