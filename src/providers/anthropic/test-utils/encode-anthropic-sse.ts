import type { AnthropicWireBlock, AnthropicWireResponse } from "../anthropic-wire-types.js";

/** Options of {@link encodeAnthropicSse}. */
export interface EncodeAnthropicSseOptions {
  /** The complete message to stream (the non-streaming response shape). */
  message: AnthropicWireResponse;
  /** Characters (code points) per text / thinking / input_json delta. Default 12. */
  chunkChars?: number;
  /** Stop after this many events and send an `error` event with this error instead of the rest. */
  errorAfterEvents?: { count: number; error: { type: string; message: string } };
}

function split(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(""));
  return pieces;
}

function blockEvents(block: AnthropicWireBlock, index: number, size: number): object[] {
  const delta = (d: object) => ({ type: "content_block_delta", index, delta: d });
  const start = (content_block: object) => ({ type: "content_block_start", index, content_block });
  const events: object[] = [];
  if (block.type === "text") {
    events.push(start({ type: "text", text: "" }));
    for (const text of split(String(block.text ?? ""), size))
      events.push(delta({ type: "text_delta", text }));
  } else if (block.type === "tool_use") {
    events.push(start({ ...block, input: {} }), delta({ type: "input_json_delta", partial_json: "" }));
    const json = JSON.stringify(block.input ?? {});
    if (json !== "{}") {
      for (const partial_json of split(json, size))
        events.push(delta({ type: "input_json_delta", partial_json }));
    }
  } else if (block.type === "thinking") {
    events.push(start({ type: "thinking", thinking: "", signature: "" }));
    for (const thinking of split(String(block.thinking ?? ""), size)) {
      events.push(delta({ type: "thinking_delta", thinking }));
    }
    events.push(delta({ type: "thinking_delta", thinking: "" }));
    events.push(delta({ type: "signature_delta", signature: block.signature }));
  } else {
    events.push(start(block));
  }
  events.push({ type: "content_block_stop", index });
  return events;
}

/**
 * Encodes a complete Messages response as the SSE stream the API would send for it (the event order of the
 * recorded fixtures: `message_start`, per block `content_block_start` / deltas / `content_block_stop`, a
 * `ping` after the first block starts, `message_delta` with the stop reason and the final usage,
 * `message_stop`). Test-only: it lets a scripted server stream any answer, and makes synthetic streams with
 * raw multi-byte UTF-8 from the non-streaming recordings.
 */
export function encodeAnthropicSse({
  message,
  chunkChars = 12,
  errorAfterEvents,
}: EncodeAnthropicSseOptions): string {
  const usage = message.usage ?? {};
  const events: object[] = [
    {
      type: "message_start",
      message: {
        id: message.id ?? "msg_test",
        type: "message",
        role: "assistant",
        model: message.model ?? "claude-test",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
  ];
  (message.content ?? []).forEach((block, index) => {
    const more = blockEvents(block, index, chunkChars);
    events.push(...(index === 0 ? [more[0] as object, { type: "ping" }, ...more.slice(1)] : more));
  });
  events.push(
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason ?? null, stop_sequence: message.stop_sequence ?? null },
      usage,
    },
    { type: "message_stop" },
  );
  const sent =
    errorAfterEvents === undefined
      ? events
      : [...events.slice(0, errorAfterEvents.count), { type: "error", error: errorAfterEvents.error }];
  return sent
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
}
