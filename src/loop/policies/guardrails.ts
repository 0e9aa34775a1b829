import { GuardrailError, type GuardrailKind } from "../../errors/guardrail-error.js";
import type {
  Guardrail,
  GuardrailsOptions,
  InputGuardrail,
  InputGuardrailCheck,
  OutputGuardrail,
  ToolGuardrail,
} from "../../guardrails/guardrail.js";
import { type GuardrailBlock, runGuardrails } from "../../guardrails/run-guardrails.js";
import type { Message } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import type { AgentEvent, StopReason } from "../agent-event.js";
import { createEvent, describeError } from "../create-event.js";
import type { LoopState } from "../loop-state.js";
import { runAlongside } from "./guardrails-parallel.js";
import { type GuardrailStop, ToolGuardrails } from "./guardrails-tools.js";

/** Options of {@link Guardrails}. */
export interface GuardrailsPolicyOptions {
  state: LoopState;
  guardrails: GuardrailsOptions;
  /** The run's signal, given to every guardrail. */
  signal: AbortSignal;
  /** Aborts the run's signal: a parallel input guardrail blocked while the first model call was in flight. */
  abortRun: (reason: unknown) => void;
  /** The run resumes a paused turn: its input was checked when it started. */
  resumed: boolean;
  /** `limits.wrapUp`: a run stopped at `maxTurns` ends with the wrap-up call's answer. */
  wrapUp: boolean;
  /** The final-answer tool's name, when the typed answer comes as its call (`output` without native support). */
  answerTool: string | undefined;
}

type TurnEvents = AsyncGenerator<AgentEvent, ModelResponse | undefined>;

/** Stop reasons whose `result.text` (and `result.output`) is the model's answer. */
const ANSWERED: ReadonlySet<StopReason> = new Set<StopReason>(["completed", "max_output_tokens"]);

/** A guardrail as given, with its name, mode and phase read once and its `check` bound to it. */
function snapshot<T extends Guardrail<never> & { mode?: unknown; phase?: unknown }>(guardrail: T): T {
  const copy: Guardrail<never> & { mode?: unknown; phase?: unknown } = {
    name: String(guardrail.name),
    check: guardrail.check.bind(guardrail),
  };
  if (guardrail.mode !== undefined) copy.mode = guardrail.mode;
  if (guardrail.phase !== undefined) copy.phase = guardrail.phase;
  return copy as T;
}

/**
 * The run's guardrails (docs/guardrails.md), at their seams: input guardrails before the first model call
 * (`beforeRun`) or alongside it (`turn`), tool guardrails in the tool step (`tools`), output guardrails on the
 * answer (`afterRun`). A block records the run's {@link GuardrailError} (`error`), emits a `guardrail` event
 * (after a non-fatal `error` event when the guardrail threw), and the loop ends with stop reason `guardrail`.
 * Made only for a run with guardrails.
 */
export class Guardrails {
  /** The block that stopped the run, once one did. */
  error: GuardrailError | undefined;
  /** The tool guardrails, for the tool step (undefined without any). */
  readonly tools: ToolGuardrails | undefined;
  private readonly before: readonly InputGuardrail[];
  private readonly parallel: readonly InputGuardrail[];
  private readonly output: readonly OutputGuardrail[];
  private parallelPending: boolean;
  /** The run's new user message: the last message when the run starts, when it is a user message. */
  private readonly input: Message | undefined;
  private blockEvents: AgentEvent[] = [];

  private constructor(private readonly options: GuardrailsPolicyOptions) {
    const { guardrails, resumed } = options;
    const input = resumed ? [] : (guardrails.input ?? []).map(snapshot);
    this.before = input.filter((guardrail) => guardrail.mode !== "parallel");
    this.parallel = input.filter((guardrail) => guardrail.mode === "parallel");
    this.parallelPending = this.parallel.length > 0;
    const last = options.state.messages.at(-1);
    this.input = last?.role === "user" ? last : undefined;
    this.output = (guardrails.output ?? []).map(snapshot);
    const tool: readonly ToolGuardrail[] = (guardrails.tool ?? []).map(snapshot);
    this.tools =
      tool.length === 0
        ? undefined
        : new ToolGuardrails({
            state: options.state,
            guardrails: tool,
            signal: options.signal,
            stopOf: ({ block, call, phase, turn }) =>
              this.stop({ kind: "tool", block, turn, tool: { toolCallId: call.id, phase } }),
            record: (stop) => {
              this.error ??= stop.error;
            },
          });
  }

  /** The policy, or undefined when the run has no guardrails (nothing is checked, nothing allocated). */
  static of(options: GuardrailsPolicyOptions): Guardrails | undefined {
    const { input, output, tool } = options.guardrails;
    if (!input?.length && !output?.length && !tool?.length) return undefined;
    return new Guardrails(options);
  }

  /**
   * Before the first turn: the input guardrails of mode "before" (all at once). True when one blocked: the
   * blocked message leaves the history (not kept by a session, not sent on a continued conversation).
   */
  async *beforeRun(): AsyncGenerator<AgentEvent, boolean> {
    if (this.before.length === 0) return false;
    const block = await runGuardrails({
      guardrails: this.before,
      check: this.inputCheck(),
      signal: this.options.signal,
    });
    if (block === undefined) return false;
    const stop = this.stop({ kind: "input", block });
    this.error = stop.error;
    this.removeInput();
    yield* stop.events;
    return true;
  }

  /**
   * A model turn's events: the first turn runs alongside the input guardrails of mode "parallel" (see
   * `runAlongside`); other turns (and runs without such guardrails) are returned as they are. After it, check
   * `error`: set when the input was blocked (the turn's answer was discarded).
   */
  turn(events: TurnEvents): TurnEvents {
    if (!this.parallelPending) return events;
    this.parallelPending = false;
    return this.alongside(events);
  }

  private async *alongside(events: TurnEvents): TurnEvents {
    const { state, signal } = this.options;
    // A copy: the turn appends to the history while the guardrails read it.
    const check = { ...this.inputCheck(), messages: state.messages.slice() };
    const response = yield* runAlongside({
      events,
      check: runGuardrails({ guardrails: this.parallel, check, signal }),
      onBlock: (block) => {
        const stop = this.stop({ kind: "input", block });
        this.error = stop.error;
        this.blockEvents = stop.events;
        this.options.abortRun(stop.error);
      },
      onDiscard: () => {
        if (state.messages.at(-1)?.role === "assistant") state.messages.pop();
        state.text = "";
      },
    });
    if (this.error === undefined) return response;
    this.removeInput();
    yield* this.blockEvents;
    return undefined;
  }

  /**
   * After the loop: the output guardrails on the run's answer, when it ended with one (`completed`,
   * `max_output_tokens`, or `max_turns` after the wrap-up call). On a block the answer is withheld: `text`
   * and `output` are cleared, and the answer's turn leaves the history. Returns the stop reason.
   */
  async *afterRun(stopReason: StopReason | undefined): AsyncGenerator<AgentEvent, StopReason | undefined> {
    if (this.output.length === 0 || !this.answered(stopReason)) return stopReason;
    const { state, signal } = this.options;
    const check = {
      kind: "output",
      text: state.text,
      output: state.output,
      messages: state.messages,
      signal,
    } as const;
    const block = await runGuardrails({ guardrails: this.output, check, signal });
    if (block === undefined) return stopReason;
    const stop = this.stop({ kind: "output", block });
    this.error = stop.error;
    this.withholdAnswer();
    yield* stop.events;
    return "guardrail";
  }

  private answered(stopReason: StopReason | undefined): boolean {
    if (stopReason === undefined) return false;
    if (ANSWERED.has(stopReason)) return true;
    const { state } = this.options;
    return (
      stopReason === "max_turns" && this.options.wrapUp && (state.text !== "" || state.output !== undefined)
    );
  }

  /**
   * Clears the answer, and removes its turn from the history when the turn was the model's answer: its last
   * message without tool calls, or the final-answer tool call (with the tool results after it). A turn whose
   * calls ran (a terminal tool's result as the answer) stays: its results are the record of what ran.
   */
  private withholdAnswer(): void {
    const { state, answerTool } = this.options;
    state.text = "";
    state.output = undefined;
    const { messages } = state;
    let index = messages.length - 1;
    while (index >= 0 && messages[index]?.role === "tool") index--;
    const answer = messages[index];
    if (answer?.role !== "assistant") return;
    const calls = answer.toolCalls ?? [];
    if (calls.length === 0 || calls.some((call) => call.name === answerTool)) messages.splice(index);
  }

  /** What input guardrails check: the run's new user message. */
  private inputCheck(): InputGuardrailCheck {
    const { state, signal } = this.options;
    return { kind: "input", input: this.input?.content ?? "", messages: state.messages, signal };
  }

  /** Removes the blocked user message from the history. */
  private removeInput(): void {
    const { messages } = this.options.state;
    const index = this.input === undefined ? -1 : messages.lastIndexOf(this.input);
    if (index >= 0) messages.splice(index, 1);
  }

  /** A block as the run's error and its events. */
  private stop(args: {
    kind: GuardrailKind;
    block: GuardrailBlock;
    turn?: number;
    tool?: { toolCallId: string; phase: "call" | "result" };
  }): GuardrailStop {
    const { kind, block, tool } = args;
    const turn = args.turn ?? this.options.state.turns;
    const error = new GuardrailError({
      kind,
      guardrailName: block.name,
      reason: block.reason,
      ...tool,
      ...(block.failure !== undefined && { cause: block.failure }),
    });
    const events: AgentEvent[] = [];
    if (block.failure !== undefined) {
      const { name, message } = describeError(block.failure);
      const failed = `${kind} guardrail ${JSON.stringify(block.name)} failed: ${message}`;
      events.push(createEvent("error", turn, { name, message: failed, fatal: false }));
    }
    events.push(createEvent("guardrail", turn, { kind, name: block.name, reason: block.reason, ...tool }));
    return { error, events };
  }
}
