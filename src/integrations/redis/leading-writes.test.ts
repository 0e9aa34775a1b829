import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { journalRecords } from "../../durable/run-journal-contract.js";
import { attachLeadingWrites, type LeadingWrites, type PipelineReply } from "./leading-writes.js";
import { RedisJournal } from "./redis-journal.js";

const URL = "redis://127.0.0.1:6379";
const base = `agentloop-test:leading-${randomUUID()}:`;
const client = new Redis(URL);
const other = new Redis(URL);
const { start, response, end } = journalRecords;

// Connected first: commands queued while connecting are written one by one.
beforeAll(async () => {
  await Promise.all([client.ping(), other.ping()]);
});

afterAll(async () => {
  const keys = await client.keys(`${base}*`);
  if (keys.length > 0) await client.del(...keys);
  await Promise.all([client.quit(), other.quit()]);
});

/** Leading writes that push `values` to `key` (one RPUSH each), recording what they were told. */
function pushes(key: string, values: string[]) {
  const outcomes: Array<{ replies: readonly PipelineReply[] } | { error: unknown }> = [];
  const writes: LeadingWrites = {
    take(into) {
      if (values.length === 0) return undefined;
      const taken = values.splice(0);
      for (const value of taken) into.rpush(key, value);
      return { count: taken.length, settle: (outcome) => void outcomes.push(outcome) };
    },
  };
  return { writes, outcomes };
}

/** The requests (socket writes) `redis` sends while `task` runs. */
async function requests(redis: Redis, task: () => Promise<void>): Promise<number> {
  const write = vi.spyOn(redis.stream, "write");
  try {
    await task();
    return write.mock.calls.length;
  } finally {
    write.mockRestore();
  }
}

describe("leading writes carried by RedisJournal appends", () => {
  it("go in the request of the run's next append, ahead of its record, and get their replies", async () => {
    const prefix = `${base}${randomUUID()}:`;
    const journal = new RedisJournal({ client, prefix, indexRefreshMs: 60_000 });
    const side = `${prefix}side:{r}`;
    const values: string[] = [];
    const { writes, outcomes } = pushes(side, values);
    const detach = attachLeadingWrites({ journal, client, key: side, runId: "r", writes });
    expect(detach).toBeDefined();
    values.push("a", "b");
    // The first append also updates the index (a MULTI); a later one is a bare RPUSH, here in a pipeline.
    expect(await requests(client, () => journal.append("r", [start("r")]))).toBe(1);
    values.push("c");
    expect(await requests(client, () => journal.append("r", [response(0)]))).toBe(1);
    expect(outcomes).toEqual([
      {
        replies: [
          [null, 1],
          [null, 2],
        ],
      },
      { replies: [[null, 3]] },
    ]);
    expect(await client.lrange(side, 0, -1)).toEqual(["a", "b", "c"]);
    // Nothing waiting: the append alone. Another run's append carries nothing.
    expect(await requests(client, () => journal.append("r", [response(1)]))).toBe(1);
    values.push("d");
    await journal.append("s", [start("s")]);
    expect(values).toEqual(["d"]);
    detach?.();
    await journal.append("r", [end("r")]);
    expect(values).toEqual(["d"]);
    expect((await journal.load("r"))?.map((record) => record.kind)).toEqual([
      "start",
      "model_response",
      "model_response",
      "end",
    ]);
  });

  it("a failed leading write is reported to its writer, not to the append, and the other way round", async () => {
    const prefix = `${base}${randomUUID()}:`;
    const journal = new RedisJournal({ client, prefix });
    const side = `${prefix}side:{f}`;
    await client.set(side, "not a list");
    const values = ["x"];
    const { writes, outcomes } = pushes(side, values);
    attachLeadingWrites({ journal, client, key: side, runId: "f", writes });
    await journal.append("f", [start("f")]);
    expect(outcomes).toHaveLength(1);
    expect(String((outcomes[0] as { replies: PipelineReply[] }).replies[0]?.[0])).toMatch(/WRONGTYPE/);
    // The run's own key holds the wrong type: the append fails, the writes it carried went through.
    await client.del(journal.runKey("f"), side);
    await client.set(journal.runKey("f"), "not a list");
    values.push("y");
    await expect(journal.append("f", [response(0)])).rejects.toThrow(/WRONGTYPE/);
    expect(outcomes[1]).toEqual({ replies: [[null, 1]] });
    expect(await client.lrange(side, 0, -1)).toEqual(["y"]);
  });

  it("are not attached to a journal appending with another client", () => {
    const journal = new RedisJournal({ client: other, prefix: `${base}${randomUUID()}:` });
    const { writes } = pushes(`${base}x`, []);
    expect(attachLeadingWrites({ journal, client, key: `${base}x`, runId: "r", writes })).toBeUndefined();
    expect(attachLeadingWrites({ journal: {}, client, key: `${base}x`, runId: "r", writes })).toBeUndefined();
  });
});
