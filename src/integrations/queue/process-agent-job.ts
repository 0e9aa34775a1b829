import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Redis } from "ioredis";
import type { Agent } from "../../agent.js";
import { createEvent, describeError } from "../../loop/create-event.js";
import type { Message } from "../../models/message.js";
import type { MessageRedactor } from "../../sessions/open-session-run.js";
import type { SessionStore } from "../../stores/session-store.js";
import { type AgentJobData, type QueueKeyspace, runEventsKey } from "./agent-job.js";
import { DurableRunBusyError, type RunJournal, type RunSummary, runDurably } from "./durable-api.js";
import { RunEventWriter } from "./run-event-writer.js";
import { saveSessionHistory } from "./session-history.js";
import type { SessionLeases } from "./session-lease.js";
import { withEventSink } from "./with-event-sink.js";

/** Options of {@link createJobProcessor}. */
export interface JobProcessorOptions {
  agents: Readonly<Record<string, () => Agent>>;
  journal: RunJournal;
  /** Where the histories of sessions live. */
  store: SessionStore;
  /** Who owns each session. */
  leases: SessionLeases;
  redactor: MessageRedactor | undefined;
  /** The client events are appended with. */
  client: Redis;
  keyspace: QueueKeyspace;
  /** A run whose session is busy is tried again after about this long (plus up to 50 % jitter). */
  sessionRetryDelayMs: number;
  eventsMaxLen: number;
  eventsTtlSeconds: number;
}

/** A BullMQ processor: `(job, token, signal) => summary`. */
export type AgentJobProcessor = (
  job: Job<AgentJobData, RunSummary>,
  token?: string,
  signal?: AbortSignal,
) => Promise<RunSummary>;

/** Thrown to have BullMQ retry (with backoff) a run that did not finish: the next attempt resumes it. */
class RunAttemptError extends Error {
  constructor(runId: string, error: { name: string; message: string }) {
    super(`run "${runId}" ended with ${error.name}: ${error.message}; it resumes in the next attempt`);
    this.name = "RunAttemptError";
  }
}

/** Thrown when the job went back to the delayed set (its session, or the run itself, is busy). */
class Busy extends Error {}

/** Whether the job's current attempt is its last one. */
function lastAttempt(job: Job<AgentJobData, RunSummary>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * Makes the processor of agent jobs. A job is run with `runDurably`, so a job picked up again after its worker
 * died resumes where the run was. A job with a session first takes the session's lease (held until the job is
 * finished for good) and runs on the session's stored history, which it then saves; while another run holds
 * the session the job waits in the delayed set (`DelayedError`, no attempt used). Events go to the run's Redis
 * Stream. A run that ends with an error (not finished in the journal) fails the attempt so that BullMQ retries
 * it with backoff, except on the last attempt, which completes the job with that summary. A job that fails for
 * good ends its stream with `error` and `loop_end` events so readers stop waiting.
 */
export function createJobProcessor(options: JobProcessorOptions): AgentJobProcessor {
  const { agents, journal, client, keyspace } = options;
  const delay = async (job: Job<AgentJobData, RunSummary>, token: string | undefined) => {
    if (token === undefined) throw new Error("the job has no lock token");
    await job.moveToDelayed(
      Date.now() + Math.round(options.sessionRetryDelayMs * (1 + Math.random() / 2)),
      token,
    );
    throw new DelayedError();
  };
  return async (job, token, signal) => {
    const { runId, input, sessionId } = job.data;
    const factory = Object.hasOwn(agents, job.data.agent) ? agents[job.data.agent] : undefined;
    const writer = new RunEventWriter({
      client,
      key: runEventsKey(keyspace, runId),
      maxLen: options.eventsMaxLen,
      ttlSeconds: options.eventsTtlSeconds,
    });
    try {
      if (factory === undefined) {
        const known = Object.keys(agents).join(", ");
        throw new UnrecoverableError(`unknown agent "${job.data.agent}" (this worker has: ${known})`);
      }
      let prior: readonly Message[] | undefined;
      let saved = false;
      if (sessionId !== undefined) {
        const lease = await options.leases.acquire(sessionId, runId);
        if (lease === undefined) throw new Busy();
        // A resumed run uses its journaled history; a new one starts from the session's.
        const records = (await journal.load(runId)) ?? [];
        const start = records.find((record) => record.kind === "start");
        prior = start?.messages ?? (await options.store.load(sessionId))?.messages ?? [];
        // Finished by an earlier job that let the session go (enqueued again): its history was saved then.
        saved = lease === "taken" && records.some((record) => record.kind === "end");
      }
      const agent = withEventSink({ agent: factory(), sink: (event) => writer.append(event) });
      const summary = await runDurably({
        agent,
        journal,
        runId,
        input,
        ...(prior === undefined ? {} : { messages: prior }),
        ...(signal === undefined ? {} : { signal }),
      });
      // Aborted through the job's signal (its lock was lost to another worker, or it was cancelled): the run is
      // not finished and this attempt must not end its stream nor save its session.
      if (signal?.aborted)
        throw new RunAttemptError(runId, { name: "AbortError", message: String(signal.reason) });
      if (summary.error !== undefined && !lastAttempt(job)) throw new RunAttemptError(runId, summary.error);
      if (sessionId !== undefined && prior !== undefined && !saved) {
        const { store, redactor } = options;
        const { messages } = summary;
        await saveSessionHistory({ store, sessionId, prior, messages, system: agent.system, redactor });
      }
      // A run finished before (a job enqueued again, or retried after its end was journaled) emits no events.
      const { stopReason, text, turns } = summary;
      await writer.finish({ end: writer.holdsEnd || [createEvent("loop_end", turns, { stopReason, text })] });
      return summary;
    } catch (error) {
      if (error instanceof Busy || DurableRunBusyError.isInstance(error)) {
        await writer.finish({ end: false }).catch(() => undefined);
        return delay(job, token);
      }
      // A lost lock (aborted signal): the job goes on elsewhere, so its stream must not end here.
      const final = !signal?.aborted && (error instanceof UnrecoverableError || lastAttempt(job));
      await writer.finish({ end: final ? failureEvents(error) : false }).catch(() => undefined);
      throw error;
    }
  };
}

/** The end of a failed job's stream: a fatal `error` event and `loop_end` with stop reason `error`. */
function failureEvents(error: unknown) {
  const { name, message } = describeError(error);
  return [
    createEvent("error", 0, { name, message, fatal: true }),
    createEvent("loop_end", 0, { stopReason: "error", text: "" }),
  ];
}
