import type { Agent } from "../agent.js";
import type { RunOptions } from "../agent-options.js";
import type { DurableRunBusyError } from "../errors/durable-run-busy-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Message } from "../models/message.js";
import { checkRunId } from "./check-run-id.js";
import type { RunJournal } from "./run-journal.js";
import { type RunSummary, toRunSummary } from "./run-summary.js";

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
  /** The session the run continues (the agent needs a `store`). */
  sessionId?: string;
}

/**
 * Runs an agent durably under `runId` (what `agent.run(input, { runId })` does with the agent's `journal`
 * option, for an agent built without one) and resolves with the run's {@link RunSummary}: every step is
 * journaled before the loop acts on it, and calling it again with the same `runId` resumes an interrupted run
 * from its journal, or answers a finished one from it (see `durableEvents` and docs/deployment.md).
 *
 * - A run that stopped with `aborted` (the signal: e.g. a worker shutting down) or `error` (e.g. the provider
 *   failing beyond its retries) resolves with its summary but stays unfinished: another call resumes it,
 *   redoing nothing journaled. A run paused for approval stays unfinished until `agent.resume(runId, ...)`.
 * - Rejects with `StoreError` when the journal fails (no tool runs without its `tool_start` record),
 *   {@link DurableRunBusyError} while the same run is attempted elsewhere, `LockLostError` when the run lock
 *   was lost, `InvalidArgumentError` for invalid options or a reused run id.
 *
 * @example
 * const journal = new FileJournal({ dir: ".agentloop/journal" });
 * const summary = await runDurably({ agent, journal, runId: job.id, input: job.task });
 */
export async function runDurably(options: RunDurablyOptions): Promise<RunSummary> {
  checkOptions(options);
  const { journal, runId, input = "" } = options;
  const agent = options.agent.options.journal === journal ? options.agent : options.agent.with({ journal });
  const runOptions: RunOptions = { runId };
  if (options.messages !== undefined) runOptions.messages = options.messages;
  if (options.signal !== undefined) runOptions.signal = options.signal;
  if (options.sessionId !== undefined) runOptions.sessionId = options.sessionId;
  const result = options.stream
    ? await agent.stream(input, runOptions).result
    : await agent.run(input, runOptions);
  return toRunSummary({ runId, result });
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
}
