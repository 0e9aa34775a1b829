import { randomUUID } from "node:crypto";
import { Queue, QueueEvents } from "bullmq";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { RunFailedError } from "../../errors/run-failed-error.js";
import { RunTimeoutError } from "../../errors/run-timeout-error.js";
import type { AgentEvent } from "../../loop/agent-event.js";
import { followSignal } from "../../util/follow-signal.js";
import { addAgentJob, addResumeJob, latestJobId } from "./add-agent-job.js";
import {
  type AgentJobData,
  checkOptionalString,
  checkRunId,
  DEFAULT_QUEUE_NAME,
  DEFAULT_QUEUE_PREFIX,
  journalPrefix,
  type QueuedDecisions,
  runEventsKey,
  runIdOfJob,
} from "./agent-job.js";
import { RedisJournal, type RunJournal, type RunSummary } from "./durable-api.js";
import {
  type AgentQueueConnection,
  bullConnection,
  checkClusterKeyspace,
  openProducerClient,
  openQueueClient,
  type QueueClient,
} from "./queue-connection.js";
import { type RunEventEntry, type RunJobStatus, readRunEvents } from "./read-run-events.js";
import {
  type QueueSendResult,
  type QueueSteeringOptions,
  sendSteeringMessage,
  steeringLimits,
} from "./send-steering-message.js";

/** Options of {@link createAgentQueue}. */
export interface AgentQueueOptions extends QueueSteeringOptions {
  /** ioredis options or an ioredis instance (see {@link AgentQueueConnection}). */
  connection: AgentQueueConnection;
  /** The queue name; workers of the same name run its jobs. Default `"agentloop"`. */
  name?: string;
  /** BullMQ's key prefix. Default `"bull"`. On a Redis Cluster it must hold a hash tag: `"{agentloop}"`. */
  prefix?: string;
  /** How often a failing job is tried (a crash is a stall, not a failed attempt). Default 3. */
  attempts?: number;
  /** Completed jobs (and their summaries) are kept this long. Default 86 400 s (one day). */
  keepCompletedSeconds?: number;
  /** Failed jobs are kept this long. Default 604 800 s (seven days). */
  keepFailedSeconds?: number;
  /**
   * The workers' journal, where `result` finds the summary of a run whose job was removed. Default: the
   * workers' default (a `RedisJournal` on the same Redis under `<prefix>:<name>:durable:`).
   */
  journal?: RunJournal;
}

/** What {@link AgentQueue.enqueue} queues. */
export interface EnqueueOptions {
  /** The agent's name: a key of the workers' `agents`. */
  agent: string;
  /** The task. */
  input: string;
  /**
   * The session the run continues: the runs of one session start in the order they were enqueued, one at a
   * time (under the store's session lock).
   */
  sessionId?: string;
  /** The run id. Default `crypto.randomUUID()`. Enqueuing a run id that is already queued adds nothing. */
  runId?: string;
}

/** What {@link AgentQueue.resume} decides for a run paused for approval. */
export interface QueueResumeOptions {
  /** Tool call ids to execute. */
  approve?: readonly string[];
  /** Tool call ids to deny; a pending call in neither list is denied too. */
  deny?: readonly string[];
  /** Who decided (journaled with the decision). */
  decidedBy?: string;
  /** The agent that resumes it. Default: the agent of the run's job (needed once that job was removed). */
  agent?: string;
}

/** What {@link AgentQueue.events} and {@link AgentQueue.eventEntries} take. */
export interface QueueEventsOptions {
  /** Stops the wait (the iteration ends with an `AbortError`). */
  signal?: AbortSignal;
  /** Read after this stream id (an SSE client's `Last-Event-ID`): every later event once. Default: from the start. */
  after?: string;
}

/** A handle on a queue of agent runs (see {@link createAgentQueue}). */
export interface AgentQueue {
  /** Queues a run and resolves with its run id (idempotent per run id). */
  enqueue(options: EnqueueOptions): Promise<string>;
  /**
   * The run's summary once it has finished, from any process: rejects with {@link RunFailedError} when its job
   * failed for good, {@link RunTimeoutError} after `timeoutMs` (default: wait forever), and
   * `InvalidArgumentError` for a run id the queue does not know (never enqueued, or its job was removed and its
   * journal has no end).
   */
  result(runId: string, options?: { timeoutMs?: number }): Promise<RunSummary>;
  /**
   * The run's events, from its first one (or after the stream id `after`) until the next `loop_end`, wherever
   * it runs; subscribing late replays what was missed. The stream holds each event once: a resumed attempt
   * does not write its replayed steps again. A run paused for approval ends with a `loop_end` of stop reason
   * `awaiting_approval`; once it is resumed, read on with `after` = that event's id (see `eventEntries`).
   * Rejects with {@link RunFailedError} if the job fails without ending its stream; `signal` stops the wait.
   */
  events(runId: string, options?: QueueEventsOptions): AsyncIterable<AgentEvent>;
  /** As {@link AgentQueue.events}, each event with its stream id (the SSE `id:`; pass it back as `after`). */
  eventEntries(runId: string, options?: QueueEventsOptions): AsyncIterable<RunEventEntry>;
  /**
   * Decides a run paused for approval, from any process: enqueues a job (id `<runId>:resume:<n>`) that any
   * worker runs as `agent.resume(runId, decisions)`: the decision is journaled, the run replays its log and
   * goes on, in its session under the session lock; nothing executes twice. Its events go to the run's stream;
   * `result(runId)` then waits for it. Resolves with the resume job's id. A decision for a run that is not
   * paused fails that job (`RunFailedError` from `result`).
   */
  resume(runId: string, decisions: QueueResumeOptions): Promise<string>;
  /**
   * Sends a user message to a queued or running run from any process (steering, like `stream.send`): it waits
   * in Redis for the run's worker, which adds it at the run's next turn boundary (a run not started yet: right
   * after its input), journaled first, so exactly once even when the run resumes elsewhere; a `user_message`
   * event shows it in `events`. Resolves `{ queued: true, seq }`, or `{ queued: false, reason }` (`"finished"`,
   * `"paused"` for approval, `"unknown_run"`) storing nothing. One that reaches the run after its last turn is
   * reported in the stream by a non-fatal `MessageNotDelivered` error event. Throws `InvalidArgumentError` for
   * an empty message, one over `maxMessageChars`, or past `maxPendingMessages` waiting. See docs/deployment.md.
   *
   * @example
   * const sent = await queue.send(runId, "Only flights before noon.");
   * if (!sent.queued) res.status(409).json({ error: sent.reason });
   */
  send(runId: string, message: string): Promise<QueueSendResult>;
  /** Closes the queue's connections and ends open `events` iterations (runs go on in the workers). */
  close(): Promise<void>;
}

function checkPositive(argument: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== "number" ||
    !(value > 0) ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  )
    throw new InvalidArgumentError({ argument, message: `expected a positive number, got ${String(value)}` });
}

/**
 * Creates the producer side of a queue of agent runs on BullMQ (`agentloop/queue`): `enqueue` runs for
 * workers ({@link createAgentWorker}) on any machine, then follow them with `events` and `result`.
 *
 * @example
 * const queue = createAgentQueue({ connection: { host: "127.0.0.1", port: 6379 } });
 * const runId = await queue.enqueue({ agent: "support", input: "Where is my order?", sessionId: userId });
 * for await (const event of queue.events(runId)) send(event);
 * const summary = await queue.result(runId);
 */
export function createAgentQueue(options: AgentQueueOptions): AgentQueue {
  if (options === null || typeof options !== "object" || options.connection === undefined) {
    throw new InvalidArgumentError({ argument: "options", message: "expected { connection, ... }" });
  }
  checkOptionalString("name", options.name);
  checkOptionalString("prefix", options.prefix);
  checkPositive("attempts", options.attempts, true);
  checkPositive("keepCompletedSeconds", options.keepCompletedSeconds, false);
  checkPositive("keepFailedSeconds", options.keepFailedSeconds, false);
  checkPositive("maxMessageChars", options.maxMessageChars, true);
  checkPositive("maxPendingMessages", options.maxPendingMessages, true);
  checkPositive("messageTtlSeconds", options.messageTtlSeconds, false);
  const keyspace = {
    prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
    name: options.name ?? DEFAULT_QUEUE_NAME,
  };
  checkClusterKeyspace(options.connection, keyspace);
  const connection = bullConnection(options.connection);
  const producer = openProducerClient(options.connection);
  const queue = new Queue<AgentJobData, RunSummary>(keyspace.name, {
    connection: producer?.client ?? options.connection,
    prefix: keyspace.prefix,
  });
  queue.on("error", () => undefined); // surfaced by the failing calls
  // Each pending `result` (BullMQ's waitUntilFinished) listens for the queue closing: many may wait at once.
  queue.setMaxListeners(0);
  let own: QueueClient | undefined;
  /** agentloop's own client (the journal, the events stream's last id), created on first use. */
  const ownClient = () => {
    own ??= openQueueClient({ connection: options.connection });
    return own.client;
  };
  const journal = (): RunJournal =>
    options.journal ?? new RedisJournal({ client: ownClient(), prefix: journalPrefix(keyspace) });
  let queueEvents: Promise<QueueEvents> | undefined;
  // Started from the events stream's current last entry, not from "$": with "$", a job finishing between
  // `waitUntilFinished`'s own check and the first XREAD of a new QueueEvents would never be reported.
  const finishedEvents = () => {
    queueEvents ??= (async () => {
      const last = await ownClient().xrevrange(queue.toKey("events"), "+", "-", "COUNT", 1);
      const created = new QueueEvents(keyspace.name, {
        connection,
        prefix: keyspace.prefix,
        lastEventId: last[0]?.[0] ?? "0-0",
      });
      created.on("error", () => undefined);
      return created;
    })().catch((error: unknown) => {
      queueEvents = undefined; // try again on the next call
      throw error;
    });
    return queueEvents;
  };
  const readers = new AbortController();
  let closing: Promise<void> | undefined;

  const checkOpen = () => {
    if (closing !== undefined)
      throw new InvalidArgumentError({ argument: "queue", message: "the queue is closed" });
  };

  const keepFor = {
    attempts: options.attempts ?? 3,
    backoff: { type: "exponential", delay: 1_000 },
    removeOnComplete: { age: options.keepCompletedSeconds ?? 86_400 },
    removeOnFail: { age: options.keepFailedSeconds ?? 604_800 },
  };
  /** The job a run id stands for (its latest: the last resume job, if any); a job id as it is. */
  const jobIdOf = (id: string) =>
    id.includes(":") ? Promise.resolve(id) : latestJobId({ queue, keyspace, runId: id });
  const status = async (runId: string): Promise<RunJobStatus> => {
    const jobId = await jobIdOf(runId);
    const state = await queue.getJobState(jobId);
    if (state === "completed") return { finished: true };
    if (state !== "failed") return { finished: false };
    const job = await queue.getJob(jobId);
    return { finished: true, failedReason: job?.failedReason ?? "failed" };
  };
  const entries = (
    runId: string,
    { signal, after }: QueueEventsOptions = {},
  ): AsyncIterable<RunEventEntry> => {
    checkOpen();
    checkRunId(runId);
    checkOptionalString("after", after);
    return {
      [Symbol.asyncIterator]: () => {
        const { client, close } = openQueueClient({ connection: options.connection, blocking: true });
        // Linked by listeners removed when the iteration ends, not AbortSignal.any: on Node 20 that leaves an
        // entry on the queue-lifetime signal for every subscription (nodejs/node#55351).
        const stop = new AbortController();
        const unfollow = [followSignal(signal, stop), followSignal(readers.signal, stop)];
        return readRunEvents({
          client,
          close: () => {
            for (const undo of unfollow) undo();
            return close();
          },
          key: runEventsKey(keyspace, runId),
          after,
          blockMs: 2_000,
          status: () => status(runId),
          failed: (reason) => new RunFailedError({ runId, reason }),
          signal: stop.signal,
        });
      },
    };
  };

  return {
    async enqueue(run) {
      checkOpen();
      if (run === null || typeof run !== "object")
        throw new InvalidArgumentError({ argument: "run", message: "expected { agent, input, ... }" });
      checkOptionalString("agent", run.agent);
      if (run.agent === undefined)
        throw new InvalidArgumentError({ argument: "agent", message: "is required" });
      if (typeof run.input !== "string")
        throw new InvalidArgumentError({ argument: "input", message: "expected a string" });
      checkOptionalString("sessionId", run.sessionId);
      const runId = run.runId ?? randomUUID();
      checkRunId(runId);
      const data: AgentJobData = { runId, agent: run.agent, input: run.input };
      if (run.sessionId !== undefined) data.sessionId = run.sessionId;
      await addAgentJob({ queue, keyspace, data, opts: keepFor });
      return runId;
    },

    async resume(runId, decisions) {
      checkOpen();
      checkRunId(runId);
      const resume = checkDecisions(decisions);
      const agent = decisions.agent ?? (await queue.getJob(runId))?.data.agent;
      if (agent === undefined) {
        throw new InvalidArgumentError({
          argument: "agent",
          message: `the job of run "${runId}" is gone (or was never enqueued): name the agent that resumes it`,
        });
      }
      const data: AgentJobData = { runId, agent, input: "", resume };
      const ttlSeconds = Math.max(
        options.keepCompletedSeconds ?? 86_400,
        options.keepFailedSeconds ?? 604_800,
      );
      return addResumeJob({ queue, keyspace, data, opts: keepFor, ttlSeconds });
    },

    async result(id, { timeoutMs } = {}) {
      checkOpen();
      const runId = runIdOfJob(String(id));
      checkRunId(runId);
      checkPositive("timeoutMs", timeoutMs, false);
      const jobId = await jobIdOf(id);
      const job = await queue.getJob(jobId);
      if (job === undefined) {
        const end = (await journal().load(runId))?.findLast((record) => record.kind === "end");
        if (end?.kind === "end") return end.result;
        throw new InvalidArgumentError({
          argument: "runId",
          message: `no run "${runId}" in queue "${keyspace.name}" (never enqueued, or its job was removed)`,
        });
      }
      try {
        return (await job.waitUntilFinished(await finishedEvents(), timeoutMs)) as RunSummary;
      } catch (error) {
        // Tell a failed job from a timeout (or a closing queue) by the job's state.
        const state = await status(jobId).catch(() => undefined);
        if (state?.finished && state.failedReason !== undefined) {
          throw new RunFailedError({ runId, reason: state.failedReason, cause: error });
        }
        if (state?.finished) {
          const finished = await queue.getJob(jobId);
          if (finished !== undefined) return finished.returnvalue;
        }
        if (timeoutMs !== undefined && closing === undefined) throw new RunTimeoutError({ runId, timeoutMs });
        throw error;
      }
    },

    async send(runId, message) {
      checkOpen();
      checkRunId(runId);
      return sendSteeringMessage({
        client: ownClient(),
        keyspace,
        jobKey: queue.toKey(runId),
        runId,
        message,
        journal,
        ...steeringLimits(options),
      });
    },

    events(runId, events = {}) {
      const iterable = entries(runId, events);
      return {
        async *[Symbol.asyncIterator]() {
          for await (const entry of iterable) yield entry.event;
        },
      };
    },

    eventEntries: entries,

    close() {
      closing ??= (async () => {
        readers.abort(new Error("The queue was closed"));
        await Promise.allSettled([
          queueEvents?.then((events) => events.close()),
          queue.close().finally(() => producer?.close()),
          own?.close(),
        ]);
      })();
      return closing;
    },
  };
}

/** Checks `queue.resume`'s decisions and returns them as job data. */
function checkDecisions(decisions: QueueResumeOptions): QueuedDecisions {
  if (decisions === null || typeof decisions !== "object") {
    throw new InvalidArgumentError({
      argument: "decisions",
      message: "expected { approve?, deny?, decidedBy? }",
    });
  }
  const ids = (argument: "approve" | "deny"): string[] => {
    const list = decisions[argument] ?? [];
    if (!Array.isArray(list) || !list.every((id) => typeof id === "string" && id !== "")) {
      throw new InvalidArgumentError({ argument, message: "expected an array of tool call ids" });
    }
    return [...list];
  };
  checkOptionalString("decidedBy", decisions.decidedBy);
  checkOptionalString("agent", decisions.agent);
  const queued: QueuedDecisions = { approve: ids("approve"), deny: ids("deny") };
  if (decisions.decidedBy !== undefined) queued.decidedBy = decisions.decidedBy;
  return queued;
}
