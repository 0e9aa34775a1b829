import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_APPROVALREQUIREDERROR = errorMarker("ApprovalRequiredError");

/**
 * A call of a tool that `needsApproval` reached the executor without a human's decision, so it was not run.
 * The agent loop pauses such calls (`awaiting_approval`) and passes the approved ones on; every other path
 * that executes tools (the planner, `ToolRegistry.execute`, `executeToolCalls` called directly) gets this
 * error as the call's failed outcome instead of running the tool.
 */
export class ApprovalRequiredError extends AgentloopError {
  protected readonly [MARK_APPROVALREQUIREDERROR] = true;
  /** The gated tool. */
  readonly toolName: string;
  /** The call that was not run. */
  readonly toolCallId: string;

  constructor({ toolName, toolCallId }: { toolName: string; toolCallId: string }) {
    super({
      message:
        `Tool ${JSON.stringify(toolName)} needs a human's approval and this call has none; ` +
        "it was not executed",
    });
    this.name = "ApprovalRequiredError";
    this.toolName = toolName;
    this.toolCallId = toolCallId;
  }

  static override isInstance(error: unknown): error is ApprovalRequiredError {
    return hasMarker(error, MARK_APPROVALREQUIREDERROR);
  }
}
