import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { JournalRecord } from "../../durable/journal-record.js";
import { runDurably } from "../../durable/run-durably.js";
import { describeRunJournalContract, journalRecords } from "../../durable/run-journal-contract.js";
import { agentWith, harness, INPUT, PRIOR, STEPS } from "../../durable/test-utils/durable-harness.js";
import { DurableRunBusyError } from "../../errors/durable-run-busy-error.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { StoreError } from "../../errors/store-error.js";
import { PostgresJournal } from "./postgres-journal.js";
import { startFreezingProxy } from "./test-utils/freezing-proxy.js";

const dbUser = process.env.PGUSER ?? "postgres";
const connectionString = `postgres://${encodeURIComponent(dbUser)}@127.0.0.1:5432/test`;
/** Every table of this file starts with it (one file run never sees another's tables). */
const base = `agentloop_test_journal_${process.pid}_${randomUUID().replaceAll("-", "").slice(0, 8)}`;
const admin = new pg.Pool({ connectionString, max: 2 });
let tables = 0;
/** A fresh records table name (its `_runs` and `_locks` tables come with it). */
const newTable = () => `${base}_${++tables}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const { start, response, toolStart, toolResult, end } = journalRecords;

async function ourTables(): Promise<string[]> {
  const { rows } = await admin.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE starts_with(tablename, $1)",
    [base],
  );
  return rows.map((row) => row.tablename);
}

afterAll(async () => {
  const names = await ourTables();
  if (names.length > 0) await admin.query(`DROP TABLE ${names.map((name) => `"${name}"`).join(", ")}`);
  expect(await ourTables()).toEqual([]);
  await admin.end();
});

describeRunJournalContract({
  name: "PostgresJournal",
  // A table per test: `list` sees only that test's runs.
  create: async () => new PostgresJournal({ connectionString, table: newTable() }),
  close: (journal) => (journal as PostgresJournal).close(),
  reopen: async (journal) =>
    new PostgresJournal({ connectionString, table: (journal as PostgresJournal).table }),
});

/** `fn` with a journal on a fresh table, closed afterwards. */
async function withJournal(fn: (journal: PostgresJournal) => Promise<void>, table = newTable()) {
  const journal = new PostgresJournal({ connectionString, table });
  try {
    await fn(journal);
  } finally {
    await journal.close();
  }
}

describe("PostgresJournal", () => {
  it("keeps one row per record (the serialised text), an index row per run and lease rows for locks", async () => {
    const table = newTable();
    await withJournal(async (journal) => {
      expect(journal.table).toBe(table);
      await journal.append("r1", [start("r1"), response(0)]);
      await journal.append("r1", [end("r1")]);
      const lock = await journal.lock("r1", { ttlMs: 60_000 });
      const { rows } = await admin.query(`SELECT run_id, kind, record FROM "${table}" ORDER BY id`);
      expect(rows.map((row) => [row.run_id, row.kind])).toEqual([
        ["r1", "start"],
        ["r1", "model_response"],
        ["r1", "end"],
      ]);
      expect(rows[0].record).toBe(JSON.stringify(start("r1")));
      const runs = await admin.query(`SELECT run_id, finished FROM "${table}_runs"`);
      expect(runs.rows).toEqual([{ run_id: "r1", finished: true }]);
      expect((await admin.query(`SELECT run_id FROM "${table}_locks"`)).rows).toEqual([{ run_id: "r1" }]);
      await lock!.release();
      await journal.delete("r1");
      for (const name of [table, `${table}_runs`, `${table}_locks`]) {
        expect((await admin.query(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0].n).toBe(0);
      }
    }, table);
  });

  it("run lock: two journals on two pools exclude each other; expiry lets the other take over", async () => {
    const table = newTable();
    const first = new PostgresJournal({ connectionString, table });
    const second = new PostgresJournal({ connectionString, table });
    try {
      const [a, b] = await Promise.all([
        first.lock("shared", { ttlMs: 30_000 }),
        second.lock("shared", { ttlMs: 30_000 }),
      ]);
      expect([a, b].filter((lock) => lock !== undefined)).toHaveLength(1);
      const winner = (a ?? b)!;
      const loser = a === undefined ? first : second;
      expect(await loser.lock("shared", { ttlMs: 30_000 })).toBeUndefined();
      await winner.release();
      const short = await loser.lock("shared", { ttlMs: 200 });
      expect(short).toBeDefined();
      expect(await first.lock("shared", { ttlMs: 30_000 })).toBeUndefined();
      await sleep(450);
      const successor = await (loser === first ? second : first).lock("shared", { ttlMs: 30_000 });
      expect(successor).toBeDefined();
      expect(await short!.renew!()).toBe(false);
      await short!.release(); // the expired holder's release leaves the successor's lock alone
      expect(await loser.lock("shared", { ttlMs: 30_000 })).toBeUndefined();
      expect(await successor!.renew!()).toBe(true);
      await successor!.release();
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("rejects a query with no answer within queryTimeoutMs (a server that stops answering)", async () => {
    const proxy = await startFreezingProxy({ target: 5432 });
    const journal = new PostgresJournal({
      connectionString: `postgres://${encodeURIComponent(dbUser)}@127.0.0.1:${proxy.port}/test`,
      table: newTable(),
      queryTimeoutMs: 500,
    });
    try {
      await journal.append("frozen", [start("frozen")]);
      // Three idle connections, so that each operation below meets a stalled server, not a stalled connect.
      await Promise.all([journal.load("frozen"), journal.load("frozen"), journal.list()]);
      proxy.freeze();
      for (const [operation, attempt, withinMs] of [
        ["load", () => journal.load("frozen"), 1_000],
        ["list", () => journal.list(), 1_000],
        ["append", () => journal.append("frozen", [response(0)]), 900], // the connection is discarded, no ROLLBACK
        ["lock", () => journal.lock("frozen", { ttlMs: 1_000 }), 2_500], // a new connection: connect timeout
      ] as const) {
        const started = Date.now();
        const error = await (attempt() as Promise<unknown>).then(
          () => new Error(`expected ${operation} to fail`),
          (e: unknown) => e,
        );
        expect(Date.now() - started, operation).toBeLessThan(withinMs);
        expect(StoreError.isInstance(error), `expected StoreError, got ${String(error)}`).toBe(true);
        expect((error as StoreError).operation).toBe(operation);
        expect((error as Error).message).toMatch(/^PostgresJournal .*failed: .*timeout/i);
      }
    } finally {
      await proxy.close();
      await journal.close().catch(() => undefined);
    }
  });

  it("rejects a row of a newer schema version, or garbage, on load with a StoreError naming the row", async () => {
    const table = newTable();
    await withJournal(async (journal) => {
      await journal.append("n", [start("n")]);
      const newer = { ...response(0), v: 99 };
      const { rows } = await admin.query(
        `INSERT INTO "${table}" (run_id, kind, record) VALUES ('n', 'model_response', $1) RETURNING id`,
        [JSON.stringify(newer)],
      );
      const error = await journal.load("n").catch((e: unknown) => e);
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as StoreError).operation).toBe("load");
      expect((error as Error).message).toBe(
        `Run "n": a journal record has schema version 99, written by a newer agentloop (this one reads up to version 2); upgrade agentloop to resume this run (table ${table} row id ${rows[0].id})`,
      );
      await journal.append("g", [start("g")]);
      await admin.query(`INSERT INTO "${table}" (run_id, kind, record) VALUES ('g', NULL, '{"v":1,')`);
      const garbage = await journal.load("g").catch((e: unknown) => e);
      expect(StoreError.isInstance(garbage)).toBe(true);
      expect((garbage as Error).message).toMatch(
        /^Run "g": a journal record is not an object \(table .* row id \d+\)$/,
      );
    }, table);
  });

  it("never interleaves the records of concurrent appends, from 20 promises on five journals (pools)", async () => {
    const SIZE = 200;
    const table = newTable();
    // Appends of one journal object are queued in call order: several objects (pools) write at once.
    const journals = Array.from({ length: 5 }, () => new PostgresJournal({ connectionString, table }));
    try {
      await journals[0]!.append("c", [start("c")]);
      // Many records per call: without the run's row lock, the ids of concurrent INSERTs interleave.
      const call = (i: number): JournalRecord[] => [
        toolStart(`c${i}`),
        ...Array.from({ length: SIZE - 2 }, () => response(i)),
        toolResult(`c${i}`),
      ];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => journals[i % journals.length]!.append("c", call(i))),
      );
      const loaded = (await journals[1]!.load("c"))!;
      expect(loaded).toHaveLength(1 + 20 * SIZE);
      const order: number[] = [];
      for (let index = 1; index < loaded.length; index += SIZE) {
        const i = (loaded[index + 1] as { call: number }).call;
        expect(loaded.slice(index, index + SIZE)).toEqual(call(i));
        order.push(i);
      }
      expect(new Set(order).size).toBe(20);
    } finally {
      await Promise.all(journals.map((journal) => journal.close()));
    }
  });

  it("applies the appends of one run from one journal in call order", async () => {
    await withJournal(async (journal) => {
      const calls = Array.from({ length: 25 }, (_, i) => journal.append("o", [response(i)]));
      await Promise.all(calls);
      const loaded = (await journal.load("o"))!;
      expect(loaded.map((record) => (record as { call: number }).call)).toEqual([...Array(25).keys()]);
    });
  });

  it("rejects run ids a text column cannot hold, bad table names and bad options", async () => {
    await withJournal(async (journal) => {
      for (const bad of ["nul\u0000id", "lone \uD800 surrogate"]) {
        const error = await journal.append(bad, [start(bad)]).catch((e: unknown) => e);
        expect(StoreError.isInstance(error)).toBe(true);
        expect((error as Error).message).toContain("PostgresJournal cannot store run id");
      }
      expect(await journal.list()).toEqual([]);
    });
    for (const bad of ['x"; DROP TABLE y; --', "1abc", "a.b.c", ""]) {
      expect(() => new PostgresJournal({ connectionString, table: bad })).toThrow(
        expect.objectContaining({ argument: "table" }),
      );
    }
    expect(() => new PostgresJournal({ queryTimeoutMs: 0 })).toThrow(/queryTimeoutMs/);
    const error = captured(() => new PostgresJournal({ lockTtlMs: 5 }));
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe("lockTtlMs");
    const defaults = new PostgresJournal();
    expect([defaults.table, defaults.lockTtlMs]).toEqual(["agentloop_journal", undefined]);
    const custom = new PostgresJournal({ lockTtlMs: 5_000, table: "public.journal_x" });
    expect([custom.table, custom.lockTtlMs]).toEqual(["public.journal_x", 5_000]);
    await Promise.all([defaults.close(), custom.close()]);
  });

  it("uses a pool passed in without ending it; close releases the locks it holds", async () => {
    const pool = new pg.Pool({ connectionString, max: 2 });
    const table = newTable();
    const journal = new PostgresJournal({ pool, table });
    expect(await journal.lock("p", { ttlMs: 600_000 })).toBeDefined();
    await journal.close();
    const other = new PostgresJournal({ pool, table });
    const lock = await other.lock("p", { ttlMs: 600_000 });
    expect(lock).toBeDefined();
    await lock!.release();
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    await other.close();
    await pool.end();
  });

  it("rejects with StoreError within 2 s when PostgreSQL is down", async () => {
    const journal = new PostgresJournal({ connectionString: "postgres://127.0.0.1:1/test" });
    const started = Date.now();
    const error = await journal.append("down", [start("down")]).catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('PostgresJournal append of run "down" failed');
    expect(Date.now() - started).toBeLessThan(2_000);
    await journal.close();
  });
});

describe("PostgresJournal with runDurably", () => {
  it("a finished run is answered from the table by another journal object, without calling the model", async () => {
    const table = newTable();
    const tools = harness();
    const first = agentWith({ steps: STEPS, tools: tools.tools });
    let summary: Awaited<ReturnType<typeof runDurably>> | undefined;
    await withJournal(async (journal) => {
      summary = await runDurably({
        agent: first.agent,
        journal,
        runId: "e2e",
        input: INPUT,
        messages: PRIOR,
      });
    }, table);
    expect(summary?.stopReason).toBe("completed");
    expect(first.model.calls).toHaveLength(3);
    expect(tools.executions).toEqual({ lookup: 1, charge: 1 });

    const again = agentWith({ steps: [], tools: harness().tools });
    await withJournal(async (journal) => {
      const replayed = await runDurably({ agent: again.agent, journal, runId: "e2e", input: INPUT });
      expect(replayed).toEqual(summary);
      expect(again.model.calls).toHaveLength(0);
      expect(tools.executions).toEqual({ lookup: 1, charge: 1 });
      const listed = await journal.list();
      expect(listed.map(({ runId, finished }) => ({ runId, finished }))).toEqual([
        { runId: "e2e", finished: true },
      ]);
      expect(await journal.compact("e2e")).toBe(true);
      expect(await runDurably({ agent: again.agent, journal, runId: "e2e" })).toEqual(summary);
    }, table);
  });

  it("refuses an attempt through another journal object while the run is being attempted", async () => {
    const table = newTable();
    const slow = agentWith({ steps: [{ text: "done", delayMs: 300 }], tools: [] });
    await withJournal(async (journal) => {
      const running = runDurably({ agent: slow.agent, journal, runId: "busy", input: INPUT });
      await sleep(100);
      await withJournal(async (other) => {
        const error = await runDurably({
          agent: slow.agent,
          journal: other,
          runId: "busy",
          input: INPUT,
        }).catch((e: unknown) => e);
        expect(
          DurableRunBusyError.isInstance(error),
          `expected DurableRunBusyError, got ${String(error)}`,
        ).toBe(true);
        expect((await running).text).toBe("done");
        expect((await runDurably({ agent: slow.agent, journal: other, runId: "busy" })).text).toBe("done");
      }, table);
    }, table);
  });
});

function captured(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}
