import { StreamCollector } from "../../../models/collect-stream.js";
import type { ModelResponse } from "../../../models/model.js";
import type { ModelStreamPart } from "../../../models/model-stream-part.js";

/** Reads a whole part stream into an array. */
export async function readParts(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const result: ModelStreamPart[] = [];
  for await (const part of parts) result.push(part);
  return result;
}

/** Folds parts into a response with the library's {@link StreamCollector}. */
export function foldParts(parts: readonly ModelStreamPart[]): ModelResponse {
  const collector = new StreamCollector();
  for (const part of parts) collector.add(part);
  return collector.response();
}

/**
 * Checks the stream contract and returns a description of the first violation (undefined when none): exactly one
 * `finish`, last; every tool call is started once, its deltas come after its start and before its end, and the
 * deltas concatenate to the ended call's `rawArguments`; no `error` parts.
 */
export function streamContractViolation(parts: readonly ModelStreamPart[]): string | undefined {
  const finishes = parts.filter((part) => part.type === "finish").length;
  if (finishes !== 1) return `expected exactly one finish part, got ${finishes}`;
  if (parts[parts.length - 1]?.type !== "finish") return "finish is not the last part";
  const calls = new Map<string, { args: string; ended: boolean }>();
  for (const part of parts) {
    if (part.type === "error") return "unexpected error part";
    if (part.type === "tool_call_start") {
      if (calls.has(part.id)) return `tool call ${part.id} started twice`;
      calls.set(part.id, { args: "", ended: false });
    } else if (part.type === "tool_call_delta") {
      const call = calls.get(part.id);
      if (call === undefined || call.ended) return `delta for ${part.id} outside start..end`;
      call.args += part.delta;
    } else if (part.type === "tool_call_end") {
      const call = calls.get(part.toolCall.id);
      if (call === undefined || call.ended) return `end for ${part.toolCall.id} without a start`;
      if (call.args !== part.toolCall.rawArguments)
        return `deltas of ${part.toolCall.id} differ from rawArguments`;
      call.ended = true;
    }
  }
  for (const [id, call] of calls) if (!call.ended) return `tool call ${id} never ended`;
  return undefined;
}
