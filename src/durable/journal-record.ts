import { StoreError } from "../errors/store-error.js";
import type { PendingApproval } from "../loop/tool-step.js";
import type { MessageContent } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { ModelResponse } from "../models/model.js";
import type { Usage } from "../models/usage.js";
import type { RunSummary } from "./run-summary.js";

/**
 * The schema version of the journal records this code writes (and the newest it reads). Version 2 added
 * `sessionId` to `start` and the `approval_requested` / `approval_decided` records, and names the tool of
 * `tool_start` / `tool_result` `toolName` (version 1: `tool`) and spells finish reasons in snake_case; version 1
 * records are read in the current shape.
 */
export const JOURNAL_RECORD_VERSION = 2;

/** A record's version: this code writes {@link JOURNAL_RECORD_VERSION} and reads every version up to it. */
export type JournalRecordVersion = 1 | typeof JOURNAL_RECORD_VERSION;

/** A model response as journaled: everything but the provider's `raw` body. */
export type JournaledResponse = Omit<ModelResponse, "raw">;

/** The run began: what it was given. Always the first record of a run. */
export interface StartRecord {
  v: JournalRecordVersion;
  kind: "start";
  runId: string;
  /** The task: text, or content parts. */
  input: MessageContent;
  /** The prior conversation given to the run (without the agent's system prompt). */
  messages: Message[];
  /** The session the run continues (its `messages` are the session's history as the run found it). */
  sessionId?: string;
  /** When the run began, in ms since the epoch. */
  at: number;
}

/** The model answered call `call`. Written before the loop sees the answer. */
export interface ModelResponseRecord {
  v: JournalRecordVersion;
  kind: "model_response";
  /** The 0-based model call index within the run (failed calls take no index). */
  call: number;
  response: JournaledResponse;
  /** `provider:modelId` of the model that answered (written since agentloop 0.2; with fallbacks it may vary). */
  model?: string;
}

/** A tool call is about to execute. Written before the tool runs. */
export interface ToolStartRecord {
  v: JournalRecordVersion;
  kind: "tool_start";
  toolCallId: string;
  toolName: string;
  /** The `ctx.idempotencyKey` the tool is given; the same on every attempt of this call. */
  idempotencyKey: string;
}

/**
 * How a journaled tool call failed, so that a resumed run reproduces it: `threw` (the executor reports
 * `Tool "x" failed: <type>: <message>`), `unserialisable` (it returned a value JSON cannot hold) or
 * `timed_out` (it did not finish within its timeout).
 */
export interface JournaledToolFailure {
  how: "threw" | "unserialisable" | "timed_out";
  /** The error's type (its name or class). */
  type: string;
  message: string;
}

/** A tool call finished (or was given up on): what the model was sent. */
export interface ToolResultRecord {
  v: JournalRecordVersion;
  kind: "tool_result";
  toolCallId: string;
  toolName: string;
  ok: boolean;
  /**
   * The result sent to the model (before the executor's truncation): text, or content parts (a tool that
   * returned `toolContent`: images and files inline, base64), or its error text.
   */
  content: MessageContent;
  /** With `ok: false`: the failure, to reproduce it. */
  failure?: JournaledToolFailure;
  /**
   * A sub-agent tool's call (`agent.asTool`): what its run spent, counted again as the caller's when the call
   * is replayed (its result comes from here; its own log is not read).
   */
  subRun?: SubRunTotals;
}

/** What a sub-agent's run spent, as a `tool_result` record keeps it. */
export interface SubRunTotals {
  usage: Usage;
  costUsd: number;
  costUnknownModels: string[];
}

/** The run paused: gated tool calls of turn `turn` wait for a human's decision. */
export interface ApprovalRequestedRecord {
  v: JournalRecordVersion;
  kind: "approval_requested";
  turn: number;
  calls: PendingApproval[];
  at: number;
}

/**
 * A human decided on the calls of turn `turn` (from any process: the record is what resumes the run). Every
 * pending call is in `approve` or `deny`.
 */
export interface ApprovalDecidedRecord {
  v: JournalRecordVersion;
  kind: "approval_decided";
  turn: number;
  approve: string[];
  deny: string[];
  /** Who decided, when the caller said (`resume(runId, { approve, decidedBy })`). */
  decidedBy?: string;
  at: number;
}

/**
 * A message sent to the running agent (steering: `stream.send`, a `SteeringInbox`) was added to the history
 * before model turn `turn`. Written before it is added, so a resumed run adds it again at the same place.
 */
export interface UserMessageRecord {
  v: JournalRecordVersion;
  kind: "user_message";
  /** The model turn the message was added before (1 for the first). */
  turn: number;
  content: MessageContent;
  at: number;
}

/** The run finished: its summary. A run with this record is never run again. */
export interface EndRecord {
  v: JournalRecordVersion;
  kind: "end";
  result: RunSummary;
  /** When the run finished, in ms since the epoch. */
  at: number;
}

/** One record of a durable run's journal. */
export type JournalRecord =
  | StartRecord
  | ModelResponseRecord
  | ToolStartRecord
  | ToolResultRecord
  | ApprovalRequestedRecord
  | ApprovalDecidedRecord
  | UserMessageRecord
  | EndRecord;

/** The kind of a {@link JournalRecord}. */
export type JournalRecordKind = JournalRecord["kind"];

/** Options of {@link parseJournalRecord}. */
export interface ParseJournalRecordOptions {
  /** A decoded record of unknown shape (from JSON, a Redis list entry). */
  value: unknown;
  /** The run the record belongs to (for the error). */
  runId: string;
  /** Where the record was read, for the error message: `"/x/y.jsonl line 3"`, `"Redis list entry 4"`. */
  where: string;
  /** The operation reported by the error (default `"load"`). */
  operation?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isString = (value: unknown): value is string => typeof value === "string";

const PART_TYPES = new Set(["text", "image", "file"]);

/** Text, or an array of content parts (each an object of a known part type). */
const isContent = (value: unknown): boolean =>
  isString(value) ||
  (Array.isArray(value) && value.every((part) => isObject(part) && PART_TYPES.has(part.type as string)));

/** What a record of each kind must hold (a shallow check: cheap on long journals). */
const SHAPES: Record<JournalRecordKind, (record: Record<string, unknown>) => boolean> = {
  start: (r) =>
    isString(r.runId) &&
    (isString(r.input) || Array.isArray(r.input)) &&
    Array.isArray(r.messages) &&
    typeof r.at === "number" &&
    (r.sessionId === undefined || isString(r.sessionId)),
  model_response: (r) =>
    Number.isInteger(r.call) &&
    (r.call as number) >= 0 &&
    isObject(r.response) &&
    Array.isArray(r.response.toolCalls),
  tool_start: (r) => isString(r.toolCallId) && isString(r.toolName) && isString(r.idempotencyKey),
  tool_result: (r) =>
    isString(r.toolCallId) &&
    isString(r.toolName) &&
    typeof r.ok === "boolean" &&
    isContent(r.content) &&
    (r.failure === undefined || (isObject(r.failure) && isString(r.failure.how))),
  approval_requested: (r) =>
    Number.isInteger(r.turn) &&
    Array.isArray(r.calls) &&
    r.calls.every((c) => isObject(c) && isString(c.toolCallId)),
  approval_decided: (r) =>
    Number.isInteger(r.turn) &&
    Array.isArray(r.approve) &&
    r.approve.every(isString) &&
    Array.isArray(r.deny) &&
    r.deny.every(isString),
  user_message: (r) => Number.isInteger(r.turn) && isContent(r.content) && typeof r.at === "number",
  end: (r) =>
    isObject(r.result) &&
    isString(r.result.runId) &&
    Array.isArray(r.result.messages) &&
    typeof r.at === "number",
};

/** The unified finish reasons agentloop 0.1 spelt in kebab-case. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
};

/** A version 1 `model_response` with its unified finish reason in snake_case (a copy when it changes). */
function responseFromVersion1(record: Record<string, unknown>): Record<string, unknown> {
  const response = record.response;
  if (!isObject(response) || !isObject(response.finishReason)) return record;
  const reason = response.finishReason;
  const unified = typeof reason.unified === "string" ? FINISH_REASONS[reason.unified] : undefined;
  if (unified === undefined) return record;
  return { ...record, response: { ...response, finishReason: { ...reason, unified } } };
}

/**
 * A version 1 record (written by agentloop 0.1) in the shape of the current version: `tool_start` and
 * `tool_result` named the tool `tool` (now `toolName`), and a `model_response` spelt the finish reasons
 * `tool-calls` / `content-filter` (now `tool_calls` / `content_filter`). Returns a copy; other records are
 * returned as they are.
 */
function fromVersion1(record: Record<string, unknown>): Record<string, unknown> {
  if (record.kind === "model_response") return responseFromVersion1(record);
  if (record.kind !== "tool_start" && record.kind !== "tool_result") return record;
  if (record.toolName !== undefined || !Object.hasOwn(record, "tool")) return record;
  const { tool, ...rest } = record;
  return { ...rest, toolName: tool };
}

/**
 * Checks that a decoded value is a {@link JournalRecord} of a version this code understands and returns it.
 * Throws {@link StoreError} for a record from a newer schema version ("written by a newer agentloop") and for
 * anything that is not a valid record: a journal is never misread.
 */
export function parseJournalRecord(options: ParseJournalRecordOptions): JournalRecord {
  const { value, runId, where } = options;
  const operation = options.operation ?? "load";
  const fail = (problem: string): never => {
    throw new StoreError({ message: `Run "${runId}": ${problem} (${where})`, operation });
  };
  if (!isObject(value)) return fail("a journal record is not an object");
  const { v, kind } = value;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
    return fail("a journal record has no valid version");
  }
  if (v > JOURNAL_RECORD_VERSION) {
    return fail(
      `a journal record has schema version ${v}, written by a newer agentloop (this one reads up to version ${JOURNAL_RECORD_VERSION}); upgrade agentloop to resume this run`,
    );
  }
  if (typeof kind !== "string" || !Object.hasOwn(SHAPES, kind)) {
    return fail(`a journal record has an unknown kind ${JSON.stringify(kind)}`);
  }
  const record = v === 1 ? fromVersion1(value) : value;
  if (!SHAPES[kind as JournalRecordKind](record)) return fail(`a "${kind}" journal record is malformed`);
  return record as unknown as JournalRecord;
}

/**
 * Serialises a record as one line of JSON (no newline) with `v` and `kind` first, so that stores can tell a
 * record's kind from the start of its text (the Redis journal's compaction does). Throws what
 * `JSON.stringify` throws, before anything is written.
 */
export function serializeJournalRecord(record: JournalRecord): string {
  if (startsWithVersionAndKind(record)) return JSON.stringify(record); // as this package writes them: no copy
  const { v, kind, ...rest } = record;
  return JSON.stringify({ v, kind, ...rest });
}

/** Whether the record's first two keys (in `JSON.stringify` order) are `v` and `kind`. */
function startsWithVersionAndKind(record: object): boolean {
  let index = 0;
  for (const key in record) {
    if (key !== (index === 0 ? "v" : "kind")) return false;
    if (++index === 2) return true;
  }
  return false;
}
