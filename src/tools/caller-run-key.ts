/**
 * The key under which a tool's context carries what the run calling the tool offers a sub-agent tool
 * (`agent.asTool`: the caller's event stream, budget, approvals). Internal: user tools never need it.
 */
export const CALLER_RUN: unique symbol = Symbol("agentloop.callerRun");

/** Marks a tool that runs a sub-agent (`agent.asTool`): a run whose tools include one gives its calls a caller. */
export const SUB_AGENT_TOOL: unique symbol = Symbol("agentloop.subAgentTool");

/** True when `tool` runs a sub-agent (it carries {@link SUB_AGENT_TOOL}). */
export function isSubAgentTool(tool: object): boolean {
  return SUB_AGENT_TOOL in tool;
}
