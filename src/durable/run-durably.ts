import type { Agent } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { LockLostError } from "../errors/lock-lost-error.js";
import type { AgentResult } from "../loop/agent-result.js";
import type { Message } from "../models/message.js";
import { keepLockAlive } from "../stores/keep-lock-alive.js";
import { DEFAULT_SESSION_LOCK_TTL_MS, type SessionLock } from "../stores/session-store.js";
import { StoreError } from "../stores/store-error.js";
import { followSignal } from "../util/follow-signal.js";
import { checkRunId } from "./check-run-id.js";
import { DurableRunBusyError } from "./durable-run-busy-error.js";
import { JOURNAL_RECORD_VERSION, type JournalRecord, type StartRecord } from "./journal-record.js";
import { JournalWriter } from "./journal-writer.js";
import { JournaledModel } from "./journaled-model.js";
import { journaledTools } from "./journaled-tools.js";
import type { RunJournal } from "./run-journal.js";
import { type RunSummary, toRunSummary } from "./run-summary.js";
import { toJournalError } from "./to-journal-error.js";

/** Options of {@link runDurably}. */
export interface RunDurablyOptions {
  /** The agent to run (its model, tools, system prompt, limits, hooks). Use an equivalent one on every attempt. */
  agent: Agent;
  /** Where the run's steps are journaled. */
  journal: RunJournal;
  /** The run's id: the same id means the same run (resumed, or answered from its `end` record). */
  runId: string;
  /**
   * The task. Needed to start a run; when the journal has the run, the journaled task is used, and a
   * different one is rejected with `InvalidArgumentError` (a reused run id).
   */
  input?: string;
  /** The prior conversation for a new run (when resuming, the journaled one is used). */
  messages?: readonly Message[];
  /** Aborts this attempt. The run is not finished then: calling `runDurably` again resumes it. */
  signal?: AbortSignal;
  /** Call the model in streaming mode (`text_delta` events reach the agent's `onEvent` hook). Default false. */
  stream?: boolean;
}

/** Runs being attempted in this process, per journal. */
const ACTIVE = new WeakMap<RunJournal, Set<string>>();

/**
 * Runs an agent so that its run survives a crash: every step is journaled before the loop acts on it, and a
 * run that was interrupted resumes where it was when `runDurably` is called again with the same `runId`.
 *
 * - The journal has an `end` record for `runId`: its summary is returned; nothing runs again.
 * - The journal has the run but no `end` (a crash, an abort, an error): it is resumed. The loop runs again
 *   from the journaled input, with the agent's model and tools wrapped: recorded model responses answer
 *   their calls without a request, recorded tool results answer theirs without executing, so the loop
 *   rebuilds the same history and goes on from where the journal ends (see `JournaledModel`,
 *   `journaledTools`). An interrupted non-idempotent tool call is not run again: the model is told its
 *   outcome is unknown.
 * - Otherwise a `start` record is written and the run begins.
 *
 * The run ends with an `end` record holding its {@link RunSummary} unless it stopped with `aborted` (the
 * signal: e.g. a worker shutting down) or `error` (e.g. the provider failing beyond its retries): those
 * resolve with their summary but stay unfinished, so another call resumes them, redoing nothing journaled.
 *
 * Journal writes are awaited. A journal failure stops the run at once (no tool runs without its `tool_start`
 * record) and rejects with the `StoreError`; what was journaled stays valid, so the run can be resumed.
 * Rejects with {@link DurableRunBusyError} while the same run is being attempted elsewhere: an attempt holds
 * the journal's run lock (`RunJournal.lock`: a lock file, a Redis key), shared by every journal object and
 * process on the same storage, renewed every third of its lifetime; a lost lock aborts the attempt, which
 * then rejects with `LockLostError` and writes no `end` record. Rejects with `InvalidArgumentError` for
 * invalid options. Events of the replayed steps are emitted again
 * (to the agent's hooks) on every attempt.
 *
 * @example
 * const journal = new FileJournal({ dir: ".agentloop/journal" });
 * const summary = await runDurably({ agent, journal, runId: job.id, input: job.task });
 */
export async function runDurably(options: RunDurablyOptions): Promise<RunSummary> {
  checkOptions(options);
  const { journal, runId } = options;
  let active = ACTIVE.get(journal);
  if (active === undefined) {
    active = new Set();
    ACTIVE.set(journal, active);
  }
  if (active.has(runId)) throw new DurableRunBusyError({ runId });
  active.add(runId);
  let lock: SessionLock | undefined;
  let heartbeat: ReturnType<typeof keepLockAlive> | undefined;
  const controller = new AbortController();
  const unfollow = followSignal(options.signal, controller);
  let lost: LockLostError | undefined;
  try {
    if (journal.lock !== undefined) {
      const ttlMs = journal.lockTtlMs ?? DEFAULT_SESSION_LOCK_TTL_MS;
      try {
        lock = await journal.lock(runId, { ttlMs });
      } catch (error) {
        throw toJournalError({ error, journal: "RunJournal", operation: "lock", runId });
      }
      if (lock === undefined) throw new DurableRunBusyError({ runId });
      heartbeat = keepLockAlive({
        lock,
        ttlMs,
        onLost: (cause) => {
          lost = new LockLostError({ resource: "run", id: runId, cause });
          controller.abort(lost);
        },
      });
    }
    const records = (await journal.load(runId)) ?? [];
    const journaled = records.find((record) => record.kind === "start");
    if (journaled !== undefined && options.input !== undefined && options.input !== journaled.input) {
      throw new InvalidArgumentError({
        argument: "input",
        message: `run "${runId}" was started with another input (a run id names one run)`,
      });
    }
    const end = records.findLast((record) => record.kind === "end");
    if (end !== undefined) return end.result;
    const start = journaled ?? (await startOf({ ...options, records }));
    const summary = await attempt({
      ...options,
      signal: controller.signal,
      start,
      records,
      isLockLost: () => lost !== undefined,
    });
    if (lost !== undefined) throw lost;
    return summary;
  } finally {
    heartbeat?.stop();
    unfollow();
    // A failed release is harmless: the lock expires after its TTL.
    if (lost === undefined) await lock?.release().catch(() => undefined);
    active.delete(runId);
  }
}

function checkOptions(options: RunDurablyOptions): void {
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
  }
  const { agent, journal, input, messages } = options;
  if (typeof agent?.with !== "function") {
    throw new InvalidArgumentError({ argument: "agent", message: "expected an Agent" });
  }
  if (typeof journal?.append !== "function" || typeof journal.load !== "function") {
    throw new InvalidArgumentError({ argument: "journal", message: "expected a RunJournal" });
  }
  checkRunId(options.runId);
  if (input !== undefined && typeof input !== "string") {
    throw new InvalidArgumentError({ argument: "input", message: "expected a string" });
  }
  if (messages !== undefined && !Array.isArray(messages)) {
    throw new InvalidArgumentError({ argument: "messages", message: "expected an array of messages" });
  }
  if ((options as { sessionId?: unknown }).sessionId !== undefined) {
    throw new InvalidArgumentError({
      argument: "sessionId",
      message:
        "durable runs do not support sessions (the journal keeps the run's conversation); pass the history as messages",
    });
  }
}

/** The `start` record of a run the journal does not have yet, written before the run begins. */
async function startOf(
  args: RunDurablyOptions & { records: readonly JournalRecord[] },
): Promise<StartRecord> {
  const { journal, runId, input, records } = args;
  if (records.length > 0) {
    throw new StoreError({ message: `The journal of run "${runId}" has no start record`, operation: "load" });
  }
  if (input === undefined) {
    throw new InvalidArgumentError({
      argument: "input",
      message: `run "${runId}" is not in the journal: a new run needs its input`,
    });
  }
  const messages = [...(args.messages ?? [])];
  if (input.trim() === "" && messages.length === 0) {
    throw new InvalidArgumentError({
      argument: "input",
      message: "the task is empty and there is no conversation to continue",
    });
  }
  const start: StartRecord = {
    v: JOURNAL_RECORD_VERSION,
    kind: "start",
    runId,
    input,
    messages,
    at: Date.now(),
  };
  try {
    await journal.append(runId, [start]);
  } catch (error) {
    throw toJournalError({ error, journal: "RunJournal", operation: "append", runId });
  }
  return start;
}

/** One attempt of the run: the agent with journaled model and tools, from the start record's input. */
async function attempt(
  args: RunDurablyOptions & {
    start: StartRecord;
    records: readonly JournalRecord[];
    /** True once the run lock was lost: the attempt must not write its end. */
    isLockLost: () => boolean;
  },
): Promise<RunSummary> {
  const { agent, journal, runId, start, records, signal } = args;
  const controller = new AbortController();
  const writer = new JournalWriter({ journal, runId, onFailure: (error) => controller.abort(error) });
  const durable = agent.with({
    model: new JournaledModel({ model: agent.model, records, writer }),
    tools: journaledTools({ tools: agent.tools.list(), runId, records, writer }),
  });
  const runOptions = { messages: start.messages, signal: controller.signal };
  // A listener removed at the end, not AbortSignal.any (it leaks on a long-lived signal on Node 20).
  const unfollow = followSignal(signal, controller);
  let result: AgentResult;
  try {
    result = args.stream
      ? await durable.stream(start.input, runOptions).result
      : await durable.run(start.input, runOptions);
  } finally {
    unfollow();
    await writer.settle();
  }
  if (writer.failure !== undefined) throw writer.failure;
  const summary = toRunSummary({ runId, result });
  if (summary.stopReason === "aborted" || summary.stopReason === "error" || args.isLockLost()) return summary;
  try {
    await journal.append(runId, [
      { v: JOURNAL_RECORD_VERSION, kind: "end", result: summary, at: Date.now() },
    ]);
  } catch (error) {
    throw toJournalError({ error, journal: "RunJournal", operation: "append", runId });
  }
  return summary;
}
