import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_GUARDRAILERROR = errorMarker("GuardrailError");

/** Which kind of guardrail blocked a run: on its input, its final answer, or a tool call (or its result). */
export type GuardrailKind = "input" | "output" | "tool";

/** Options of {@link GuardrailError}. */
export interface GuardrailErrorOptions {
  kind: GuardrailKind;
  /** The guardrail's `name`. */
  guardrailName: string;
  /** Why it blocked (the verdict's reason, or what the guardrail threw). */
  reason: string;
  /** The tool call concerned (tool guardrails). */
  toolCallId?: string | undefined;
  /** Tool guardrails: blocked before the call ran (`call`) or on its result (`result`). */
  phase?: "call" | "result" | undefined;
  /** What the guardrail threw, when it failed rather than decided (a failing guardrail blocks). */
  cause?: unknown;
}

/**
 * A guardrail blocked the run: `result.stopReason` is `guardrail` and `result.error` is this error. `kind`
 * says which kind of guardrail, `guardrailName` which one, `reason` why; `toolCallId` and `phase` name the tool
 * call of a tool guardrail. A guardrail that threw blocks too (it fails closed): `cause` is what it threw.
 */
export class GuardrailError extends AgentloopError {
  protected readonly [MARK_GUARDRAILERROR] = true;
  readonly kind: GuardrailKind;
  readonly guardrailName: string;
  readonly reason: string;
  readonly toolCallId: string | undefined;
  readonly phase: "call" | "result" | undefined;

  constructor({ kind, guardrailName, reason, toolCallId, phase, cause }: GuardrailErrorOptions) {
    const where = toolCallId === undefined ? "" : ` (tool call ${toolCallId}${phase ? `, ${phase}` : ""})`;
    super({ message: `${kind} guardrail "${guardrailName}" blocked the run${where}: ${reason}`, cause });
    this.name = "GuardrailError";
    this.kind = kind;
    this.guardrailName = guardrailName;
    this.reason = reason;
    this.toolCallId = toolCallId;
    this.phase = phase;
  }

  static override isInstance(error: unknown): error is GuardrailError {
    return hasMarker(error, MARK_GUARDRAILERROR);
  }
}
