import { createToolCall } from "../models/message.js";
import { executeToolCalls } from "../tools/execute-tool-calls.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { EventRecorder } from "./event-recorder.js";
import type { PlanObservation } from "./plan-observation.js";
import type { PlanStep } from "./plan-step.js";

/** Options of {@link executePlan}. */
export interface ExecutePlanOptions {
  /** The plan, in order. Tool names must be in `registry` (unknown ones fail like in the ReAct loop). */
  steps: readonly PlanStep[];
  /** The tools the plan may call. */
  registry: ToolRegistry;
  /** Records `action` and `observation` events. */
  recorder: EventRecorder;
  /** The planning round (0 for the first plan); stored in each observation. */
  round: number;
  /** The `step` of the events: the model turn that produced the plan. */
  turn: number;
  /** The number of the first step run here (1-based, counting on across rounds). */
  firstStep: number;
  /** At most this many steps (of either type) are taken; the rest are skipped. */
  budget: number;
  /** Timeout of tools that set none (the executor's default, 30 000 ms, when absent). */
  toolTimeoutMs?: number | undefined;
  /** Result limit of tools that set none (the executor's default when absent). */
  maxResultChars?: number | undefined;
  /** Aborts a running tool. */
  signal?: AbortSignal | undefined;
}

/** What {@link executePlan} did. */
export interface ExecutePlanResult {
  /** One per tool step run, in order. */
  observations: PlanObservation[];
  /** The text of the reply step that ended execution, if one did. */
  reply?: string;
  /** Steps taken (tool steps run, plus the reply step that ended execution). */
  taken: number;
  /** Steps not taken because the budget ran out. */
  skipped: number;
}

/**
 * Runs a plan's steps in order. Each tool step is one call through {@link executeToolCalls} — the ReAct loop's
 * executor — so validation, timeouts, errors and result formatting are the same: arguments are checked against
 * the tool's schema before it runs (invalid ones give a failed observation and the tool is not called), a
 * throw or timeout gives a failed observation, and the run goes on. Every tool step emits `action` then
 * `observation` (call id `plan_step_<n>`). A reply step ends execution and is the answer. Never rejects for
 * tool failures.
 */
export async function executePlan(options: ExecutePlanOptions): Promise<ExecutePlanResult> {
  const { steps, registry, recorder, round, turn } = options;
  const observations: PlanObservation[] = [];
  let taken = 0;
  for (const step of steps) {
    if (taken >= options.budget) break;
    taken++;
    if (step.type === "reply") return { observations, reply: step.text, taken, skipped: 0 };
    const number = options.firstStep + observations.length;
    const id = `plan_step_${number}`;
    const call = createToolCall({ id, name: step.name, rawArguments: JSON.stringify(step.arguments) ?? "" });
    recorder.emit("action", turn, { toolCallId: id, tool: step.name, args: step.arguments });
    const [outcome] = await executeToolCalls({
      calls: [call],
      registry,
      step: turn,
      parallel: false,
      ...(options.toolTimeoutMs !== undefined && { defaultTimeoutMs: options.toolTimeoutMs }),
      ...(options.maxResultChars !== undefined && { maxResultChars: options.maxResultChars }),
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    if (outcome === undefined) throw new Error("unreachable: one call has one outcome");
    recorder.emit("observation", turn, {
      toolCallId: id,
      tool: step.name,
      result: outcome.content,
      ok: outcome.ok,
      durationMs: outcome.durationMs,
      ...(outcome.error !== undefined && { error: outcome.error }),
    });
    const base = {
      step: number,
      round,
      tool: step.name,
      arguments: step.arguments,
      latencyMs: outcome.durationMs,
    };
    observations.push(
      outcome.ok
        ? { ...base, ok: true, result: outcome.content }
        : { ...base, ok: false, error: outcome.error ?? { type: "Error", message: outcome.content } },
    );
  }
  return { observations, taken, skipped: steps.length - taken };
}
