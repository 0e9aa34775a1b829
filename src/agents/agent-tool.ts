import type { RunJournal } from "../durable/run-journal.js";
import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { SubAgentError } from "../errors/sub-agent-error.js";
import type { AgentLoopOutcome } from "../loop/agent-loop.js";
import { type CallerRun, SubRunPaused } from "../loop/policies/sub-agents.js";
import type { JsonSchema } from "../models/model.js";
import { emptyUsage } from "../models/usage.js";
import { CALLER_RUN, SUB_AGENT_TOOL } from "../tools/caller-run-key.js";
import type { StandardSchemaV1 } from "../tools/standard-schema.js";
import { type Tool, type ToolContext, tool } from "../tools/tool.js";
import { RUN_SUB_AGENT, type SubAgent } from "./sub-agent-run.js";

/** Options of `agent.asTool`. */
export interface AgentToolOptions {
  /** The tool's name, as the calling model sees it (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  /** What the sub-agent does and when to call it, for the calling model. */
  description: string;
  /**
   * The tool's arguments (a zod schema or JSON Schema of an object). Default `{ input: string }`: the task,
   * given to the sub-agent as is. With a schema, the sub-agent's task is the arguments as JSON.
   */
  input?: StandardSchemaV1 | JsonSchema;
}

/** How deep sub-agents may nest (a path of this many agents at most): an agent calling itself ends here. */
export const MAX_AGENT_DEPTH = 8;

const DEFAULT_INPUT: JsonSchema = {
  type: "object",
  properties: { input: { type: "string", description: "The task, with everything needed to do it" } },
  required: ["input"],
  additionalProperties: false,
};

/**
 * A tool that runs `agent` as a sub-agent (`agent.asTool(options)`): its events flow into the caller's stream
 * tagged with its path, its usage and cost add to the caller's, the caller's signal, timeout, cost cap and
 * shared budget bound it, a gated call inside it pauses the caller's whole run (resumed with the caller), and
 * in a durable run it runs durably in the same log. Its answer (typed output as JSON, else text) is the result;
 * a sub-run stopped without one fails the call with a {@link SubAgentError}. See docs/multi-agent.md.
 */
export function agentTool(options: AgentToolOptions & { agent: SubAgent }): Tool {
  const { agent, name, description } = options;
  const created = tool({
    name,
    description,
    parameters: (options.input ?? DEFAULT_INPUT) as JsonSchema,
    // The caller's own timeout and signal bound the sub-run; the per-call default (30 s) would cut it short.
    timeoutMs: Number.POSITIVE_INFINITY,
    // Running it again replays the sub-run's own log (durable callers): it is safe to repeat.
    idempotent: true,
    execute: (args: Record<string, unknown>, ctx: ToolContext) =>
      runSubAgent({ agent, name, args, ctx, custom: options.input !== undefined }),
  });
  return Object.freeze({ ...created, [SUB_AGENT_TOOL]: true });
}

/** One call of a sub-agent tool: the sub-run, its events forwarded, its outcome turned into the call's result. */
async function runSubAgent(args: {
  agent: SubAgent;
  name: string;
  args: Record<string, unknown>;
  ctx: ToolContext;
  custom: boolean;
}): Promise<unknown> {
  const { agent, ctx } = args;
  const caller = ctx[CALLER_RUN] as CallerRun | undefined;
  const own = agent.options.name ?? args.name;
  const path = caller === undefined ? own : `${caller.path}/${own}`;
  if (path.split("/").length > MAX_AGENT_DEPTH) {
    throw new InvalidArgumentError({
      argument: "tools",
      message: `sub-agents nest deeper than ${MAX_AGENT_DEPTH} agents (${path})`,
    });
  }
  const input = args.custom ? JSON.stringify(args.args) : String(args.args.input ?? "");
  const budget = caller?.budget();
  const durable =
    caller?.durable === undefined
      ? undefined
      : {
          runId: `${caller.durable.runId}/${caller.turn}/${ctx.toolCallId}`,
          journal: caller.durable.journal as RunJournal,
        };
  const events = agent[RUN_SUB_AGENT]({
    input,
    signal: ctx.signal,
    stream: caller?.stream ?? false,
    path,
    budget,
    decisions: caller?.decisions,
    paused: caller?.pausedRun(ctx.toolCallId),
    durable,
  });
  let outcome: AgentLoopOutcome | undefined;
  try {
    while (true) {
      const next = await events.next();
      if (next.done === true) {
        outcome = next.value as AgentLoopOutcome;
        break;
      }
      const event = next.value;
      event.agent ??= path;
      caller?.emit(event);
    }
  } finally {
    const spent = outcome ?? { usage: emptyUsage(), costUsd: budget?.spentUsd ?? 0, costUnknownModels: [] };
    caller?.charge({ ...spent, toolCallId: ctx.toolCallId, budget });
  }
  return answerOf({ outcome, path, ctx, caller });
}

/** The call's result from the sub-run's outcome (or a pause, an abort, a failure). */
function answerOf(args: {
  outcome: AgentLoopOutcome;
  path: string;
  ctx: ToolContext;
  caller: CallerRun | undefined;
}): unknown {
  const { outcome, path, ctx, caller } = args;
  const { stopReason } = outcome;
  if (stopReason === "awaiting_approval" && caller !== undefined) {
    const pending = (outcome.pendingApprovals ?? []).map((call) => ({ ...call, agent: call.agent ?? path }));
    const run = {
      messages: outcome.messages,
      ...(outcome.pausedTurn !== undefined && { pausedTurn: outcome.pausedTurn }),
    };
    caller.pause({ toolCallId: ctx.toolCallId, pending, run });
    throw new SubRunPaused(path);
  }
  if (stopReason === "aborted") throw ctx.signal.reason ?? new AbortError();
  if (outcome.output !== undefined) return outcome.output;
  if (stopReason === "completed" || stopReason === "stop_condition") return outcome.text;
  throw new SubAgentError({ agent: path, stopReason, text: outcome.text, cause: outcome.error });
}
