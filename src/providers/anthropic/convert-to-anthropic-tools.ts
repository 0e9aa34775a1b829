import type { ModelToolSpec, ToolChoice } from "../../models/model.js";
import type { AnthropicWireTool, AnthropicWireToolChoice } from "./anthropic-wire-types.js";

/**
 * Converted tool arrays, keyed by the identity of the request's `tools` array: an agent passes the same array
 * every turn, so it is converted once. Weak, so dropped arrays are collected.
 */
const toolCache = new WeakMap<readonly ModelToolSpec[], AnthropicWireTool[]>();

/**
 * Converts tools to `{name, description, input_schema}`, cached per array identity. The cache assumes the
 * array is not mutated after its first use (treat tool arrays as immutable).
 */
export function convertToAnthropicTools(tools: readonly ModelToolSpec[]): AnthropicWireTool[] {
  const cached = toolCache.get(tools);
  if (cached !== undefined) return cached;
  const converted = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters,
  }));
  toolCache.set(tools, converted);
  return converted;
}

/** Options of {@link convertToAnthropicToolChoice}. */
export interface ConvertToolChoiceOptions {
  /** The neutral choice; undefined means "auto". */
  choice: ToolChoice | undefined;
  /** `false` adds `disable_parallel_tool_use: true` (not for `none`, which has no such field). */
  parallelToolCalls: boolean | undefined;
}

/**
 * Converts a neutral {@link ToolChoice} to the wire `tool_choice`: `auto` → `{type:"auto"}`, `required` →
 * `{type:"any"}`, `none` → `{type:"none"}`, `{type:"tool",name}` → `{type:"tool",name}`. With
 * `parallelToolCalls: false` the flag `disable_parallel_tool_use: true` is set inside it (then an unset
 * choice becomes `{type:"auto", disable_parallel_tool_use:true}`). Undefined when there is nothing to send.
 */
export function convertToAnthropicToolChoice({
  choice,
  parallelToolCalls,
}: ConvertToolChoiceOptions): AnthropicWireToolChoice | undefined {
  if (choice === "none") return { type: "none" };
  const disable = parallelToolCalls === false;
  if (choice === undefined && !disable) return undefined;
  const wire: AnthropicWireToolChoice =
    choice === "required"
      ? { type: "any" }
      : typeof choice === "object"
        ? { type: "tool", name: choice.name }
        : { type: "auto" };
  if (disable) wire.disable_parallel_tool_use = true;
  return wire;
}
