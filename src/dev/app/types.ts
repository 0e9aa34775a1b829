import type { AgentEvent } from "../../loop/agent-event.js";

export type { AgentEvent, AgentEventOf } from "../../loop/agent-event.js";

/** A call waiting for approval (the result's `pendingApprovals`). */
export interface PendingCall {
  toolCallId: string;
  toolName: string;
  arguments: unknown;
  agent?: string;
}

/** The `event: result` message of a run stream. */
export interface RunResultSummary {
  runId?: string;
  sessionId?: string;
  stopReason: string;
  text: string;
  output?: unknown;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  costUsd: number;
  turns: number;
  pendingApprovals?: PendingCall[];
  agent?: string;
  error?: { name: string; message: string };
}

/** `GET /api/info`. */
export interface DevInfo {
  source: { kind: "file"; file: string } | { kind: "demo"; notice: string };
  workspace: string;
  version: number;
  loadedAt: number | null;
  error: { message: string; at: number } | null;
  agent: {
    name: string;
    model: string;
    system: string | null;
    tools: Array<{ name: string; description: string; needsApproval: boolean | "sometimes" }>;
  } | null;
}

/** A run of `GET /api/runs`. */
export interface DevRunInfo {
  runId: string;
  finished: boolean;
  updatedAt: number;
  sessionId?: string;
  input: string;
  stopReason?: string;
  costUsd?: number;
  turns?: number;
  pending?: PendingCall[];
}

/** A message of `GET /api/sessions/<id>`. */
export interface DevMessage {
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  toolCalls?: Array<{ id: string; name: string; arguments: unknown }>;
  toolName?: string;
}

/** `GET /api/traces/<name>`. */
export interface DevTraceView {
  name: string;
  model: string;
  input: string;
  tools: string[];
  startedAt: number;
  records: number;
  verified: { ok: true } | { ok: false; brokenAt: number; reason: string };
  events: AgentEvent[];
}

/** `POST /api/traces/<name>/replay`. */
export interface DevReplayOutcome {
  name: string;
  agent: "loaded" | "rebuilt";
  divergence: { call: number; path: string; expected: string; actual: string } | null;
  result: RunResultSummary;
  events: AgentEvent[];
}
