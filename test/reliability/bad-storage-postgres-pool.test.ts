import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { SessionBusyError } from "../../src/errors/session-busy-error.js";
import { PostgresStore } from "../../src/integrations/postgres/postgres-store.js";
import { ScriptedModel } from "../../src/testing/index.js";

// PostgresStore with its default pool (10 connections) under many concurrent sessions: a held session lock
// must not pin a pool connection.

const dbUser = process.env.PGUSER ?? userInfo().username;
const connectionString = `postgres://${encodeURIComponent(dbUser)}@127.0.0.1:5432/test`;
const table = `agentloop_pool_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;

afterAll(async () => {
  const admin = new pg.Pool({ connectionString, max: 1 });
  await admin.query(`DROP TABLE IF EXISTS "${table}", "${table}_locks"`);
  await admin.end();
});

describe("PostgresStore on its default pool", () => {
  it("runs 200 concurrent sessions, each holding its lock across a slow model call", async () => {
    const store = new PostgresStore({ connectionString, table });
    const sessions = 200;
    const model = new ScriptedModel(Array.from({ length: sessions }, () => ({ text: "done", delayMs: 300 })));
    const agent = new Agent({ model, store });
    const ids = Array.from({ length: sessions }, (_, index) => `pool-${index}`);
    const results = await Promise.all(ids.map((sessionId) => agent.run(`task ${sessionId}`, { sessionId })));
    expect(results.map((result) => result.stopReason)).toEqual(ids.map(() => "completed"));
    for (const sessionId of ids.slice(0, 20)) {
      expect((await store.load(sessionId))?.messages.map((m) => m.content)).toEqual([
        `task ${sessionId}`,
        "done",
      ]);
    }
    await store.close();
  }, 20_000);

  it("serialises contending runs of one session: each is busy or runs alone, nothing is lost", async () => {
    const store = new PostgresStore({ connectionString, table });
    const runs = 12;
    const model = new ScriptedModel(
      Array.from({ length: runs }, (_, index) => ({ text: `answer`, delayMs: 20 + index })),
    );
    const agent = new Agent({ model, store });
    const sessionId = `contended-${randomUUID()}`;
    let busy = 0;
    let attempting = 0;
    let overlapped = false;
    await Promise.all(
      Array.from({ length: runs }, async (_, index) => {
        for (let attempt = 0; attempt < 500; attempt++) {
          try {
            attempting++;
            if (attempting > 1) overlapped = true;
            const result = await agent.run(`question ${index}`, { sessionId });
            expect(result.stopReason).toBe("completed");
            return;
          } catch (error) {
            if (!SessionBusyError.isInstance(error)) throw error;
            busy++;
            await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
          } finally {
            attempting--;
          }
        }
        throw new Error("never got the session");
      }),
    );
    expect(overlapped).toBe(true); // the runs did contend
    expect(busy).toBeGreaterThan(0);
    const messages = (await store.load(sessionId))?.messages ?? [];
    expect(messages).toHaveLength(runs * 2);
    for (let index = 0; index < messages.length; index += 2) {
      expect(messages[index]?.role).toBe("user");
      expect(messages[index + 1]).toEqual({ role: "assistant", content: "answer" });
    }
    expect(new Set(messages.filter((m) => m.role === "user").map((m) => m.content)).size).toBe(runs);
    await store.close();
  }, 20_000);
});
