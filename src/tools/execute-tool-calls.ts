import type { ApprovalRequiredError } from "../errors/approval-required-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ToolCall } from "../models/message.js";
import type { RunState } from "../sessions/run-state.js";
import { ToolBatch } from "./tool-batch.js";
import type { ToolOutcome } from "./tool-outcome.js";
import type { ToolRegistry } from "./tool-registry.js";

export type { ToolOutcome } from "./tool-outcome.js";

/** At most this many tools run at once unless `concurrency` says otherwise. */
export const DEFAULT_TOOL_CONCURRENCY = 8;
/** A tool call times out after this many ms unless the tool or `defaultTimeoutMs` says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Results longer than this many characters are truncated unless the tool or `maxResultChars` says otherwise. */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** Options of {@link executeToolCalls}. */
export interface ExecuteToolCallsOptions {
  /** The calls of one model turn. */
  calls: readonly ToolCall[];
  /** Where the tools are looked up. */
  registry: ToolRegistry;
  /** The model turn of the calls, passed to tools as `ctx.turn`. */
  turn: number;
  /** Passed to tools as `ctx.sessionId` / `ctx.state`. */
  sessionId?: string | undefined;
  state?: RunState | undefined;
  /** Aborts every running tool; the executor then resolves at once, unfinished calls reported as aborted. */
  signal?: AbortSignal;
  /** Run calls concurrently (default true); false runs them one by one. */
  parallel?: boolean;
  /** At most this many calls run at once (default 8; `Infinity` for no limit; fractions are rounded down). */
  concurrency?: number;
  /** Timeout of tools that set none (default 30 000 ms; `Infinity` for none). */
  defaultTimeoutMs?: number;
  /** Result limit of tools that set none (default 20 000 characters). */
  maxResultChars?: number;
  /**
   * Ids of calls a human approved. A call of a tool that `needsApproval` (for these arguments) whose id is not
   * here is not run: its outcome fails with {@link ApprovalRequiredError}. The agent loop passes the calls
   * approved when a paused run is resumed.
   */
  approved?: ReadonlySet<string> | undefined;
  /**
   * Reviews each outcome before it counts (the loop's tool guardrails on results). Resolve undefined to keep
   * it; resolve `{ stop: reason }` (or reject) to stop the batch there: the outcome is kept and reported, no
   * further call starts, running calls are aborted with `reason` as their `ctx.signal`'s reason, and every
   * unfinished call is reported aborted. A call under review still counts as running (with
   * `parallel: false`, the next call starts only once the review has passed), but its timeout has stopped.
   */
  review?: (outcome: ToolOutcome) => Promise<{ stop: unknown } | undefined>;
  /** Internal: what the calling run offers sub-agent tools (`agent.asTool`), on each call's context. */
  caller?: unknown;
  /** Observer: a call is starting. A throw is caught and ignored. */
  onStart?: (call: ToolCall) => void;
  /** Observer: a call has its outcome (also aborted ones). A throw is caught and ignored. */
  onEnd?: (outcome: ToolOutcome) => void;
}

function positive(argument: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new InvalidArgumentError({ argument, message: `expected a positive number, got ${String(value)}` });
  }
  return value;
}

/**
 * Runs one model turn's tool calls and resolves with their outcomes in the order of `calls`. Never rejects
 * for tool-level failures: an unknown tool, invalid JSON, arguments that fail the schema, a throw, a result
 * JSON cannot represent, and a timeout each become an outcome with `ok: false` whose `content` tells the model
 * what went wrong. Rejects only with {@link InvalidArgumentError} for invalid options.
 *
 * - Calls run in parallel (up to `concurrency`, default 8) unless `parallel` is false; a tool with
 *   `sequential: true` runs alone: in-flight calls finish first, later calls wait for it.
 * - Each call has one timer (the tool's `timeoutMs`, else `defaultTimeoutMs`). On timeout the tool's
 *   `ctx.signal` is aborted with a `ToolTimeoutError` and the executor moves on without waiting.
 * - When `signal` aborts, every running tool's `ctx.signal` is aborted with the same reason and the executor
 *   resolves at once; unfinished calls get `{ ok: false, content: "aborted", error: { type: "AbortError" } }`.
 * - Results are strings as is, `undefined`/`null` as "(empty)", other values as JSON, truncated past the
 *   result limit with `…[truncated N characters]`.
 * - A call of a tool that needs approval runs only when its id is in `approved`; otherwise its outcome fails
 *   with {@link ApprovalRequiredError} (type "ApprovalRequiredError") and the tool is not called.
 * - `onStart` and `onEnd` are observers: whatever they throw is caught and ignored. `onEnd` sees every
 *   outcome exactly once, aborted ones included.
 */
export function executeToolCalls(options: ExecuteToolCallsOptions): Promise<ToolOutcome[]> {
  let limit: number;
  let defaultTimeoutMs: number;
  let maxResultChars: number;
  try {
    limit =
      options.parallel === false
        ? 1
        : Math.floor(positive("concurrency", options.concurrency, DEFAULT_TOOL_CONCURRENCY));
    defaultTimeoutMs = positive("defaultTimeoutMs", options.defaultTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS);
    maxResultChars = positive("maxResultChars", options.maxResultChars, DEFAULT_MAX_RESULT_CHARS);
  } catch (error) {
    return Promise.reject(error);
  }
  if (options.calls.length === 0) return Promise.resolve([]);
  return new ToolBatch({
    calls: options.calls,
    registry: options.registry,
    turn: options.turn,
    sessionId: options.sessionId,
    state: options.state,
    signal: options.signal,
    limit: Math.max(1, limit),
    defaultTimeoutMs,
    maxResultChars,
    onStart: options.onStart,
    onEnd: options.onEnd,
    approved: options.approved,
    review: options.review,
    caller: options.caller,
  }).run();
}
