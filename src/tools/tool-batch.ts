import { ApprovalRequiredError } from "../errors/approval-required-error.js";
import { ToolArgumentsError } from "../errors/tool-arguments-error.js";
import { errorMessageOf, errorTypeOf, ToolExecutionError } from "../errors/tool-execution-error.js";
import { ToolNotFoundError } from "../errors/tool-not-found-error.js";
import { ToolTimeoutError } from "../errors/tool-timeout-error.js";
import type { MessageContent } from "../models/content-part.js";
import type { ToolCall } from "../models/message.js";
import type { RunState } from "../sessions/run-state.js";
import { type Deadline, setDeadline } from "../util/deadline.js";
import { listenForAbort } from "../util/listen-for-abort.js";
import { formatToolResult, truncateToolResult } from "./format-tool-result.js";
import { whenJsonSchemaCheckLoaded } from "./json-schema-validator.js";
import type { ToolArgumentsResult } from "./resolve-tool-parameters.js";
import type { Tool } from "./tool.js";
import { toolCallContext } from "./tool-call-context.js";
import type { ToolOutcome } from "./tool-outcome.js";
import type { ToolRegistry } from "./tool-registry.js";

/** Longer timeouts than this overflow `setTimeout`; they are treated as no timeout. */
const MAX_TIMER_MS = 2_147_483_647;
/** How much of an unparsable argument string is quoted back to the model. */
const MAX_QUOTED_ARGUMENTS = 200;

/** The resolved settings of a {@link ToolBatch} (defaults applied, validated). */
export interface ToolBatchConfig {
  calls: readonly ToolCall[];
  registry: ToolRegistry;
  turn: number;
  sessionId: string | undefined;
  state: RunState | undefined;
  signal: AbortSignal | undefined;
  /** At most this many calls at once (1 when not parallel). */
  limit: number;
  defaultTimeoutMs: number;
  maxResultChars: number;
  onStart: ((call: ToolCall) => void) | undefined;
  onEnd: ((outcome: ToolOutcome) => void) | undefined;
  /** Ids of gated calls a human approved; other calls of tools that need approval are not run. */
  approved: ReadonlySet<string> | undefined;
  /** Reviews each outcome before it counts; `{ stop }` (or a rejection) stops the batch (see `executeToolCalls`). */
  review?: ((outcome: ToolOutcome) => Promise<{ stop: unknown } | undefined>) | undefined;
  /** What the calling run offers sub-agent tools, set on each call's context (see `CALLER_RUN`). */
  caller?: unknown;
}

type Failure = { type: string; message: string };

/** One started call. */
interface CallRun {
  readonly index: number;
  readonly call: ToolCall;
  readonly startedAt: number;
  tool: Tool | undefined;
  /** Created on first read of `ctx.signal` (see toolCallContext). */
  controller: AbortController | undefined;
  abortReason: { value: unknown } | undefined;
  timer: Deadline | undefined;
  done: boolean;
}

function callHook<T>(hook: ((value: T) => void) | undefined, value: T): void {
  if (hook === undefined) return;
  try {
    hook(value);
  } catch {
    // Observer hooks may not break execution.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === "function";
  } catch {
    return true; // a throwing `then` getter (a Proxy): Promise.resolve turns that into a rejection, reported
  }
}

/**
 * The failure of a call whose tool threw `error`: a `ToolTimeoutError` of this tool is its timeout (a replayed
 * one, or a tool giving up on its own deadline) and is reported as one; anything else is a `ToolExecutionError`.
 */
function thrownBy(tool: Tool, error: unknown): Error {
  let timeout: ToolTimeoutError | undefined;
  try {
    if (ToolTimeoutError.isInstance(error) && error.toolName === tool.name) timeout = error;
  } catch {
    // A hostile value (a Proxy whose traps throw) is no timeout: ToolExecutionError describes it safely.
  }
  return timeout ?? new ToolExecutionError({ toolName: tool.name, cause: error });
}

function failure(error: Error): Failure {
  return { type: error.name, message: error.message };
}

/** Aborts a call's signal (if a tool ever read it) and remembers the reason for a later first read. */
function abortCall(run: CallRun, reason: unknown): void {
  run.abortReason ??= { value: reason };
  run.controller?.abort(reason);
}

function onTimeout(batch: ToolBatch, run: CallRun, timeoutMs: number): void {
  const error = new ToolTimeoutError({ toolName: run.call.name, timeoutMs });
  abortCall(run, error);
  batch.fail(run, error);
}

/**
 * The state of one `executeToolCalls` invocation: schedules the calls (concurrency limit, `sequential` tools),
 * runs each with one deadline and one AbortController, and resolves with the outcomes in call order.
 */
export class ToolBatch {
  private readonly outcomes: Array<ToolOutcome | undefined>;
  private readonly calls: readonly ToolCall[];
  private readonly config: ToolBatchConfig;
  private readonly active = new Set<CallRun>();
  private next = 0;
  private running = 0;
  private exclusive = false;
  private pumping = false;
  private settled = false;
  private resolve: (outcomes: ToolOutcome[]) => void = () => {};
  private stopListening: (() => void) | undefined;

  constructor(config: ToolBatchConfig) {
    this.config = config;
    this.calls = config.calls;
    this.outcomes = new Array<ToolOutcome | undefined>(config.calls.length);
  }

  /** Runs the calls; resolves once every call has an outcome or the signal aborted. Call once. */
  run(): Promise<ToolOutcome[]> {
    const { signal } = this.config;
    return new Promise((resolve) => {
      this.resolve = resolve;
      if (signal?.aborted) {
        this.abortAll();
        return;
      }
      if (signal !== undefined)
        this.stopListening = listenForAbort({ signal, listener: () => this.abortAll() });
      this.pump();
    });
  }

  /** Starts calls while the concurrency limit and `sequential` tools allow. */
  private pump(): void {
    this.pumping = true;
    while (!this.settled && this.next < this.calls.length) {
      const call = this.calls[this.next] as ToolCall;
      const sequential = this.config.registry.get(call.name)?.sequential === true;
      if (this.running > 0 && (this.exclusive || sequential || this.running >= this.config.limit)) break;
      this.exclusive = sequential;
      this.running++;
      this.start(this.next++, call);
    }
    this.pumping = false;
    if (!this.settled && this.running === 0 && this.next >= this.calls.length) this.settle();
  }

  private start(index: number, call: ToolCall): void {
    const run: CallRun = {
      index,
      call,
      startedAt: performance.now(),
      tool: undefined,
      controller: undefined,
      abortReason: undefined,
      timer: undefined,
      done: false,
    };
    callHook(this.config.onStart, call);
    // The hook may have aborted the outer signal: the call then already has its "aborted" outcome.
    if (this.settled) return;
    try {
      const tool = this.config.registry.get(call.name);
      if (tool === undefined) {
        const error = new ToolNotFoundError({
          toolName: call.name,
          availableTools: this.config.registry.names(),
        });
        this.fail(run, error);
        return;
      }
      if (call.parseError !== undefined) {
        this.fail(run, this.invalidJson(call));
        return;
      }
      run.tool = tool;
      this.active.add(run);
      // agentloop's JSON Schema validation code loads once, on first use: its load is not the tool's time.
      const loading = whenJsonSchemaCheckLoaded();
      loading === undefined ? this.parse(run, tool) : loading.then(() => this.parse(run, tool));
    } catch (error) {
      this.fail(run, new ToolExecutionError({ toolName: call.name, cause: error }));
    }
  }

  private invalidJson(call: ToolCall): ToolArgumentsError {
    const raw = call.rawArguments;
    const quoted = raw.length > MAX_QUOTED_ARGUMENTS ? `${raw.slice(0, MAX_QUOTED_ARGUMENTS)}…` : raw;
    const issue = {
      path: "",
      expected: "a JSON object",
      received: `invalid JSON (${call.parseError}): ${quoted}`,
      message: call.parseError ?? "invalid JSON",
    };
    return new ToolArgumentsError({ toolName: call.name, issues: [issue] });
  }

  /** Starts the call's timeout and parses its arguments (then executes it). */
  private parse(run: CallRun, tool: Tool): void {
    if (run.done) return;
    const timeoutMs = tool.timeoutMs ?? this.config.defaultTimeoutMs;
    if (timeoutMs <= MAX_TIMER_MS)
      run.timer = setDeadline({ ms: timeoutMs, onExpire: () => onTimeout(this, run, timeoutMs) });
    const failed = (error: unknown) =>
      this.fail(run, new ToolExecutionError({ toolName: tool.name, cause: error }));
    try {
      tool.parseArguments(run.call.arguments).then((parsed) => this.execute(run, parsed), failed);
    } catch (error) {
      failed(error);
    }
  }

  private execute(run: CallRun, parsed: ToolArgumentsResult<unknown>): void {
    const tool = run.tool;
    if (run.done || tool === undefined) return;
    if (!parsed.ok) {
      this.fail(
        run,
        new ToolArgumentsError({ toolName: tool.name, issues: parsed.issues, cause: parsed.cause }),
      );
      return;
    }
    // The approval gate of every path that executes tools: a gated call runs only with a human's approval.
    // Decided on the call's arguments as received, like the agent loop does before it pauses a turn.
    if (tool.needsApproval !== false && this.config.approved?.has(run.call.id) !== true) {
      Promise.resolve(run.call.arguments)
        .then((args) => tool.requiresApproval(args))
        .then(
          (gated) => (gated ? this.refuse(run, tool) : this.invoke(run, tool, parsed.value)),
          () => this.refuse(run, tool), // a failing check must not let the call through
        );
      return;
    }
    this.invoke(run, tool, parsed.value);
  }

  private refuse(run: CallRun, tool: Tool): void {
    this.fail(run, new ApprovalRequiredError({ toolName: tool.name, toolCallId: run.call.id }));
  }

  private invoke(run: CallRun, tool: Tool, args: unknown): void {
    if (run.done) return;
    const { turn, sessionId, state, caller } = this.config;
    const ctx = toolCallContext({ abort: run, toolCallId: run.call.id, turn, sessionId, state, caller });
    let result: unknown;
    try {
      result = tool.execute(args, ctx);
    } catch (error) {
      this.fail(run, thrownBy(tool, error));
      return;
    }
    if (!isThenable(result)) {
      this.succeed(run, result);
      return;
    }
    // Handlers are attached at once, so an abandoned (timed-out, aborted) promise never rejects unhandled.
    Promise.resolve(result).then(
      (value) => this.succeed(run, value),
      (error: unknown) => this.fail(run, thrownBy(tool, error)),
    );
  }

  private succeed(run: CallRun, value: unknown): void {
    if (run.done) return;
    let content: MessageContent;
    try {
      content = formatToolResult(value);
    } catch (error) {
      const name = JSON.stringify(run.call.name);
      const message = `Tool ${name} returned a value that cannot be sent as JSON: ${errorTypeOf(error)}: ${errorMessageOf(error)}`;
      this.fail(run, new ToolExecutionError({ toolName: run.call.name, cause: error, message }));
      return;
    }
    this.finish(run, { ok: true, content, value });
  }

  /** Ends a call with an error outcome whose content is the error's message. */
  fail(run: CallRun, error: Error): void {
    this.finish(run, { ok: false, content: error.message, error: failure(error) });
  }

  private finish(run: CallRun, result: Pick<ToolOutcome, "ok" | "content" | "value" | "error">): void {
    if (run.done) return;
    run.done = true;
    run.timer?.cancel();
    this.active.delete(run);
    if (this.settled) return;
    const maxChars = run.tool?.maxResultChars ?? this.config.maxResultChars;
    const outcome: ToolOutcome = {
      toolCallId: run.call.id,
      toolName: run.call.name,
      ok: result.ok,
      content: truncateToolResult({ content: result.content, maxChars }),
      durationMs: Math.round(performance.now() - run.startedAt),
    };
    if (result.ok) outcome.value = result.value;
    if (result.error !== undefined) outcome.error = result.error;
    const { review } = this.config;
    if (review === undefined) {
      this.record(run, outcome);
      return;
    }
    // Still counted as running while under review: with a limit of 1, the next call waits for the verdict.
    Promise.resolve(outcome)
      .then(review)
      .then(
        (verdict) =>
          verdict === undefined ? this.record(run, outcome) : this.stop(run, outcome, verdict.stop),
        (error: unknown) => this.stop(run, outcome, error),
      );
  }

  /** Counts a call's outcome and starts the next calls. */
  private record(run: CallRun, outcome: ToolOutcome): void {
    if (this.settled) return;
    this.outcomes[run.index] = outcome;
    this.running--;
    callHook(this.config.onEnd, outcome);
    if (!this.pumping) this.pump();
  }

  /** A review stopped the batch at `outcome`: it is kept and reported, everything else is aborted. */
  private stop(run: CallRun, outcome: ToolOutcome, reason: unknown): void {
    if (this.settled) return;
    this.outcomes[run.index] = outcome;
    callHook(this.config.onEnd, outcome);
    this.abortAll(reason);
  }

  /** Aborts every running call (with `reason`) and reports every unfinished call as aborted. */
  private abortAll(reason: unknown = this.config.signal?.reason): void {
    if (this.settled) return;
    this.settled = true;
    const now = performance.now();
    const startedAt = new Map<number, number>();
    for (const run of this.active) {
      run.done = true;
      run.timer?.cancel();
      startedAt.set(run.index, run.startedAt);
      abortCall(run, reason);
    }
    this.active.clear();
    this.calls.forEach((call, index) => {
      if (this.outcomes[index] !== undefined) return;
      const started = startedAt.get(index);
      const outcome: ToolOutcome = {
        toolCallId: call.id,
        toolName: call.name,
        ok: false,
        content: "aborted",
        error: { type: "AbortError", message: `Tool ${JSON.stringify(call.name)} was aborted` },
        durationMs: started === undefined ? 0 : Math.round(now - started),
      };
      this.outcomes[index] = outcome;
      callHook(this.config.onEnd, outcome);
    });
    this.complete();
  }

  private settle(): void {
    this.settled = true;
    this.complete();
  }

  private complete(): void {
    this.stopListening?.();
    this.resolve(this.outcomes as ToolOutcome[]);
  }
}
