import type { ModelToolSpec, ToolChoice } from "../../models/model.js";
import type { OpenAIWireTool, OpenAIWireToolChoice } from "./openai-wire-types.js";

/**
 * Converted tool arrays, keyed by the identity of the request's `tools` array: an agent passes the same
 * array every turn, so it is converted once. Weak, so dropped arrays are collected.
 */
const toolCache = new WeakMap<readonly ModelToolSpec[], OpenAIWireTool[]>();

/**
 * Converts tools to `{type:"function", function:{name, description, parameters}}`, cached per array identity.
 * The cache assumes the array is not mutated after its first use (treat tool arrays as immutable).
 */
export function convertToOpenAITools(tools: readonly ModelToolSpec[]): OpenAIWireTool[] {
  const cached = toolCache.get(tools);
  if (cached !== undefined) return cached;
  const converted: OpenAIWireTool[] = tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  toolCache.set(tools, converted);
  return converted;
}

const toolJsonCache = new WeakMap<readonly ModelToolSpec[], string>();

/** The JSON text of {@link convertToOpenAITools}, serialised once per tools array. */
export function openAIToolsJson(tools: readonly ModelToolSpec[]): string {
  let json = toolJsonCache.get(tools);
  if (json === undefined) {
    json = JSON.stringify(convertToOpenAITools(tools));
    toolJsonCache.set(tools, json);
  }
  return json;
}

/** Converts a neutral {@link ToolChoice} to the wire `tool_choice`. */
export function convertToOpenAIToolChoice(choice: ToolChoice): OpenAIWireToolChoice {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}
