// A queue worker process for queue-crash.test.ts: the test bundles this file (with esbuild, from src/) and runs
// it with node. Env: MOCK_URL (the mock OpenAI server), QUEUE_PREFIX, QUEUE_NAME, LOCK_MS, STALLED_MS,
// CONCURRENCY, TALLY_DELAY_MS, SESSION_RETRY_MS.
// The `tally` tool (and `tally_gated`, the same behind an approval) has a side effect in Redis that happens once per idempotency key: SET effect:<key> NX and,
// only if that succeeded, INCR effects:<run id> (one Lua script, so a kill cannot split the two). It also counts
// every execution in calls:<run id>. Prints "ready" once the worker is started; SIGTERM closes it gracefully.
import { Redis } from "ioredis";
import { Agent } from "../../src/agent.js";
import { createAgentWorker } from "../../src/integrations/queue/index.js";
import { RedisStore } from "../../src/integrations/redis/redis-store.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { tool } from "../../src/tools/tool.js";

const env = process.env;
const connection = { host: env.REDIS_HOST ?? "127.0.0.1", port: Number(env.REDIS_PORT ?? 6379) };
const prefix = env.QUEUE_PREFIX ?? "aq-crash";
const redis = new Redis(connection);
const effects = `${prefix}:fx:`;
const EFFECT_ONCE = `if redis.call("SET", KEYS[1], "1", "NX") then return redis.call("INCR", KEYS[2]) end
return 0`;

const tallyTool = (name: string, needsApproval: boolean) =>
  tool<{ n: number }>({
    name,
    description: "Adds n to the tally",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    idempotent: true,
    needsApproval,
    execute: async ({ n }, ctx) => {
      const key = ctx.idempotencyKey ?? "?";
      const runId = key.split(":")[0];
      await redis.incr(`${effects}calls:${runId}`);
      // The tool takes a while, so that some kills land while it runs (it is then executed again, same key).
      await new Promise((resolve) => setTimeout(resolve, Number(env.TALLY_DELAY_MS ?? 0)));
      await redis.eval(EFFECT_ONCE, 2, `${effects}effect:${key}`, `${effects}effects:${runId}`);
      return `tallied ${n}`;
    },
  });
const tally = tallyTool("tally", false);
// The same effect behind a human's approval: a gated run pauses here until the test decides.
const tallyGated = tallyTool("tally_gated", true);

// Every request carries the worker's pid, so the test can tell attempts of a run apart.
const model = createOpenAI({
  baseURL: env.MOCK_URL ?? "",
  apiKey: "k",
  extraBody: { user: `pid:${process.pid}` },
})("mock-model");
const lockMs = Number(env.LOCK_MS ?? 30_000);
// The worker gives every agent this store (history and session lock); the lock of a killed worker expires
// with its job lock, so the run resumes elsewhere without waiting for it.
const store = new RedisStore({ client: redis, prefix: `${prefix}:sessions:`, lockTtlMs: lockMs });
const worker = createAgentWorker({
  connection,
  prefix,
  name: env.QUEUE_NAME ?? "crash",
  agents: { tally: () => new Agent({ model, tools: [tally, tallyGated], system: "You tally." }) },
  store,
  concurrency: Number(env.CONCURRENCY ?? 4),
  lockDurationMs: lockMs,
  stalledIntervalMs: Number(env.STALLED_MS ?? 30_000),
  sessionRetryDelayMs: Number(env.SESSION_RETRY_MS ?? 100),
});

process.on("SIGTERM", () => {
  worker
    .close()
    .then(() => redis.quit())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
process.stdout.write("ready\n");
