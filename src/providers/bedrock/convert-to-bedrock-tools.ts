import type { ModelToolSpec, ToolChoice } from "../../models/model.js";
import type { BedrockWireTool, BedrockWireToolChoice } from "./bedrock-wire-types.js";

/**
 * Converted tool arrays, keyed by the identity of the request's `tools` array: an agent passes the same array
 * every turn, so it is converted once. Weak, so dropped arrays are collected.
 */
const toolCache = new WeakMap<readonly ModelToolSpec[], BedrockWireTool[]>();

/**
 * Converts tools to `{toolSpec: {name, description, inputSchema: {json}}}` (an empty description is left
 * out: Converse wants at least one character), cached per array identity (treat tool arrays as immutable).
 */
export function convertToBedrockTools(tools: readonly ModelToolSpec[]): BedrockWireTool[] {
  const cached = toolCache.get(tools);
  if (cached !== undefined) return cached;
  const converted = tools.map((tool) => ({
    toolSpec: {
      name: tool.name,
      ...(tool.description !== "" && { description: tool.description }),
      inputSchema: { json: tool.parameters },
    },
  }));
  toolCache.set(tools, converted);
  return converted;
}

/**
 * Converts a neutral {@link ToolChoice} to `toolConfig.toolChoice`: `auto` → `{auto:{}}`, `required` →
 * `{any:{}}`, `{type:"tool",name}` → `{tool:{name}}`. Undefined for an unset choice (the API's default is
 * auto) and for `none`, which Converse cannot express (see `buildBedrockBody`).
 */
export function convertToBedrockToolChoice(
  choice: ToolChoice | undefined,
): BedrockWireToolChoice | undefined {
  if (choice === undefined || choice === "none") return undefined;
  if (choice === "auto") return { auto: {} };
  if (choice === "required") return { any: {} };
  return { tool: { name: choice.name } };
}
