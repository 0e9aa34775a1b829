import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Agent } from "../../agent.js";
import type { AgentOptions } from "../../agent-options.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { RunAttemptError } from "../../errors/run-attempt-error.js";
import { SessionBusyError } from "../../errors/session-busy-error.js";
import type { AgentEvent } from "../../loop/agent-event.js";
import type { AgentResult } from "../../loop/agent-result.js";
import { createEvent, describeError } from "../../loop/create-event.js";
import type { SteeringInbox } from "../../loop/steering-inbox.js";
import type { MessageRedactor } from "../../sessions/open-session-run.js";
import type { SessionStore } from "../../stores/session-store.js";
import type { RedisClient } from "../redis/redis-client.js";
import { type AgentJobData, type QueueKeyspace, runEventsKey } from "./agent-job.js";
import { DurableRunBusyError, type RunJournal, type RunSummary, toRunSummary } from "./durable-api.js";
import { closeQueuedSteering } from "./queued-steering.js";
import { RunEventWriter } from "./run-event-writer.js";
import type { SessionOrder } from "./session-order.js";
import { SteeringDrain } from "./steering-drain.js";
import { withEventSink } from "./with-event-sink.js";

/** Options of {@link createJobProcessor}. */
export interface JobProcessorOptions {
  agents: Readonly<Record<string, () => Agent>>;
  /** Given to every agent: where its runs are journaled. */
  journal: RunJournal;
  /** Given to every agent: where the histories of sessions live (and their locks). */
  store: SessionStore;
  /** The order of each session's runs. */
  order: SessionOrder;
  /** Given to every agent as its `redact` option when set (the worker's `redact`). */
  redactor: MessageRedactor | undefined;
  /** The client events are appended with. */
  client: RedisClient;
  keyspace: QueueKeyspace;
  /** A run whose session is busy (or not its turn) is tried again after about this long (+ up to 50 %). */
  sessionRetryDelayMs: number;
  eventsMaxLen: number;
  eventsTtlSeconds: number;
  /** How often a running run's messages (`queue.send`) are read from Redis. */
  steeringPollMs: number;
}

/** A BullMQ processor: `(job, token, signal) => summary`. */
export type AgentJobProcessor = (
  job: Job<AgentJobData, RunSummary>,
  token?: string,
  signal?: AbortSignal,
) => Promise<RunSummary>;

/** Thrown when it is not the run's turn in its session yet: the job goes back to the delayed set. */
class NotYourTurn extends Error {}

/** Whether the job's current attempt is its last one. */
function lastAttempt(job: Job<AgentJobData, RunSummary>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** Whether `error` means "try again later, without using an attempt" (the session or the run is busy). */
function isBusy(error: unknown): boolean {
  return (
    error instanceof NotYourTurn ||
    SessionBusyError.isInstance(error) ||
    DurableRunBusyError.isInstance(error)
  );
}

/**
 * Makes the processor of agent jobs. Every job is the agent's normal durable run on the worker's journal and
 * store: `agent.run(input, { runId, sessionId })`, or `agent.resume(runId, decisions)` for a resume job. So a
 * job picked up again after its worker died resumes where the run was, a session's history is loaded and saved
 * by the run itself under the store's session lock, and nothing executes twice. A run of a session starts only
 * at the head of its session's order; while it is not its turn, or its session or run is busy elsewhere, the
 * job waits in the delayed set (`DelayedError`, no attempt used). Events go to the run's Redis Stream, except
 * replayed ones (`replayed: true`: the attempt that produced them wrote them). A run that ends with an error
 * fails the attempt so that BullMQ retries it, except on the last attempt, which completes the job with that
 * summary; a run paused for approval completes its job (stop reason `awaiting_approval`). A job that fails for
 * good ends its stream with `error` and `loop_end` events so readers stop waiting. A run's job (not a resume
 * job) takes the messages sent to it (`queue.send`) through a {@link SteeringDrain}; a job that ends the run or
 * pauses it closes them, and reports those that came too late with a non-fatal `MessageNotDelivered` error
 * event before its `loop_end`.
 */
export function createJobProcessor(options: JobProcessorOptions): AgentJobProcessor {
  const { agents, client, keyspace, order } = options;
  const delay = async (job: Job<AgentJobData, RunSummary>, token: string | undefined) => {
    if (token === undefined) throw new Error("the job has no lock token");
    const ms = Math.round(options.sessionRetryDelayMs * (1 + Math.random() / 2));
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  };
  return async (job, token, signal) => {
    const { runId, sessionId } = job.data;
    // A run of a session keeps its place in the session's order until it is finished for good.
    const ordered = sessionId !== undefined && job.data.resume === undefined;
    const leave = async () => {
      if (ordered) await order.leave({ sessionId, runId });
    };
    const writer = new RunEventWriter({
      client,
      key: runEventsKey(keyspace, runId),
      maxLen: options.eventsMaxLen,
      ttlSeconds: options.eventsTtlSeconds,
      // The journal's appends of the run carry its waiting events (one round trip for both).
      journal: { journal: options.journal, runId },
    });
    /** The run takes no more messages; those that came after its last turn boundary are reported. */
    const closeSteering = async (reason: "finished" | "paused", turn: number) => {
      const ttlSeconds = options.eventsTtlSeconds;
      const late = await closeQueuedSteering({
        client,
        keyspace,
        runId,
        journal: options.journal,
        reason,
        ttlSeconds,
      });
      if (late > 0) writer.append(lateMessagesEvent({ runId, late, reason, turn }));
    };
    try {
      const factory = Object.hasOwn(agents, job.data.agent) ? agents[job.data.agent] : undefined;
      if (factory === undefined) {
        const known = Object.keys(agents).join(", ");
        throw new UnrecoverableError(`unknown agent "${job.data.agent}" (this worker has: ${known})`);
      }
      if (ordered && (await order.turn({ sessionId, runId })) === "wait") throw new NotYourTurn();
      const overrides: Partial<AgentOptions> = { journal: options.journal, store: options.store };
      if (options.redactor !== undefined) overrides.redact = options.redactor;
      const agent = withEventSink({
        agent: factory().with(overrides),
        // Replayed events are in the stream already: the attempt that produced them wrote them.
        sink: (event: AgentEvent) => {
          if (event.replayed !== true) writer.append(event);
        },
      });
      const drain =
        job.data.resume === undefined
          ? new SteeringDrain({
              client,
              keyspace,
              runId,
              journal: options.journal,
              pollMs: options.steeringPollMs,
            })
          : undefined;
      let result: AgentResult;
      try {
        await drain?.start();
        result = await runJob({ agent, job: job.data, signal, steering: drain?.inbox });
      } finally {
        await drain?.stop();
      }
      const summary = toRunSummary({ runId, result });
      // Aborted through the job's signal (its lock was lost to another worker, or it was cancelled): the run is
      // not finished and this attempt must not end its stream.
      if (signal?.aborted)
        throw new RunAttemptError({ runId, error: { name: "AbortError", message: String(signal.reason) } });
      if (summary.error !== undefined && !lastAttempt(job))
        throw new RunAttemptError({ runId, error: summary.error });
      const { stopReason, text, turns } = summary;
      await closeSteering(stopReason === "awaiting_approval" ? "paused" : "finished", turns);
      await writer.finish({ end: writer.holdsEnd || [createEvent("loop_end", turns, { stopReason, text })] });
      await leave();
      return summary;
    } catch (caught) {
      if (isBusy(caught)) {
        await writer.finish({ end: false }).catch(() => undefined);
        return delay(job, token);
      }
      // A call the run refuses (a reused run id, a decision for a call that is not pending) never succeeds.
      const error = InvalidArgumentError.isInstance(caught)
        ? new UnrecoverableError(`${caught.name}: ${caught.message}`)
        : caught;
      // A lost lock (aborted signal): the job goes on elsewhere, so its stream must not end here.
      const final = !signal?.aborted && (error instanceof UnrecoverableError || lastAttempt(job));
      if (final) await closeSteering("finished", 0).catch(() => undefined);
      await writer.finish({ end: final ? failureEvents(error) : false }).catch(() => undefined);
      if (final) await leave().catch(() => undefined);
      throw error;
    }
  };
}

/** One job's run: a new or resumed run (`agent.run`), or a paused run continued with decisions. */
function runJob(args: {
  agent: Agent;
  job: AgentJobData;
  signal: AbortSignal | undefined;
  /** The messages sent to the run (`queue.send`); resume jobs take none (`agent.resume` has no inbox). */
  steering: SteeringInbox | undefined;
}): Promise<AgentResult> {
  const { agent, job, signal } = args;
  const withSignal = signal === undefined ? {} : { signal };
  if (job.resume !== undefined) {
    const { approve, deny, decidedBy } = job.resume;
    return agent.resume(job.runId, {
      approve,
      deny,
      ...(decidedBy !== undefined && { decidedBy }),
      ...withSignal,
    });
  }
  const sessioned = job.sessionId === undefined ? {} : { sessionId: job.sessionId };
  const steering = args.steering === undefined ? {} : { steering: args.steering };
  return agent.run(job.input, { runId: job.runId, ...sessioned, ...withSignal, ...steering });
}

/** The non-fatal `error` event telling readers that `late` messages sent to the run were never added. */
function lateMessagesEvent(args: {
  runId: string;
  late: number;
  reason: "finished" | "paused";
  turn: number;
}) {
  const { runId, late, reason, turn } = args;
  const what = late === 1 ? "1 message" : `${late} messages`;
  const ended = reason === "paused" ? "paused for approval" : "ended";
  return createEvent("error", turn, {
    name: "MessageNotDelivered",
    message: `${what} sent to run "${runId}" arrived after its last turn and ${late === 1 ? "was" : "were"} not added: the run ${ended} first`,
    fatal: false,
  });
}

/** The end of a failed job's stream: a fatal `error` event and `loop_end` with stop reason `error`. */
function failureEvents(error: unknown) {
  const { name, message } = describeError(error);
  return [
    createEvent("error", 0, { name, message, fatal: true }),
    createEvent("loop_end", 0, { stopReason: "error", text: "" }),
  ];
}
