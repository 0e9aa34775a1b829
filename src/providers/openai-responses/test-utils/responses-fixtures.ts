import { readdirSync, readFileSync } from "node:fs";
import type { OpenAIResponsesWireItem, OpenAIResponsesWireResponse } from "../openai-responses-wire-types.js";

/** The recorded Responses fixtures: `<repo>/test/fixtures/recorded/openai-responses/` (this file is 4 levels deep). */
export const OPENAI_RESPONSES_FIXTURES = new URL(
  "../../../../test/fixtures/recorded/openai-responses/",
  import.meta.url,
);

/** The fixture holding four streamed responses back to back. */
export const MULTISTEP = "stream-reasoning-summary-multistep.chunks.txt";

/** Every fixture file name, sorted. */
export function listResponsesFixtures(): string[] {
  return readdirSync(OPENAI_RESPONSES_FIXTURES).sort();
}

/** A fixture's bytes. */
export function readResponsesFixture(name: string): Buffer {
  return readFileSync(new URL(name, OPENAI_RESPONSES_FIXTURES));
}

/** The JSON payloads of a stream fixture's events, in order (`.sse` data lines, or `.chunks.txt` lines). */
export function fixtureEvents(name: string): Array<Record<string, unknown>> {
  const text = readResponsesFixture(name).toString("utf8");
  const lines = text.split("\n");
  const payloads = name.endsWith(".sse")
    ? lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6))
    : lines.filter((line) => line.trim() !== "");
  return payloads.map((payload) => JSON.parse(payload) as Record<string, unknown>);
}

/**
 * The SSE body of a stream fixture: `.sse` files as recorded; `.chunks.txt` lines wrapped as `data: <line>\n\n`
 * only — no `event:` line and no `[DONE]` — so the reader is shown to dispatch on the payload's `type`.
 */
export function responsesStreamBody(name: string): Buffer {
  const bytes = readResponsesFixture(name);
  if (name.endsWith(".sse")) return bytes;
  if (!name.endsWith(".chunks.txt")) throw new Error(`not a stream fixture: ${name}`);
  return Buffer.from(chunkLines(bytes).join(""));
}

function chunkLines(bytes: Buffer): string[] {
  return bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `data: ${line}\n\n`);
}

/** The multistep fixture split at each `response.created` into one SSE body per response (four). */
export function multistepBodies(): Buffer[] {
  const bodies: string[][] = [];
  for (const line of chunkLines(readResponsesFixture(MULTISTEP))) {
    if (line.startsWith('data: {"type":"response.created"') || bodies.length === 0) bodies.push([]);
    bodies[bodies.length - 1]?.push(line);
  }
  return bodies.map((lines) => Buffer.from(lines.join("")));
}

/** The `response` of a stream fixture's final `response.completed` event (the `n`-th one, 0-based). */
export function completedResponse(name: string, n = 0): OpenAIResponsesWireResponse {
  const completed = fixtureEvents(name).filter((event) => event.type === "response.completed");
  const event = completed[n];
  if (event === undefined) throw new Error(`${name} has no response.completed #${n}`);
  return event.response as OpenAIResponsesWireResponse;
}

/** The reasoning item of a given event type (`response.output_item.added`/`.done`) in a stream fixture. */
export function reasoningItemOf(name: string, type: string): OpenAIResponsesWireItem {
  const event = fixtureEvents(name).find(
    (candidate) =>
      candidate.type === type &&
      (candidate.item as OpenAIResponsesWireItem | undefined)?.type === "reasoning",
  );
  if (event === undefined) throw new Error(`${name} has no ${type} reasoning item`);
  return event.item as OpenAIResponsesWireItem;
}
