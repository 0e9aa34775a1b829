import { errorMessageOf, errorTypeOf, ToolExecutionError } from "../errors/tool-execution-error.js";
import { ToolTimeoutError } from "../errors/tool-timeout-error.js";
import { type CallerRun, SubRunPaused } from "../loop/policies/sub-agents.js";
import type { MessageContent } from "../models/content-part.js";
import { errorNamed, replayToolResult } from "../run-log/replay-tool-result.js";
import { toolFailureText } from "../run-log/tool-failure.js";
import { CALLER_RUN, isSubAgentTool } from "../tools/caller-run-key.js";
import { formatToolResult } from "../tools/format-tool-result.js";
import type { Tool, ToolContext } from "../tools/tool.js";
import {
  JOURNAL_RECORD_VERSION,
  type JournaledToolFailure,
  type JournalRecord,
  type ToolResultRecord,
  type ToolStartRecord,
} from "./journal-record.js";
import type { JournalWriter } from "./journal-writer.js";

/** What the model is told about a non-idempotent call that was interrupted while it ran. */
export const OUTCOME_UNKNOWN_MESSAGE =
  "the outcome of this call is unknown (the run was interrupted while it ran); check before retrying";

/** The error type the model sees with {@link OUTCOME_UNKNOWN_MESSAGE}. */
export const OUTCOME_UNKNOWN_ERROR = "ToolOutcomeUnknownError";

/** Options of {@link journaledTools}. */
export interface JournaledToolsOptions {
  /** The agent's tools (`agent.tools.list()`). */
  tools: readonly Tool[];
  runId: string;
  /** The run's journal records so far. */
  records: readonly JournalRecord[];
  /** Where `tool_start` and `tool_result` records are appended. */
  writer: JournalWriter;
  /** Told when a call is executed for real (the replayed part of the run is over). */
  onLive?: (() => void) | undefined;
  /** `false`: never execute (replaying a finished run); a call without a journaled result fails. */
  live?: boolean | undefined;
}

/** The journal's tool records by call id, in order (a provider may reuse an id in a later turn). */
class ToolRecords {
  readonly starts = new Map<string, ToolStartRecord[]>();
  readonly results = new Map<string, ToolResultRecord[]>();
  private readonly seen = new Map<string, number>();

  constructor(records: readonly JournalRecord[]) {
    for (const record of records) {
      if (record.kind === "tool_start") push(this.starts, record.toolCallId, record);
      else if (record.kind === "tool_result") push(this.results, record.toolCallId, record);
    }
  }

  /** How many calls with this id were executed before in this run (0 for the first). */
  occurrence(toolCallId: string): number {
    const n = this.seen.get(toolCallId) ?? 0;
    this.seen.set(toolCallId, n + 1);
    return n;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** A copy of `target` (same prototype, accessors kept as accessors, so nothing is read) with `props` set. */
function overlay<T extends object>(target: T, props: Partial<T>): T {
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(target);
  for (const [key, value] of Object.entries(props)) {
    descriptors[key] = { value, enumerable: true, writable: false, configurable: true };
  }
  return Object.create(Object.getPrototypeOf(target) as object | null, descriptors) as T;
}

/** Per tool: whether it is a plain object of enumerable data properties (a spread copies it exactly). */
const plainTools = new WeakMap<Tool, boolean>();

function isPlainData(target: object): boolean {
  if (Object.getPrototypeOf(target) !== Object.prototype) return false;
  const descriptors = Object.getOwnPropertyDescriptors(target);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as string] as PropertyDescriptor;
    if (!descriptor.enumerable || descriptor.get !== undefined || descriptor.set !== undefined) return false;
  }
  return true;
}

/**
 * `original` with its own `execute`: a spread (a fast object) for a plain tool, as `tool()` makes them
 * (checked once per tool), otherwise an {@link overlay} (prototype and accessors kept).
 */
function withExecute(original: Tool, execute: Tool["execute"]): Tool {
  let plain = plainTools.get(original);
  if (plain === undefined) {
    plain = isPlainData(original);
    plainTools.set(original, plain);
  }
  return Object.freeze(plain ? { ...original, execute } : overlay(original, { execute }));
}

/**
 * `ctx` with `idempotencyKey` set, for a call the stand-in executes (and whose `ctx.signal` it reads anyway). The
 * executor's context (a plain object whose only accessor is the lazy `signal`) is spread: a fast object, and
 * what spreading it gives is the same; any other context is overlaid (prototype and accessors kept).
 */
function withKey(ctx: ToolContext, idempotencyKey: string): ToolContext {
  if (Object.getPrototypeOf(ctx) !== Object.prototype) return overlay(ctx, { idempotencyKey });
  return { ...ctx, idempotencyKey };
}

/**
 * What `execute` does so that the executor reports the recorded result again, with the same text. A timeout
 * is not waited out again: it is thrown as the executor's own `ToolTimeoutError` (same text).
 */
function replay(recorded: ToolResultRecord): unknown {
  return replayToolResult({ recorded, toolName: recorded.toolName });
}

type Settled = { value: unknown } | { error: unknown } | { aborted: unknown };

/** Runs the tool; settles with its value or error, or as soon as `signal` aborts (timeout, run abort). */
function settle(run: () => unknown, signal: AbortSignal): Promise<Settled> {
  return new Promise((resolve) => {
    const onAbort = () => resolve({ aborted: signal.reason });
    signal.addEventListener("abort", onAbort, { once: true });
    const done = (settled: Settled) => {
      signal.removeEventListener("abort", onAbort);
      resolve(settled);
    };
    try {
      Promise.resolve(run()).then(
        (value) => done({ value }),
        (error: unknown) => done({ error }),
      );
    } catch (error) {
      done({ error });
    }
  });
}

/** Options of `journalTool`. */
interface StandInOptions {
  original: Tool;
  runId: string;
  journal: ToolRecords;
  writer: JournalWriter;
  onLive: (() => void) | undefined;
  live: boolean;
}

/** The stand-in of one tool (see {@link journaledTools}). */
function journalTool({ original, runId, journal, writer, onLive, live }: StandInOptions): Tool {
  const name = original.name;
  // A sub-agent tool's result keeps what its run spent: a replay charges it to the caller again.
  const subAgent = isSubAgentTool(original);
  let caller: CallerRun | undefined;
  const appendResult = (
    toolCallId: string,
    outcome: Pick<ToolResultRecord, "ok" | "content" | "failure">,
  ) => {
    const record: ToolResultRecord = {
      v: JOURNAL_RECORD_VERSION,
      kind: "tool_result",
      toolCallId,
      toolName: name,
      ...outcome,
    };
    const charged = subAgent ? caller?.charged(toolCallId) : undefined;
    if (charged !== undefined) {
      const { usage, costUsd, costUnknownModels } = charged;
      record.subRun = { usage, costUsd, costUnknownModels: [...costUnknownModels] };
    }
    return writer.append([record]);
  };
  const appendFailure = (toolCallId: string, failure: JournaledToolFailure, content: string) =>
    appendResult(toolCallId, { ok: false, content, failure });

  /** An interrupted non-idempotent call: journals and reports that its outcome is unknown. */
  const unknownOutcome = async (toolCallId: string): Promise<never> => {
    const failure: JournaledToolFailure = {
      how: "threw",
      type: OUTCOME_UNKNOWN_ERROR,
      message: OUTCOME_UNKNOWN_MESSAGE,
    };
    await appendFailure(toolCallId, failure, toolFailureText({ tool: name, failure }));
    throw errorNamed(failure.type, failure.message);
  };

  /** Runs the tool (journaling its start first unless `started`), then journals its outcome. */
  const run = async (args: unknown, ctx: ToolContext, started: boolean): Promise<unknown> => {
    const { toolCallId, idempotencyKey = "" } = ctx;
    // Read here (the executor creates it lazily) to journal a timeout the moment it happens.
    const signal = ctx.signal;
    if (!started) {
      if (signal.aborted) throw signal.reason;
      await writer.append([
        { v: JOURNAL_RECORD_VERSION, kind: "tool_start", toolCallId, toolName: name, idempotencyKey },
      ]);
    }
    if (signal.aborted) throw signal.reason; // the executor gave up on the call while it was journaled
    const settled = await settle(() => original.execute(args, ctx), signal);
    if ("aborted" in settled) {
      const reason = settled.aborted;
      // A run that is aborted journals nothing more: the call stays interrupted.
      if (ToolTimeoutError.isInstance(reason)) {
        const failure: JournaledToolFailure = {
          how: "timed_out",
          type: reason.name,
          message: reason.message,
        };
        await appendFailure(toolCallId, failure, reason.message);
      }
      throw reason;
    }
    if ("error" in settled) {
      const { error } = settled;
      // A sub-agent waiting for approval has no result yet: the call runs again (its own log replayed) on resume.
      if (SubRunPaused.isInstance(error)) throw error;
      const failure: JournaledToolFailure = {
        how: "threw",
        type: errorTypeOf(error),
        message: errorMessageOf(error),
      };
      await appendFailure(
        toolCallId,
        failure,
        new ToolExecutionError({ toolName: name, cause: error }).message,
      );
      throw error;
    }
    let content: MessageContent;
    try {
      content = formatToolResult(settled.value);
    } catch (error) {
      const type = errorTypeOf(error);
      const message = errorMessageOf(error);
      const failure: JournaledToolFailure = { how: "unserialisable", type, message };
      const text = toolFailureText({ tool: name, failure });
      await appendFailure(toolCallId, failure, text);
      // The executor fails to serialise this stand-in value with the same error, so it reports the same text.
      return replayToolResult({ recorded: { ok: false, content: text, failure } });
    }
    await appendResult(toolCallId, { ok: true, content });
    // What a replay returns too (parts as `toolContent`): the executor sends the same either way.
    return replayToolResult({ recorded: { ok: true, content } });
  };

  const execute = (args: unknown, ctx: ToolContext): unknown => {
    const { toolCallId } = ctx;
    if (subAgent) caller = ctx[CALLER_RUN] as CallerRun | undefined;
    const n = journal.occurrence(toolCallId);
    const recorded = journal.results.get(toolCallId)?.[n];
    if (recorded !== undefined) {
      const spent = recorded.subRun;
      if (spent !== undefined) caller?.charge({ ...spent, toolCallId, budget: undefined });
      return replay(recorded);
    }
    if (!live) throw errorNamed("StoreError", "the journal has no result for this call of a finished run");
    onLive?.();
    const start = journal.starts.get(toolCallId)?.[n];
    if (start !== undefined && !original.idempotent) return unknownOutcome(toolCallId);
    const idempotencyKey =
      start?.idempotencyKey ?? (n === 0 ? `${runId}:${toolCallId}` : `${runId}:${toolCallId}:${n}`);
    return run(args, withKey(ctx, idempotencyKey), start !== undefined);
  };
  return withExecute(original, execute);
}

/**
 * Stand-ins for `tools` for a durable run: same name, schema and options; each call gets
 * `ctx.idempotencyKey = "<runId>:<toolCallId>"` (`":<n>"` appended for the n-th reuse of an id within the
 * run), the same on every attempt: the executor's `ctx` is copied with the key added (spreading it still
 * gives every field). The stand-in reads `ctx.signal` of each call it executes, to journal a timeout the
 * moment it happens (so the executor's lazily created signal exists for those calls); a replayed call's
 * `ctx` is not read. A stand-in is its original with another `execute` (same `spec` object).
 * - A call with a journaled `tool_result` is not executed: the recorded content is returned (content parts,
 *   images included, as `toolContent`), or the recorded failure thrown again (the model sees the same text;
 *   a timeout is reported as a thrown `ToolTimeoutError` instead of being waited out again).
 * - A call with a `tool_start` but no result was interrupted: an `idempotent` tool runs again (same key), any
 *   other fails with {@link OUTCOME_UNKNOWN_MESSAGE} (journaled, so a later attempt says the same).
 * - A new call: `tool_start` is journaled before the tool runs, `tool_result` when it settles or times out.
 *   Nothing is journaled for a call the run abandons (aborted): it stays interrupted.
 *
 * A journal failure fails the call and stops the run (see {@link JournalWriter}); the tool is then not run.
 */
export function journaledTools(options: JournaledToolsOptions): Tool[] {
  const { tools, runId, records, writer, onLive, live = true } = options;
  const journal = new ToolRecords(records);
  return tools.map((original) => journalTool({ original, runId, journal, writer, onLive, live }));
}
