import { Queue, Worker } from "bullmq";
import type { Agent } from "../../agent.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { MessageRedactor } from "../../sessions/open-session-run.js";
import { createRedactor } from "../../stores/redactor.js";
import type { SessionStore } from "../../stores/session-store.js";
import { RedisStore } from "../redis/redis-store.js";
import {
  type AgentJobData,
  checkOptionalString,
  DEFAULT_QUEUE_NAME,
  DEFAULT_QUEUE_PREFIX,
  journalPrefix,
} from "./agent-job.js";
import { RedisJournal, type RunJournal, type RunSummary } from "./durable-api.js";
import { createJobProcessor } from "./process-agent-job.js";
import {
  type AgentQueueConnection,
  bullConnection,
  checkClusterKeyspace,
  openQueueClient,
} from "./queue-connection.js";
import { SessionOrder } from "./session-order.js";

/** Options of {@link createAgentWorker}. */
export interface AgentWorkerOptions {
  /** ioredis options or an ioredis instance (see {@link AgentQueueConnection}). */
  connection: AgentQueueConnection;
  /** The agents this worker runs, by the name runs are enqueued with; each job gets a fresh agent. */
  agents: Readonly<Record<string, () => Agent>>;
  /** Runs executed at once by this worker. Default 4. */
  concurrency?: number;
  /** The queue name. Default `"agentloop"`. */
  name?: string;
  /** BullMQ's key prefix (as given to the queue). Default `"bull"`; on a Redis Cluster, hash-tagged (`"{agentloop}"`). */
  prefix?: string;
  /**
   * Where runs are journaled. Default: a `RedisJournal` on the same Redis under `<prefix>:<name>:durable:`,
   * where the queue's `result` finds runs whose job was removed.
   */
  journal?: RunJournal;
  /**
   * Where the histories of sessions live, and their locks (runs enqueued with a `sessionId` continue them):
   * given to every agent as its `store`. Default: a `RedisStore` on the same Redis with its default prefix
   * `"agentloop:"`. Give a direct `agent.run(input, { sessionId })` the same store: it then takes the same lock.
   */
  store?: SessionStore;
  /**
   * Stored redaction of session histories, given to every agent as its `redact` option when set (unset: the
   * agent's own `redact`, default off, so the next run's model sees the history as it was).
   */
  redact?: boolean | MessageRedactor;
  /**
   * How long a job's lock lives without renewal (renewed every half of it while the worker lives): after a
   * worker dies, its runs are resumed elsewhere within about this plus `stalledIntervalMs`. Default 30 000.
   */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock expired. Default 30 000. */
  stalledIntervalMs?: number;
  /** A job whose worker died more often than this fails (a poison job). Default 5. */
  maxStalledCount?: number;
  /** A run whose session is busy (or whose turn in the session has not come) is tried again after about this long. Default 500. */
  sessionRetryDelayMs?: number;
  /** Approximate cap of a run's event stream. Default 10 000 events. */
  eventsMaxLen?: number;
  /** A finished run's event stream expires this long after its last event (a running run's, at least half that). Default 86 400 s. */
  eventsTtlSeconds?: number;
  /**
   * How often a running run's worker reads the messages sent to it (`queue.send`) from Redis. A message is
   * added at the run's next turn boundary after it is read. Default 250.
   */
  steeringPollMs?: number;
}

/** A running worker (see {@link createAgentWorker}). */
export interface AgentWorker {
  /** Graceful shutdown: takes no new jobs, lets the runs in flight finish, closes its connections. */
  close(): Promise<void>;
  /** Resolves once the worker has closed. */
  readonly closed: Promise<void>;
}

function checkPositive(argument: string, value: number | undefined, integer = true): void {
  if (value === undefined) return;
  if (
    typeof value !== "number" ||
    !(value > 0) ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  )
    throw new InvalidArgumentError({
      argument,
      message: `expected a positive integer, got ${String(value)}`,
    });
}

/**
 * Starts a worker of a queue of agent runs (`agentloop/queue`, on BullMQ). Each job is the agent's durable run
 * (`agent.run(input, { runId, sessionId })` on the worker's `journal` and `store`; `agent.resume` for a resume
 * job), so a job picked up again after its worker died (BullMQ's stalled-job check) resumes from its journal;
 * events go to the run's Redis Stream for `queue.events(runId)`; the summary is the job's return value for
 * `queue.result(runId)`. The runs of one session start in the order they were enqueued, under the store's
 * session lock; a run that must wait waits in the delayed set and never fails for it. Messages sent to a run
 * (`queue.send`) are read every `steeringPollMs` and added between its turns, each exactly once.
 *
 * @example
 * const worker = createAgentWorker({
 *   connection: { host: "127.0.0.1", port: 6379 },
 *   agents: { support: () => new Agent({ model, tools, store }) },
 * });
 * process.on("SIGTERM", () => worker.close());
 */
export function createAgentWorker(options: AgentWorkerOptions): AgentWorker {
  if (options === null || typeof options !== "object" || options.connection === undefined) {
    throw new InvalidArgumentError({ argument: "options", message: "expected { connection, agents, ... }" });
  }
  const { agents } = options;
  if (agents === null || typeof agents !== "object" || Object.keys(agents).length === 0) {
    throw new InvalidArgumentError({ argument: "agents", message: "expected { name: () => Agent, ... }" });
  }
  for (const [name, factory] of Object.entries(agents)) {
    if (typeof factory !== "function") {
      throw new InvalidArgumentError({
        argument: `agents.${name}`,
        message: "expected a function returning an Agent",
      });
    }
  }
  checkOptionalString("name", options.name);
  checkOptionalString("prefix", options.prefix);
  checkPositive("concurrency", options.concurrency);
  checkPositive("lockDurationMs", options.lockDurationMs);
  checkPositive("stalledIntervalMs", options.stalledIntervalMs);
  checkPositive("sessionRetryDelayMs", options.sessionRetryDelayMs);
  checkPositive("eventsMaxLen", options.eventsMaxLen);
  checkPositive("eventsTtlSeconds", options.eventsTtlSeconds);
  checkPositive("steeringPollMs", options.steeringPollMs);
  if (
    options.maxStalledCount !== undefined &&
    !(Number.isInteger(options.maxStalledCount) && options.maxStalledCount >= 0)
  ) {
    throw new InvalidArgumentError({
      argument: "maxStalledCount",
      message: "expected a non-negative integer",
    });
  }
  const keyspace = {
    prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
    name: options.name ?? DEFAULT_QUEUE_NAME,
  };
  checkClusterKeyspace(options.connection, keyspace);
  const redis = openQueueClient({ connection: options.connection });
  const journal =
    options.journal ??
    new RedisJournal({
      client: redis.client,
      prefix: journalPrefix(keyspace),
      // The run lock of a dead worker expires with its job lock, so the job resumes elsewhere without waiting.
      lockTtlMs: options.lockDurationMs ?? 30_000,
    });
  // The session lock of a dead worker expires with its job lock too, so its run resumes without waiting.
  const store =
    options.store ?? new RedisStore({ client: redis.client, lockTtlMs: options.lockDurationMs ?? 30_000 });
  const jobs = new Queue<AgentJobData, RunSummary>(keyspace.name, {
    connection: bullConnection(options.connection),
    prefix: keyspace.prefix,
  });
  jobs.on("error", () => undefined);
  const order = new SessionOrder({
    client: redis.client,
    keyspace,
    jobState: (runId) => jobs.getJobState(runId),
  });
  const processor = createJobProcessor({
    agents,
    journal,
    store,
    order,
    redactor:
      options.redact === undefined || options.redact === false
        ? undefined
        : options.redact === true
          ? createRedactor()
          : options.redact,
    client: redis.client,
    keyspace,
    sessionRetryDelayMs: options.sessionRetryDelayMs ?? 500,
    eventsMaxLen: options.eventsMaxLen ?? 10_000,
    eventsTtlSeconds: options.eventsTtlSeconds ?? 86_400,
    steeringPollMs: options.steeringPollMs ?? 250,
  });
  const worker = new Worker<AgentJobData, RunSummary>(keyspace.name, processor, {
    connection: bullConnection(options.connection),
    prefix: keyspace.prefix,
    concurrency: options.concurrency ?? 4,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 5,
  });
  // Connection errors are retried by BullMQ; without a listener Node would treat them as unhandled.
  worker.on("error", () => undefined);
  // A job whose lock could not be renewed (this process stalled longer than the lock) may already run on
  // another worker: abort this attempt at once (the journal keeps what it did).
  worker.on("lockRenewalFailed", (jobIds) => {
    for (const jobId of jobIds) worker.cancelJob(jobId, "the job's lock was lost to another worker");
  });
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  return {
    close() {
      closing ??= (async () => {
        try {
          await worker.close();
        } finally {
          await jobs.close().catch(() => undefined);
          await redis.close();
          markClosed();
        }
      })();
      return closing;
    },
    closed,
  };
}
