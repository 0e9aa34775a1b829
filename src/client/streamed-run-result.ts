import type { StopReason } from "../loop/agent-event.js";
import type { PendingApproval } from "../loop/tool-step.js";
import type { Usage } from "../models/usage.js";

/**
 * The summary a streamed run ends with: the data of the `event: result` message of the agentloop SSE wire
 * format (`toSSEResponse`, `pipeToNodeResponse` of `agentloop/web`), and what `streamRun(...).result` resolves
 * to. A JSON-safe subset of the server's `AgentResult`: no messages, events or trace.
 */
export interface StreamedRunResult<TOutput = unknown> {
  /** The durable run's id, when the run was durable. */
  runId?: string;
  /** The session the run continued, when it had one. */
  sessionId?: string;
  stopReason: StopReason;
  /** The final answer (or the last text the model wrote). */
  text: string;
  /** The typed final answer, for an agent with an `output` schema that got a valid one. */
  output?: TOutput;
  usage: Usage;
  /** USD spent on model calls. */
  costUsd: number;
  /** Model calls made. */
  turns: number;
  /** With stop reason `awaiting_approval`: the tool calls waiting for a human. */
  pendingApprovals?: PendingApproval[];
  /** For an agent with handoffs: the agent that answered. */
  agent?: string;
  /** Why the run failed (stop reason `error`, or no valid typed answer). */
  error?: { name: string; message: string };
}

/** The data of an `event: error` message: the run could not start, or its stream failed (not a run outcome). */
export interface StreamedRunError {
  /** The error's class name (e.g. `SessionBusyError`, `DurableRunBusyError`, `StoreError`). */
  name: string;
  message: string;
}
