import { readdirSync, readFileSync } from "node:fs";
import type { AnthropicWireResponse } from "../anthropic-wire-types.js";

/** The recorded fixtures: `<repo>/test/fixtures/recorded/anthropic-messages/` (this file is 4 levels deep). */
export const ANTHROPIC_FIXTURES = new URL(
  "../../../../test/fixtures/recorded/anthropic-messages/",
  import.meta.url,
);

/** Every fixture file name, sorted. */
export function listFixtures(): string[] {
  return readdirSync(ANTHROPIC_FIXTURES).sort();
}

/** A fixture's bytes. */
export function readFixture(name: string): Buffer {
  return readFileSync(new URL(name, ANTHROPIC_FIXTURES));
}

/**
 * The SSE response body of a streamed fixture: `.sse` files as recorded; `.chunks.txt` files (one JSON
 * payload per line) wrapped as `event: <type>\ndata: <line>\n\n`.
 */
export function streamBody(name: string): Buffer {
  const bytes = readFixture(name);
  if (name.endsWith(".sse")) return bytes;
  if (!name.endsWith(".chunks.txt")) throw new Error(`not a stream fixture: ${name}`);
  const lines = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const events = lines.map((line) => {
    const type = (JSON.parse(line) as { type: string }).type;
    return `event: ${type}\ndata: ${line}\n\n`;
  });
  return Buffer.from(events.join(""));
}

/** The nock fixture's file name. */
export const NOCK_FIXTURE = "nonstream-parallel-tool-use.nock.json";

/** One recorded request/response pair of the nock fixture. */
export interface NockEntry {
  method: string;
  path: string;
  status: number;
  /** The recorded request body. */
  body: {
    model: string;
    max_tokens?: number;
    messages: { role: string; content: unknown }[];
    tools?: { name: string; description: string; input_schema: unknown }[];
  };
  /** The parsed response body. */
  response: AnthropicWireResponse;
}

/** The entries of the nock fixture, in order. */
export function readNockEntries(): NockEntry[] {
  return JSON.parse(readFixture(NOCK_FIXTURE).toString("utf8")) as NockEntry[];
}
