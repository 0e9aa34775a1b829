import type { ToolCall, ToolMessage } from "../models/message.js";
import type { RunState } from "../sessions/run-state.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { AgentEvent } from "./agent-event.js";
import { createEvent } from "./create-event.js";
import { runTools } from "./run-tools.js";

/** A tool call waiting for a human's decision. */
export interface PendingApproval {
  toolCallId: string;
  tool: string;
  args: unknown;
}

/** A human's decisions on pending calls, by tool call id. Calls in neither list are denied. */
export interface ApprovalDecisions {
  approve: ReadonlySet<string>;
  deny: ReadonlySet<string>;
}

/** Options of {@link toolStep}. */
export interface ToolStepOptions {
  calls: ToolCall[];
  registry: ToolRegistry;
  step: number;
  signal: AbortSignal;
  parallel: boolean;
  concurrency: number | undefined;
  timeoutMs: number;
  maxResultChars: number | undefined;
  sessionId?: string | undefined;
  state?: RunState | undefined;
  /** Set when resuming a paused turn; without it, calls that need approval pause the turn. */
  decisions?: ApprovalDecisions | undefined;
}

/** What a tool step did: ran the turn's calls (tool messages in call order), or paused for approval. */
export type ToolStepResult =
  | { kind: "done"; messages: ToolMessage[] }
  | { kind: "paused"; pending: PendingApproval[] };

export const DENIED_RESULT = "The user denied this tool call; it was not executed.";

async function needsApproval(call: ToolCall, registry: ToolRegistry): Promise<boolean> {
  const tool = registry.get(call.name);
  if (tool === undefined || call.parseError !== undefined) return false; // it fails anyway, with a clear result
  try {
    return await tool.requiresApproval(call.arguments);
  } catch {
    return true; // a failing approval check must not let the call through
  }
}

function toolMessage(outcome: ToolOutcome): ToolMessage {
  const message: ToolMessage = {
    role: "tool",
    toolCallId: outcome.toolCallId,
    toolName: outcome.toolName,
    content: outcome.content,
  };
  if (!outcome.ok) message.isError = true;
  return message;
}

/**
 * The tool half of a turn. Calls whose tool `needsApproval` pause the whole turn (nothing runs; an
 * `approval_requested` event) unless `decisions` are given: then approved and ungated calls run, denied ones
 * (and gated ones in neither list) get a "denied" result. Approval is decided per call id by the human, so a
 * tool result that tells the model to call a gated tool cannot get around it.
 */
export async function* toolStep(options: ToolStepOptions): AsyncGenerator<AgentEvent, ToolStepResult> {
  const { calls, registry, step, decisions } = options;
  const gated = new Set<string>();
  for (const call of calls) {
    // Most tools never need approval: decide those synchronously (no promise per call on the hot path).
    if (registry.get(call.name)?.needsApproval === false) continue;
    if (await needsApproval(call, registry)) gated.add(call.id);
  }
  if (gated.size > 0 && decisions === undefined) {
    const pending = calls
      .filter((call) => gated.has(call.id))
      .map((call) => ({ toolCallId: call.id, tool: call.name, args: call.arguments ?? call.rawArguments }));
    yield createEvent("approval_requested", step, { calls: pending });
    return { kind: "paused", pending };
  }
  for (const call of calls) {
    yield createEvent("action", step, {
      toolCallId: call.id,
      tool: call.name,
      args: call.arguments ?? call.rawArguments,
    });
  }
  const denied = new Set([...gated].filter((id) => !decisions?.approve.has(id)));
  const runnable = calls.filter((call) => !denied.has(call.id));
  const outcomes = new Map<string, ToolOutcome>();
  if (runnable.length > 0) {
    const ran = yield* runTools({ ...options, calls: runnable, approved: decisions?.approve });
    for (const outcome of ran) outcomes.set(outcome.toolCallId, outcome);
  }
  for (const call of calls) {
    if (!denied.has(call.id)) continue;
    const outcome: ToolOutcome = {
      toolCallId: call.id,
      toolName: call.name,
      ok: false,
      content: DENIED_RESULT,
      error: { type: "ApprovalDenied", message: DENIED_RESULT },
      durationMs: 0,
    };
    outcomes.set(call.id, outcome);
    yield createEvent("observation", step, {
      toolCallId: call.id,
      tool: call.name,
      result: outcome.content,
      ok: false,
      durationMs: 0,
      error: { type: "ApprovalDenied", message: DENIED_RESULT },
    });
  }
  const messages: ToolMessage[] = [];
  for (const call of calls) {
    const outcome = outcomes.get(call.id);
    if (outcome !== undefined) messages.push(toolMessage(outcome));
  }
  return { kind: "done", messages };
}
