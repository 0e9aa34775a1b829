import { failOption, showValue } from "../util/check-option.js";
import { ToolRegistry } from "./tool-registry.js";

/** The `tools` option of an agent: undefined, an array of tools, or a {@link ToolRegistry}. */
export function checkToolsOption(tools: unknown): void {
  if (tools !== undefined && !Array.isArray(tools) && !(tools instanceof ToolRegistry)) {
    failOption("tools", `expected an array of tools or a ToolRegistry, got ${showValue(tools)}`);
  }
}
