import { DEFAULT_RETRY_POLICY } from "../../http/retry-policy.js";
import type { Model } from "../../models/model.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import { DEFAULT_LIMIT_PROMPTS, resolveLimits } from "../agent-limits.js";
import type { AgentLoopConfig } from "../agent-loop.js";

/** An agent-loop config for tests: the task "go", default limits and prompts, no loop detection. */
export function loopConfig(args: {
  model: Model;
  tools: ToolRegistry;
  config?: Partial<AgentLoopConfig>;
}): AgentLoopConfig {
  return {
    model: args.model,
    tools: args.tools,
    messages: [{ role: "user", content: "go" }],
    task: "go",
    limits: resolveLimits({}),
    prompts: DEFAULT_LIMIT_PROMPTS,
    retry: DEFAULT_RETRY_POLICY,
    stream: false,
    parallelToolCalls: true,
    toolTimeoutMs: 1000,
    loopDetection: false,
    ...args.config,
  };
}
