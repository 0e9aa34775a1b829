import type { ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { type ChunkSize, splitText } from "./split-text.js";

/**
 * The stream parts a real provider would send for `response`: its text as `text_delta` parts, its refusal
 * as `refusal_delta` parts, each tool call as `tool_call_start`, its raw arguments in `tool_call_delta`
 * fragments of `argumentsChunkSize` characters (none for empty arguments), `tool_call_end` with the parsed
 * call, and a final `finish`. Folding the parts with `StreamCollector` gives `response` back.
 */
export function responseToStreamParts({
  response,
  chunkSize,
  argumentsChunkSize,
}: {
  response: ModelResponse;
  chunkSize: ChunkSize;
  argumentsChunkSize: number;
}): ModelStreamPart[] {
  const parts: ModelStreamPart[] = [];
  for (const delta of splitText({ text: response.text, chunkSize }))
    parts.push({ type: "text_delta", delta });
  for (const delta of splitText({ text: response.refusal ?? "", chunkSize })) {
    parts.push({ type: "refusal_delta", delta });
  }
  for (const toolCall of response.toolCalls) {
    parts.push({ type: "tool_call_start", id: toolCall.id, name: toolCall.name });
    for (const delta of splitText({ text: toolCall.rawArguments, chunkSize: argumentsChunkSize })) {
      parts.push({ type: "tool_call_delta", id: toolCall.id, delta });
    }
    parts.push({ type: "tool_call_end", toolCall });
  }
  parts.push({
    type: "finish",
    usage: response.usage,
    finishReason: response.finishReason,
    ...(response.model !== undefined && { model: response.model }),
  });
  return parts;
}
