/**
 * `agentloop/agents`: agents that work together (docs/multi-agent.md). A sub-agent is `agent.asTool(...)` (a
 * method of every Agent); a handoff is `Agent({ handoffs: [other] })`, or {@link handoff} for a tool name or an
 * input filter ({@link withoutToolCalls}). What a paused run keeps of a turn that paused inside a sub-agent is
 * a {@link PausedTurn}; a sub-agent that stopped without an answer fails its call with a {@link SubAgentError}.
 */

export { SubAgentError } from "../errors/sub-agent-error.js";
export type { PausedSubRun, PausedTurn } from "../loop/policies/sub-agents.js";
export { type AgentToolOptions, MAX_AGENT_DEPTH } from "./agent-tool.js";
export {
  type Handoff,
  type HandoffOptions,
  type HandoffsOption,
  type HandoffTarget,
  handoff,
  isHandoff,
  withoutToolCalls,
} from "./handoff.js";
