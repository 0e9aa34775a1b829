import { type Job, Queue, Worker } from "bullmq";
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
import { type AgentQueueConnection, bullConnection, openQueueClient } from "./queue-connection.js";
import { SessionLeases } from "./session-lease.js";

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
  /** BullMQ's key prefix (as given to the queue). Default `"bull"`. */
  prefix?: string;
  /**
   * Where runs are journaled. Default: a `RedisJournal` on the same Redis under `<prefix>:<name>:durable:`,
   * where the queue's `result` finds runs whose job was removed.
   */
  journal?: RunJournal;
  /**
   * Where the histories of sessions live (runs enqueued with a `sessionId` continue them). Default: a
   * `RedisStore` on the same Redis with its default prefix `"agentloop:"`.
   */
  store?: SessionStore;
  /**
   * Stored redaction of the session history saved after a run, as the `Agent` option: default off (the next
   * job's model sees the history as it was); `true` or a redactor from `createRedactor` turns it on.
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
  /** A run whose session is busy is tried again after about this long. Default 500. */
  sessionRetryDelayMs?: number;
  /** Approximate cap of a run's event stream. Default 10 000 events. */
  eventsMaxLen?: number;
  /** A run's event stream expires this long after its last event. Default 86 400 s. */
  eventsTtlSeconds?: number;
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
 * Starts a worker of a queue of agent runs (`agentloop/queue`, on BullMQ). Each job is run with `runDurably`,
 * so a job picked up again after its worker died (BullMQ's stalled-job check) resumes from its journal;
 * events go to the run's Redis Stream for `queue.events(runId)`; the summary is the job's return value for
 * `queue.result(runId)`. A run of a busy session waits in the delayed set: one session never runs twice at
 * once, and never fails for being busy.
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
  const redis = openQueueClient({ connection: options.connection });
  const journal =
    options.journal ??
    new RedisJournal({
      client: redis.client,
      prefix: journalPrefix(keyspace),
      // The run lock of a dead worker expires with its job lock, so the job resumes elsewhere without waiting.
      lockTtlMs: options.lockDurationMs ?? 30_000,
    });
  const store = options.store ?? new RedisStore({ client: redis.client });
  const jobs = new Queue<AgentJobData, RunSummary>(keyspace.name, {
    connection: bullConnection(options.connection),
    prefix: keyspace.prefix,
  });
  jobs.on("error", () => undefined);
  const leases = new SessionLeases({
    client: redis.client,
    keyspace,
    jobState: (runId) => jobs.getJobState(runId),
  });
  const processor = createJobProcessor({
    agents,
    journal,
    store,
    leases,
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
  // A session is released once its run's job is finished for good (a stale lease is taken over anyway).
  const release = (job: Job<AgentJobData, RunSummary> | undefined) => {
    const sessionId = job?.data.sessionId;
    if (job === undefined || sessionId === undefined) return;
    leases.release(sessionId, job.data.runId).catch(() => undefined);
  };
  worker.on("completed", release);
  worker.on("failed", (job) => {
    job?.getState().then(
      (state) => state === "failed" && release(job),
      () => undefined,
    );
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
