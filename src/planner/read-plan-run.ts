import { contentText } from "../models/content-part.js";
import type { Message, ToolCall } from "../models/message.js";
import type { PlanObservation } from "./plan-observation.js";

/** The id prefix of a plan's tool steps (`plan_step_<n>`, numbered across the run's rounds). */
export const PLAN_STEP_ID = "plan_step_";

/** Details of an executed step the history does not hold (from its `observation` event). */
export interface StepDetails {
  latencyMs: number;
  error?: { type: string; message: string };
}

/** Options of {@link readPlanRun}. */
export interface ReadPlanRunOptions {
  /** The run's history, as the loop sends it. */
  messages: readonly Message[];
  /** Details of executed steps by call id, when known (a resumed run in another process has none). */
  details?: ReadonlyMap<string, StepDetails> | undefined;
}

/** Where a plan-and-execute run is, read from its history: everything a stateless planning model needs. */
export interface PlanRunView {
  /** The user's query: the last user message. */
  query: string;
  /** Planning rounds done (assistant messages holding plan steps). */
  rounds: number;
  /** Plan steps taken so far (tool steps, plus a reply step waiting to be the answer). */
  taken: number;
  /** Every executed tool step, in order. */
  observations: PlanObservation[];
  /** A reply step planned after the last round's tool steps: the answer, now that they ran. */
  pendingReply: string | undefined;
}

/**
 * Reads a plan-and-execute run from its history: the query (the last user message), then each planning round
 * (an assistant message whose tool calls are plan steps, its text the reply planned after them) and the tool
 * results of its steps. Derived from the history alone, so a run paused for approval can continue anywhere.
 */
export function readPlanRun({ messages, details }: ReadPlanRunOptions): PlanRunView {
  let start = messages.length - 1;
  while (start >= 0 && messages[start]?.role !== "user") start--;
  const first = messages[start];
  const query = first === undefined ? "" : contentText(first.content);
  const view: PlanRunView = { query, rounds: 0, taken: 0, observations: [], pendingReply: undefined };
  const calls = new Map<string, { call: ToolCall; round: number }>();
  for (let i = start + 1; i < messages.length; i++) {
    const message = messages[i];
    if (message?.role === "assistant") {
      const steps = (message.toolCalls ?? []).filter((call) => call.id.startsWith(PLAN_STEP_ID));
      if (steps.length === 0) continue;
      for (const call of steps) calls.set(call.id, { call, round: view.rounds });
      view.taken += steps.length;
      view.pendingReply = message.content === "" ? undefined : message.content;
      if (view.pendingReply !== undefined) view.taken++;
      view.rounds++;
    } else if (message?.role === "tool") {
      const entry = calls.get(message.toolCallId);
      if (entry !== undefined) view.observations.push(observationOf({ message, ...entry, details }));
    }
  }
  return view;
}

function observationOf(args: {
  message: Extract<Message, { role: "tool" }>;
  call: ToolCall;
  round: number;
  details: ReadonlyMap<string, StepDetails> | undefined;
}): PlanObservation {
  const { message, call, round } = args;
  const known = args.details?.get(call.id);
  const base = {
    step: Number(call.id.slice(PLAN_STEP_ID.length)),
    round,
    toolName: call.name,
    arguments: call.arguments ?? {},
    latencyMs: known?.latencyMs ?? 0,
  };
  const text = contentText(message.content);
  if (message.isError !== true) return { ...base, ok: true, result: text };
  return { ...base, ok: false, error: known?.error ?? { type: "ToolError", message: text } };
}
