import type { GuardrailError } from "../../errors/guardrail-error.js";
import type { ToolGuardrail, ToolGuardrailCheck } from "../../guardrails/guardrail.js";
import { type GuardrailBlock, runGuardrails } from "../../guardrails/run-guardrails.js";
import type { ToolCall } from "../../models/message.js";
import type { ToolOutcome } from "../../tools/tool-outcome.js";
import type { AgentEvent } from "../agent-event.js";
import type { LoopState } from "../loop-state.js";

/** A guardrail's block as the loop acts on it: the run's error and the events that report it. */
export interface GuardrailStop {
  error: GuardrailError;
  /** A non-fatal `error` event when the guardrail failed (threw), then the `guardrail` event. */
  events: AgentEvent[];
}

/** What a tool guardrail's block becomes (made by the `Guardrails` policy). */
export type ToolStopFactory = (args: {
  block: GuardrailBlock;
  call: ToolCall;
  phase: "call" | "result";
  turn: number;
}) => GuardrailStop;

/** Options of {@link ToolGuardrails}. */
export interface ToolGuardrailsOptions {
  state: LoopState;
  guardrails: readonly ToolGuardrail[];
  signal: AbortSignal;
  /** Turns a block into the run's error and events. */
  stopOf: ToolStopFactory;
  /** Records the block that stopped the run. */
  record: (stop: GuardrailStop) => void;
}

/**
 * The tool guardrails of a run, as the tool step uses them: `checkCalls` before a turn's calls run (all of
 * them at once; a block means none runs), `checkResult` on each call's outcome before the model gets it. Made
 * only for a run with tool guardrails.
 */
export class ToolGuardrails {
  /** Whether some guardrail checks calls before they run. */
  readonly checksCalls: boolean;
  /** Whether some guardrail checks results before the model gets them. */
  readonly checksResults: boolean;
  private readonly onCalls: readonly ToolGuardrail[];
  private readonly onResults: readonly ToolGuardrail[];

  constructor(private readonly options: ToolGuardrailsOptions) {
    this.onCalls = options.guardrails.filter((guardrail) => guardrail.phase !== "result");
    this.onResults = options.guardrails.filter((guardrail) => guardrail.phase !== "call");
    this.checksCalls = this.onCalls.length > 0;
    this.checksResults = this.onResults.length > 0;
  }

  /** Checks a turn's calls (all at once): the first block in call order, or undefined when all may run. */
  async checkCalls({
    calls,
    turn,
  }: {
    calls: readonly ToolCall[];
    turn: number;
  }): Promise<GuardrailStop | undefined> {
    const { signal } = this.options;
    const blocks = await Promise.all(
      calls.map((call) =>
        runGuardrails({ guardrails: this.onCalls, check: this.callCheck(call, turn), signal }),
      ),
    );
    const index = blocks.findIndex((block) => block !== undefined);
    if (index < 0) return undefined;
    const call = calls[index] as ToolCall;
    return this.options.stopOf({ block: blocks[index] as GuardrailBlock, call, phase: "call", turn });
  }

  /** Checks one call's outcome before the model gets it: the block, or undefined when it may be sent. */
  async checkResult(args: {
    call: ToolCall;
    outcome: ToolOutcome;
    turn: number;
  }): Promise<GuardrailStop | undefined> {
    const { call, outcome, turn } = args;
    const check: ToolGuardrailCheck = {
      ...this.callCheck(call, turn),
      phase: "result",
      result: outcome.content,
      ok: outcome.ok,
    };
    const block = await runGuardrails({ guardrails: this.onResults, check, signal: this.options.signal });
    return block === undefined ? undefined : this.options.stopOf({ block, call, phase: "result", turn });
  }

  /** The block that took effect (the first one the executor stopped on). */
  record(stop: GuardrailStop): void {
    this.options.record(stop);
  }

  private callCheck(call: ToolCall, turn: number): ToolGuardrailCheck {
    return {
      kind: "tool",
      phase: "call",
      toolName: call.name,
      toolCallId: call.id,
      arguments: call.arguments,
      rawArguments: call.rawArguments,
      turn,
      messages: this.options.state.messages,
      signal: this.options.signal,
    };
  }
}
