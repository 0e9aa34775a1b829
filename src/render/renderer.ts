import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentEvent, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import { createRedactor, type Redactor } from "../stores/redactor.js";
import type { JsonValue } from "../stores/session-store.js";
import { type AnsiStyle, createAnsiStyle } from "./ansi-style.js";
import { escapeJsonForTerminal, escapeTerminalValue } from "./escape-terminal-text.js";
import { formatEvent } from "./format-event.js";
import { RunTotals, type RunTotalsSnapshot } from "./run-totals.js";

/** The events a tool rule sees: a call about to run (`action`) and its result (`observation`). */
export type ToolEvent = AgentEventOf<"action"> | AgentEventOf<"observation">;

/** What a rule gets besides the event. */
export interface RenderContext {
  /** The renderer's style (colours are no-ops when colour is off). */
  style: AnsiStyle;
  /** The run's totals so far, this event included. */
  totals: RunTotalsSnapshot;
  /** The built-in rendering of the event, e.g. to decorate it. */
  fallback(): string | undefined;
}

/**
 * A rendering rule: returns the text to print (include the trailing `\n`), or `undefined` to print nothing.
 * A rule that throws is ignored for that event: the built-in rendering is used instead.
 */
export type RenderRule<E extends AgentEvent = AgentEvent> = (
  event: E,
  context: RenderContext,
) => string | undefined;

/** Options of {@link Renderer}. */
export interface RendererOptions {
  /** Add ANSI colours to the built-in rendering. Default false. */
  color?: boolean;
  /** Where {@link Renderer.handle} writes. Default: `process.stdout`. */
  write?: (text: string) => void;
  /** Tool results are cut to this many characters in the built-in rendering. Default 300. */
  maxResultChars?: number;
  /**
   * The built-in rendering: `"text"` (default) for people, `"json_lines"` for programs (one JSON object per
   * event per line; colour and `maxResultChars` do not apply).
   */
  format?: "text" | "json_lines";
  /**
   * Redacts every event before it is rendered (secrets in tool arguments and results, model text, error
   * messages), for rules and the built-in rendering alike. Default: the default redactor (`createRedactor()`)
   * for `"json_lines"`, whose output usually goes to logs and other programs; none for `"text"`. `false`: none.
   */
  redactor?: Redactor | false;
}

/** The default of {@link RendererOptions.maxResultChars}. */
export const DEFAULT_MAX_RESULT_CHARS = 300;

/** The `format` option: `"text"` (default) or `"json_lines"`; `"json-lines"` was renamed in agentloop 0.2. */
function checkFormat(format: unknown): "text" | "json_lines" {
  if (format === undefined || format === "text" || format === "json_lines") return format ?? "text";
  const renamed = format === "json-lines" ? 'renamed to "json_lines" in agentloop 0.2; ' : "";
  throw new InvalidArgumentError({
    argument: "format",
    message: `${renamed}expected "text" or "json_lines", got ${JSON.stringify(format)}`,
  });
}

/**
 * Turns agent events into text. For each event the first matching rule decides: a tool rule
 * ({@link Renderer.onTool}, for the `action` and `observation` events of that tool), then an event rule
 * ({@link Renderer.onEvent}), then the built-in rendering (task, model calls with latency, tokens and cost, tool
 * calls and results, limits, retries, compaction, approvals, errors, the final answer and totals). A rule that
 * throws falls back to the built-in rendering, so a renderer never breaks a run.
 *
 * The renderer is stateful (it counts the run's totals and remembers streamed text so a streamed answer is not
 * printed twice): give each concurrent run its own.
 *
 * Sub-agents (`agent.asTool`): their events (with `event.agent`, the sub-agent's path) are rendered dimmed,
 * indented under the call that runs them and prefixed with the sub-agent's name; their start and end read
 * `↳ researcher: started · …` and `↳ researcher: done (completed, 2 turns, $0.0012)`; their streamed text goes on
 * lines of its own, never into the run's answer. The totals line counts the run's own turns and every model
 * call's tokens and cost once, as `result.usage` and `result.costUsd` do. Rules get these events too (check
 * `event.agent`); `context.totals` stays the run's.
 *
 * @example
 * const renderer = new Renderer({ color: true })
 *   .onTool("calculator", (e) => (e.type === "observation" ? `= ${e.data.result}\n` : undefined))
 *   .onEvent("model_call", () => undefined); // hide model calls
 * const agent = new Agent({ model, tools, onEvent: (e) => renderer.handle(e) });
 */
export class Renderer {
  /** The style the built-in rendering uses. */
  readonly style: AnsiStyle;
  private readonly write: (text: string) => void;
  private readonly maxResultChars: number;
  private readonly format: "text" | "json_lines";
  private readonly redactor: Redactor | undefined;
  private readonly toolRules = new Map<string, RenderRule<ToolEvent>>();
  private readonly eventRules = new Map<AgentEventType, RenderRule>();
  private readonly totals = new RunTotals();
  /** The totals of each sub-agent's run, by path, and how many runs of that path are under way. */
  private readonly nested = new Map<string, { totals: RunTotals; open: number }>();
  /** The text streamed in each turn, by agent ("" for the run's own, else the sub-agent's path). */
  private readonly streamedText = new Map<string, Map<number, string>>();
  private midLine = false;
  /** The last text rendered when it was a streamed delta (text or reasoning) and whose, else undefined. */
  private lastDelta: { type: "text_delta" | "reasoning_delta"; agent: string | undefined } | undefined;

  constructor(options: RendererOptions = {}) {
    this.style = createAnsiStyle({ enabled: options.color ?? false });
    this.write = options.write ?? ((text) => process.stdout.write(text));
    const max = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
    this.maxResultChars = Number.isFinite(max) && max > 0 ? Math.floor(max) : DEFAULT_MAX_RESULT_CHARS;
    this.format = checkFormat(options.format);
    const redactor = options.redactor ?? (this.format === "json_lines" ? createRedactor() : false);
    this.redactor = redactor === false ? undefined : redactor;
  }

  /** Renders the `action` and `observation` events of tool `name` with `rule` (replaces an earlier rule). */
  onTool(name: string, rule: RenderRule<ToolEvent>): this {
    this.toolRules.set(name, rule);
    return this;
  }

  /** Renders events of type `type` with `rule` (replaces an earlier rule). Tool rules come first. */
  onEvent<K extends AgentEventType>(type: K, rule: RenderRule<AgentEventOf<K>>): this {
    this.eventRules.set(type, rule as RenderRule);
    return this;
  }

  /** Whether the last text rendered left the cursor in the middle of a line (after streamed text). */
  get isMidLine(): boolean {
    return this.midLine;
  }

  /** The run's totals so far. */
  get runTotals(): RunTotalsSnapshot {
    return this.totals.snapshot();
  }

  /**
   * The text to print for `event`, or `undefined` for nothing. Call it for every event of a run, in order (the
   * totals and the streamed text are tracked here), and print what it returns.
   */
  render(raw: AgentEvent): string | undefined {
    // The one place event text enters the rendering: for people, every control character in it (escape
    // sequences, BEL, BS, CR, C1, bidi overrides) becomes a visible escape, so neither the built-in rendering
    // nor a rule can pass model or tool text through to the terminal as commands. Styling is added afterwards.
    let event: AgentEvent;
    try {
      const redacted =
        this.redactor === undefined
          ? raw
          : (this.redactor.redactValue(raw as unknown as JsonValue) as unknown as AgentEvent);
      event = this.format === "text" ? escapeTerminalValue(redacted) : redacted;
    } catch {
      return undefined; // a malformed event (a getter that throws) renders nothing
    }
    safely(() => {
      this.track(event);
      return undefined;
    });
    const context = this.context(event);
    let text: string | undefined;
    const rule = this.ruleFor(event);
    try {
      text = rule === undefined ? context.fallback() : rule(event, context);
      if (text !== undefined && typeof text !== "string") text = String(text);
    } catch {
      text = safely(context.fallback);
    }
    if (text === undefined || text === "") return undefined;
    if (this.format === "json_lines") return text;
    const delta = event.type === "text_delta" || event.type === "reasoning_delta" ? event.type : undefined;
    // Streamed text continues its line; anything else (reasoning after text, text after reasoning, another
    // agent's text) starts anew.
    const continues =
      delta !== undefined &&
      (this.lastDelta === undefined ? event.agent === undefined : this.continuesLine(event));
    if (!continues && this.midLine && !text.startsWith("\n")) text = `\n${text}`;
    this.midLine = !text.endsWith("\n");
    this.lastDelta = delta === undefined ? undefined : { type: delta, agent: event.agent };
    return text;
  }

  /** Renders `event` and writes the text. Usable as an agent hook: `onEvent: (e) => renderer.handle(e)`. */
  handle(event: AgentEvent): void {
    const text = this.render(event);
    if (text !== undefined) this.write(text);
  }

  private ruleFor(event: AgentEvent): RenderRule | undefined {
    if (event.type === "action" || event.type === "observation") {
      const rule = this.toolRules.get(event.data.toolName) as RenderRule | undefined;
      if (rule !== undefined) return rule;
    }
    return this.eventRules.get(event.type);
  }

  /** Whether `event` (a delta) continues the open line of the last delta: same type, same agent. */
  private continuesLine(event: AgentEvent): boolean {
    return this.lastDelta?.type === event.type && this.lastDelta.agent === event.agent;
  }

  private context(event: AgentEvent): RenderContext {
    const totals = this.totals.snapshot();
    const agent = event.agent;
    return {
      style: this.style,
      totals,
      fallback: () =>
        this.format === "json_lines"
          ? `${escapeJsonForTerminal(JSON.stringify(event))}\n`
          : formatEvent({
              event,
              style: this.style,
              maxResultChars: this.maxResultChars,
              totals: agent === undefined ? totals : (this.nested.get(agent)?.totals.snapshot() ?? totals),
              streamedText: this.textOf(agent),
              reasoningOpen: this.lastDelta?.type === "reasoning_delta" && this.lastDelta.agent === agent,
              lineOpen: this.midLine && this.continuesLine(event),
            }),
    };
  }

  /** The text `agent` (undefined: the run itself) streamed, by turn. */
  private textOf(agent: string | undefined): Map<number, string> {
    const key = agent ?? "";
    let text = this.streamedText.get(key);
    if (text === undefined) {
      text = new Map();
      this.streamedText.set(key, text);
    }
    return text;
  }

  private track(event: AgentEvent): void {
    this.totals.add(event);
    if (event.agent !== undefined) this.trackNested(event, event.agent);
    const text = this.textOf(event.agent);
    if (event.type === "loop_start") {
      if (event.agent === undefined) {
        this.streamedText.clear();
        for (const run of this.nested.values()) run.open = 0; // none is under way when the run (re)starts
      } else if (this.nested.get(event.agent)?.open === 1) text.clear();
    } else if (event.type === "text_delta") {
      text.set(event.turn, (text.get(event.turn) ?? "") + event.data.delta);
    } else if (event.type === "retry" && event.data.source === "stream") {
      text.delete(event.turn);
    }
  }

  /**
   * Counts a sub-agent's event in the totals of every sub-agent run it belongs to (its own and its callers').
   * Runs of the same path at once (two calls of one sub-agent tool in a turn) share their totals: their events
   * cannot be told apart.
   */
  private trackNested(event: AgentEvent, agent: string): void {
    let own = this.nested.get(agent);
    if (own === undefined) {
      own = { totals: new RunTotals({ agent }), open: 0 };
      this.nested.set(agent, own);
    }
    const concurrent = event.type === "loop_start" && own.open > 0;
    if (event.type === "loop_start") own.open++;
    else if (event.type === "loop_end") own.open = Math.max(0, own.open - 1);
    for (const [path, run] of this.nested) {
      if (path === agent && concurrent) continue; // a second run of this path: it must not reset the first's
      run.totals.add(event);
    }
  }
}

/** Runs `render`; a throw (a malformed event) renders nothing rather than breaking the run. */
function safely(render: () => string | undefined): string | undefined {
  try {
    return render();
  } catch {
    return undefined;
  }
}
