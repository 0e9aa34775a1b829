import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { StoreError } from "../../errors/store-error.js";
import type { Message } from "../../models/message.js";
import { describeSessionStoreContract } from "../../stores/session-store-contract.js";
import { describeStateStoreContract } from "../../stores/state-store-contract.js";
import { PostgresStateStore } from "./postgres-state-store.js";
import { PostgresStore } from "./postgres-store.js";

// pg takes the user from $USER, which may be unset: name the OS user explicitly (trust auth).
const dbUser = process.env.PGUSER ?? userInfo().username;
const connectionString = `postgres://${encodeURIComponent(dbUser)}@127.0.0.1:5432/test`;
const suffix = randomUUID().replaceAll("-", "").slice(0, 12);
const table = `agentloop_test_records_${suffix}`;
const stateTable = `agentloop_test_state_${suffix}`;
const admin = new pg.Pool({ connectionString, max: 2 });
const user = (content: string): Message => ({ role: "user", content });

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS "${table}", "${table}_locks", "${stateTable}"`);
  const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = ANY($1)", [
    [table, stateTable],
  ]);
  expect(rows[0].n).toBe(0);
  await admin.end();
});

describeSessionStoreContract({
  name: "PostgresStore",
  create: async () => new PostgresStore({ connectionString, table }),
  writeRawRecord: async (_store, sessionId, record) => {
    const { v, type, at, ...body } = record;
    await admin.query(`INSERT INTO "${table}" (session_id, v, type, at, body) VALUES ($1, $2, $3, $4, $5)`, [
      sessionId,
      v,
      type,
      at,
      JSON.stringify(body),
    ]);
  },
});

describeStateStoreContract({
  name: "PostgresStateStore",
  create: async () => new PostgresStateStore({ connectionString, table: stateTable }),
});

describe("PostgresStore", () => {
  it("stores one row per record with its payload as jsonb; NUL survives through the wrapper", async () => {
    const store = new PostgresStore({ connectionString, table });
    const sessionId = `rows-${randomUUID()}`;
    await store.append(sessionId, [user("plain"), user("nul \u0000 here")]);
    await store.saveState(sessionId, { a: 1 });
    await store.saveState(sessionId, { a: 2 });
    const { rows } = await admin.query(
      `SELECT v, type, body FROM "${table}" WHERE session_id = $1 ORDER BY id`,
      [sessionId],
    );
    expect(rows.map((row) => row.type)).toEqual(["message", "message", "state"]);
    expect(rows[0].body).toEqual({ message: user("plain") });
    expect(Object.keys(rows[1].body)).toEqual(["$agentloop:base64"]);
    expect(rows[2].body).toEqual({ state: { a: 2 } });
    expect((await store.load(sessionId))?.messages).toEqual([user("plain"), user("nul \u0000 here")]);
    await store.close();
  });

  it("rejects with StoreError within 2 s when PostgreSQL is down", async () => {
    const store = new PostgresStore({ connectionString: "postgres://127.0.0.1:1/test", table });
    for (const attempt of [
      () => store.append("down", [user("lost")]),
      () => store.load("down"),
      () => store.lock("down", { ttlMs: 1_000 }),
    ]) {
      const started = Date.now();
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    await store.close();
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM "${table}" WHERE session_id = 'down'`);
    expect(rows[0].n).toBe(0);
    const state = new PostgresStateStore({
      connectionString: "postgres://127.0.0.1:1/test",
      table: stateTable,
    });
    await expect(state.save("k", 1)).rejects.toSatisfy((error: unknown) => StoreError.isInstance(error));
    await state.close();
  });

  it("held locks pin no connection: 30 locks on a pool of 2, other queries still run", async () => {
    const pool = new pg.Pool({ connectionString, max: 2 });
    const store = new PostgresStore({ pool, table });
    const ids = Array.from({ length: 30 }, (_, index) => `many-${index}-${randomUUID()}`);
    const locks = await Promise.all(ids.map((id) => store.lock(id, { ttlMs: 60_000 })));
    expect(locks.every((lock) => lock !== undefined)).toBe(true);
    await store.append(ids[0]!, [user("still served")]);
    expect((await store.load(ids[0]!))?.messages).toEqual([user("still served")]);
    expect(await store.lock(ids[1]!, { ttlMs: 60_000 })).toBeUndefined();
    expect(await Promise.all(locks.map((lock) => lock!.renew!()))).toEqual(locks.map(() => true));
    await Promise.all(locks.map((lock) => lock!.release()));
    expect(await locks[0]!.renew!()).toBe(false);
    await store.close();
    await pool.end();
  });

  it("uses a pool passed in without ending it; close releases held locks", async () => {
    const pool = new pg.Pool({ connectionString, max: 3 });
    const store = new PostgresStore({ pool, table });
    const sessionId = `pool-${randomUUID()}`;
    expect(await store.lock(sessionId, { ttlMs: 600_000 })).toBeDefined();
    await store.close();
    const other = new PostgresStore({ pool, table });
    const lock = await other.lock(sessionId, { ttlMs: 600_000 });
    expect(lock).toBeDefined();
    await lock!.release();
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    await pool.end();
  });

  it("validates the table name (identifiers cannot be parameters)", () => {
    for (const bad of ['x"; DROP TABLE y; --', "1abc", "a.b.c", "", "with space"]) {
      expect(() => new PostgresStore({ connectionString, table: bad })).toThrow(
        expect.objectContaining({ argument: "table" }),
      );
    }
    expect(InvalidArgumentError.isInstance(captured(() => new PostgresStateStore({ table: "a-b" })))).toBe(
      true,
    );
    expect(new PostgresStore({ connectionString, table: "public.records_x" }).table).toBe("public.records_x");
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
