import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_SUBAGENTERROR = errorMarker("SubAgentError");

/** Longest part of a sub-agent's last text quoted in the message. */
const MAX_QUOTED = 500;

/**
 * A sub-agent (`agent.asTool`) ended without an answer: a limit, a guardrail or an error stopped it. The calling
 * agent's model sees this message as the tool call's failed result; `agent` is the sub-agent's path
 * (`"lead/researcher"`), `stopReason` why it stopped, `text` the last text it wrote.
 */
export class SubAgentError extends AgentloopError {
  protected readonly [MARK_SUBAGENTERROR] = true;
  /** The sub-agent's path, e.g. `"lead/researcher"`. */
  readonly agent: string;
  /** Why the sub-agent's run ended (a `StopReason`). */
  readonly stopReason: string;
  /** The last text the sub-agent wrote ("" when none). */
  readonly text: string;

  constructor(args: { agent: string; stopReason: string; text: string; cause?: unknown }) {
    const { agent, stopReason, text } = args;
    const quoted = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
    super({
      message: `sub-agent "${agent}" stopped (${stopReason}) without an answer${quoted === "" ? "" : `; its last text: ${quoted}`}`,
      cause: args.cause,
    });
    this.name = "SubAgentError";
    this.agent = agent;
    this.stopReason = stopReason;
    this.text = text;
  }

  static override isInstance(error: unknown): error is SubAgentError {
    return hasMarker(error, MARK_SUBAGENTERROR);
  }
}
