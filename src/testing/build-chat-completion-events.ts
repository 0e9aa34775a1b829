import type { MockChatAnswer } from "./mock-chat-answer.js";
import { splitText } from "./split-text.js";

/** How many pieces a tool call's arguments are split into (fewer when they are shorter). */
const ARGUMENT_FRAGMENTS = 3;

/**
 * The SSE events (`data: <json>\n\n` strings, one per write) of a streamed answer, in the order the real API
 * sends them: a role chunk; content (or refusal) deltas of `wordsPerEvent` words; per tool call a header
 * chunk (`index`, `id`, `type`, `function.name`, `arguments: ""`) and argument fragments; a chunk with
 * `finish_reason` and `delta: {}`; with `includeUsage` a usage chunk with `choices: []` (and `usage: null` on
 * every other chunk, as the API does now); then `data: [DONE]`. `contentEvents` counts the events before the
 * `finish_reason` chunk.
 */
export function buildChatCompletionEvents({
  answer,
  includeUsage,
  wordsPerEvent,
}: {
  answer: MockChatAnswer;
  includeUsage: boolean;
  wordsPerEvent: number;
}): { events: string[]; contentEvents: number } {
  const base = {
    id: answer.id,
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.model,
  };
  const usageNull = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    JSON.stringify({
      ...base,
      system_fingerprint: "fp_mock",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageNull,
    });

  const payloads: string[] = [chunk(roleDelta(answer))];
  for (const content of splitText({ text: answer.text, chunkSize: "word", wordsPerChunk: wordsPerEvent })) {
    payloads.push(chunk({ content }));
  }
  for (const refusal of splitText({
    text: answer.refusal ?? "",
    chunkSize: "word",
    wordsPerChunk: wordsPerEvent,
  })) {
    payloads.push(chunk({ refusal }));
  }
  answer.toolCalls.forEach((call, index) => {
    payloads.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    const fragmentSize = Math.max(1, Math.ceil(call.arguments.length / ARGUMENT_FRAGMENTS));
    for (const fragment of splitText({ text: call.arguments, chunkSize: fragmentSize })) {
      payloads.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  const contentEvents = payloads.length;
  payloads.push(chunk({}, answer.finishReason));
  if (includeUsage) {
    payloads.push(
      JSON.stringify({ ...base, system_fingerprint: "fp_mock", choices: [], usage: answer.usage }),
    );
  }
  payloads.push("[DONE]");
  return { events: payloads.map((payload) => `data: ${payload}\n\n`), contentEvents };
}

/** The first delta: role plus the empty start of whatever follows (text, refusal, or only tool calls). */
function roleDelta(answer: MockChatAnswer): Record<string, unknown> {
  if (answer.refusal !== undefined) return { role: "assistant", content: null, refusal: "" };
  if (answer.text !== "" || answer.toolCalls.length === 0)
    return { role: "assistant", content: "", refusal: null };
  return { role: "assistant", content: null };
}
