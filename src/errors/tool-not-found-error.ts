import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_TOOLNOTFOUNDERROR = errorMarker("ToolNotFoundError");

/**
 * The model called a tool that is not registered. The message (sent back to the model) names the tool it asked
 * for and every available tool, so it can correct itself.
 */
export class ToolNotFoundError extends AgentloopError {
  protected readonly [MARK_TOOLNOTFOUNDERROR] = true;
  /** The name the model asked for. */
  readonly toolName: string;
  /** The names of the registered tools, in registration order. */
  readonly availableTools: readonly string[];

  constructor({ toolName, availableTools }: { toolName: string; availableTools: readonly string[] }) {
    const available =
      availableTools.length === 0
        ? "No tools are available."
        : `Available tools: ${availableTools.map((name) => JSON.stringify(name)).join(", ")}.`;
    super({ message: `Unknown tool ${JSON.stringify(toolName)}. ${available}` });
    this.name = "ToolNotFoundError";
    this.toolName = toolName;
    this.availableTools = availableTools;
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return hasMarker(error, MARK_TOOLNOTFOUNDERROR);
  }
}
