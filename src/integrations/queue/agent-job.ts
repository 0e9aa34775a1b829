import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";

/** The default queue name. */
export const DEFAULT_QUEUE_NAME = "agentloop";

/** The default BullMQ key prefix (BullMQ's own default). */
export const DEFAULT_QUEUE_PREFIX = "bull";

/** Approval decisions carried by a resume job (see `AgentQueue.resume`). */
export interface QueuedDecisions {
  /** Tool call ids to execute. */
  approve: string[];
  /** Tool call ids to deny (a pending call in neither list is denied too). */
  deny: string[];
  /** Who decided (journaled with the decision). */
  decidedBy?: string;
}

/**
 * What one queued job carries: the JSON data of its BullMQ job. A run's job has the id `runId`; a job that
 * resumes a run paused for approval has the id `<runId>:resume:<n>` and carries `resume`.
 */
export interface AgentJobData {
  /** The run id: the journal's run id, and the BullMQ job id of the run's first job. */
  runId: string;
  /** The name of the agent, a key of the worker's `agents`. */
  agent: string;
  /** The task. */
  input: string;
  /** The session the run continues, when it has one. */
  sessionId?: string;
  /** Set on a job that resumes a paused run with these decisions (`agent.resume(runId, decisions)`). */
  resume?: QueuedDecisions;
}

/** The BullMQ job id of the `n`-th resume of a run: `<runId>:resume:<n>` (BullMQ accepts 3-part ids). */
export function resumeJobId(runId: string, n: string): string {
  return `${runId}:resume:${n}`;
}

/** The run id of a job id: a run id itself, or the run id of a resume job id (see {@link resumeJobId}). */
export function runIdOfJob(jobId: string): string {
  const match = /^([^:]+):resume:[^:]+$/.exec(jobId);
  return match?.[1] ?? jobId;
}

/** Where a queue's keys live: BullMQ's prefix and the queue name. */
export interface QueueKeyspace {
  prefix: string;
  name: string;
}

/** The Redis Stream that carries the events of run `runId`: `<prefix>:<name>:events:<runId>`. */
export function runEventsKey({ prefix, name }: QueueKeyspace, runId: string): string {
  return `${prefix}:${name}:events:${runId}`;
}

/**
 * The key prefix of the default journal, `<prefix>:<name>:durable:` (a run's records are the list
 * `<prefix>:<name>:durable:journal:<run id>`). The `:` after `durable` keeps its keys apart from BullMQ's job
 * keys (`<prefix>:<name>:<job id>`, and job ids have no `:`).
 */
export function journalPrefix({ prefix, name }: QueueKeyspace): string {
  return `${prefix}:${name}:durable:`;
}

/**
 * Checks a run id: a non-empty string that BullMQ accepts as a job id (no `:`, not an integer), at most 200
 * characters. Throws {@link InvalidArgumentError}.
 */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== "string" || runId === "" || runId.length > 200) {
    throw new InvalidArgumentError({ argument: "runId", message: "expected a string of 1-200 characters" });
  }
  if (runId.includes(":")) {
    throw new InvalidArgumentError({ argument: "runId", message: `must not contain ":" (got "${runId}")` });
  }
  if (/^-?\d+$/.test(runId)) {
    throw new InvalidArgumentError({ argument: "runId", message: `must not be an integer (got "${runId}")` });
  }
}

/** Checks an optional non-empty string option. */
export function checkOptionalString(argument: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "string" || value === "")) {
    throw new InvalidArgumentError({ argument, message: "expected a non-empty string" });
  }
}
