import { readFileSync } from "node:fs";

/**
 * The recorded answers of OpenAI-compatible servers (DeepSeek, OpenRouter, xAI, Ollama):
 * `<repo>/test/fixtures/recorded/openai-compatible/` (this file is 4 levels deep).
 */
export const OPENAI_COMPATIBLE_FIXTURES = new URL(
  "../../../../test/fixtures/recorded/openai-compatible/",
  import.meta.url,
);

/** The recorded OpenAI Chat fixtures (for plain second-turn answers). */
const OPENAI_CHAT_FIXTURES = new URL("../../../../test/fixtures/recorded/openai-chat/", import.meta.url);

/** A compatible fixture's bytes. */
export function readCompatibleFixture(name: string): Buffer {
  return readFileSync(new URL(name, OPENAI_COMPATIBLE_FIXTURES));
}

/** An OpenAI Chat fixture's bytes. */
export function readChatFixture(name: string): Buffer {
  return readFileSync(new URL(name, OPENAI_CHAT_FIXTURES));
}

/** The `data:` payloads of a stream fixture, parsed, in order (`.sse` data lines, or `.chunks.txt` lines). */
export function compatibleChunks(name: string): Array<Record<string, unknown>> {
  const text = readCompatibleFixture(name).toString("utf8");
  const lines = text.split("\n");
  const payloads = name.endsWith(".sse")
    ? lines
        .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
        .map((line) => line.slice(6))
    : lines.filter((line) => line.trim() !== "");
  return payloads.map((payload) => JSON.parse(payload) as Record<string, unknown>);
}

/** SSE body of chunk payloads: `data: <json>\n\n` each, then `data: [DONE]\n\n`. */
export function sseOf(chunks: ReadonlyArray<Record<string, unknown> | string>): Buffer {
  const lines = chunks.map(
    (chunk) => `data: ${typeof chunk === "string" ? chunk : JSON.stringify(chunk)}\n\n`,
  );
  return Buffer.from(`${lines.join("")}data: [DONE]\n\n`);
}

/**
 * The response body of a stream fixture: `.sse` files as recorded; `.chunks.txt` lines (one payload each, as
 * recorded) wrapped as `data: <line>\n\n`, then `data: [DONE]\n\n`.
 */
export function compatibleStreamBody(name: string): Buffer {
  const bytes = readCompatibleFixture(name);
  if (name.endsWith(".sse")) return bytes;
  const lines = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return sseOf(lines);
}

type Delta = Record<string, unknown>;

/** The `delta` of choice 0 of each chunk that has one. */
function deltasOf(chunks: ReadonlyArray<Record<string, unknown>>): Delta[] {
  const deltas: Delta[] = [];
  for (const chunk of chunks) {
    const choices = chunk.choices as Array<{ delta?: Delta }> | undefined;
    const delta = choices?.[0]?.delta;
    if (delta !== undefined) deltas.push(delta);
  }
  return deltas;
}

/** The concatenated string values of `field` over every delta of a stream fixture (read off the recording). */
export function recordedDeltaText(name: string, field: string): string {
  let text = "";
  for (const delta of deltasOf(compatibleChunks(name))) {
    const value = delta[field];
    if (typeof value === "string") text += value;
  }
  return text;
}

/** The recorded tool call(s) of a stream fixture: id, name and the argument fragments joined. */
export function recordedToolCalls(name: string): Array<{ id: string; name: string; arguments: string }> {
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const delta of deltasOf(compatibleChunks(name))) {
    const fragments = delta.tool_calls as
      | Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>
      | undefined;
    for (const fragment of fragments ?? []) {
      const index = fragment.index ?? 0;
      let call = calls[index];
      if (call === undefined) {
        call = { id: "", name: "", arguments: "" };
        calls[index] = call;
      }
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name = fragment.function.name;
      call.arguments += fragment.function?.arguments ?? "";
    }
  }
  return calls;
}
