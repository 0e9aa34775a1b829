import type { ToolMessage } from "../../../models/message.js";
import type { ScriptedModel } from "../../../testing/scripted-model.js";
import type { Tool, ToolContext } from "../../../tools/tool.js";
import type { McpToolSet } from "../mcp-tools.js";

/** The tool messages a ScriptedModel received in its call `callIndex`. */
export function toolMessages(model: ScriptedModel, callIndex: number): ToolMessage[] {
  const call = model.calls[callIndex];
  if (call === undefined) throw new Error(`no model call ${callIndex}`);
  return call.request.messages.filter((message): message is ToolMessage => message.role === "tool");
}

/** The tool named `name` of `set` (throws when there is none). */
export function findTool(set: McpToolSet, name: string): Tool {
  const found = set.tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

/** A ToolContext for calling `tool.execute` directly. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: "call_test", turn: 0 };
}

/** Awaits `value` and says how it ended (`error` undefined when it resolved) and after how many ms. */
export async function settle(value: unknown): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await value;
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}
